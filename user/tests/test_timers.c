/*
 * Guest test (TAP): POSIX per-process timers as Linux 6.1's — timer_create,
 * timer_settime, timer_gettime, timer_getoverrun, timer_delete, by raw
 * system call (the C libraries' timer_t is not the kernel's id).  The
 * clocks, the sigevents (SIGEV_SIGNAL, SIGEV_NONE, SIGEV_THREAD_ID, the
 * NULL default), ids 0, 1, 2..., relative and absolute settings, periodic
 * reloads, overruns with the signal queued once or ignored, deletion at
 * exec, none inherited by fork, clock_settime, CPU-time clocks and a
 * thread's clock that outlives it, the errnos.  Runs unchanged on Linux
 * (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

/* ok(), and the condition. */
#define okr(cond, ...) ({ int c_ = (cond); ok(c_, __VA_ARGS__); c_; })

#define K_SIGEV_SIGNAL          0
#define K_SIGEV_NONE            1
#define K_SIGEV_THREAD          2
#define K_SIGEV_THREAD_ID       4

struct ksigevent {
	long value;
	int signo;
	int notify;
	int tid;
	int pad[11];
};

struct kits {
	struct timespec it_interval, it_value;
};

static long t_create(int clock, struct ksigevent *ev, int *id)
{
	return syscall(SYS_timer_create, clock, ev, id);
}

static long t_set(int id, int flags, long val_ns, long iv_ns, struct kits *old)
{
	struct kits v = { { iv_ns / 1000000000, iv_ns % 1000000000 },
			  { val_ns / 1000000000, val_ns % 1000000000 } };

	return syscall(SYS_timer_settime, id, flags, &v, old);
}

static long t_get_ns(int id, long *iv)
{
	struct kits v;

	if (syscall(SYS_timer_gettime, id, &v))
		return -1;
	if (iv)
		*iv = v.it_interval.tv_sec * 1000000000L + v.it_interval.tv_nsec;
	return v.it_value.tv_sec * 1000000000L + v.it_value.tv_nsec;
}

static long t_del(int id)
{
	return syscall(SYS_timer_delete, id);
}

static int err_of(long r)
{
	return r < 0 ? errno : 0;
}

static long now_ns(int clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static volatile int hits, last_code, last_timerid, last_overrun, first_overrun, last_tid, last_getoverrun;
static volatile long last_value;
static volatile int getoverrun_id = -1;

static void on_timer(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (!hits++)
		first_overrun = si->si_overrun;
	last_code = si->si_code;
	last_timerid = si->si_timerid;
	last_overrun = si->si_overrun;
	last_value = (long)si->si_value.sival_ptr;
	last_tid = syscall(SYS_gettid);
	if (getoverrun_id >= 0)
		last_getoverrun = syscall(SYS_timer_getoverrun, getoverrun_id);
}

static void catch(int sig)
{
	struct sigaction sa = { .sa_sigaction = on_timer, .sa_flags = SA_SIGINFO | SA_RESTART };

	sigaction(sig, &sa, NULL);
}

static void block(int sig, int how)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(how, &s, NULL);
}

/* Wait up to ms for hits to reach n. */
static int wait_hits(int n, long ms)
{
	long end = now_ns(CLOCK_MONOTONIC) + ms * 1000000L;

	while (hits < n && now_ns(CLOCK_MONOTONIC) < end)
		sleep_ms(1);
	return hits >= n;
}

/* Set CLOCK_REALTIME sec seconds on: 0, or -1 with errno. */
static int shift_realtime(long sec)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += sec;
	return clock_settime(CLOCK_REALTIME, &ts);
}

