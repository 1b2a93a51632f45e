/*
 * Guest test (TAP): out of memory.  A process that touches more memory
 * than the machine has, RAM and swap, is killed (SIGKILL) — not the
 * kernel; so is one that mallocs and touches until malloc fails; a fork storm (at
 * oom_score_adj 1000, so the OOM killer picks from it) ends with fork
 * failing (EAGAIN or ENOMEM) or with the storm killed (its COW fault found
 * no page first).  Afterwards MemFree is back where it was — the test
 * locks its own memory first (mlockall), so that reclaim under the hogs'
 * pressure cannot move its pages to swap and back meanwhile.
 * The fork storm runs only on small machines (--mem 64M, run-all does).
 */
#include "thp_util.h"
#include <sys/mman.h>
#include <errno.h>
#include <signal.h>
#include <time.h>

static long free_kb(void)
{
	split_deferred();
	return meminfo_kb("MemFree");
}

/*
 * How far a hog got before it was killed: it writes its total (bytes
 * touched, children forked) every `every` units into this pipe (at most
 * 512 records fit its 4 KiB, so the hog never blocks); the parent keeps
 * the largest.
 */
static int progress[2];
static size_t reached;

static void report(size_t total, size_t every)
{
	if (total % every == 0)
		write(progress[1], &total, sizeof(total));
}

/* Run fn in a child; returns its status as the shell shows it, *how_far its last report. */
static int in_child(void (*fn)(void), size_t *how_far)
{
	size_t got;
	pid_t pid;
	int st;

	reached = 0;
	xpipe(progress, 0);
	pid = fork();
	if (!pid) {
		close(progress[0]);
		fn();
		_exit(0);
	}
	close(progress[1]);
	st = wait_exit(pid);
	while (read(progress[0], &got, sizeof(got)) == sizeof(got))
		reached = got > reached ? got : reached;
	close(progress[0]);
	*how_far = reached;
	return st;
}

static void touch_too_much(void)
{
	size_t len = (size_t)(meminfo_kb("MemTotal") * 2 + meminfo_kb("SwapTotal")) * 1024;
	char *p = map_beyond_ram(len);

	if (!p)
		_exit(3);
	for (size_t off = 0; off < len; off += PAGE) {
		p[off] = 1;
		report(off + PAGE, 4 << 20);
	}
}

static void malloc_until_null(void)
{
	for (size_t total = 0;;) {
		char *p = malloc(1 << 20);

		if (!p)
			_exit(4);
		for (int off = 0; off < 1 << 20; off += PAGE)
			p[off] = 1;
		report(total += 1 << 20, 4 << 20);
	}
}

/*
 * Fork until fork fails; the children wait on a pipe, then all exit.  The
 * storm is at oom_score_adj 1000 (its children inherit it): its processes
 * are all about as small as the test's runner, and the OOM killer must
 * choose one of them, not the runner.
 */
static void fork_storm(void)
{
	int go[2], err = 0;
	size_t n = 0;
	char c;

	write_text("/proc/self/oom_score_adj", "1000");
	xpipe(go, 0);
	for (;;) {
		pid_t pid = fork();

		if (pid < 0) {
			err = errno;
			break;
		}
		if (!pid) {
			close(go[1]);
			close(progress[1]);     /* the parent's read ends when the storm does */
			read(go[0], &c, 1);
			_exit(0);
		}
		report(++n, 8);
	}
	close(go[1]);
	while (wait(NULL) > 0)
		;
	printf("# fork storm: %zu children, then fork failed with errno %d\n", n, err);
	fflush(stdout);
	_exit(err == EAGAIN || err == ENOMEM ? 0 : 5);
}

/*
 * MemFree once everything the hogs left has ended: a storm killed by the
 * OOM leaves its children to exit as init's orphans; up to 20 s.
 */
static long settled_free_kb(long want)
{
	const struct timespec tick = { 0, 10000000 };
	long f = free_kb();

	for (int i = 0; i < 2000 && f != want; i++, f = free_kb())
		nanosleep(&tick, NULL);
	return f;
}

int main(void)
{
	long before, total = meminfo_kb("MemTotal"), after;
	size_t touched, mallocd, children;
	int st;

	mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT);      /* the hogs, its children, are not */
	before = free_kb();

	st = in_child(touch_too_much, &touched);
	ok(st == 128 + SIGKILL, "touching twice the RAM and all the swap: killed by SIGKILL (status %d)", st);
	st = in_child(malloc_until_null, &mallocd);
	ok(st == 128 + SIGKILL || st == 4, "malloc until NULL: killed or NULL (status %d)", st);
	if (total < 128 * 1024) {
		st = in_child(fork_storm, &children);
		printf("# fork storm: %zu children before it %s\n", children,
		       st ? "was killed (OOM)" : "saw fork fail");
		ok(st == 0 || st == 128 + SIGKILL,
		   "fork storm ends with EAGAIN or ENOMEM, or is killed (status %d)", st);
	} else {
		ok(1, "fork storm # SKIP only with --mem under 128M");
	}
	after = settled_free_kb(before);
	printf("# peak: the hogs touched %zu and %zu MiB of %ld MiB before they were killed; "
	       "MemFree then back to %ld of %ld kB\n", touched >> 20, mallocd >> 20, total >> 10,
	       after, before);
	ok(after == before, "MemFree back to %ld kB (now %ld)", before, after);
	return tap_done();
}
