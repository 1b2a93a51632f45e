/*
 * Guest test (TAP): whom the OOM killer chooses, and process_mrelease.
 * /proc/<pid>/oom_score grows with a process's memory and its
 * oom_score_adj (0 at -1000 and for PID 1); oom_score_adj reads back
 * what was written, refuses values outside -1000..1000 (EINVAL) and,
 * without CAP_SYS_RESOURCE, values below the floor a privileged writer
 * set (EACCES); fork inherits it; the legacy oom_adj is the same value on
 * the -17..15 scale.  With no swap, three children fill the memory: a big
 * one at oom_score_adj -500, a smaller one at +300, and one at -1000 that
 * asks for more than is left — the +300 one is killed (SIGKILL), the
 * others finish, and /proc/vmstat's oom_kill counts it.  On foliOS, when
 * nothing else is killable, the faulting process itself is killed.
 * process_mrelease: EINVAL for flags or a process that is not dying,
 * EBADF for an fd that is no pidfd, ESRCH for a zombie; on a child just
 * SIGKILLed it returns 0 — on foliOS once the child's memory is back
 * (MemFree rose while the child is still unreaped; Linux promises less).
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts; --mem
 * 256M, no swap, for the OOM kill).
 */
#define _GNU_SOURCE
#include "thp_util.h"
#include <errno.h>
#include <signal.h>
#include <time.h>
#include <sys/utsname.h>
#include <sys/syscall.h>

#ifndef SYS_process_mrelease
#define SYS_process_mrelease 448
#endif
#define CAP_SYS_RESOURCE 24

static int pidfd_open(pid_t pid)
{
	return syscall(SYS_pidfd_open, pid, 0);
}

static int process_mrelease(int pidfd, unsigned int flags)
{
	return syscall(SYS_process_mrelease, pidfd, flags);
}

/* /proc/<pid>/<name> (pid 0: self) as a number; -99999 if unreadable. */
static long proc_long(pid_t pid, const char *name)
{
	char path[64], buf[32];

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	else
		snprintf(path, sizeof(path), "/proc/self/%s", name);
	return read_text(path, buf, sizeof(buf)) ? -99999 : strtol(buf, NULL, 10);
}

/* Write s to /proc/self/<name>: 0 or the errno. */
static int proc_write(const char *name, const char *s)
{
	char path[64];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/proc/self/%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		err = errno;
	close(fd);
	return err;
}

static int set_adj(int adj)
{
	char s[16];

	snprintf(s, sizeof(s), "%d\n", adj);
	return proc_write("oom_score_adj", s);
}

/* /proc/vmstat's oom_kill, or -1. */
static long vmstat_oom_kill(void)
{
	char buf[8192], *p;

	if (read_text("/proc/vmstat", buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "\noom_kill ");
	return p ? strtol(p + 10, NULL, 10) : -1;
}

/* Touch len bytes of new anonymous memory (small pages if !thp); 0, or -1 if mmap failed. */
static int touch(size_t len, int thp)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	if (!thp)
		madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	return 0;
}

/*
 * A child at oom_score_adj adj holding kb kB of touched memory: it says
 * so on a pipe, then waits to be killed.  Its pid once it holds them, or
 * -1 if it could not.
 */