/* Run fn in a child (a fresh process: ids from 0, no timers); its exit status. */
static int in_child(int (*fn)(void))
{
	int status;
	pid_t pid = xfork();

	if (pid == 0)
		_exit(fn());
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

static int ids_child(void)
{
	int a = -1, b = -1, c = -1, d = -1;

	if (t_create(CLOCK_MONOTONIC, NULL, &a) || t_create(CLOCK_MONOTONIC, NULL, &b) ||
	    t_create(CLOCK_MONOTONIC, NULL, &c))
		return 1;
	if (a != 0 || b != 1 || c != 2)
		return 2;
	if (t_del(1) || t_create(CLOCK_MONOTONIC, NULL, &d) || d != 3)
		return 3;
	if (err_of(t_del(1)) != EINVAL || err_of(t_del(99)) != EINVAL || err_of(t_del(-1)) != EINVAL)
		return 4;
	return 0;
}

static int limit_child(void)
{
	struct rlimit r = { 4, 4 };
	int n, id, e = 0;

	if (setrlimit(RLIMIT_SIGPENDING, &r))
		return 1;
	for (n = 0; n < 100; n++)
		if (t_create(CLOCK_MONOTONIC, NULL, &id)) {
			e = errno;
			break;
		}
	return e == EAGAIN && n >= 1 && n <= 4 ? 0 : 2;
}

static int fork_child_id;

static int fork_child(void)
{
	int id = -1;

	if (t_get_ns(fork_child_id, NULL) != -1 || errno != EINVAL)
		return 1;       /* the parent's timer is not ours */
	if (t_create(CLOCK_MONOTONIC, NULL, &id) || id != 0)
		return 2;
	return 0;
}

/* A child dies with a periodic timer whose signal is queued and blocked. */
static int exit_child(void)
{
	struct ksigevent ev = { .signo = SIGRTMIN + 1, .notify = K_SIGEV_SIGNAL };
	int id;

	block(SIGRTMIN + 1, SIG_BLOCK);
	if (t_create(CLOCK_MONOTONIC, &ev, &id) || t_set(id, 0, 1000000, 1000000, NULL))
		return 1;
	sleep_ms(30);
	return 0;
}

static void test_create_errors(void)
{
	struct ksigevent ev = { .signo = SIGUSR1, .notify = K_SIGEV_SIGNAL };
	int id;
	long r;

	ok(err_of(t_create(CLOCK_MONOTONIC, (void *)1, &id)) == EFAULT, "timer_create: bad sevp is EFAULT");
	ok(err_of(t_create(CLOCK_MONOTONIC, NULL, (void *)1)) == EFAULT, "timer_create: bad timerid is EFAULT");
	ok(err_of(t_create(100, NULL, &id)) == EINVAL, "timer_create: unknown clock 100 is EINVAL");
	ok(err_of(t_create(10, NULL, &id)) == EINVAL, "timer_create: clock 10 (SGI cycle) is EINVAL");
	ok(err_of(t_create(CLOCK_MONOTONIC_RAW, NULL, &id)) == EOPNOTSUPP, "timer_create: MONOTONIC_RAW is EOPNOTSUPP");
	ok(err_of(t_create(CLOCK_MONOTONIC_COARSE, NULL, &id)) == EOPNOTSUPP, "timer_create: MONOTONIC_COARSE is EOPNOTSUPP");
	ev.signo = 0;
	ok(err_of(t_create(CLOCK_MONOTONIC, &ev, &id)) == EINVAL, "timer_create: signal 0 is EINVAL");
	ev.signo = 65;
	ok(err_of(t_create(CLOCK_MONOTONIC, &ev, &id)) == EINVAL, "timer_create: signal 65 is EINVAL");
	ev.signo = SIGUSR1;
	ev.notify = 3;
	ok(err_of(t_create(CLOCK_MONOTONIC, &ev, &id)) == EINVAL, "timer_create: sigev_notify 3 is EINVAL");
	ev.notify = K_SIGEV_THREAD_ID;
	ev.tid = getppid();
	ok(err_of(t_create(CLOCK_MONOTONIC, &ev, &id)) == EINVAL,
	   "timer_create: SIGEV_THREAD_ID of another process's thread is EINVAL");
	ev.tid = 0x3fffffff;
	ok(err_of(t_create(CLOCK_MONOTONIC, &ev, &id)) == EINVAL, "timer_create: SIGEV_THREAD_ID of no thread is EINVAL");
	ev.notify = K_SIGEV_THREAD;             /* to the kernel, SIGEV_SIGNAL (good_sigevent) */
	ok(t_create(CLOCK_MONOTONIC, &ev, &id) == 0 && t_del(id) == 0, "timer_create: SIGEV_THREAD is taken as SIGEV_SIGNAL");
	ev.notify = K_SIGEV_NONE;
	ev.signo = 0;
	ok(t_create(CLOCK_MONOTONIC, &ev, &id) == 0 && t_del(id) == 0, "timer_create: SIGEV_NONE ignores the signal number");
	ok(t_create(CLOCK_REALTIME, NULL, &id) == 0 && t_del(id) == 0, "timer_create: CLOCK_REALTIME");
	ok(t_create(CLOCK_BOOTTIME, NULL, &id) == 0 && t_del(id) == 0, "timer_create: CLOCK_BOOTTIME");
	r = t_create(CLOCK_REALTIME_ALARM, NULL, &id);
	ok(r == 0 ? t_del(id) == 0 : errno == EPERM || errno == EOPNOTSUPP,
	   "timer_create: CLOCK_REALTIME_ALARM: made, or EPERM/EOPNOTSUPP");
	ok(err_of(syscall(SYS_timer_getoverrun, 12345)) == EINVAL, "timer_getoverrun: unknown id is EINVAL");
	ok(err_of(syscall(SYS_timer_gettime, 12345, (struct kits *)&ev)) == EINVAL, "timer_gettime: unknown id is EINVAL");
}

static void test_ids(void)
{
	ok(in_child(ids_child) == 0, "ids are 0, 1, 2, not reused after a delete; deleting an unknown id is EINVAL");
	ok(in_child(limit_child) == 0, "timer_create: EAGAIN past RLIMIT_SIGPENDING");
}

static void test_default_sevp(void)
{
	int id;
	long start = now_ns(CLOCK_MONOTONIC);

	catch(SIGALRM);
	hits = 0;
	if (!okr(t_create(CLOCK_MONOTONIC, NULL, &id) == 0, "timer_create(CLOCK_MONOTONIC, NULL)"))
		return;
	ok(t_get_ns(id, NULL) == 0, "a new timer is disarmed");
	ok(t_set(id, 0, 30000000, 0, NULL) == 0, "timer_settime: 30 ms one-shot");
	ok(wait_hits(1, 1000) && now_ns(CLOCK_MONOTONIC) - start >= 30000000,
	   "NULL sevp: SIGALRM, not before 30 ms");
	ok(last_code == SI_TIMER && last_timerid == id && last_value == id && last_overrun == 0,
	   "its siginfo: SI_TIMER, si_timerid and si_value the id (%d %d %ld)", last_code, last_timerid, last_value);
	ok(t_get_ns(id, NULL) == 0, "an expired one-shot reads 0");
	ok(t_del(id) == 0 && err_of(t_del(id)) == EINVAL, "timer_delete, twice is EINVAL");
	signal(SIGALRM, SIG_DFL);
}

static void test_settime(void)
{
	struct ksigevent ev = { .value = 0x1234, .signo = SIGUSR1, .notify = K_SIGEV_SIGNAL };
	struct kits old, bad = { { 0, 0 }, { 0, 1000000000 } };
	long iv, left;
	int id, h;

	catch(SIGUSR1);
	if (!okr(t_create(CLOCK_REALTIME, &ev, &id) == 0, "timer_create(CLOCK_REALTIME, SIGUSR1)"))
		return;
	ok(err_of(syscall(SYS_timer_settime, id, 0, NULL, NULL)) == EINVAL, "timer_settime: NULL new is EINVAL");
	ok(err_of(syscall(SYS_timer_settime, id, 0, (void *)1, NULL)) == EFAULT, "timer_settime: bad new is EFAULT");
	ok(err_of(syscall(SYS_timer_settime, id, 0, &bad, NULL)) == EINVAL, "timer_settime: tv_nsec 1e9 is EINVAL");
	bad.it_value = (struct timespec){ -1, 0 };
	ok(err_of(syscall(SYS_timer_settime, id, 0, &bad, NULL)) == EINVAL, "timer_settime: negative seconds is EINVAL");
	bad.it_value = (struct timespec){ 1, 0 };
	bad.it_interval.tv_nsec = -1;
	ok(err_of(syscall(SYS_timer_settime, id, 0, &bad, NULL)) == EINVAL, "timer_settime: bad interval is EINVAL");
	ok(err_of(t_set(12345, 0, 1000000, 0, NULL)) == EINVAL, "timer_settime: unknown id is EINVAL");
	ok(err_of(syscall(SYS_timer_gettime, id, (void *)1)) == EFAULT, "timer_gettime: bad pointer is EFAULT");

	ok(t_set(id, 0, 1000000000, 500000000, NULL) == 0, "arm for 1 s, interval 0.5 s");
	left = t_get_ns(id, &iv);
	ok(left > 900000000 && left <= 1000000000 && iv == 500000000, "timer_gettime: %ld ns left, interval %ld", left, iv);
	memset(&old, 0xff, sizeof(old));
	ok(t_set(id, 0, 2000000000, 0, &old) == 0 && old.it_value.tv_sec == 0 && old.it_value.tv_nsec > 900000000 &&
	   old.it_interval.tv_sec == 0 && old.it_interval.tv_nsec == 500000000,
	   "timer_settime returns the old setting");
	ok(t_set(id, 0, 0, 500000000, &old) == 0 && old.it_value.tv_sec == 1, "a zero it_value disarms");
	left = t_get_ns(id, &iv);
	ok(left == 0 && iv == 0, "disarmed: value and interval read 0");
	ok(err_of(syscall(SYS_timer_settime, id, 0, &(struct kits){ { 0, 0 }, { 5, 0 } }, (void *)1)) == EFAULT &&
	   t_get_ns(id, NULL) > 4000000000L, "bad old is EFAULT, after the timer was set");

	hits = 0;
	ok(t_set(id, TIMER_ABSTIME, now_ns(CLOCK_REALTIME) + 40000000, 0, NULL) == 0, "TIMER_ABSTIME, 40 ms ahead");
	long start = now_ns(CLOCK_REALTIME);
	ok(wait_hits(1, 1000) && now_ns(CLOCK_REALTIME) - start >= 30000000, "the absolute expiry signals");
	ok(last_code == SI_TIMER && last_value == 0x1234 && last_timerid == id,
	   "si_value is sigev_value (%#lx)", last_value);
	hits = 0;
	ok(t_set(id, TIMER_ABSTIME, 1, 0, NULL) == 0 && wait_hits(1, 500), "an absolute time past fires at once");
	t_del(id);

	hits = 0;
	ok(t_create(CLOCK_MONOTONIC, &ev, &id) == 0 && t_set(id, 0, 20000000, 20000000, NULL) == 0,
	   "a periodic 20 ms timer");
	h = wait_hits(4, 1000);
	ok(h, "reloads: %d signals", hits);
	left = t_get_ns(id, &iv);
	ok(left > 0 && left <= 20000000 && iv == 20000000, "timer_gettime: the time to the next period (%ld)", left);
	t_del(id);
	sleep_ms(30);
	h = hits;
	sleep_ms(50);
	ok(hits == h, "timer_delete stops it");
	signal(SIGUSR1, SIG_DFL);
}

static void test_sigev_none(void)
{
	struct ksigevent ev = { .notify = K_SIGEV_NONE };
	long l1, l2, iv;
	int id;

	if (!okr(t_create(CLOCK_MONOTONIC, &ev, &id) == 0, "timer_create SIGEV_NONE"))
		return;
	t_set(id, 0, 200000000, 0, NULL);
	l1 = t_get_ns(id, NULL);
	sleep_ms(30);
	l2 = t_get_ns(id, NULL);
	ok(l1 > 0 && l1 <= 200000000 && l2 < l1 - 20000000, "SIGEV_NONE counts down (%ld, %ld)", l1, l2);
	t_set(id, 0, 1000000, 0, NULL);
	sleep_ms(30);
	ok(t_get_ns(id, NULL) == 0, "SIGEV_NONE one-shot past its expiry reads 0");
	t_set(id, 0, 10000000, 50000000, NULL);
	sleep_ms(80);
	l1 = t_get_ns(id, &iv);
	ok(l1 > 0 && l1 <= 50000000 && iv == 50000000, "SIGEV_NONE periodic reads the next period (%ld)", l1);
	ok(syscall(SYS_timer_getoverrun, id) == 0, "SIGEV_NONE: no overruns");
	t_del(id);
}

static volatile int thread_tid, thread_stop;

static void *spin_thread(void *arg)
{
	(void)arg;
	block(SIGUSR2, SIG_UNBLOCK);            /* pthread_create gave it the main thread's mask */
	thread_tid = syscall(SYS_gettid);
	while (!thread_stop)
		sleep_ms(1);
	return NULL;
}

static void test_thread_id(void)
{
	struct ksigevent ev = { .signo = SIGUSR2, .notify = K_SIGEV_THREAD_ID };
	pthread_t th;
	int id;

	catch(SIGUSR2);
	block(SIGUSR2, SIG_BLOCK);              /* the main thread blocks it: only the target takes it */
	pthread_create(&th, NULL, spin_thread, NULL);
	while (!thread_tid)
		sleep_ms(1);
	ev.tid = thread_tid;
	hits = 0;
	ok(t_create(CLOCK_MONOTONIC, &ev, &id) == 0 && t_set(id, 0, 10000000, 0, NULL) == 0,
	   "SIGEV_THREAD_ID to another thread of the process");
	ok(wait_hits(1, 1000) && last_tid == thread_tid && last_code == SI_TIMER,
	   "the signal goes to that thread (%d, wanted %d)", last_tid, thread_tid);
	t_del(id);
	thread_stop = 1;
	pthread_join(th, NULL);
	block(SIGUSR2, SIG_UNBLOCK);
	ev.tid = syscall(SYS_gettid);
	hits = 0;
	ok(t_create(CLOCK_MONOTONIC, &ev, &id) == 0 && t_set(id, 0, 10000000, 0, NULL) == 0 &&
	   wait_hits(1, 1000) && last_tid == ev.tid, "SIGEV_THREAD_ID to the calling thread");
	t_del(id);
	signal(SIGUSR2, SIG_DFL);
}

static void test_overrun(void)
{
	struct ksigevent ev = { .signo = SIGRTMIN, .notify = K_SIGEV_SIGNAL };
	sigset_t set;
	int id;

	catch(SIGRTMIN);
	block(SIGRTMIN, SIG_BLOCK);
	if (!okr(t_create(CLOCK_MONOTONIC, &ev, &id) == 0, "timer_create SIGRTMIN"))
		return;
	getoverrun_id = id;
	hits = 0;
	t_set(id, 0, 20000000, 20000000, NULL);
	sleep_ms(200);
	sigpending(&set);
	ok(sigismember(&set, SIGRTMIN), "the periodic timer's signal is pending while blocked");
	block(SIGRTMIN, SIG_UNBLOCK);
	block(SIGRTMIN, SIG_BLOCK);
	ok(hits == 1, "a real-time timer signal is queued once, not per expiry (%d)", hits);
	ok(last_overrun >= 5 && last_overrun <= 12, "si_overrun counts the expiries meanwhile (%d)", last_overrun);
	ok(last_getoverrun == last_overrun, "timer_getoverrun in the handler matches (%d)", last_getoverrun);
	t_set(id, 0, 0, 0, NULL);
	ok(syscall(SYS_timer_getoverrun, id) == 0, "timer_settime resets timer_getoverrun");
	getoverrun_id = -1;

	/* Expiries while the signal is ignored count too (Linux 6.1 forwards the timer). */
	signal(SIGRTMIN, SIG_IGN);
	block(SIGRTMIN, SIG_UNBLOCK);
	t_set(id, 0, 10000000, 10000000, NULL);
	sleep_ms(200);
	hits = 0;
	catch(SIGRTMIN);
	int got = wait_hits(1, 1000);

	ok(got && first_overrun >= 10, "expiries while ignored are overruns (%d)", first_overrun);
	block(SIGRTMIN, SIG_BLOCK);
	t_set(id, 0, 0, 0, NULL);
	sigprocmask(SIG_SETMASK, &(sigset_t){ 0 }, NULL);       /* take a signal still pending */
	block(SIGRTMIN, SIG_BLOCK);

	/* A deleted timer's queued signal stays pending. */
	hits = 0;
	t_set(id, 0, 5000000, 0, NULL);
	sleep_ms(40);
	ok(t_del(id) == 0, "timer_delete with its signal queued");
	sigpending(&set);
	ok(sigismember(&set, SIGRTMIN), "the signal stays pending");
	block(SIGRTMIN, SIG_UNBLOCK);
	ok(hits == 1 && last_code == SI_TIMER, "and is delivered");
	signal(SIGRTMIN, SIG_DFL);
}

static void test_cpu_clocks(void)
{
	struct ksigevent ev = { .signo = SIGUSR1, .notify = K_SIGEV_SIGNAL };
	int clocks[2] = { CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID };
	const char *names[2] = { "CLOCK_PROCESS_CPUTIME_ID", "CLOCK_THREAD_CPUTIME_ID" };
	int id;

	catch(SIGUSR1);
	for (int i = 0; i < 2; i++) {
		long c0 = now_ns(clocks[i]), w0 = now_ns(CLOCK_MONOTONIC), left;

		hits = 0;
		if (!okr(t_create(clocks[i], &ev, &id) == 0 && t_set(id, 0, 30000000, 0, NULL) == 0,
			"timer_create(%s), 30 ms", names[i]))
			continue;
		left = t_get_ns(id, NULL);
		ok(left > 0 && left <= 30000000, "%s: timer_gettime %ld", names[i], left);
		while (!hits && now_ns(CLOCK_MONOTONIC) - w0 < 2000000000L)
			;
		ok(hits == 1 && now_ns(clocks[i]) - c0 >= 30000000,
		   "%s: fires after the CPU time (%ld ns used)", names[i], now_ns(clocks[i]) - c0);
		t_del(id);
	}
	hits = 0;
	ok(t_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &id) == 0 && t_set(id, TIMER_ABSTIME, 1, 0, NULL) == 0 &&
	   wait_hits(1, 500), "a CPU-time expiry already past fires at once, the process asleep");
	t_del(id);
	signal(SIGUSR1, SIG_DFL);
}

