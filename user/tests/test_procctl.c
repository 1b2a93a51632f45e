/*
 * Guest test (TAP): process controls as Linux's root has them.
 * pidfd_send_signal (a signal through a pidfd, its own siginfo, EINVAL,
 * EBADF, ESRCH once reaped), sigqueue (the value arrives; posing as
 * kill() to another process is EPERM); prctl: a child subreaper gets its
 * orphans (a zombie too) and a parent-death signal kills a grandchild,
 * no_new_privs (sticky, inherited), dumpable, THP disabled (no THP, fork
 * keeps it), the bounding set; capget/capset: root's full sets, dropping
 * CAP_SYS_TIME/CAP_MKNOD/CAP_CHOWN/CAP_SYS_BOOT makes those calls EPERM,
 * a permitted bit once dropped stays dropped, exec gives root back its
 * bounding set; /proc/mounts lists a tmpfs mounted with options, and
 * not once unmounted; a noexec mount refuses execve (EACCES), PROT_EXEC
 * mappings (EPERM) and mprotect to PROT_EXEC (EACCES), until remounted
 * without it.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts).
 */
#define _GNU_SOURCE
#include "tap.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>

/* capget/capset's ABI (linux/capability.h, which musl does not ship). */
#define _LINUX_CAPABILITY_VERSION_3 0x20080522
struct __user_cap_header_struct {
	unsigned int version;
	int pid;
};
struct __user_cap_data_struct {
	unsigned int effective, permitted, inheritable;
};

static volatile int got_sig, got_value, got_code;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_value = si->si_value.sival_int;
}

static void check_pidfd_send_signal(void)
{
	int status, pidfd;
	siginfo_t info = { .si_signo = SIGTERM, .si_code = SI_QUEUE };
	pid_t pid = xfork();

	if (!pid) {
		pause();
		_exit(0);
	}
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	errno = 0;
	ok(syscall(SYS_pidfd_send_signal, pidfd, SIGTERM, NULL, 1) == -1 && errno == EINVAL,
	   "pidfd_send_signal with a flag: EINVAL");
	info.si_signo = SIGUSR2;
	errno = 0;
	ok(syscall(SYS_pidfd_send_signal, pidfd, SIGTERM, &info, 0) == -1 && errno == EINVAL,
	   "a siginfo of another signal: EINVAL");
	errno = 0;
	ok(syscall(SYS_pidfd_send_signal, 1, SIGTERM, NULL, 0) == -1 && errno == EBADF,
	   "an fd that is no pidfd: EBADF");
	ok(syscall(SYS_pidfd_send_signal, pidfd, SIGTERM, NULL, 0) == 0,
	   "pidfd_send_signal(SIGTERM) to a child");
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "which dies of it");
	errno = 0;
	ok(syscall(SYS_pidfd_send_signal, pidfd, SIGTERM, NULL, 0) == -1 && errno == ESRCH,
	   "once reaped: ESRCH");
	close(pidfd);
}

static void check_sigqueue(void)
{
	struct sigaction sa = { .sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO };
	siginfo_t info = { .si_signo = SIGUSR1, .si_code = SI_USER };
	union sigval v = { .sival_int = 42 };
	pid_t other = xfork();

	if (!other) {
		pause();
		_exit(0);
	}
	sigaction(SIGUSR1, &sa, NULL);
	ok(sigqueue(getpid(), SIGUSR1, v) == 0 && got_sig == SIGUSR1 && got_code == SI_QUEUE &&
	   got_value == 42, "sigqueue to itself: SI_QUEUE and the value arrive");
	errno = 0;
	ok(syscall(SYS_rt_sigqueueinfo, other, SIGUSR1, &info) == -1 && errno == EPERM,
	   "rt_sigqueueinfo posing as kill() to another process: EPERM");
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);
	got_sig = 0;
	ok(syscall(SYS_rt_tgsigqueueinfo, getpid(), getpid(), SIGUSR1, &info) == 0 && got_sig == SIGUSR1,
	   "rt_tgsigqueueinfo to its own thread");
}

/*
 * In a child that made itself a subreaper: a grandchild with a
 * parent-death signal (SIGTERM) dies of it when its parent exits, and
 * comes to the subreaper to be reaped; so does a grandchild that was a
 * zombie already.  Exit status: 0 if all of that held.
 */
