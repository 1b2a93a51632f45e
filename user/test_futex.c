/*
 * Guest test (TAP): the futex system call on its own — FUTEX_WAIT's
 * EAGAIN when the word differs, EINVAL/EFAULT for bad words, relative
 * and absolute timeouts (FUTEX_CLOCK_REALTIME too), WAKE's counts,
 * WAIT_BITSET/WAKE_BITSET, REQUEUE and CMP_REQUEUE (EAGAIN on a changed
 * word), EINTR when a handler runs, private vs shared futexes across fork
 * through MAP_SHARED memory, and the robust list walked at a thread's
 * exit (FUTEX_OWNER_DIED).  Waiters are pthreads.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

/* Linux's <linux/futex.h>, which musl-gcc does not see. */
#define FUTEX_WAIT              0
#define FUTEX_WAKE              1
#define FUTEX_REQUEUE           3
#define FUTEX_CMP_REQUEUE       4
#define FUTEX_WAIT_BITSET       9
#define FUTEX_WAKE_BITSET       10
#define FUTEX_PRIVATE_FLAG      128
#define FUTEX_CLOCK_REALTIME    256
#define FUTEX_WAIT_PRIVATE      (FUTEX_WAIT | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_PRIVATE      (FUTEX_WAKE | FUTEX_PRIVATE_FLAG)
#define FUTEX_REQUEUE_PRIVATE   (FUTEX_REQUEUE | FUTEX_PRIVATE_FLAG)
#define FUTEX_CMP_REQUEUE_PRIVATE (FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAIT_BITSET_PRIVATE (FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_BITSET_PRIVATE (FUTEX_WAKE_BITSET | FUTEX_PRIVATE_FLAG)
#define FUTEX_BITSET_MATCH_ANY  0xffffffff
#define FUTEX_WAITERS           0x80000000
#define FUTEX_OWNER_DIED        0x40000000

struct robust_list {
	struct robust_list *next;
};

struct robust_list_head {
	struct robust_list list;
	long futex_offset;
	struct robust_list *list_op_pending;
};

static long futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *ts,
		  uint32_t *uaddr2, uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

static long now_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

static void test_errors(void)
{
	uint32_t word = 1;
	char buf[8] = { 0 };

	errno = 0;
	ok(futex(&word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0) == -1 && errno == EAGAIN,
	   "WAIT on a word that differs: EAGAIN");
	errno = 0;
	ok(futex((uint32_t *)(buf + 1), FUTEX_WAIT, 0, NULL, NULL, 0) == -1 && errno == EINVAL,
	   "an unaligned word: EINVAL");
	errno = 0;
	ok(futex(NULL, FUTEX_WAIT, 0, NULL, NULL, 0) == -1 && errno == EFAULT,
	   "an unmapped word: EFAULT");
	ok(futex(&word, FUTEX_WAKE_PRIVATE, 5, NULL, NULL, 0) == 0, "WAKE with no waiter: 0");
	errno = 0;
	ok(futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 1, NULL, NULL, 0) == -1 && errno == EINVAL,
	   "WAIT_BITSET with an empty bitset: EINVAL");
}

static void test_timeouts(void)
{
	uint32_t word = 0;
	struct timespec rel = { 0, 50 * 1000000 }, abs;
	long t0 = now_ms(CLOCK_MONOTONIC);

	errno = 0;
	ok(futex(&word, FUTEX_WAIT_PRIVATE, 0, &rel, NULL, 0) == -1 && errno == ETIMEDOUT &&
	   now_ms(CLOCK_MONOTONIC) - t0 >= 49, "WAIT with a relative 50 ms timeout: ETIMEDOUT");
	clock_gettime(CLOCK_MONOTONIC, &abs);
	abs.tv_nsec += 50 * 1000000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	t0 = now_ms(CLOCK_MONOTONIC);
	errno = 0;
	ok(futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 0, &abs, NULL, FUTEX_BITSET_MATCH_ANY) == -1 &&
	   errno == ETIMEDOUT && now_ms(CLOCK_MONOTONIC) - t0 >= 45,
	   "WAIT_BITSET until an absolute CLOCK_MONOTONIC time: ETIMEDOUT");
	clock_gettime(CLOCK_REALTIME, &abs);
	abs.tv_sec += 0;
	abs.tv_nsec = abs.tv_nsec >= 950000000 ? abs.tv_nsec : abs.tv_nsec + 30 * 1000000;
	errno = 0;
	ok(futex(&word, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 0, &abs, NULL,
		 FUTEX_BITSET_MATCH_ANY) == -1 && errno == ETIMEDOUT,
	   "WAIT_BITSET | FUTEX_CLOCK_REALTIME, absolute: ETIMEDOUT");
	errno = 0;
	ok(futex(&word, FUTEX_WAIT_PRIVATE | FUTEX_CLOCK_REALTIME, 0, &rel, NULL, 0) == -1 &&
	   errno == ENOSYS, "FUTEX_CLOCK_REALTIME with plain WAIT: ENOSYS");
}