static pid_t holder(long kb, int adj, int thp)
{
	int ready[2];
	pid_t pid;
	char c = 0;

	xpipe(ready, 0);
	pid = xfork();
	if (!pid) {
		close(ready[0]);
		if (set_adj(adj) || touch((size_t)kb << 10, thp))
			_exit(3);
		write(ready[1], &c, 1);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(ready[0]);
	return pid;
}

/* SIGKILL pid and reap it. */
static void end(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

static int on_folios(void);

static void check_scores(void)
{
	long free_kb = meminfo_kb("MemFree");
	long kb = free_kb / 16 < 32768 ? free_kb / 16 : 32768;
	pid_t small = holder(kb / 4, 0, 1), big = holder(kb, 0, 1), top = holder(kb / 4, 1000, 1);
	pid_t never = holder(kb, -1000, 1);
	long s_small = proc_long(small, "oom_score"), s_big = proc_long(big, "oom_score");
	long s_top = proc_long(top, "oom_score"), s_never = proc_long(never, "oom_score");
	long s_self = proc_long(0, "oom_score");

	printf("# oom_score: %ld kB -> %ld, %ld kB -> %ld, adj 1000 -> %ld, adj -1000 -> %ld, self %ld\n",
	       kb / 4, s_small, kb, s_big, s_top, s_never, s_self);
	ok(small > 0 && big > 0 && s_big > s_small, "oom_score grows with memory (%ld > %ld)", s_big, s_small);
	ok(s_top >= 1320 && s_top <= 2000, "oom_score_adj 1000: oom_score %ld, in 1320..2000", s_top);
	ok(never > 0 && s_never == 0, "oom_score_adj -1000: oom_score 0 (%ld)", s_never);
	ok(s_self >= 666 && s_self < 1000, "oom_score of a small process at 0: %ld, in 666..999", s_self);
	ok(proc_long(1, "oom_score") == 0, "PID 1's oom_score is 0");
	end(small);
	end(big);
	end(top);
	end(never);
}

/* Drop CAP_SYS_RESOURCE from the effective set; 0 or -1. */
static int drop_sys_resource(void)
{
	struct { unsigned int version; int pid; } h = { 0x20080522, 0 };
	struct { unsigned int effective, permitted, inheritable; } d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[0].effective &= ~(1U << CAP_SYS_RESOURCE);
	return syscall(SYS_capset, &h, d);
}

/* The knob, in a child (it changes the caller's own value): 0 if all held, else the failed step. */
static int knob_child(void)
{
	int status;
	pid_t pid;

	if (set_adj(500) || proc_long(0, "oom_score_adj") != 500)
		return 1;
	pid = fork();
	if (!pid)
		_exit(proc_long(0, "oom_score_adj") == 500 ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
		return 2;
	if (set_adj(1001) != EINVAL || set_adj(-1001) != EINVAL ||
	    proc_write("oom_score_adj", "abc") != EINVAL || proc_long(0, "oom_score_adj") != 500)
		return 3;
	if (proc_write("oom_score_adj", " -12\n") || proc_long(0, "oom_score_adj") != -12)
		return 4;
	/* the legacy scale: 15 is 1000, -17 is -1000, n is n * 1000 / 17 */
	if (set_adj(1000) || proc_long(0, "oom_adj") != 15 || proc_write("oom_adj", "8") ||
	    proc_long(0, "oom_score_adj") != 470 || proc_long(0, "oom_adj") != 7 ||
	    proc_write("oom_adj", "16") != EINVAL || proc_write("oom_adj", "-17") ||
	    proc_long(0, "oom_score_adj") != -1000 || proc_long(0, "oom_adj") != -17)
		return 5;
	/* a privileged write sets the floor (100); without CAP_SYS_RESOURCE nothing goes below it */
	if (set_adj(100) || drop_sys_resource())
		return 6;
	if (set_adj(50) != EACCES || proc_long(0, "oom_score_adj") != 100)
		return 7;
	if (set_adj(300) || set_adj(200) || set_adj(100) || proc_long(0, "oom_score_adj") != 100)
		return 8;
	if (proc_write("oom_adj", "-16") != EACCES)
		return 9;       /* legacy: below the current value */
	return 0;
}

static void check_knob(void)
{
	int st = exit_status_of(knob_child);

	ok(st == 0, "oom_score_adj: read back, fork inherits, EINVAL out of range, legacy oom_adj "
	   "scale, EACCES below the floor without CAP_SYS_RESOURCE (failed step %d)", st);
}

/* pid's wait status as a shell shows it, waiting at most 120 s; -1 on timeout (pid killed). */
static int wait_bounded(pid_t pid)
{
	const struct timespec tick = { 0, 20000000 };
	int status;

	for (int i = 0; i < 6000; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (r < 0)
			return -1;
		nanosleep(&tick, NULL);
	}
	end(pid);
	return -1;
}

/*
 * The kill: no swap, so nothing but a kill gives memory back.  big holds
 * 30% of what is free at -500, mid 20% at +300; last, at -1000, asks for
 * 60% more.  mid's badness (its pages + 300/1000 of RAM) is the highest;
 * big's is below zero, last may not be chosen, and once mid's 20% are
 * back last fits.  This process goes to -1000 too so that only the
 * children compete (and its runner, smaller than mid).
 */
static void check_kill(void)
{
	long free_kb, kills;
	pid_t big, mid, last;
	int st_mid, st_last, big_alive;

	if (meminfo_kb("SwapTotal") != 0 || meminfo_kb("MemTotal") > 1536 * 1024) {
		skip("the OOM kill only without swap and with at most 1.5 GiB");
		skip("the OOM kill: oom_score_adj -1000 survives");
		skip("the OOM kill: counted in /proc/vmstat");
		return;
	}
	set_adj(-1000);
	split_deferred();
	free_kb = meminfo_kb("MemFree");
	kills = vmstat_oom_kill();
	big = holder(free_kb * 3 / 10, -500, 1);
	mid = holder(free_kb * 2 / 10, 300, 1);
	last = xfork();
	if (!last)
		_exit(set_adj(-1000) || touch((size_t)(free_kb * 6 / 10) << 10, 1) ? 3 : 0);
	st_last = wait_bounded(last);
	st_mid = mid > 0 ? wait_bounded(mid) : -1;
	big_alive = big > 0 && kill(big, 0) == 0 && waitpid(big, NULL, WNOHANG) == 0;
	end(big);
	set_adj(0);
	printf("# the OOM kill: %ld kB free; the +300 child ended with %d, the -1000 one with %d; "
	       "oom_kill %ld -> %ld\n", free_kb, st_mid, st_last, kills, vmstat_oom_kill());
	ok(st_mid == 128 + SIGKILL && big_alive,
	   "the OOM killer chose the +300 child, not the bigger one at -500 (status %d, big %s)",
	   st_mid, big_alive ? "alive" : "gone");
	ok(st_last == 0, "the OOM kill: oom_score_adj -1000 survives, its memory all touched (status %d)",
	   st_last);
	ok(vmstat_oom_kill() > kills, "the OOM kill: counted in /proc/vmstat oom_kill (%ld -> %ld)",
	   kills, vmstat_oom_kill());
}

/* Write adj to /proc/<pid>/oom_score_adj: 0 or -1. */
static int set_adj_of(pid_t pid, int adj)
{
	char path[64], s[16];

	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", pid);
	snprintf(s, sizeof(s), "%d\n", adj);
	return write_text(path, s);
}

/*
 * Nothing killable: this process and its parent (the runner) at -1000,
 * PID 1 never a victim, and a child at -1000 touching twice the RAM.  The
 * child that faults is killed itself (SIGKILL), the machine goes on.
 * foliOS's promise only: Linux panics there ("System is deadlocked on
 * memory"), so this runs only on foliOS, without swap.
 */
static void check_nothing_killable(void)
{
	pid_t parent = getppid(), hog;
	int st;

	if (!on_folios() || meminfo_kb("SwapTotal") != 0 || parent == 1) {
		skip("nothing killable: foliOS only (Linux panics), without swap, under a runner");
		return;
	}
	set_adj(-1000);
	set_adj_of(parent, -1000);
	hog = xfork();
	if (!hog) {
		size_t len = (size_t)meminfo_kb("MemTotal") * 2048;
		char *p = map_beyond_ram(len);

		for (size_t off = 0; p && off < len; off += PAGE)
			p[off] = 1;
		_exit(3);
	}
	st = wait_bounded(hog);
	set_adj_of(parent, 0);
	set_adj(0);
	ok(st == 128 + SIGKILL, "nothing killable: the faulting process itself is killed (status %d)", st);
}

static void check_mrelease_errors(void)
{
	pid_t pid = holder(64, 0, 1);
	int pidfd = pidfd_open(pid), null = open("/dev/null", O_RDONLY);
	siginfo_t si;

	errno = 0;
	ok(process_mrelease(pidfd, 1) == -1 && errno == EINVAL, "process_mrelease: flags: EINVAL");
	errno = 0;
	ok(process_mrelease(pidfd, 0) == -1 && errno == EINVAL,
	   "process_mrelease of a live process: EINVAL");
	errno = 0;
	ok(process_mrelease(null, 0) == -1 && errno == EBADF, "process_mrelease of no pidfd: EBADF");
	errno = 0;
	ok(process_mrelease(-1, 0) == -1 && errno == EBADF, "process_mrelease of fd -1: EBADF");
	kill(pid, SIGKILL);
	waitid(P_PID, pid, &si, WEXITED | WNOWAIT);
	errno = 0;
	ok(process_mrelease(pidfd, 0) == -1 && errno == ESRCH, "process_mrelease of a zombie: ESRCH");
	waitpid(pid, NULL, 0);
	close(pidfd);
	close(null);
}

/* Is this foliOS (uname's release says so)? */
static int on_folios(void)
{
	struct utsname u;

	return !uname(&u) && strstr(u.release, "foliOS");
}

/*
 * A child holding kb (small pages) is SIGKILLed and its memory released
 * at once: process_mrelease returns 0, the child still to be reaped.
 * ESRCH if the child's exit got there first (it left its mm): tried
 * again with more memory, as Linux's mrelease_test does.  What a 0
 * promises differs: on foliOS the release and the child's exit_mmap take
 * the mmap_lock in turn, each freeing what it unmapped before letting go,
 * so MemFree is up by the child's memory when the call returns.  On Linux
 * 6.1 the two unmap side by side under the lock held for read and the
 * exit's share is freed at the end of its own unmap, and freed pages wait
 * in per-CPU lists MemFree does not count: the rise is only shown (seen:
 * from none, when the exit ran first, to 90%).
 */
static void check_mrelease(void)
{
	long kb = meminfo_kb("MemFree") / 4 < 65536 ? meminfo_kb("MemFree") / 4 : 65536;
	long before = 0, after = 0;
	int ret = -1, err = 0, tries = 0, st = 0;

	for (; tries < 3; tries++) {
		pid_t pid = holder(kb, 0, 0);
		int pidfd = pidfd_open(pid);

		split_deferred();
		before = meminfo_kb("MemFree");
		kill(pid, SIGKILL);
		ret = process_mrelease(pidfd, 0);
		err = ret ? errno : 0;
		after = meminfo_kb("MemFree");
		st = wait_exit(pid);
		close(pidfd);
		if (!ret || err != ESRCH)
			break;
		kb = kb * 3 / 2;
	}
	printf("# process_mrelease: %ld kB child, %d tries; MemFree %ld -> %ld kB before it was reaped\n",
	       kb, tries + 1, before, after);
	ok(ret == 0, "process_mrelease of a SIGKILLed child: 0 (errno %d)", err);
	if (on_folios())
		ok(ret == 0 && after - before >= kb * 3 / 4,
		   "its memory is back when the call returns (MemFree +%ld kB of %ld)", after - before, kb);
	else
		skip("MemFree's rise at the return is foliOS's promise, not Linux's");
	ok(st == 128 + SIGKILL, "the child still dies of SIGKILL (status %d)", st);
}

int main(void)
{
	mount_proc_sys();
	check_scores();
	check_knob();
	check_mrelease_errors();
	check_mrelease();
	check_kill();
	check_nothing_killable();
	return tap_done();
}
