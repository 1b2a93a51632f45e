/*
 * Time as Linux keeps it: CLOCK_REALTIME is the date (the RTC's at boot),
 * settable with clock_settime and settimeofday while CLOCK_MONOTONIC runs
 * on; gettimeofday and time agree with it; the coarse clocks count ticks;
 * clock_getres; clock_nanosleep relative and TIMER_ABSTIME; and CPU time:
 * CLOCK_THREAD_CPUTIME_ID / CLOCK_PROCESS_CPUTIME_ID, times(2),
 * getrusage(2) and wait4's rusage grow with work done and not with sleep,
 * a reaped child's time goes to its parent's children's; ITIMER_VIRTUAL
 * and ITIMER_PROF count CPU time, not sleep.  Bounds are wide:
 * QEMU's TCG runs slowly.  Passes unchanged on Linux (as init, root).
 */
#define _GNU_SOURCE
#include "tap.h"
#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <signal.h>

static double ts_sec(const struct timespec *ts)
{
	return ts->tv_sec + ts->tv_nsec / 1e9;
}

static double clock_sec(clockid_t clock)
{
	struct timespec ts = { -1, -1 };

	if (clock_gettime(clock, &ts))
		return -1;
	return ts_sec(&ts);
}

static double tv_sec(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

/* Burn about sec seconds of CPU time in user mode. */
static void spin(double sec)
{
	double end = clock_sec(CLOCK_MONOTONIC) + sec;
	volatile unsigned long x = 0;

	while (clock_sec(CLOCK_MONOTONIC) < end)
		for (int i = 0; i < 10000; i++)
			x += i;
}

static void check_wall_clock(void)
{
	struct timeval tv = { 0, 0 };
	double real = clock_sec(CLOCK_REALTIME), mono = clock_sec(CLOCK_MONOTONIC);
	time_t t = time(NULL);
	int ret = gettimeofday(&tv, NULL);

	ok(real > 1704067200.0, "CLOCK_REALTIME is a date after 2024 (%.0f s since 1970)", real);
	ok(ret == 0 && tv_sec(&tv) - real > -1 && tv_sec(&tv) - real < 2,
	   "gettimeofday agrees with it (%.3f s apart)", tv_sec(&tv) - real);
	ok(t - (time_t)real >= -1 && t - (time_t)real <= 2, "time() agrees with it");
	ok(mono >= 0 && mono < real, "CLOCK_MONOTONIC counts from boot (%.1f s)", mono);
	mono = clock_sec(CLOCK_BOOTTIME) - clock_sec(CLOCK_MONOTONIC);
	ok(mono > -1 && mono < 1, "CLOCK_BOOTTIME runs with CLOCK_MONOTONIC (no suspend)");
}

static void check_settime(void)
{
	struct timespec now, set;
	struct timeval tv;
	double mono0 = clock_sec(CLOCK_MONOTONIC), off0, off1;

	clock_gettime(CLOCK_REALTIME, &now);
	off0 = ts_sec(&now) - mono0;
	set = now;
	set.tv_sec += 100000;
	ok(clock_settime(CLOCK_REALTIME, &set) == 0, "clock_settime(CLOCK_REALTIME, +100000 s)");
	off1 = clock_sec(CLOCK_REALTIME) - clock_sec(CLOCK_MONOTONIC);
	ok(off1 - off0 > 99998 && off1 - off0 < 100002, "the wall clock moved %.1f s",
	   off1 - off0);
	ok(clock_sec(CLOCK_MONOTONIC) >= mono0 && clock_sec(CLOCK_MONOTONIC) < mono0 + 60,
	   "CLOCK_MONOTONIC did not jump");
	tv.tv_sec = now.tv_sec;
	tv.tv_usec = now.tv_nsec / 1000;
	ok(settimeofday(&tv, NULL) == 0 && clock_sec(CLOCK_REALTIME) - ts_sec(&now) < 60 &&
	   clock_sec(CLOCK_REALTIME) - ts_sec(&now) > -1, "settimeofday puts it back");
	errno = 0;
	ok(clock_settime(CLOCK_MONOTONIC, &now) == -1 && errno == EINVAL,
	   "clock_settime(CLOCK_MONOTONIC): EINVAL");
	set.tv_nsec = 1000000000;
	errno = 0;
	ok(clock_settime(CLOCK_REALTIME, &set) == -1 && errno == EINVAL,
	   "clock_settime with tv_nsec 1e9: EINVAL");
	tv.tv_usec = 1000000;
	errno = 0;
	ok(settimeofday(&tv, NULL) == -1 && errno == EINVAL, "settimeofday with tv_usec 1e6: EINVAL");
	set = (struct timespec){ 0, 0 };
	errno = 0;
	ok(clock_settime(CLOCK_REALTIME, &set) == -1 && errno == EINVAL,
	   "clock_settime to 1970, before the boot: EINVAL");
	tv = (struct timeval){ 0x7fffffffffffffffL, 0 };
	errno = 0;
	ok(settimeofday(&tv, NULL) == -1 && errno == EINVAL, "settimeofday to the year 2^63: EINVAL");
}

static void check_res_and_coarse(void)
{
	struct timespec res = { -1, -1 }, c;
	double coarse_res;
	int ret;

	ok(clock_getres(CLOCK_MONOTONIC, &res) == 0 && res.tv_sec == 0 && res.tv_nsec == 1,
	   "clock_getres(CLOCK_MONOTONIC): 1 ns");
	ret = clock_getres(CLOCK_REALTIME_COARSE, &res);
	ok(ret == 0 && res.tv_sec == 0 && res.tv_nsec >= 1000000 && res.tv_nsec <= 10000000,
	   "clock_getres(CLOCK_REALTIME_COARSE): a tick (%ld ns)", res.tv_nsec);
	coarse_res = res.tv_nsec / 1e9;
	ok(clock_gettime(CLOCK_MONOTONIC_COARSE, &c) == 0 &&
	   ts_sec(&c) <= clock_sec(CLOCK_MONOTONIC) &&
	   ts_sec(&c) > clock_sec(CLOCK_MONOTONIC) - 5 * coarse_res - 0.5,
	   "CLOCK_MONOTONIC_COARSE: at most a few ticks behind");
	errno = 0;
	ok(clock_gettime(12345, &c) == -1 && errno == EINVAL, "an unknown clock: EINVAL");
	ok(clock_getres(CLOCK_THREAD_CPUTIME_ID, NULL) == 0, "clock_getres with NULL: 0");
}

static void check_sleeps(void)
{
	struct timespec req = { 0, 100000000 }, abs;
	double t0 = clock_sec(CLOCK_MONOTONIC), t1;

	ok(clock_nanosleep(CLOCK_MONOTONIC, 0, &req, NULL) == 0 &&
	   (t1 = clock_sec(CLOCK_MONOTONIC)) - t0 >= 0.1, "clock_nanosleep 0.1 s relative");
	clock_gettime(CLOCK_MONOTONIC, &abs);
	abs.tv_nsec += 150000000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	ok(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &abs, NULL) == 0 &&
	   clock_sec(CLOCK_MONOTONIC) >= ts_sec(&abs), "TIMER_ABSTIME on CLOCK_MONOTONIC: until then");
	clock_gettime(CLOCK_REALTIME, &abs);
	abs.tv_sec += 1;
	t0 = clock_sec(CLOCK_REALTIME);
	ok(clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &abs, NULL) == 0 &&
	   clock_sec(CLOCK_REALTIME) >= ts_sec(&abs) && clock_sec(CLOCK_REALTIME) - t0 < 30,
	   "TIMER_ABSTIME on CLOCK_REALTIME: until the wall clock says so");
	abs.tv_sec -= 100;
	t0 = clock_sec(CLOCK_MONOTONIC);
	ok(clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &abs, NULL) == 0 &&
	   clock_sec(CLOCK_MONOTONIC) - t0 < 1, "TIMER_ABSTIME in the past: at once");
	req.tv_nsec = -1;
	ok(clock_nanosleep(CLOCK_MONOTONIC, 0, &req, NULL) == EINVAL, "tv_nsec -1: EINVAL");
	req.tv_nsec = 1000;
	ok(clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &req, NULL) == EINVAL,
	   "on the thread's CPU clock: EINVAL");
}

