/*
 * Guest test (TAP): alarm, setitimer and getitimer (ITIMER_REAL) as
 * Linux's — what kselftest_harness.h before Linux 6.13 times a test out
 * with (a SIGALRM handler, alarm(timeout), waitpid interrupted).  SIGALRM
 * arrives after the time, a sleeping waitpid ends with EINTR, an interval
 * timer reloads, alarm returns the seconds left, a child of fork starts
 * disarmed, errnos.  Runs unchanged on Linux
 * (../shared/peer/linux-peer.sh --mounts).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>
#include <sys/wait.h>
#include "tap.h"

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void test_oneshot(void)
{
	struct itimerval v = { .it_value = { 0, 200000 } }, cur;
	long start = now_ms();
	int status;
	pid_t pid;

	ok(setitimer(ITIMER_REAL, &v, NULL) == 0 && getitimer(ITIMER_REAL, &cur) == 0 &&
	   cur.it_value.tv_sec == 0 && cur.it_value.tv_usec > 0 && cur.it_value.tv_usec <= 200000 &&
	   cur.it_interval.tv_usec == 0, "setitimer 200 ms: getitimer shows the time left");
	pid = xfork();
	if (pid == 0) {
		getitimer(ITIMER_REAL, &cur);
		_exit(cur.it_value.tv_sec || cur.it_value.tv_usec ? 1 : 2);
	}
	ok(waitpid(pid, &status, 0) == pid && WEXITSTATUS(status) == 2,
	   "the child of fork starts with no timer");
	while (!alarms && now_ms() - start < 5000)
		pause();
	ok(alarms == 1 && now_ms() - start >= 190, "SIGALRM after 200 ms (%ld ms)", now_ms() - start);
	ok(getitimer(ITIMER_REAL, &cur) == 0 && !cur.it_value.tv_sec && !cur.it_value.tv_usec,
	   "a one-shot timer is disarmed after it fired");
}

/* The old harness: alarm(timeout), waitpid on a test that hangs: EINTR, then kill it. */
static void test_harness_alarm(void)
{
	pid_t pid = xfork();
	int status = 0;

	if (pid == 0)
		for (;;)
			pause();
	alarms = 0;
	alarm(1);
	errno = 0;
	ok(waitpid(pid, &status, 0) == -1 && errno == EINTR && alarms == 1,
	   "alarm(1) ends a waitpid on a hung child with EINTR");
	kill(pid, SIGKILL);
	ok(waitpid(pid, &status, 0) == pid && WTERMSIG(status) == SIGKILL, "the hung child killed");
	ok(alarm(0) == 0, "alarm(0) after it fired: 0 seconds left");
}

static void test_interval_and_alarm(void)
{
	struct itimerval v = { .it_interval = { 0, 50000 }, .it_value = { 0, 50000 } }, old;
	long start = now_ms();

	alarms = 0;
	setitimer(ITIMER_REAL, &v, NULL);
	while (alarms < 3 && now_ms() - start < 5000)
		pause();
	memset(&v, 0, sizeof(v));
	ok(alarms >= 3 && setitimer(ITIMER_REAL, &v, &old) == 0 && old.it_interval.tv_usec == 50000,
	   "an interval timer reloads (3 SIGALRMs), the old setting returned");
	ok(alarm(100) == 0 && alarm(5) == 100 && alarm(0) == 5, "alarm returns the seconds left");
	errno = 0;
	v.it_value.tv_usec = 1000000;
	ok(setitimer(ITIMER_REAL, &v, NULL) == -1 && errno == EINVAL,
	   "setitimer with tv_usec 1000000: EINVAL");
	errno = 0;
	ok(getitimer(3, &old) == -1 && errno == EINVAL, "getitimer(3): EINVAL");
}

int main(void)
{
	struct sigaction act = { .sa_handler = on_alarm };

	mount_proc_sys();
	sigaction(SIGALRM, &act, NULL);
	test_oneshot();
	test_harness_alarm();
	test_interval_and_alarm();
	return tap_done();
}
