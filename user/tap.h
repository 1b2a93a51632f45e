/*
 * TAP output for the guest tests, and what every test needs around it:
 * "ok N name" / "not ok N name" lines, the plan at the end, a pipe and a
 * fork that end the test instead of hanging (or killing every process)
 * when they cannot be made, and /proc and /sys when the test runs as
 * Linux's init.  Header-only: each test stays
 * one program.
 */
#ifndef USER_TAP_H
#define USER_TAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/wait.h>

static int tap_n, tap_failed;

static inline void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	tap_failed += !cond;
}

/* A check this machine cannot make: "ok N # SKIP why". */
static inline void skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tap_n, why);
	fflush(stdout);
}

/* The plan line; the exit status: 0 if every check passed. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

/*
 * pipe(), or end the test with a failed check: under fault injection it
 * can fail, and an unset fd pair could make a process wait forever.
 */
static inline void xpipe(int fds[2], int flags)
{
	if (pipe2(fds, flags)) {
		ok(0, "pipe: out of memory");
		exit(tap_done());
	}
}

/*
 * fork(), or end the test: under fault injection it can fail, and a
 * failed fork's -1 must never reach kill(), where it means every process
 * but init (the test runner too).
 */
static inline pid_t xfork(void)
{
	pid_t pid = fork();

	if (pid < 0) {
		printf("Bail out! fork: %s\n", strerror(errno));
		exit(1);
	}
	return pid;
}

/* fn() in a child process: its exit status, or -1 if a signal ended it. */
static inline int exit_status_of(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (!pid)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Run as Linux's init (../shared/peer/linux-peer.sh without --mounts),
 * a test mounts /proc, /sys and /dev itself; on foliOS they are always there.
 */
static inline void mount_proc_sys(void)
{
	if (access("/proc/meminfo", R_OK)) {
		mount("proc", "/proc", "proc", 0, NULL);
		mount("sysfs", "/sys", "sysfs", 0, NULL);
	}
	if (access("/dev/null", R_OK))
		mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
}

#endif