static void check_cpu_time(void)
{
	double th0 = clock_sec(CLOCK_THREAD_CPUTIME_ID), pr0 = clock_sec(CLOCK_PROCESS_CPUTIME_ID);
	double th1, pr1, th2, wall0 = clock_sec(CLOCK_MONOTONIC), wall;
	struct rusage ru0, ru1;
	struct tms tm0, tm1;
	struct timespec nap = { 0, 300000000 };

	getrusage(RUSAGE_SELF, &ru0);
	times(&tm0);
	spin(0.5);
	th1 = clock_sec(CLOCK_THREAD_CPUTIME_ID);
	pr1 = clock_sec(CLOCK_PROCESS_CPUTIME_ID);
	wall = clock_sec(CLOCK_MONOTONIC) - wall0;
	getrusage(RUSAGE_SELF, &ru1);
	times(&tm1);
	ok(th1 - th0 > 0.25 && th1 - th0 <= wall + 0.05,
	   "CLOCK_THREAD_CPUTIME_ID: %.2f s of a %.2f s spin", th1 - th0, wall);
	ok(pr1 - pr0 >= th1 - th0 - 0.01, "CLOCK_PROCESS_CPUTIME_ID: at least the thread's (%.2f s)",
	   pr1 - pr0);
	ok(tv_sec(&ru1.ru_utime) - tv_sec(&ru0.ru_utime) > 0.15,
	   "getrusage: ru_utime grew %.2f s", tv_sec(&ru1.ru_utime) - tv_sec(&ru0.ru_utime));
	ok(tm1.tms_utime + tm1.tms_stime - tm0.tms_utime - tm0.tms_stime >= 15,
	   "times: %ld ticks more", (long)(tm1.tms_utime + tm1.tms_stime - tm0.tms_utime -
					    tm0.tms_stime));
	nanosleep(&nap, NULL);
	th2 = clock_sec(CLOCK_THREAD_CPUTIME_ID);
	ok(th2 - th1 < 0.15, "a 0.3 s sleep costs little CPU time (%.3f s)", th2 - th1);
}

