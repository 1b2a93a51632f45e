/*
 * Guest test (TAP): blocking calls a signal interrupts, and poll/ppoll,
 * with Linux's semantics.  A pipe read, wait4 and nanosleep end with
 * EINTR after a handler without SA_RESTART (nanosleep giving the time
 * left); with SA_RESTART the read and wait4 go on; a blocked signal
 * does not interrupt.
 * poll and ppoll on pipes (POLLIN, POLLOUT, POLLHUP, POLLERR), on a
 * regular file (always ready), on a closed fd (POLLNVAL) and a negative
 * one (skipped), with timeouts, woken by a child's write; poll is never
 * restarted after a handler (EINTR); ppoll's sigmask lets a blocked
 * signal in for the call only.  select and pselect6: the sets come back
 * holding what is ready (the count is of bits), EBADF for a closed fd
 * in a set, EINVAL for n < 0 or a bad timeout, the time left written
 * back, woken by a child's write, pselect6's sigmask as ppoll's.  Runs
 * unchanged on Linux (../shared/peer/linux-peer.sh --mounts).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <sys/select.h>
#include <sys/wait.h>
#include "tap.h"
#include <sys/syscall.h>

#pragma GCC diagnostic ignored "-Wunused-parameter"     /* handlers take what they ignore */

static volatile sig_atomic_t hits;

static void bump(int sig)
{
	hits++;
}