static int subreaper_child(void)
{
	int fds[2], status, flag = 0, sig = -1;
	pid_t parent, grandchild, zombie;
	char c;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) || prctl(PR_GET_CHILD_SUBREAPER, &flag) || flag != 1)
		return 1;
	xpipe(fds, 0);
	parent = xfork();
	if (!parent) {
		zombie = xfork();
		if (!zombie)
			_exit(7);
		if (!xfork()) {
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			prctl(PR_GET_PDEATHSIG, &sig);
			c = sig == SIGTERM;
			write(fds[1], &c, 1);
			pause();
			_exit(0);
		}
		read(fds[0], &c, 1);
		waitid(P_PID, zombie, NULL, WEXITED | WNOWAIT);        /* a zombie, not reaped */
		_exit(c == 1 ? 0 : 2);
	}
	waitpid(parent, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return 3;
	grandchild = waitpid(-1, &status, 0);
	zombie = waitpid(-1, &flag, 0);
	if (grandchild <= 0 || zombie <= 0)
		return 4;
	if (WIFEXITED(status))          /* the zombie came first: swap */
		status ^= flag, flag ^= status, status ^= flag;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM && WIFEXITED(flag) &&
	       WEXITSTATUS(flag) == 7 ? 0 : 5;
}

static void check_subreaper(void)
{
	int status;
	pid_t pid = xfork();

	if (!pid)
		_exit(subreaper_child());
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "a subreaper reaps its orphaned grandchildren; PR_SET_PDEATHSIG kills one (%d)",
	   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void check_flags(void)
{
	int status;
	pid_t pid;

	ok(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 0, "no_new_privs starts 0");
	errno = 0;
	ok(prctl(PR_SET_NO_NEW_PRIVS, 1, 1, 0, 0) == -1 && errno == EINVAL, "PR_SET_NO_NEW_PRIVS(1, 1): EINVAL");
	pid = xfork();
	if (!pid) {
		int set = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);

		if (xfork() == 0)
			_exit(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? 0 : 1);
		wait(&status);
		_exit(!set && prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 && WEXITSTATUS(status) == 0 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && !WEXITSTATUS(status), "PR_SET_NO_NEW_PRIVS sticks and is inherited");
	ok(prctl(PR_GET_DUMPABLE) == 1 && prctl(PR_SET_DUMPABLE, 0) == 0 && prctl(PR_GET_DUMPABLE) == 0 &&
	   prctl(PR_SET_DUMPABLE, 1) == 0, "PR_SET_DUMPABLE 0, then 1 again");
	errno = 0;
	ok(prctl(PR_SET_DUMPABLE, 2) == -1 && errno == EINVAL, "PR_SET_DUMPABLE(2): EINVAL");
	ok(prctl(PR_CAPBSET_READ, 25) == 1, "CAP_SYS_TIME is in the bounding set");
	errno = 0;
	ok(prctl(PR_CAPBSET_READ, 63) == -1 && errno == EINVAL, "PR_CAPBSET_READ(63): EINVAL");
	ok(prctl(PR_GET_SECUREBITS) == 0, "no securebits");
}

/* AnonHugePages of the smaps entry that starts at addr, in kB (-1 if none). */
static long anon_huge_kb(void *addr)
{
	char line[256];
	FILE *f = fopen("/proc/self/smaps", "r");
	long kb = -1;
	int in = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long s, e;

		if (sscanf(line, "%lx-%lx ", &s, &e) == 2)
			in = s == (unsigned long)addr;
		else if (in && sscanf(line, "AnonHugePages: %ld", &kb) == 1)
			break;
	}
	if (f)
		fclose(f);
	return kb;
}

/* A 2 MiB-aligned MADV_HUGEPAGE region of 4 MiB, touched; its AnonHugePages. */
static long touched_thp_kb(void)
{
	char *p = mmap(NULL, 8 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a = (char *)(((unsigned long)p + (2 << 20) - 1) & ~((2UL << 20) - 1));
	long kb;

	munmap(p, a - p);
	munmap(a + (4 << 20), p + (8 << 20) - (a + (4 << 20)));
	madvise(a, 4 << 20, MADV_HUGEPAGE);
	memset(a, 1, 4 << 20);
	kb = anon_huge_kb(a);
	munmap(a, 4 << 20);
	return kb;
}

static void check_thp_disable(void)
{
	int status;
	pid_t pid;

	if (touched_thp_kb() <= 0) {
		skip("no THP here");
		return;
	}
	ok(prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0 && prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1,
	   "PR_SET_THP_DISABLE");
	ok(touched_thp_kb() == 0, "then even MADV_HUGEPAGE memory gets no THP");
	pid = xfork();
	if (!pid)
		_exit(prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1 && touched_thp_kb() == 0 ? 0 : 1);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && !WEXITSTATUS(status), "a forked child keeps it");
	ok(prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0) == 0 && touched_thp_kb() > 0, "and THP is back once cleared");
}