static void *thread_cpu_timer(void *arg)
{
	t_create(CLOCK_THREAD_CPUTIME_ID, &(struct ksigevent){ .signo = SIGUSR1 }, arg);
	return NULL;
}

/* A thread-CPU timer outlives its thread: it cannot be armed, and reads zero. */
static void test_dead_thread_clock(void)
{
	struct kits v;
	pthread_t th;
	int id = -1;

	pthread_create(&th, NULL, thread_cpu_timer, &id);
	pthread_join(th, NULL);
	if (!okr(id >= 0, "a thread creates a CLOCK_THREAD_CPUTIME_ID timer, then exits"))
		return;
	sleep_ms(50);                           /* the join returns before the thread is reaped */
	ok(err_of(t_set(id, 0, 1000000000, 1000000, NULL)) == ESRCH, "timer_settime: ESRCH");
	memset(&v, 0xff, sizeof(v));
	long r = syscall(SYS_timer_gettime, id, &v);
	ok(r == 0 && !v.it_value.tv_sec && !v.it_value.tv_nsec && !v.it_interval.tv_sec &&
	   !v.it_interval.tv_nsec, "timer_gettime: all zero (%ld: %ld %ld %ld %ld)", r, (long)v.it_value.tv_sec,
	   v.it_value.tv_nsec, (long)v.it_interval.tv_sec, v.it_interval.tv_nsec);
	ok(t_del(id) == 0, "timer_delete");
}