static void check_children(void)
{
	struct rusage ru_wait, ru_children;
	struct tms tm;
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		spin(0.4);
		_exit(0);
	}
	ok(pid > 0 && wait4(pid, &status, 0, &ru_wait) == pid && WIFEXITED(status),
	   "wait4 reaps the spinning child");
	ok(tv_sec(&ru_wait.ru_utime) + tv_sec(&ru_wait.ru_stime) > 0.15,
	   "wait4's rusage: the child's %.2f s", tv_sec(&ru_wait.ru_utime) +
						   tv_sec(&ru_wait.ru_stime));
	ok(getrusage(RUSAGE_CHILDREN, &ru_children) == 0 &&
	   tv_sec(&ru_children.ru_utime) + tv_sec(&ru_children.ru_stime) >=
	   tv_sec(&ru_wait.ru_utime) + tv_sec(&ru_wait.ru_stime) - 0.001,
	   "RUSAGE_CHILDREN counts it");
	ok(times(&tm) != (clock_t)-1 && tm.tms_cutime + tm.tms_cstime >= 15,
	   "times: the children's %ld ticks", (long)(tm.tms_cutime + tm.tms_cstime));
	errno = 0;
	ok(getrusage(5, &ru_children) == -1 && errno == EINVAL, "getrusage(5): EINVAL");
}

/*
 * A child sleeps with TIMER_ABSTIME until the wall clock says now + 100 s;
 * the clock is set 200 s forward: it wakes at once (Linux's timer is on
 * CLOCK_REALTIME); then the clock goes back.
 */