static int capget_sets(int pid, struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, pid };

	return syscall(SYS_capget, &h, d);
}

/* capset: the current sets less drop_eff/drop_perm, plus add_eff in effective. */
static int change_caps(unsigned long long drop_eff, unsigned long long drop_perm,
		       unsigned long long add_eff)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	capget_sets(0, d);
	for (int i = 0; i < 2; i++) {
		d[i].effective &= ~(unsigned int)(drop_eff >> (32 * i));
		d[i].effective |= (unsigned int)(add_eff >> (32 * i));
		d[i].permitted &= ~(unsigned int)(drop_perm >> (32 * i));
	}
	return syscall(SYS_capset, &h, d);
}

static int drop_caps(unsigned long long eff, unsigned long long perm)
{
	return change_caps(eff, perm, 0);
}

/* In a child: drop capabilities and watch the calls that need them fail; 0 if all held. */
static int caps_child(void)
{
	struct timespec now;
	struct stat st;
	int fd;

	clock_gettime(CLOCK_REALTIME, &now);
	if (drop_caps(1ULL << 25, 0) || clock_settime(CLOCK_REALTIME, &now) != -1 || errno != EPERM ||
	    syscall(SYS_settimeofday, NULL, &(struct timezone){ 0, 0 }) != -1 || errno != EPERM)
		return 1;
	if (change_caps(0, 0, 1ULL << 25) || clock_gettime(CLOCK_REALTIME, &now) ||
	    clock_settime(CLOCK_REALTIME, &now))
		return 2;       /* an effective bit may come back while it is permitted */
	if (drop_caps(1ULL << 27, 1ULL << 27) || mknod("/tmp/procctl-dev", S_IFCHR | 0600, makedev(1, 3)) != -1 ||
	    errno != EPERM || mknod("/tmp/procctl-fifo", S_IFIFO | 0600, 0))
		return 3;
	unlink("/tmp/procctl-fifo");
	fd = open("/tmp/procctl-file", O_CREAT | O_WRONLY, 0600);
	if (drop_caps(1ULL << 0, 1ULL << 0) || fchown(fd, 1000, -1) != -1 || errno != EPERM ||
	    fchown(fd, 0, 0) || fstat(fd, &st) || st.st_uid)
		return 4;
	close(fd);
	unlink("/tmp/procctl-file");
	if (drop_caps(1ULL << 22, 1ULL << 22) || reboot(0) != -1 || errno != EPERM)
		return 5;       /* CAP_SYS_BOOT is checked before the (bad) command */
	{
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];

		capget_sets(0, d);
		d[0].permitted |= 1U << 22;
		d[0].effective |= 1U << 22;
		if (syscall(SYS_capset, &h, d) != -1 || errno != EPERM)
			return 6;       /* a permitted bit once dropped cannot come back */
	}
	if (prctl(PR_CAPBSET_DROP, 25) || prctl(PR_CAPBSET_READ, 25) != 0)
		return 7;
	execl("/proc/self/exe", "test_procctl", "caps-after-exec", (char *)NULL);
	return 8;
}

/* After exec: everything back but what the bounding set lost (CAP_SYS_TIME). */
static int caps_after_exec(void)
{
	struct __user_cap_data_struct d[2];

	if (capget_sets(0, d))
		return 10;
	return d[0].effective == ~(1U << 25) && d[0].permitted == d[0].effective &&
	       d[1].effective == 0x1ff && !d[0].inheritable ? 0 : 11;
}

static void check_caps(void)
{
	struct __user_cap_header_struct h = { 0x12345678, 0 };
	struct __user_cap_data_struct d[2];
	int status;

	ok(capget_sets(0, d) == 0 && d[0].effective == 0xffffffff && d[1].effective == 0x1ff &&
	   d[0].permitted == 0xffffffff && d[1].permitted == 0x1ff && !d[0].inheritable,
	   "capget: root's full effective and permitted sets, no inheritable");
	errno = 0;
	ok(syscall(SYS_capget, &h, d) == -1 && errno == EINVAL && h.version == _LINUX_CAPABILITY_VERSION_3,
	   "capget of an unknown version: EINVAL, and _V3 written back");
	h.version = 0x12345678;
	ok(syscall(SYS_capget, &h, NULL) == 0 && h.version == _LINUX_CAPABILITY_VERSION_3,
	   "with no data: 0, and _V3 written back");
	errno = 0;
	ok(capget_sets(999999, d) == -1 && errno == ESRCH, "capget of no such thread: ESRCH");
	status = exit_status_of(caps_child);
	ok(!status, "capset drops capabilities for good; the calls needing them fail; exec restores "
	   "the bounding set (%d)", status);
}

