/*
 * The guest test runner: runtests [-t SECONDS] [test_x ...] runs every
 * /bin/test_* (or the ones named) in its own process, passes its TAP
 * output through indented as a subtest, and after each checks that no
 * memory leaked: MemFree, PageTables and Slab in /proc/meminfo must be
 * back to their values from before the test, once its processes are gone
 * (any it left behind get ORPHAN_GRACE_S, then are killed and reported)
 * and the deferred split queue is drained (split_deferred), and the files
 * it left in /tmp and /dev/shm are removed (counted as its failure).  A test still
 * running after SECONDS (default 600) is killed.  THP knobs a test
 * changed are set back after it.
 * Prints KTAP: "ok N test_x" or "not ok N test_x # reason", then
 * "# runtests: N passed, N failed".  Exits 0 if all passed.  The runner
 * locks its own memory (as init does): a test that drives reclaim must
 * not send the runner's pages to swap between its two readings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/wait.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <sys/syscall.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include "folio_view.h"

struct mem {
	long free, pagetables, slab;
	long swap_free;         /* SwapFree: a slot no page table or swap cache names is a leak too */
	long self_rss;          /* runtests' own VmRSS: not part of the check, a clue */
};

#define THP_DIR "/sys/kernel/mm/transparent_hugepage/"

/* The value of the "key:" line of a /proc file read into text; -1 if none. */
static long proc_value(const char *text, const char *key)
{
	const char *at = strstr(text, key);

	return at ? atol(at + strlen(key)) : -1;
}

/*
 * MemFree, PageTables and Slab, after draining the deferred split queue.
 * No malloc (fopen, opendir) between a test's two readings: musl's
 * allocator mapping and returning heap pages would read as its leak.
 */
static int read_meminfo(struct mem *m)
{
	static char text[4096];

	write_text(THP_DIR "split_deferred", "1");   /* foliOS only; Linux has no such knob */
	if (read_text("/proc/meminfo", text, sizeof(text)))
		return -1;
	m->free = proc_value(text, "MemFree:");
	m->pagetables = proc_value(text, "PageTables:");
	m->slab = proc_value(text, "Slab:");
	m->swap_free = proc_value(text, "SwapFree:");
	m->self_rss = read_text("/proc/self/status", text, sizeof(text)) ? -1 :
		      proc_value(text, "VmRSS:");
	return 0;
}

/* The THP knobs: the top level, then hugepages-16kB … 2048kB. */
#define NR_KNOBS 9
static void knob_path(int i, char *path, size_t size)
{
	if (!i)
		snprintf(path, size, THP_DIR "enabled");
	else
		snprintf(path, size, THP_DIR "hugepages-%dkB/enabled", 8 << i);
}

/* Read each knob's current choice (the bracketed word); "" if absent. */
static void knobs_save(char saved[NR_KNOBS][16])
{
	for (int i = 0; i < NR_KNOBS; i++) {
		char path[96], line[96], *l, *r;

		knob_path(i, path, sizeof(path));
		saved[i][0] = '\0';
		if (!read_text(path, line, sizeof(line)) && (l = strchr(line, '[')) &&
		    (r = strchr(l, ']'))) {
			*r = '\0';
			snprintf(saved[i], 16, "%s", l + 1);
		}
	}
}

static void knobs_restore(char saved[NR_KNOBS][16])
{
	for (int i = 0; i < NR_KNOBS; i++) {
		char path[96];

		knob_path(i, path, sizeof(path));
		if (saved[i][0])
			write_text(path, saved[i]);
	}
}

