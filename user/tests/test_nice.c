/*
 * Guest test (TAP): nice values as Linux has them.  getpriority's ABI
 * (20 - nice from the system call), setpriority of a thread, a process
 * group, a user; clamping to -20..19; EINVAL, ESRCH, and EACCES for a
 * lower nice without CAP_SYS_NICE; /proc/<pid>/stat's priority and nice;
 * fork inherits the nice value.  And what nice is for: two CPU-bound
 * processes on one CPU share it by weight — nice 0 against nice 10 gets
 * several times the CPU time, equals about the same; a CPU-bound task
 * keeps its share while another forks short-lived children all along.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include "tap.h"
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* capset's ABI (linux/capability.h, which musl does not ship). */
struct cap_header {
	unsigned int version;
	int pid;
};
struct cap_data {
	unsigned int effective, permitted, inheritable;
};

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Fields 18 and 19 (priority, nice) of /proc/self/stat. */
static int stat_prio(int *prio, int *nice)
{
	char buf[1024], *p;
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %d %d",
			   prio, nice) == 2 ? 0 : -1;
}

static void check_calls(void)
{
	int prio = 0, nice = 99, status;
	pid_t pid;

	ok(syscall(SYS_getpriority, PRIO_PROCESS, 0) == 20 && getpriority(PRIO_PROCESS, 0) == 0,
	   "getpriority: the system call says 20 - nice, libc 0");
	status = setpriority(PRIO_PROCESS, 0, 5) == 0 && getpriority(PRIO_PROCESS, 0) == 5 &&
		 !stat_prio(&prio, &nice) && prio == 25 && nice == 5;
	ok(status, "setpriority(5): getpriority and /proc/self/stat (priority %d, nice %d)", prio, nice);
	pid = xfork();
	if (!pid)
		_exit(getpriority(PRIO_PROCESS, 0) == 5 ? 0 : 1);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && !WEXITSTATUS(status), "a forked child has its parent's nice");
	ok(setpriority(PRIO_PROCESS, 0, 100) == 0 && getpriority(PRIO_PROCESS, 0) == 19 &&
	   setpriority(PRIO_PROCESS, 0, -100) == 0 && getpriority(PRIO_PROCESS, 0) == -20,
	   "nice is clamped to 19 and -20");
	ok(setpriority(PRIO_PGRP, 0, 3) == 0 && getpriority(PRIO_PGRP, 0) == 3 &&
	   getpriority(PRIO_PROCESS, 0) == 3, "PRIO_PGRP sets the caller's group");
	ok(setpriority(PRIO_USER, 0, 0) == 0 || errno == EACCES, "PRIO_USER of root");
	setpriority(PRIO_PROCESS, 0, 0);
	errno = 0;
	ok(setpriority(3, 0, 0) == -1 && errno == EINVAL, "setpriority(3, ...): EINVAL");
	errno = 0;
	ok(getpriority(PRIO_PROCESS, 999999) == -1 && errno == ESRCH, "no such thread: ESRCH");
	pid = xfork();
	if (!pid) {
		struct cap_header h = { 0x20080522, 0 };
		struct cap_data d[2];

		syscall(SYS_capget, &h, d);
		d[0].effective &= ~(1U << 23);  /* CAP_SYS_NICE */
		syscall(SYS_capset, &h, d);
		_exit(setpriority(PRIO_PROCESS, 0, 10) == 0 && setpriority(PRIO_PROCESS, 0, 5) == -1 &&
		      errno == EACCES && getpriority(PRIO_PROCESS, 0) == 10 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && !WEXITSTATUS(status),
	   "without CAP_SYS_NICE, nice goes up but not back down: EACCES");
}

/* A child pinned where its parent is, at nice, spinning until the monotonic clock reaches end: its CPU time in ms. */
static pid_t spinner(int nice, double end, int fd)
{
	pid_t pid = xfork();

	if (!pid) {
		volatile unsigned long x = 0;
		int ms;

		setpriority(PRIO_PROCESS, 0, nice);
		while (now(CLOCK_MONOTONIC) < end)
			for (int i = 0; i < 1000; i++)
				x += i;
		ms = now(CLOCK_THREAD_CPUTIME_ID) * 1000;
		write(fd, &ms, sizeof(ms));
		_exit(0);
	}
	return pid;
}

/* Run on CPU 0 only from now on (children too); *all gets the mask to go back to. */
static void pin_to_cpu0(cpu_set_t *all)
{
	cpu_set_t one;

	sched_getaffinity(0, sizeof(*all), all);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

/* Two spinners on one CPU for 1.5 s, at nice a and b: the CPU time of each, in ms. */
static void share(int a, int b, int *ms_a, int *ms_b)
{
	cpu_set_t all;
	int fa[2], fb[2];
	double end;

	pin_to_cpu0(&all);
	xpipe(fa, 0);
	xpipe(fb, 0);
	end = now(CLOCK_MONOTONIC) + 1.5;
	spinner(a, end, fa[1]);
	spinner(b, end, fb[1]);
	sched_setaffinity(0, sizeof(all), &all);
	*ms_a = *ms_b = 0;
	read(fa[0], ms_a, sizeof(*ms_a));
	read(fb[0], ms_b, sizeof(*ms_b));
	while (wait(NULL) > 0)
		;
	close(fa[0]), close(fa[1]), close(fb[0]), close(fb[1]);
}

static void check_shares(void)
{
	int a, b;

	share(0, 0, &a, &b);
	ok(a > 0 && b > 0 && a < 2 * b && b < 2 * a, "nice 0 and nice 0 on one CPU: %d and %d ms", a, b);
	share(0, 10, &a, &b);
	ok(a > 0 && a > 3 * b, "nice 0 and nice 10 on one CPU: %d and %d ms (weights 1024:110)", a, b);
}

/*
 * A spinner and a parent forking children that exit at once, on one CPU
 * for a second: the spinner gets a fair part of it (Linux's START_DEBIT:
 * a new task starts a slice after the others, so a stream of them cannot
 * keep sorting ahead of a task that has run).
 */
static void check_fork_storm(void)
{
	cpu_set_t all;
	int fd[2], ms = 0, forks = 0;
	double end;

	pin_to_cpu0(&all);
	xpipe(fd, 0);
	end = now(CLOCK_MONOTONIC) + 1.0;
	spinner(0, end, fd[1]);
	while (now(CLOCK_MONOTONIC) < end) {
		pid_t pid = xfork();

		if (!pid)
			_exit(0);
		waitpid(pid, NULL, 0);
		forks++;
	}
	read(fd[0], &ms, sizeof(ms));
	sched_setaffinity(0, sizeof(all), &all);
	while (wait(NULL) > 0)
		;
	close(fd[0]), close(fd[1]);
	ok(ms >= 450 && forks > 0, "a spinner beside %d fork+exit+wait on one CPU gets %d ms of 1000 (over 450)",
	   forks, ms);
}

int main(void)
{
	mount_proc_sys();
	check_calls();
	check_shares();
	check_fork_storm();
	return tap_done();
}
