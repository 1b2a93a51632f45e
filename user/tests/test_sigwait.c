/*
 * Guest test (TAP): waiting for a signal instead of handling it, as Linux
 * 6.1's rt_sigtimedwait — sigwaitinfo, sigtimedwait and sigwait take a
 * pending signal of the set with its siginfo and no handler runs; with
 * nothing pending they sleep with the set opened until one comes, the
 * timeout passes (EAGAIN) or another signal interrupts (EINTR); a signal
 * whose default is to be ignored is kept for the waiter only while
 * blocked; a process-directed signal goes to the thread that waits for
 * it; the C library's SIGEV_THREAD timers (a helper thread in sigwait)
 * work.  Runs unchanged on Linux (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

static volatile sig_atomic_t handled;

static void on_signal(int sig)
{
	handled = sig;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static sigset_t set_of(int sig)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, sig);
	return s;
}

/* A child that sends sig to its parent after ms, then exits with 0. */
static pid_t send_later(int sig, long ms)
{
	pid_t parent = getpid(), pid = xfork();

	if (!pid) {
		usleep(ms * 1000);
		kill(parent, sig);
		_exit(0);
	}
	return pid;
}

static void test_pending(void)
{
	sigset_t s = set_of(SIGUSR1);
	struct timespec zero = { 0, 0 };
	siginfo_t si;

	signal(SIGUSR1, on_signal);
	sigprocmask(SIG_BLOCK, &s, NULL);
	errno = 0;
	ok(sigtimedwait(&s, &si, &zero) == -1 && errno == EAGAIN, "nothing pending, zero timeout: EAGAIN");
	raise(SIGUSR1);
	memset(&si, 0, sizeof(si));
	int got = sigwaitinfo(&s, &si);
	ok(got == SIGUSR1 && si.si_signo == SIGUSR1 && si.si_code == SI_TKILL && si.si_pid == getpid(),
	   "a pending blocked signal is taken with its siginfo (code %d)", si.si_code);
	ok(!handled, "its handler did not run");
	sigset_t pend;
	sigpending(&pend);
	ok(!sigismember(&pend, SIGUSR1), "and it is no longer pending");

	sigset_t rt = set_of(SIGRTMIN);
	sigprocmask(SIG_BLOCK, &rt, NULL);
	sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = 7 });
	sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = 8 });
	int a = sigwaitinfo(&rt, &si), va = si.si_value.sival_int, b = sigwaitinfo(&rt, &si);
	ok(a == SIGRTMIN && b == SIGRTMIN && va == 7 && si.si_value.sival_int == 8 && si.si_code == SI_QUEUE,
	   "two queued real-time signals come one by one, in order, with their values");
	int sig = 0;
	raise(SIGRTMIN);
	ok(sigwait(&rt, &sig) == 0 && sig == SIGRTMIN, "sigwait");
	sigprocmask(SIG_UNBLOCK, &rt, NULL);
}

static void test_sleep(void)
{
	sigset_t s = set_of(SIGUSR2);
	struct timespec ts = { 0, 50000000 };
	siginfo_t si;
	long t0 = now_ms();
	pid_t pid;

	sigprocmask(SIG_BLOCK, &s, NULL);
	errno = 0;
	int got = sigtimedwait(&s, &si, &ts), err = errno;
	long took = now_ms() - t0;

	ok(got == -1 && err == EAGAIN && took >= 50, "a 50 ms timeout passes: EAGAIN after %ld ms", took);
	pid = send_later(SIGUSR2, 50);
	ts.tv_sec = 5;
	got = sigtimedwait(&s, &si, &ts);
	ok(got == SIGUSR2 && si.si_pid == pid && si.si_code == SI_USER,
	   "a signal sent while it sleeps wakes it, from the sender (%d)", si.si_pid);
	waitpid(pid, NULL, 0);

	handled = 0;
	signal(SIGUSR1, on_signal);
	sigset_t u1 = set_of(SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &u1, NULL);
	pid = send_later(SIGUSR1, 50);
	errno = 0;                              /* the C libraries' sigwaitinfo retries after EINTR */
	ok(syscall(SYS_rt_sigtimedwait, &s, &si, NULL, 8) == -1 && errno == EINTR && handled == SIGUSR1,
	   "another signal first: its handler runs, EINTR");
	waitpid(pid, NULL, 0);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
}

