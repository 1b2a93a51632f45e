/*
 * Guest test (TAP): the futex system call on its own — FUTEX_WAIT's
 * EAGAIN when the word differs, EINVAL/EFAULT for bad words, relative
 * and absolute timeouts (FUTEX_CLOCK_REALTIME too), WAKE's counts,
 * WAIT_BITSET/WAKE_BITSET, REQUEUE and CMP_REQUEUE (EAGAIN on a changed
 * word), EINTR when a handler runs, private vs shared futexes across fork
 * through MAP_SHARED memory, and the robust list walked at a thread's
 * exit (FUTEX_OWNER_DIED).  Words the kernel reads under its bucket lock
 * while their page is absent: never touched, or dropped and unmapped by
 * another thread meanwhile; FUTEX_WAITERS set and cleared while the
 * robust owner dies; CLONE_CHILD_SETTID into a page fork made COW.
 * Waiters are pthreads.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
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
		/* poll up to 5 s for the thread to run and exit */
		for (int i = 0; i < 500 && !(entry.word & FUTEX_OWNER_DIED); i++)
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

/* A fresh anonymous page (never touched, so never faulted in), or NULL. */
static uint32_t *fresh_page(int flags)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* errno of a futex call that must fail, or 0 if it returned ret instead. */
static int futex_errno(long ret)
{
	return ret == -1 ? errno : 0;
}

/*
 * The word's page was never touched: the kernel reads it under the
 * bucket lock, where it may not fault it in; it must drop the lock, fault
 * and retry.  Linux: CMP_REQUEUE with the word's value (0) succeeds with
 * 0, another value gives EAGAIN; WAIT on 0 times out; on 1 EAGAIN.  Both
 * private and shared ops; then the same words unmapped or PROT_NONE: EFAULT.
 */
static void test_untouched_page(void)
{
	struct timespec ts = { 0, 5 * 1000000 };
	uint32_t *p1 = fresh_page(MAP_PRIVATE), *p2 = fresh_page(MAP_PRIVATE);
	uint32_t *s1 = fresh_page(MAP_SHARED), *s2 = fresh_page(MAP_PRIVATE);
	uint32_t *n1 = fresh_page(MAP_PRIVATE);
	uint32_t *p3 = fresh_page(MAP_PRIVATE), *p4 = fresh_page(MAP_PRIVATE);

	errno = 0;
	ok(futex(p1, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1L, p2, 0) == 0,
	   "CMP_REQUEUE on an untouched page, its value: 0 (errno %d)", errno);
	ok(futex_errno(futex(p3, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1L, p2, 7)) == EAGAIN,
	   "CMP_REQUEUE on an untouched page, another value: EAGAIN");
	errno = 0;
	ok(futex(s1, FUTEX_CMP_REQUEUE, 1, (void *)1L, s2, 0) == 0,
	   "shared CMP_REQUEUE on an untouched MAP_SHARED page: 0 (errno %d)", errno);
	ok(futex_errno(futex(p4, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0)) == EAGAIN,
	   "WAIT on an untouched page, another value: EAGAIN");
	ok(futex_errno(futex(s2 + 1, FUTEX_WAIT, 0, &ts, NULL, 0)) == ETIMEDOUT,
	   "shared WAIT on an untouched page, its value: ETIMEDOUT");
	mprotect(n1, 4096, PROT_NONE);
	ok(futex_errno(futex(n1, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0)) == EFAULT &&
	   futex_errno(futex(n1, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1L, p2, 0)) == EFAULT,
	   "WAIT and CMP_REQUEUE on a PROT_NONE page: EFAULT");
	munmap(p1, 4096);
	ok(futex_errno(futex(p1, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0)) == EFAULT &&
	   futex_errno(futex(p1, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1L, p2, 0)) == EFAULT &&
	   futex_errno(futex(p1, FUTEX_CMP_REQUEUE, 1, (void *)1L, p2, 0)) == EFAULT,
	   "WAIT and CMP_REQUEUE on an unmapped page: EFAULT");
	munmap(p2, 4096);
	munmap(p3, 4096);
	munmap(p4, 4096);
	munmap(s1, 4096);
	munmap(s2, 4096);
	munmap(n1, 4096);
}

/*
 * Waiters, a waker and a requeuer on a page a fourth thread drops again
 * and again (MADV_DONTNEED, then munmap and mmap again at the same
 * address): the kernel finds the page gone under its bucket lock at
 * random moments.  Every call must return what Linux allows there.
 */
struct dropped {
	uint32_t *page;
	volatile int stop;
	int op_flag;                    /* FUTEX_PRIVATE_FLAG or 0 */
	int bad;                        /* calls with an unexpected result */
	int efault, calls;
};

static void dropped_result(struct dropped *d, long ret, int err, int allowed_ret)
{
	__atomic_add_fetch(&d->calls, 1, __ATOMIC_RELAXED);
	if (ret == -1 && err == EFAULT)
		__atomic_add_fetch(&d->efault, 1, __ATOMIC_RELAXED);
	else if (!(ret >= 0 && ret <= allowed_ret) &&
		 !(ret == -1 && (err == EAGAIN || err == ETIMEDOUT)))
		__atomic_add_fetch(&d->bad, 1, __ATOMIC_RELAXED);
}

static void *dropped_waiter(void *arg)
{
	struct dropped *d = arg;
	struct timespec ts = { 0, 1000000 };

	while (!d->stop) {
		long r = futex(d->page, FUTEX_WAIT | d->op_flag, 0, &ts, NULL, 0);

		dropped_result(d, r, errno, 0);
	}
	return NULL;
}