static int test_timeout_s = 600;        /* -t SECONDS: a test still running then is killed */
#define ORPHAN_GRACE_S   20     /* how long the test's leftover processes may linger */
#define MAX_PIDS         256

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The PIDs in /proc; returns how many (at most MAX_PIDS).  No malloc: getdents64. */
static int list_pids(pid_t *pids)
{
	static char buf[4096];
	int fd = open("/proc", O_RDONLY | O_DIRECTORY), n = 0;
	long len;

	while (fd >= 0 && (len = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < len && n < MAX_PIDS;) {
			struct dirent *e = (struct dirent *)(buf + off);

			if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
				pids[n++] = atoi(e->d_name);
			off += e->d_reclen;
		}
	if (fd >= 0)
		close(fd);
	return n;
}

static bool in(pid_t pid, const pid_t *set, int n)
{
	for (int i = 0; i < n; i++)
		if (set[i] == pid)
			return true;
	return false;
}

/*
 * Processes the test left behind (orphans now init's): wait up to
 * ORPHAN_GRACE_S for them to end, then SIGKILL them so that the next test
 * starts clean.  Returns how many had to be killed.
 */
static int reap_leftovers(const pid_t *before, int nbefore)
{
	pid_t pids[MAX_PIDS];
	double deadline = now() + ORPHAN_GRACE_S;
	int killed = 0, n, left;
	const struct timespec tick = { 0, 10000000 };

	for (;;) {
		n = list_pids(pids);
		left = 0;
		for (int i = 0; i < n; i++)
			left += !in(pids[i], before, nbefore);
		if (!left || (killed && now() > deadline + 5))
			return killed;
		if (now() > deadline && !killed) {
			for (int i = 0; i < n; i++)
				if (!in(pids[i], before, nbefore) && !kill(pids[i], SIGKILL))
					killed++;
		}
		nanosleep(&tick, NULL);
	}
}

static int remove_below(const char *dir);

/* Remove dir/name, a file, a link (not what it names) or (emptied first) a directory; 1 if it went. */
static int remove_entry(const char *dir, const char *name)
{
	char path[512];
	struct stat st;
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lstat(path, &st) || !S_ISDIR(st.st_mode))
		return !unlink(path);
	n = remove_below(path);
	if (rmdir(path) && errno == EBUSY)
		umount2(path, MNT_DETACH);
	return n + (!rmdir(path) || errno == ENOENT);
}

/*
 * One pass of remove_below(): the entries of dir it removed.  No malloc
 * (getdents64 into the stack, not opendir): it runs between a test's two
 * MemFree readings, and musl's allocator gives each opendir a fresh slot,
 * so that now and then our heap would grow a page there.
 */
static int remove_pass(const char *dir)
{
	char buf[2048];
	int fd = open(dir, O_RDONLY | O_DIRECTORY), n = 0;
	long len;

	while (fd >= 0 && (len = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < len;) {
			struct dirent *e = (struct dirent *)(buf + off);

			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				n += remove_entry(dir, e->d_name);
			off += e->d_reclen;
		}
	if (fd >= 0)
		close(fd);
	return n;
}

/*
 * Remove everything below dir (a tmpfs: /tmp, /dev/shm), unmounting what
 * a test mounted there; returns how many entries went.  A test that dies
 * leaves its files behind, and they hold memory as on Linux: the leak
 * check must count what the kernel lost, not what a file still holds.
 * Passes repeat until one removes nothing, as entries go while listed.
 */
static int remove_below(const char *dir)
{
	int n = 0, pass;

	do {
		pass = remove_pass(dir);
		n += pass;
	} while (pass);
	return n;
}

/* Print the complete lines in buf[0..*len), indented; keep the rest. */
static void print_lines(char *buf, size_t *len, bool all)
{
	char *start = buf, *nl;

	while ((nl = memchr(start, '\n', *len - (start - buf)))) {
		printf("    %.*s\n", (int)(nl - start), start);
		start = nl + 1;
	}
	if (all && start < buf + *len) {
		printf("    %.*s\n", (int)(buf + *len - start), start);
		start = buf + *len;
	}
	*len -= start - buf;
	memmove(buf, start, *len);
}

/*
 * Copy the test's output, indented, until every writer has closed the pipe
 * — or, once the test itself has exited, ORPHAN_GRACE_S later (a process
 * it left behind may hold the pipe).  A test running past test_timeout_s
 * is killed.  Returns the test's wait status; *timed_out says if killed.
 */
static int relay_output(int fd, pid_t pid, bool *timed_out)
{
	char buf[1024];
	size_t len = 0;
	int status = -1;
	bool exited = false;
	double start = now(), deadline = 0;
	const struct timespec tick = { 0, 1000000 };

	fcntl(fd, F_SETFL, O_NONBLOCK);
	for (;;) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);

		if (n > 0) {
			len += n;
			print_lines(buf, &len, false);
			if (len == sizeof(buf) - 1)     /* one line longer than buf */
				print_lines(buf, &len, true);
			continue;
		}
		if (n == 0 || (n < 0 && errno != EAGAIN))
			break;
		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = true;
			deadline = now() + ORPHAN_GRACE_S;
		}
		if ((exited || *timed_out) && now() > deadline)
			break;                  /* leftovers hold the pipe, or unkillable */
		if (!exited && now() > start + test_timeout_s && !*timed_out) {
			kill(pid, SIGKILL);
			*timed_out = true;
			deadline = now() + ORPHAN_GRACE_S;
		}
		nanosleep(&tick, NULL);
	}
	print_lines(buf, &len, true);
	if (!exited && waitpid(pid, &status, *timed_out ? WNOHANG : 0) != pid)
		printf("# runtests: %d did not die of SIGKILL\n", pid);
	return status;
}