/* One waiter thread: waits on w->word (op, bitset) and records the result. */
struct waiter {
	pthread_t thread;
	uint32_t *word;
	int op;
	uint32_t bitset;
	long ret;
	int err;
	volatile int done;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;

	w->ret = futex(w->word, w->op, *w->word, NULL, NULL, w->bitset);
	w->err = errno;
	w->done = 1;
	return NULL;
}

static void start_waiters(struct waiter *w, int n, uint32_t *word, int op)
{
	for (int i = 0; i < n; i++) {
		w[i] = (struct waiter){ .word = word, .op = op, .bitset = FUTEX_BITSET_MATCH_ANY };
		pthread_create(&w[i].thread, NULL, wait_thread, &w[i]);
	}
	sleep_ms(50);                   /* all of them asleep in the futex */
}

static int count_done(struct waiter *w, int n)
{
	int done = 0;

	sleep_ms(20);
	for (int i = 0; i < n; i++)
		done += w[i].done;
	return done;
}

static void join_all(struct waiter *w, int n)
{
	for (int i = 0; i < n; i++)
		pthread_join(w[i].thread, NULL);
}

static void test_wake_counts(void)
{
	static uint32_t word;
	struct waiter w[3];
	long r1, r2;

	start_waiters(w, 3, &word, FUTEX_WAIT_PRIVATE);
	r1 = futex(&word, FUTEX_WAKE_PRIVATE, 2, NULL, NULL, 0);
	ok(r1 == 2 && count_done(w, 3) == 2, "WAKE 2 of 3 waiters: returns %ld", r1);
	r2 = futex(&word, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0);
	ok(r2 == 1 && count_done(w, 3) == 3 && !w[0].ret && !w[1].ret && !w[2].ret,
	   "WAKE 10 wakes the last: returns %ld; each WAIT returned 0", r2);
	join_all(w, 3);
}

static void test_bitset(void)
{
	static uint32_t word;
	struct waiter w[2];
	long r;

	for (int i = 0; i < 2; i++) {
		w[i] = (struct waiter){ .word = &word, .op = FUTEX_WAIT_BITSET_PRIVATE,
					.bitset = 1u << i };
		pthread_create(&w[i].thread, NULL, wait_thread, &w[i]);
	}
	sleep_ms(50);
	r = futex(&word, FUTEX_WAKE_BITSET_PRIVATE, 10, NULL, NULL, 2);
	ok(r == 1 && count_done(w, 2) == 1 && w[1].done, "WAKE_BITSET 2 wakes only bitset 2's waiter");
	r = futex(&word, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0);
	ok(r == 1 && count_done(w, 2) == 2, "plain WAKE wakes the bitset 1 waiter");
	join_all(w, 2);
}