static void test_ignored_by_default(void)
{
	sigset_t s = set_of(SIGCHLD);
	struct timespec ts = { 5, 0 };
	siginfo_t si;
	pid_t pid;

	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_BLOCK, &s, NULL);
	pid = xfork();
	if (!pid) {
		usleep(50000);
		_exit(3);
	}
	ok(sigtimedwait(&s, &si, &ts) == SIGCHLD && si.si_code == CLD_EXITED && si.si_pid == pid &&
	   si.si_status == 3, "a blocked SIGCHLD (default: ignore) is waited for: CLD_EXITED, status 3");
	waitpid(pid, NULL, 0);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	pid = xfork();
	if (!pid)
		_exit(4);
	ts = (struct timespec){ 0, 200000000 };
	errno = 0;
	ok(sigtimedwait(&s, &si, &ts) == -1 && errno == EAGAIN,
	   "unblocked, it is discarded on arrival as Linux does: EAGAIN");
	waitpid(pid, NULL, 0);
}

static void test_errors(void)
{
	sigset_t s = set_of(SIGUSR1);
	struct timespec bad = { 0, 1000000000 }, neg = { -1, 0 };

	errno = 0;
	ok(syscall(SYS_rt_sigtimedwait, &s, NULL, NULL, 4) == -1 && errno == EINVAL, "sigsetsize 4: EINVAL");
	errno = 0;
	ok(sigtimedwait(&s, NULL, &bad) == -1 && errno == EINVAL, "tv_nsec 1e9: EINVAL");
	errno = 0;
	ok(sigtimedwait(&s, NULL, &neg) == -1 && errno == EINVAL, "tv_sec -1: EINVAL");
	errno = 0;
	ok(syscall(SYS_rt_sigtimedwait, (void *)8, NULL, NULL, 8) == -1 && errno == EFAULT, "bad set: EFAULT");
	sigprocmask(SIG_BLOCK, &s, NULL);
	raise(SIGUSR1);
	errno = 0;
	ok(syscall(SYS_rt_sigtimedwait, &s, (void *)8, NULL, 8) == -1 && errno == EFAULT,
	   "bad info: EFAULT");
	sigset_t pend;
	sigpending(&pend);
	ok(!sigismember(&pend, SIGUSR1), "the signal was taken all the same");
	sigset_t k = set_of(SIGKILL);
	struct timespec zero = { 0, 0 };
	errno = 0;
	ok(sigtimedwait(&k, NULL, &zero) == -1 && errno == EAGAIN, "SIGKILL in the set is left out");
	sigprocmask(SIG_UNBLOCK, &s, NULL);
}

static atomic_int waiter_got, waiter_ready;

static void *waiter(void *arg)
{
	sigset_t s = set_of(SIGUSR2);
	int sig = 0;

	(void)arg;
	waiter_ready = 1;
	if (!sigwait(&s, &sig))
		waiter_got = sig;
	return NULL;
}

/* Every thread blocks SIGUSR2; one waits for it: a kill() of the process reaches that one. */
static void test_thread(void)
{
	sigset_t s = set_of(SIGUSR2);
	pthread_t th;

	sigprocmask(SIG_BLOCK, &s, NULL);
	pthread_create(&th, NULL, waiter, NULL);
	while (!waiter_ready)
		usleep(1000);
	usleep(20000);
	kill(getpid(), SIGUSR2);
	pthread_join(th, NULL);
	ok(waiter_got == SIGUSR2, "a process-directed signal goes to the thread that waits for it");
	sigprocmask(SIG_UNBLOCK, &s, NULL);
}

static atomic_int callbacks;

static void on_expiry(union sigval v)
{
	(void)v;
	callbacks++;
}

/* The C library runs SIGEV_THREAD callbacks from a thread that sigwaits for the timer's signal. */
static void test_sigev_thread(void)
{
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = on_expiry };
	struct itimerspec its = { { 0, 10000000 }, { 0, 10000000 } };
	timer_t t;

	if (timer_create(CLOCK_MONOTONIC, &ev, &t)) {
		ok(0, "timer_create(SIGEV_THREAD): %s", strerror(errno));
		return;
	}
	timer_settime(t, 0, &its, NULL);
	for (int i = 0; i < 300 && callbacks < 10; i++)
		usleep(10000);
	ok(callbacks >= 10, "timer_create(SIGEV_THREAD): the callback ran %d times", (int)callbacks);
	timer_delete(t);
}

int main(void)
{
	test_pending();
	test_sleep();
	test_ignored_by_default();
	test_errors();
	test_thread();
	test_sigev_thread();
	return tap_done();
}