/* Is there a /proc/mounts line with this mount point and this start of options? */
static int mounts_has(const char *point, const char *type, const char *opts)
{
	char line[512], dev[64], mnt[256], fstype[64], o[256];
	FILE *f = fopen("/proc/mounts", "r");
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %255s %63s %255s", dev, mnt, fstype, o) == 4 &&
		    !strcmp(mnt, point) && !strcmp(fstype, type) && !strncmp(o, opts, strlen(opts)))
			found = 1;
	if (f)
		fclose(f);
	return found;
}

static void check_mounts(void)
{
	int ret;

	ok(mounts_has("/proc", "proc", "rw"), "/proc/mounts lists proc on /proc");
	mkdir("/tmp/procctl-mnt", 0755);
	ret = mount("tmpfs", "/tmp/procctl-mnt", "tmpfs", 0, "size=1m,mode=700");
	ok(!ret && mounts_has("/tmp/procctl-mnt", "tmpfs", "rw,relatime,size=1024k,mode=700"),
	   "a tmpfs mounted with size=1m,mode=700 is listed with them");
	umount("/tmp/procctl-mnt");
	ok(!mounts_has("/tmp/procctl-mnt", "tmpfs", ""), "and not once unmounted");
	rmdir("/tmp/procctl-mnt");
}

/* Copy this program to path with mode; 0 or -1. */
static int copy_self(const char *path, mode_t mode)
{
	static char buf[1 << 16];
	int in = open("/proc/self/exe", O_RDONLY), out = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	long n, ret = in >= 0 && out >= 0 ? 0 : -1;

	while (!ret && (n = read(in, buf, sizeof(buf))) > 0)
		ret = write(out, buf, n) == n ? 0 : -1;
	close(in);
	close(out);
	return ret;
}

/* Run path with the argument "exit" (this program returns 0 at once); the wait status, or -errno. */
static int run_exit(const char *path)
{
	int status, err = 0;
	pid_t pid = xfork();

	if (!pid) {
		execl(path, path, "exit", (char *)NULL);
		_exit(100 + errno);
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) >= 100)
		err = -(WEXITSTATUS(status) - 100);
	return err ? err : status;
}

static void check_noexec(void)
{
	const char *dir = "/tmp/procctl-noexec", *prog = "/tmp/procctl-noexec/prog";
	void *p;
	int fd, ret;

	mkdir(dir, 0755);
	ret = mount("tmpfs", dir, "tmpfs", MS_NOEXEC | MS_NOSUID | MS_NODEV, "");
	ok(!ret && mounts_has(dir, "tmpfs", "rw,nosuid,nodev,noexec,relatime"),
	   "a noexec,nosuid,nodev tmpfs is listed so");
	ok(!copy_self(prog, 0755) && run_exit(prog) == -EACCES, "execve from a noexec mount: EACCES");
	errno = 0;
	ok(access(prog, X_OK) == -1 && errno == EACCES && access(prog, R_OK) == 0,
	   "access(X_OK) there: EACCES");
	errno = 0;
	ok(!mknod("/tmp/procctl-noexec/null", S_IFCHR | 0666, makedev(1, 3)) &&
	   open("/tmp/procctl-noexec/null", O_RDWR) == -1 && errno == EACCES,
	   "a device node there cannot be opened (nodev): EACCES");
	fd = open(prog, O_RDONLY);
	errno = 0;
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ok(p == MAP_FAILED && errno == EPERM, "mmap(PROT_EXEC) of its file: EPERM");
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	errno = 0;
	ok(p != MAP_FAILED && mprotect(p, 4096, PROT_READ | PROT_EXEC) == -1 && errno == EACCES,
	   "mprotect(PROT_EXEC) of a read-only mapping of it: EACCES");
	munmap(p, 4096);
	close(fd);
	ret = mount("tmpfs", dir, "tmpfs", MS_REMOUNT, "");
	ok(!ret && run_exit(prog) == 0, "remounted without noexec, it runs");
	umount(dir);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "caps-after-exec"))
		return caps_after_exec();
	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0;
	mount_proc_sys();
	mkdir("/tmp", 01777);   /* Linux's initramfs as the peer boots it may have none */
	check_pidfd_send_signal();
	check_sigqueue();
	check_subreaper();
	check_flags();
	check_thp_disable();
	check_caps();
	check_mounts();
	check_noexec();
	return tap_done();
}