static void check_abstime_follows_clock(void)
{
	struct timespec now, nap = { 0, 100000000 };
	double t0 = clock_sec(CLOCK_MONOTONIC), waited;
	int status;
	pid_t pid;

	clock_gettime(CLOCK_REALTIME, &now);
	pid = fork();
	if (!pid) {
		struct timespec until = { now.tv_sec + 100, now.tv_nsec };

		_exit(clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &until, NULL) ? 1 : 0);
	}
	nanosleep(&nap, NULL);
	clock_gettime(CLOCK_REALTIME, &now);
	now.tv_sec += 200;
	clock_settime(CLOCK_REALTIME, &now);
	waitpid(pid, &status, 0);
	waited = clock_sec(CLOCK_MONOTONIC) - t0;
	clock_gettime(CLOCK_REALTIME, &now);
	now.tv_sec -= 200;
	clock_settime(CLOCK_REALTIME, &now);
	ok(WIFEXITED(status) && !WEXITSTATUS(status) && waited < 10,
	   "an absolute CLOCK_REALTIME sleep ends when the clock is set past it (%.2f s)", waited);
}

static volatile int vtalrms, profs;

static void on_cpu_timer(int sig)
{
	if (sig == SIGVTALRM)
		vtalrms++;
	else
		profs++;
}

/*
 * ITIMER_VIRTUAL and ITIMER_PROF: 50 ms of CPU time fires SIGVTALRM after
 * 50 ms of spinning (not before, not during 150 ms of sleep); a 20 ms
 * periodic ITIMER_PROF fires again and again while spinning 0.3 s;
 * getitimer counts down; disarming stops them.
 */
static void check_cpu_itimers(void)
{
	struct sigaction sa = { .sa_handler = on_cpu_timer };
	struct itimerval v = { .it_value = { 0, 50000 } }, got, prof = { { 0, 20000 }, { 0, 20000 } };
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	struct timespec nap = { 0, 150000000 };
	int ret;

	sigaction(SIGVTALRM, &sa, NULL);
	sigaction(SIGPROF, &sa, NULL);
	ret = setitimer(ITIMER_VIRTUAL, &v, NULL);
	getitimer(ITIMER_VIRTUAL, &got);
	ok(!ret && got.it_value.tv_sec == 0 && got.it_value.tv_usec > 0 &&
	   got.it_value.tv_usec <= 50000 + 20000, "ITIMER_VIRTUAL armed: %ld us left",
	   (long)got.it_value.tv_usec);
	nanosleep(&nap, NULL);
	ok(vtalrms == 0, "sleeping 150 ms uses no ITIMER_VIRTUAL time");
	for (int i = 0; i < 100 && !vtalrms; i++)
		spin(0.01);
	ok(vtalrms == 1, "SIGVTALRM after spinning");
	getitimer(ITIMER_VIRTUAL, &got);
	ok(!got.it_value.tv_sec && !got.it_value.tv_usec, "a one-shot ITIMER_VIRTUAL is disarmed after");
	ret = setitimer(ITIMER_PROF, &prof, NULL);
	spin(0.3);
	setitimer(ITIMER_PROF, &off, &got);
	ok(!ret && profs >= 3, "a 20 ms periodic ITIMER_PROF fired %d times in 0.3 s of spinning", profs);
	ok(got.it_interval.tv_usec == 20000, "setitimer returns the old interval");
	ret = profs;
	spin(0.1);
	ok(profs == ret, "a disarmed ITIMER_PROF fires no more");
	errno = 0;
	ok(setitimer(3, &v, NULL) == -1 && errno == EINVAL, "setitimer(3): EINVAL");
}

int main(void)
{
	mount_proc_sys();
	check_wall_clock();
	check_settime();
	check_res_and_coarse();
	check_sleeps();
	check_cpu_time();
	check_children();
	check_cpu_itimers();
	check_abstime_follows_clock();
	return tap_done();
}