/* clock_settime moves absolute CLOCK_REALTIME timers only. */
static void test_clock_set(void)
{
	struct ksigevent ev = { .signo = SIGUSR1, .notify = K_SIGEV_SIGNAL };
	int rel, abs;

	catch(SIGUSR1);
	hits = 0;
	ok(t_create(CLOCK_REALTIME, &ev, &rel) == 0 && t_set(rel, 0, 300000000, 0, NULL) == 0 &&
	   t_create(CLOCK_REALTIME, &ev, &abs) == 0 &&
	   t_set(abs, TIMER_ABSTIME, now_ns(CLOCK_REALTIME) + 50000000000L, 0, NULL) == 0,
	   "CLOCK_REALTIME timers: 300 ms relative, 50 s absolute");
	if (shift_realtime(100) == 0) {
		ok(wait_hits(1, 100) && t_get_ns(abs, NULL) == 0, "the clock set 100 s ahead: the absolute one fires");
		ok(t_get_ns(rel, NULL) > 100000000, "the relative one does not move (%ld ns left)",
		   t_get_ns(rel, NULL));
		shift_realtime(-100);
		ok(wait_hits(2, 1000), "and fires in its time");
	} else {
		ok(0, "clock_settime: %s", strerror(errno));
	}
	t_del(rel);
	t_del(abs);
	signal(SIGUSR1, SIG_DFL);
}