static void handle(int sig, int flags)
{
	struct sigaction act = { .sa_handler = bump, .sa_flags = flags };

	sigaction(sig, &act, NULL);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * A child that sends sig to the parent after ms, then writes a byte to
 * fd (if >= 0) after another ms, then exits.
 */
static pid_t signal_then_write(int sig, long ms, int fd)
{
	pid_t parent = getpid(), pid = xfork();

	if (pid == 0) {
		sleep_ms(ms);
		kill(parent, sig);
		if (fd >= 0) {
			sleep_ms(ms);
			write(fd, "x", 1);
		}
		_exit(0);
	}
	return pid;
}

/* read() on an empty pipe while a child signals, then writes. */
static long read_interrupted(int flags, int *err)
{
	int p[2];
	char c;
	long r;
	pid_t pid;

	xpipe(p, 0);
	handle(SIGUSR1, flags);
	hits = 0;
	pid = signal_then_write(SIGUSR1, 30, p[1]);
	close(p[1]);                    /* a child that dies early gives EOF, not a hang */
	r = pid < 0 ? -2 : read(p[0], &c, 1);
	*err = errno;
	waitpid(pid, NULL, 0);
	close(p[0]);
	signal(SIGUSR1, SIG_DFL);
	return r;
}

static void test_pipe_read(void)
{
	int err;
	long r;

	r = read_interrupted(0, &err);
	ok(r == -1 && err == EINTR && hits == 1, "pipe read, handler without SA_RESTART: EINTR");
	r = read_interrupted(SA_RESTART, &err);
	ok(r == 1 && hits == 1, "pipe read, handler with SA_RESTART: restarted, reads the byte");
}

/* A child that exits 3 after 150 ms, and one that signals us at 30 ms: wait for the first. */
static int wait_interrupted(int flags, pid_t *got)
{
	pid_t slow, sender;
	int st = -1;

	handle(SIGUSR1, flags);
	hits = 0;
	slow = xfork();
	if (slow == 0) {
		sleep_ms(150);
		_exit(3);
	}
	sender = signal_then_write(SIGUSR1, 30, -1);
	*got = waitpid(slow, &st, 0);
	if (*got == -1 && errno == EINTR)
		*got = -EINTR;
	waitpid(slow, NULL, 0);
	waitpid(sender, NULL, 0);
	signal(SIGUSR1, SIG_DFL);
	return st;
}

static void test_wait4(void)
{
	pid_t got;
	int st;

	wait_interrupted(0, &got);
	ok(got == -EINTR && hits == 1, "wait4 interrupted by a handler without SA_RESTART: EINTR");
	st = wait_interrupted(SA_RESTART, &got);
	ok(got > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 3 && hits == 1,
	   "wait4 with SA_RESTART: restarted, reaps the child");
}

static void test_nanosleep(void)
{
	struct timespec req = { 1, 0 }, rem = { 0, 0 };
	pid_t pid;
	int r;

	handle(SIGUSR1, SA_RESTART);
	hits = 0;
	pid = signal_then_write(SIGUSR1, 50, -1);
	r = nanosleep(&req, &rem);
	ok(r == -1 && errno == EINTR && hits == 1 && rem.tv_sec == 0 && rem.tv_nsec > 500000000,
	   "nanosleep: EINTR even with SA_RESTART, the time left in rem (%ld ns)", rem.tv_nsec);
	waitpid(pid, NULL, 0);
	signal(SIGUSR1, SIG_DFL);
}

/* A blocked signal leaves a read asleep, and is taken once unblocked. */
static void test_blocked(void)
{
	sigset_t set, old;
	int p[2];
	char c;
	pid_t pid;

	xpipe(p, 0);
	handle(SIGUSR2, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, &old);
	hits = 0;
	pid = xfork();
	if (pid == 0) {
		sleep_ms(20);
		kill(getppid(), SIGUSR2);
		sleep_ms(30);
		write(p[1], "y", 1);
		_exit(0);
	}
	close(p[1]);                    /* no child, or one that dies early: EOF, not a hang */
	ok(read(p[0], &c, 1) == 1 && c == 'y' && hits == 0, "a blocked signal does not interrupt a read");
	sigprocmask(SIG_SETMASK, &old, NULL);
	ok(hits == 1, "it is delivered once unblocked");
	waitpid(pid, NULL, 0);
	close(p[0]);
	signal(SIGUSR2, SIG_DFL);
}

static void test_poll_pipe(void)
{
	struct pollfd fds[4];
	int p[2], fd = open("/proc/self/status", O_RDONLY);
	long t0;
	pid_t pid;
	char c;

	xpipe(p, 0);
	fds[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	t0 = now_ms();
	ok(poll(fds, 1, 60) == 0 && fds[0].revents == 0 && now_ms() - t0 >= 59,
	   "poll on an empty pipe times out (60 ms, took %ld)", now_ms() - t0);
	ok(poll(fds, 2, 0) == 1 && fds[1].revents == POLLOUT, "the write end is writable");
	write(p[1], "z", 1);
	ok(poll(fds, 2, -1) == 2 && fds[0].revents == POLLIN && fds[1].revents == POLLOUT,
	   "after a write: POLLIN on the read end");
	read(p[0], &c, 1);
	pid = xfork();
	if (pid == 0) {
		sleep_ms(40);
		write(p[1], "w", 1);
		_exit(0);
	}
	t0 = now_ms();
	ok(poll(fds, 1, 5000) == 1 && fds[0].revents == POLLIN && now_ms() - t0 < 4000,
	   "poll sleeps until a child writes");
	waitpid(pid, NULL, 0);
	if (poll(fds, 1, 0) == 1)       /* the child's byte, if it came: never sleep here */
		read(p[0], &c, 1);
	close(p[1]);
	ok(poll(fds, 1, 1000) == 1 && fds[0].revents == POLLHUP, "writer gone: POLLHUP");
	fds[0] = (struct pollfd){ .fd = p[1], .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = -1, .events = POLLIN };
	fds[2] = (struct pollfd){ .fd = fd, .events = POLLIN | POLLOUT };
	ok(poll(fds, 3, 0) == 2 && fds[0].revents == POLLNVAL && fds[1].revents == 0 &&
	   fds[2].revents == (POLLIN | POLLOUT),
	   "POLLNVAL for a closed fd, a negative fd skipped, a /proc file always ready");
	close(p[0]);
	xpipe(p, 0);
	close(p[0]);
	fds[0] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	ok(poll(fds, 1, 0) == 1 && (fds[0].revents & POLLERR), "reader gone: POLLERR on the write end");
	close(p[1]);
	close(fd);
	ok(poll(NULL, 0, 20) == 0, "poll of no fds sleeps its timeout");
	fds[0] = (struct pollfd){ .fd = 1, .events = POLLOUT };
	ok(poll(fds, 1, 0) == 1 && fds[0].revents == POLLOUT, "the console (stdout) is writable");
}

static void test_poll_signal(void)
{
	struct pollfd pfd;
	struct timespec ts = { 5, 0 };
	sigset_t set, old, none;
	int p[2];
	pid_t pid;

	xpipe(p, 0);
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
	handle(SIGUSR1, SA_RESTART);
	hits = 0;
	pid = signal_then_write(SIGUSR1, 30, -1);
	ok(poll(&pfd, 1, 5000) == -1 && errno == EINTR && hits == 1,
	   "poll interrupted by a handler: EINTR even with SA_RESTART");
	waitpid(pid, NULL, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	kill(getpid(), SIGUSR1);
	sigemptyset(&none);
	hits = 0;
	ok(ppoll(&pfd, 1, &ts, &none) == -1 && errno == EINTR && hits == 1,
	   "ppoll's sigmask lets a blocked pending signal in: EINTR after the handler");
	sigprocmask(SIG_BLOCK, NULL, &set);
	ok(sigismember(&set, SIGUSR1), "the mask is back after ppoll");
	ts = (struct timespec){ 0, 30000000 };
	ok(ppoll(&pfd, 1, &ts, NULL) == 0, "ppoll times out (30 ms)");
	ts = (struct timespec){ 0, 1000000000 };
	ok(ppoll(&pfd, 1, &ts, NULL) == -1 && errno == EINVAL, "ppoll with tv_nsec 1e9: EINVAL");
	write(p[1], "x", 1);
	{
		long left[2] = { 1L << 33, 0 };         /* the system call's own: the C library copies */

		ok(syscall(SYS_ppoll, &pfd, 1, left, NULL, 8) == 1 && left[0] < (1L << 33) &&
		   left[0] > (1L << 33) - 60, "ppoll writes the time left back, for 2^33 s too");
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGUSR1, SIG_DFL);
	close(p[0]);
	close(p[1]);
}

/* select through the system call itself (libc may use pselect6 for select). */
static long sys_select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	return syscall(SYS_select, n, r, w, e, tv);
}

static void test_select(void)
{
	struct timeval tv = { 0, 0 };
	struct timespec ts = { 0, 0 };
	fd_set r, w, e;
	int p[2], st, bad;
	long n;
	sigset_t none, usr1;
	pid_t pid;

	if (pipe(p)) {
		ok(0, "pipe");
		return;
	}
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_ZERO(&e);
	FD_SET(p[0], &r);
	FD_SET(p[1], &w);
	FD_SET(p[0], &e);
	ok(sys_select(p[1] + 1, &r, &w, &e, &tv) == 1 && !FD_ISSET(p[0], &r) && FD_ISSET(p[1], &w) &&
	   !FD_ISSET(p[0], &e), "select: an empty pipe's write end is ready, its read end is not");
	FD_SET(p[0], &r);
	FD_SET(p[1], &w);
	ok(write(p[1], "x", 1) == 1 && sys_select(p[1] + 1, &r, &w, NULL, &tv) == 2 &&
	   FD_ISSET(p[0], &r) && FD_ISSET(p[1], &w), "with a byte in it both are: 2 bits counted");
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_SET(p[1], &r);
	FD_SET(p[0], &w);
	n = sys_select(p[1] + 1, &r, &w, NULL, &tv);
	ok(n == 0 && !FD_ISSET(p[1], &r) && !FD_ISSET(p[0], &w),
	   "the ends asked the other way: 0, the sets cleared");
	bad = dup(p[0]);
	close(bad);
	FD_ZERO(&r);
	FD_SET(bad, &r);
	errno = 0;
	ok(sys_select(bad + 1, &r, NULL, NULL, &tv) == -1 && errno == EBADF &&
	   sys_select(-1, NULL, NULL, NULL, &tv) == -1 && errno == EINVAL,
	   "a closed fd in a set: EBADF; n < 0: EINVAL");
	tv.tv_usec = 1000000;
	n = sys_select(0, NULL, NULL, NULL, &tv);
	tv.tv_sec = 0;
	tv.tv_usec = -1;
	ok(n == 0 && sys_select(0, NULL, NULL, NULL, &tv) == -1 && errno == EINVAL,
	   "a timeval of 1000000 us is a second; -1 us: EINVAL");
	char c;
	ok(read(p[0], &c, 1) == 1, "drain the pipe");
	tv.tv_sec = 5;
	tv.tv_usec = 0;
	pid = xfork();
	if (pid == 0) {
		usleep(50000);
		_exit(write(p[1], "y", 1) != 1);
	}
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	ok(sys_select(p[0] + 1, &r, NULL, NULL, &tv) == 1 && FD_ISSET(p[0], &r) && tv.tv_sec < 5 &&
	   tv.tv_sec >= 4, "a child's write wakes select; the time left is written back");
	waitpid(pid, &st, 0);
	ok(read(p[0], &c, 1) == 1, "drain the pipe again");
	tv.tv_sec = 0;
	tv.tv_usec = 30000;
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	ok(sys_select(p[0] + 1, &r, NULL, NULL, &tv) == 0 && tv.tv_sec == 0 && tv.tv_usec == 0 &&
	   !FD_ISSET(p[0], &r), "a timeout: 0, none left, the set cleared");
	sigemptyset(&none);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	handle(SIGUSR1, 0);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	hits = 0;
	kill(getpid(), SIGUSR1);
	ts.tv_sec = 5;
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	ok(pselect(p[0] + 1, &r, NULL, NULL, &ts, &none) == -1 && errno == EINTR && hits == 1,
	   "pselect's sigmask lets a blocked pending signal in: EINTR after the handler");
	kill(getpid(), SIGUSR1);
	ts.tv_sec = 0;
	ok(pselect(0, NULL, NULL, NULL, &ts, &none) == -1 && errno == EINTR && hits == 2,
	   "even with a zero timeout: the pending signal wins (EINTR), not the time");
	sigprocmask(SIG_UNBLOCK, &usr1, NULL);
	signal(SIGUSR1, SIG_DFL);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	mount_proc_sys();
	test_pipe_read();
	test_wait4();
	test_nanosleep();
	test_blocked();
	test_poll_pipe();
	test_poll_signal();
	test_select();
	return tap_done();
}