static void *dropped_waker(void *arg)
{
	struct dropped *d = arg;

	while (!d->stop) {
		long r = futex(d->page, FUTEX_WAKE | d->op_flag, 1, NULL, NULL, 0);

		dropped_result(d, r, errno, 1);
		r = futex(d->page, FUTEX_CMP_REQUEUE | d->op_flag, 0, (void *)1L, d->page + 1, 0);
		dropped_result(d, r, errno, 2);
		r = futex(d->page + 1, FUTEX_WAKE | d->op_flag, 2, NULL, NULL, 0);
		dropped_result(d, r, errno, 2);
		sched_yield();
	}
	return NULL;
}

static void test_dropped_page(int op_flag, const char *name)
{
	struct dropped d = { .op_flag = op_flag };
	pthread_t t[4];
	int remapped = 1, drops = 0;

	d.page = fresh_page(MAP_PRIVATE);
	pthread_create(&t[0], NULL, dropped_waiter, &d);
	pthread_create(&t[1], NULL, dropped_waiter, &d);
	pthread_create(&t[2], NULL, dropped_waker, &d);
	pthread_create(&t[3], NULL, dropped_waker, &d);
	for (; drops < 200 && remapped; drops++) {
		d.page[0] = 0;                  /* present again, for the next drop */
		madvise(d.page, 4096, MADV_DONTNEED);
		if (drops % 4 == 3) {
			munmap(d.page, 4096);
			remapped = mmap(d.page, 4096, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == d.page;
		}
		if (drops % 8 == 7)
			sched_yield();          /* one CPU: the others run too */
	}
	d.stop = 1;
	futex(d.page, FUTEX_WAKE | op_flag, 10, NULL, NULL, 0);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	ok(remapped && d.bad == 0 && d.calls > 0,
	   "%s WAIT/WAKE/CMP_REQUEUE on a page dropped and unmapped meanwhile: "
	   "%d drops, %d calls (%d EFAULT), none unexpected (%d bad)", name, drops, d.calls,
	   d.efault, d.bad);
	munmap(d.page, 4096);
}

/*
 * glibc's fork: clone(CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID |
 * SIGCHLD) with the TID word in memory the fork makes COW.  The child's
 * first return to user mode stores its TID there: a COW fault in the
 * child's mm, which must happen where it may sleep.  The parent's copy
 * keeps its value.
 */
static volatile pid_t settid_word;

static void test_settid_cow(void)
{
	int good = 0, rounds = 20;

	for (int i = 0; i < rounds; i++) {
		int status = -1;
		pid_t pid;

		settid_word = -1;               /* present and written: COW after the clone */
		pid = syscall(SYS_clone, CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD, 0,
			      NULL, &settid_word, 0);
		if (pid == 0)
			_exit(settid_word == syscall(SYS_gettid) ? 0 : 1);
		if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0 && settid_word == -1)
			good++;
	}
	ok(good == rounds, "clone(CHILD_SETTID|CHILD_CLEARTID) with the TID word on a COW page: "
	   "the child sees its TID, the parent's word unchanged (%d/%d)", good, rounds);
}

/*
 * A robust futex whose owner dies while another thread keeps setting and
 * clearing FUTEX_WAITERS (as waiters come and go).  The kernel's
 * FUTEX_OWNER_DIED update must be atomic with respect to those: the
 * final word keeps FUTEX_WAITERS exactly if the other thread's last
 * successful change set it.  Races only with more than one CPU.
 */
struct robust_race {
	struct robust_list_head head;
	struct robust_entry entry;
	volatile int ready, go;
};

static void *robust_race_owner(void *arg)
{
	struct robust_race *r = arg;

	r->head.list.next = (struct robust_list *)&r->entry;
	r->head.futex_offset = offsetof(struct robust_entry, word);
	r->entry.next = &r->head.list;
	r->entry.word = syscall(SYS_gettid);
	syscall(SYS_set_robust_list, &r->head, sizeof(r->head));
	r->ready = 1;
	while (!r->go)
		;
	syscall(SYS_exit, 0);
	return NULL;
}

/* Toggle FUTEX_WAITERS until the owner's death shows; 1 if the last toggle set it. */
static int toggle_waiters(uint32_t *word, uint32_t tid)
{
	int last = 0;

	for (;;) {
		uint32_t w = tid;

		if (__atomic_compare_exchange_n(word, &w, tid | FUTEX_WAITERS, 0,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			last = 1;
		else if (w & FUTEX_OWNER_DIED)
			return last;
		w = tid | FUTEX_WAITERS;
		if (__atomic_compare_exchange_n(word, &w, tid, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			last = 0;
		else if (w & FUTEX_OWNER_DIED)
			return last;
	}
}

static void test_robust_race(void)
{
	static struct robust_race r;
	int rounds = 60, good = 0;

	for (int i = 0; i < rounds; i++) {
		pthread_attr_t attr;
		pthread_t t;
		uint32_t tid, final;
		int last;

		memset(&r, 0, sizeof(r));
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		pthread_create(&t, &attr, robust_race_owner, &r);
		while (!r.ready)
			sched_yield();
		tid = r.entry.word;
		r.go = 1;
		last = toggle_waiters(&r.entry.word, tid);
		final = r.entry.word;
		good += final == (FUTEX_OWNER_DIED | (last ? FUTEX_WAITERS : 0));
	}
	ok(good == rounds, "robust death while FUTEX_WAITERS is set and cleared: "
	   "the bit survives as last set (%d/%d)", good, rounds);
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
	test_untouched_page();
	test_dropped_page(FUTEX_PRIVATE_FLAG, "private");
	test_dropped_page(0, "shared");
	test_settid_cow();
	test_robust_race();
	return tap_done();
}