/* Run one test, its output indented; returns its wait status. */
static int run_one(const char *path, bool *timed_out)
{
	int pfd[2], status;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid == 0) {
		write_text("/proc/self/make-it-fail", "1");  /* only tests see injected failures */
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	status = relay_output(pfd[0], pid, timed_out);
	close(pfd[0]);
	return status;
}

/*
 * Fault in 64 KiB of our own stack now: a deeper path taken later (a
 * timeout, leftovers to kill) must not grow it between the two MemFree
 * readings of a test and read as that test's leak.
 */
static void prefault_stack(void)
{
	volatile char pad[64 * 1024];

	for (size_t i = 0; i < sizeof(pad); i += 4096)
		pad[i] = 0;
}

#define MAX_TESTS 128                   /* test programs in one run; make test checks it ran them all */

int main(int argc, char **argv)
{
	char *names[MAX_TESTS];
	int nr = 0, passed = 0, failed = 0;
	DIR *d;
	struct dirent *e;
	int first = 1;

	mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT);
	prefault_stack();
	(void)now();    /* the vDSO's first call maps its pages: page tables before any baseline */
	remove_below("/tmp");           /* what an earlier test run left */
	if (argc > 2 && !strcmp(argv[1], "-t")) {
		test_timeout_s = atoi(argv[2]);
		first = 3;
	}
	for (int i = first; i < argc && nr < MAX_TESTS; i++)
		names[nr++] = argv[i];
	if (!nr && (d = opendir("/bin"))) {
		while ((e = readdir(d)) && nr < MAX_TESTS)
			if (!strncmp(e->d_name, "test_", 5))
				names[nr++] = strdup(e->d_name);
		closedir(d);
	}
	printf("KTAP version 1\n1..%d\n", nr);
	for (int i = 0; i < nr; i++) {
		struct mem before = { 0 }, after = { 0 };
		char path[128], why[256] = "", knobs[NR_KNOBS][16];
		pid_t pids[MAX_PIDS];
		int status, npids = list_pids(pids), leftovers, files;
		bool timed_out = false;

		snprintf(path, sizeof(path), "/bin/%s", names[i]);
		fflush(stdout);
		knobs_save(knobs);
		read_meminfo(&before);
		status = run_one(path, &timed_out);
		leftovers = reap_leftovers(pids, npids);
		files = remove_below("/tmp") + remove_below("/dev/shm");
		knobs_restore(knobs);
		read_meminfo(&after);
		/*
		 * Killed leftovers are reaped by init a moment later, a test
		 * killed by a signal, or one that failed (under fault injection:
		 * a child it gave up on may still be exiting), may have had its
		 * processes exiting on other CPUs (their mms torn down there),
		 * and kswapd may still hold folios it took off the LRU while the
		 * test pressed on memory: up to 2 s for memory to come back.
		 * What never comes back the kernel's own check at power-off
		 * reports too.
		 */
		for (int w = 0; w < 200 &&
		     (after.free != before.free || after.pagetables != before.pagetables ||
		      after.slab != before.slab || after.swap_free != before.swap_free); w++) {
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
			read_meminfo(&after);
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			snprintf(why, sizeof(why), "exit status %#x%s; ", status,
				 timed_out ? " (killed: timeout)" : "");
		if (leftovers)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "%d leftover processes killed; ", leftovers);
		if (files)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "%d files left in /tmp or /dev/shm, removed; ", files);
		if (before.free != after.free || before.pagetables != after.pagetables ||
		    before.slab != after.slab || before.swap_free != after.swap_free)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "leak: MemFree %ld -> %ld kB, PageTables %ld -> %ld kB, "
				 "Slab %ld -> %ld kB, SwapFree %ld -> %ld kB (runtests' own VmRSS "
				 "%ld -> %ld kB)", before.free, after.free, before.pagetables,
				 after.pagetables, before.slab, after.slab, before.swap_free,
				 after.swap_free, before.self_rss, after.self_rss);
		printf("%sok %d %s%s%s\n", *why ? "not " : "", i + 1, names[i], *why ? " # " : "", why);
		*why ? failed++ : passed++;
	}
	printf("# runtests: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
