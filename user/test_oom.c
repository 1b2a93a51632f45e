/*
 * Guest test (TAP): out of memory.  A process that touches more memory
 * than the machine has is killed (SIGKILL) — not the kernel; so is one
 * that mallocs and touches until malloc fails; a fork storm ends with fork
 * failing (EAGAIN or ENOMEM).  Afterwards MemFree is back where it was.
 * The fork storm runs only on small machines (--mem 64M, run-all does).
 */
#include "thp_util.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>

static long free_kb(void)
{
	split_deferred();
	return meminfo_kb("MemFree");
}

/*
 * MemFree without malloc (this process must not fault in new memory while
 * a child exhausts it): one read into a static buffer.  -1 if it fails.
 */
static long memfree_now(void)
{
	static char buf[2048];
	int fd = open("/proc/meminfo", O_RDONLY);
	long n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	char *p;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "MemFree:");
	return p ? atol(p + 8) : -1;
}

static long min_free_kb = -1;

/*
 * Run fn in a child; returns its status as the shell shows it.  While it
 * runs, MemFree is sampled: min_free_kb is the lowest seen (the peak use).
 */
static int in_child(void (*fn)(void))
{
	const struct timespec tick = { 0, 1000000 };
	pid_t pid = fork();
	int status;

	if (!pid) {
		fn();
		_exit(0);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		long f = memfree_now();

		if (f >= 0 && (min_free_kb < 0 || f < min_free_kb))
			min_free_kb = f;
		nanosleep(&tick, NULL);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void touch_too_much(void)
{
	size_t len = (size_t)meminfo_kb("MemTotal") * 2048;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		_exit(3);
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
}

static void malloc_until_null(void)
{
	for (;;) {
		char *p = malloc(1 << 20);

		if (!p)
			_exit(4);
		for (int off = 0; off < 1 << 20; off += PAGE)
			p[off] = 1;
	}
}

/* Fork until fork fails; the children wait on a pipe, then all exit. */
static void fork_storm(void)
{
	int go[2], n = 0, err = 0;
	char c;

	xpipe(go, 0);
	for (;;) {
		pid_t pid = fork();

		if (pid < 0) {
			err = errno;
			break;
		}
		if (!pid) {
			close(go[1]);
			read(go[0], &c, 1);
			_exit(0);
		}
		n++;
	}
	close(go[1]);
	while (wait(NULL) > 0)
		;
	printf("# fork storm: %d children, then fork failed with errno %d\n", n, err);
	fflush(stdout);
	_exit(err == EAGAIN || err == ENOMEM ? 0 : 5);
}

int main(void)
{
	long before = free_kb(), total = meminfo_kb("MemTotal");
	int st;

	st = in_child(touch_too_much);
	ok(st == 128 + SIGKILL, "touching twice the RAM: killed by SIGKILL (status %d)", st);
	st = in_child(malloc_until_null);
	ok(st == 128 + SIGKILL || st == 4, "malloc until NULL: killed or NULL (status %d)", st);
	if (total < 128 * 1024) {
		st = in_child(fork_storm);
		ok(st == 0, "fork storm ends with EAGAIN or ENOMEM (status %d)", st);
	} else {
		ok(1, "fork storm # SKIP only with --mem under 128M");
	}
	printf("# peak: MemFree fell from %ld kB to %ld kB (%ld kB in use at the peak)\n", before,
	       min_free_kb, before - min_free_kb);
	ok(free_kb() == before, "MemFree back to %ld kB (now %ld)", before, free_kb());
	return tap_done();
}