static void test_requeue(int op, const char *name)
{
	static uint32_t f1, f2;
	struct waiter w[3];
	long r;

	f1 = 5;
	start_waiters(w, 3, &f1, FUTEX_WAIT_PRIVATE);
	if (op == FUTEX_CMP_REQUEUE_PRIVATE) {
		errno = 0;
		ok(futex(&f1, op, 1, (void *)10L, &f2, 6) == -1 && errno == EAGAIN,
		   "%s with a changed word: EAGAIN", name);
	}
	r = futex(&f1, op, 1, (void *)10L, &f2, 5);
	ok(r == 3 && count_done(w, 3) == 1,
	   "%s: wakes 1, moves 2 (returns %ld)", name, r);
	r = futex(&f1, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0);
	ok(r == 0, "nothing left on the first futex");
	r = futex(&f2, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0);
	ok(r == 2 && count_done(w, 3) == 3, "the 2 moved wake from the second futex");
	join_all(w, 3);
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void test_eintr(void)
{
	static uint32_t word;
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct waiter w;

	sigaction(SIGUSR1, &sa, NULL);
	start_waiters(&w, 1, &word, FUTEX_WAIT_PRIVATE);
	pthread_kill(w.thread, SIGUSR1);
	pthread_join(w.thread, NULL);
	ok(w.ret == -1 && w.err == EINTR, "a handler ends WAIT with EINTR (ret %ld errno %d)",
	   w.ret, w.err);
}

/*
 * A futex in MAP_SHARED memory: the forked child waits (shared op), a
 * private wake from the parent does not reach it, a shared one does.
 */
static void test_shared_fork(void)
{
	uint32_t *word = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status = -1;
	long priv, shared = 0;
	pid_t pid;

	*word = 0;
	pid = fork();
	if (pid == 0) {
		long r = futex(word, FUTEX_WAIT, 0, NULL, NULL, 0);

		_exit(r == 0 ? 0 : 1);
	}
	sleep_ms(100);
	priv = futex(word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	for (int i = 0; i < 50 && shared == 0; i++) {
		shared = futex(word, FUTEX_WAKE, 1, NULL, NULL, 0);
		if (!shared)
			sleep_ms(20);
	}
	waitpid(pid, &status, 0);
	ok(priv == 0, "a private WAKE does not reach another process");
	ok(shared == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "a shared WAKE wakes the forked child waiting in MAP_SHARED memory");
	munmap(word, 4096);
}

/* x86-64's struct robust_list_head, and one entry followed by its futex word. */
struct robust_entry {
	struct robust_list *next;
	uint32_t word;
};

static struct robust_list_head head;
static struct robust_entry entry;

/* Take the "lock" (our TID in the word), put it on the robust list, die without unlocking. */
static void *robust_thread(void *arg)
{
	(void)arg;
	head.list.next = (struct robust_list *)&entry;
	head.futex_offset = offsetof(struct robust_entry, word);
	head.list_op_pending = NULL;
	entry.next = &head.list;
	entry.word = syscall(SYS_gettid) | FUTEX_WAITERS;
	syscall(SYS_set_robust_list, &head, sizeof(head));
	syscall(SYS_exit, 0);           /* no pthread_exit: only the kernel can clean up */
	return NULL;
}

static void test_robust(void)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		pthread_attr_t attr;
		pthread_t t;
		void *h = NULL;
		size_t len = 0;

		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		pthread_create(&t, &attr, robust_thread, NULL);
		for (int i = 0; i < 100 && !(entry.word & FUTEX_OWNER_DIED); i++)
			sleep_ms(10);
		syscall(SYS_get_robust_list, 0, &h, &len);
		_exit(entry.word == (FUTEX_OWNER_DIED | FUTEX_WAITERS) && len == sizeof(head) ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "robust list: a dead owner's futex gets FUTEX_OWNER_DIED, keeps FUTEX_WAITERS");
	errno = 0;
	ok(syscall(SYS_set_robust_list, &head, sizeof(head) + 1) == -1 && errno == EINVAL,
	   "set_robust_list with a wrong size: EINVAL");
}

int main(void)
{
	mount_proc_sys();
	test_errors();
	test_timeouts();
	test_wake_counts();
	test_bitset();
	test_requeue(FUTEX_REQUEUE_PRIVATE, "REQUEUE");
	test_requeue(FUTEX_CMP_REQUEUE_PRIVATE, "CMP_REQUEUE");
	test_eintr();
	test_shared_fork();
	test_robust();
	return tap_done();
}
