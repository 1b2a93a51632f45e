/*
 * Guest test (TAP): processes — fork/exit/wait status codes, a child killed
 * by SIGSEGV, copy-on-write isolation both ways over many pages and three
 * generations, orphans, exec with argv and envp.  Runs unchanged on Linux.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/mount.h>
#include "tap.h"

#define PAGES 256



static void fill(char *p, char v)
{
	for (int i = 0; i < PAGES; i++)
		p[i * 4096] = v;
}

static int all(const char *p, char v)
{
	for (int i = 0; i < PAGES; i++)
		if (p[i * 4096] != v)
			return 0;
	return 1;
}

/* The PFN mapping addr (0 if not present) and pagemap's exclusive bit. */
static unsigned long long pfn_of(void *addr, int *excl)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	unsigned long long e = 0;

	pread(fd, &e, 8, (unsigned long)addr / 4096 * 8);
	close(fd);
	*excl = (e >> 56) & 1;
	return e >> 63 ? e & ((1ULL << 55) - 1) : 0;
}

static int wait_status(pid_t pid)
{
	int status = -1;

	return pid > 0 && waitpid(pid, &status, 0) == pid ? status : -1;    /* -1: fork failed */
}

int main(int argc, char **argv)
{
	char *p = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t pid;
	int st;

	if (argc > 1 && !strcmp(argv[1], "exec-child")) {
		const char *e = getenv("FOLIOS_TEST");

		return argc == 4 && !strcmp(argv[2], "a b") && !strcmp(argv[3], "c") && e &&
		       !strcmp(e, "yes") ? 33 : 1;
	}
	if (access("/proc/meminfo", R_OK))     /* Linux's init: nothing mounted yet */
		mount("proc", "/proc", "proc", 0, NULL);
	printf("TAP version 13\n");
	pid = xfork();
	if (pid == 0)
		_exit(42);
	st = wait_status(pid);
	ok(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 42, "fork, exit(42), wait status 42");
	pid = xfork();
	if (pid == 0) {
		*(volatile int *)(long)(argc * 16 - 16) = 1;  /* NULL, out of the compiler's sight */
		_exit(0);
	}
	st = wait_status(pid);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "a child killed by SIGSEGV: wait says so");
	ok(waitpid(-1, &st, 0) == -1 && errno == ECHILD, "wait without children: ECHILD");

	fill(p, 'P');
	pid = xfork();
	if (pid == 0) {
		int good = all(p, 'P');

		fill(p, 'C');
		good &= all(p, 'C');
		pid = xfork();                   /* a grandchild: third generation */
		if (pid == 0) {
			int g = all(p, 'C');

			fill(p, 'G');
			_exit(g && all(p, 'G') ? 0 : 1);
		}
		st = wait_status(pid);
		good &= WIFEXITED(st) && WEXITSTATUS(st) == 0 && all(p, 'C');
		_exit(good ? 0 : 1);
	}
	st = wait_status(pid);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child and grandchild see only their own writes");
	ok(all(p, 'P'), "the parent still sees its own data after their writes");
	pid = xfork();
	if (pid == 0) {
		sleep(0);
		_exit(all(p, 'Q') ? 1 : 0);     /* must not see the parent's later write */
	}
	fill(p, 'Q');
	st = wait_status(pid);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a parent's write after fork is invisible to the child");
	fill(p, 'R');
	ok(all(p, 'R'), "after the child exited, the parent writes freely (reuse)");

	{
		unsigned long long pfn0, pfn1;
		int excl, excl2;
		int pfd[2];
		char c;

		p[0] = 'a';
		pfn0 = pfn_of(p, &excl);
		ok(pfn0 && excl, "pagemap: a written page is present, mapped exclusively");
		if (pipe(pfd))
			pfd[0] = pfd[1] = -1;   /* fault injection: the child then exits at once */
		pid = xfork();
		if (pid == 0) {
			close(pfd[1]);          /* a dead parent reads as EOF */
			read(pfd[0], &c, 1);    /* stay alive until the parent wrote */
			_exit(p[0] == 'a' ? 0 : 1);
		}
		pfn1 = pfn_of(p, &excl2);
		ok(pfn1 == pfn0 && !excl2, "after fork: same PFN, no longer exclusive");
		p[0] = 'b';                     /* child alive: copy */
		pfn1 = pfn_of(p, &excl2);
		ok(pfn1 != pfn0 && excl2, "a write while the child lives copies (new PFN, exclusive)");
		write(pfd[1], "x", 1);
		st = wait_status(pid);
		ok(WIFEXITED(st) && !WEXITSTATUS(st), "the child still saw the old data");
		pid = xfork();
		if (pid == 0)
			_exit(0);
		wait_status(pid);
		pfn0 = pfn_of(p, &excl);
		p[0] = 'c';                     /* child gone: reuse, no copy */
		pfn1 = pfn_of(p, &excl2);
		ok(pfn1 == pfn0 && excl2, "after the child exited, a write reuses the page (PFN unchanged)");
		close(pfd[0]);
		close(pfd[1]);
	}
	pid = xfork();
	if (pid == 0) {
		if (xfork() == 0) {
			usleep(1000);
			_exit(0);               /* an orphan for init to reap */
		}
		_exit(7);
	}
	st = wait_status(pid);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 7, "a parent exits before its child (orphan)");

	pid = xfork();
	if (pid == 0) {
		char *args[] = { argv[0], "exec-child", "a b", "c", NULL };
		char *env[] = { "FOLIOS_TEST=yes", NULL };

		execve(argv[0], args, env);     /* /bin/test_fork here, /init on the Linux peer */
		_exit(99);
	}
	st = wait_status(pid);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 33, "exec passes argv and envp");
	pid = xfork();
	if (pid == 0) {
		char *args[] = { "nope", NULL };

		execve("/bin/does-not-exist", args, args + 1);
		_exit(errno == ENOENT ? 5 : 6);
	}
	st = wait_status(pid);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 5, "exec of a missing file: ENOENT, old program goes on");
	{
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		usleep(50000);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ok((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) >= 50000000L,
		   "usleep(50 ms) sleeps at least 50 ms");
	}
	pid = xfork();
	if (pid == 0)
		for (;;)
			;                       /* busy: only preemption lets the parent run */
	usleep(20000);
	ok(pid > 0 && kill(pid, SIGKILL) == 0, "kill a busy child");
	st = wait_status(pid);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "it died of SIGKILL (the parent ran: preemption)");
	pid = xfork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	usleep(10000);
	if (pid > 0)
		kill(pid, SIGTERM);
	st = wait_status(pid);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "SIGTERM ends a sleeping child");
	ok(kill(999999, 0) == -1 && errno == ESRCH, "kill of a missing pid: ESRCH");
	return tap_done();
}