static void test_fork_exec_exit(const char *self)
{
	int status, id;
	pid_t pid;

	ok(t_create(CLOCK_MONOTONIC, NULL, &fork_child_id) == 0, "a timer before fork");
	t_set(fork_child_id, 0, 10000000000L, 0, NULL);
	ok(in_child(fork_child) == 0, "fork's child has none of its parent's timers; its ids start at 0");
	t_del(fork_child_id);
	ok(in_child(exit_child) == 0, "a process exits with a periodic timer's signal queued");

	pid = xfork();
	if (pid == 0) {
		if (t_create(CLOCK_MONOTONIC, NULL, &id) || t_set(id, 0, 10000000000L, 0, NULL))
			_exit(1);
		char idstr[16];

		snprintf(idstr, sizeof(idstr), "%d", id);
		execl(self, self, "--after-exec", idstr, (char *)NULL);
		_exit(2);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exec deletes the timers (status %#x)", status);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--after-exec")) {
		struct kits v;

		return syscall(SYS_timer_gettime, atoi(argv[2]), &v) == -1 && errno == EINVAL ? 0 : 3;
	}
	test_create_errors();
	test_ids();
	test_default_sevp();
	test_settime();
	test_sigev_none();
	test_thread_id();
	test_overrun();
	test_cpu_clocks();
	test_dead_thread_clock();
	test_clock_set();
	test_fork_exec_exit(argv[0]);
	return tap_done();
}
