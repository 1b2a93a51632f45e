/*
 * Guest test (TAP): musl's pthreads on clone(CLONE_VM|CLONE_THREAD|...)
 * and futex — create/join with return values, pthread_exit, detach,
 * mutexes under contention from 64 threads, condition variables,
 * barriers, thread-local storage, cancellation, threads faulting in
 * distinct pages of one shared mapping, and fork from a thread (the child
 * has one thread and a copy-on-write copy of the memory), and clone's
 * return value when the new thread exits before clone returns.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

#define NTHREADS        64
#define NINCR           1000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static __thread long tls_value = 42;

static void *ret_arg(void *arg)
{
	(void)arg;
	return (char *)arg + 1;
}

static void *exit_arg(void *arg)
{
	(void)arg;
	pthread_exit((char *)arg + 2);
	return NULL;
}

/* Each of NTHREADS adds NINCR under the mutex, yielding now and then. */
static void *add_locked(void *arg)
{
	(void)arg;
	for (int i = 0; i < NINCR; i++) {
		pthread_mutex_lock(&lock);
		long v = counter;

		if (i % 97 == 0)
			sched_yield();
		counter = v + 1;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void test_create_join(void)
{
	pthread_t t;
	void *res = NULL;
	static char c[3];

	ok(!pthread_create(&t, NULL, ret_arg, &c[0]) && !pthread_join(t, &res) && res == &c[1],
	   "create/join returns the thread's value");
	ok(!pthread_create(&t, NULL, exit_arg, &c[0]) && !pthread_join(t, &res) && res == &c[2],
	   "pthread_exit's value reaches join");
}

static void test_many_mutex(void)
{
	pthread_t t[NTHREADS];
	int created = 0;

	for (int i = 0; i < NTHREADS; i++)
		created += !pthread_create(&t[i], NULL, add_locked, NULL);
	for (int i = 0; i < created; i++)
		pthread_join(t[i], NULL);
	ok(created == NTHREADS && counter == (long)NTHREADS * NINCR,
	   "%d threads, mutex: counter %ld", created, counter);
}

static sem_t detached_done;

static void *detached(void *arg)
{
	(void)arg;
	*(int *)arg = getpid() == syscall(SYS_gettid) ? -1 : 1;
	sem_post(&detached_done);
	return NULL;
}

static void test_detach(void)
{
	pthread_attr_t attr;
	pthread_t t;
	static int flag;

	sem_init(&detached_done, 0, 0);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ok(!pthread_create(&t, &attr, detached, &flag) && !sem_wait(&detached_done) && flag == 1,
	   "a detached thread runs, with its own TID");
	usleep(20000);                  /* let it finish exiting */
}

static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int queue_len, consumed;

/* Take 100 items off the queue, waiting on the condition variable when empty. */
static void *consumer(void *arg)
{
	(void)arg;
	for (int i = 0; i < 100; i++) {
		pthread_mutex_lock(&lock);
		while (!queue_len)
			pthread_cond_wait(&cond, &lock);
		queue_len--;
		consumed++;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void test_cond(void)
{
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, consumer, NULL);
	for (int i = 0; i < 400; i++) {
		pthread_mutex_lock(&lock);
		queue_len++;
		pthread_cond_signal(&cond);
		pthread_mutex_unlock(&lock);
		if (i % 50 == 0)
			usleep(1000);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	ok(consumed == 400 && queue_len == 0, "condition variable: 400 items to 4 consumers");
}

#define NBAR    8
static pthread_barrier_t barrier;
static int phase[NBAR], barrier_bad;

/* Three rounds: after each barrier every thread must have reached the round. */
static void *barrier_thread(void *arg)
{
	long me = (long)arg;

	for (int round = 1; round <= 3; round++) {
		phase[me] = round;
		pthread_barrier_wait(&barrier);
		for (int i = 0; i < NBAR; i++)
			if (phase[i] < round)
				__atomic_fetch_add(&barrier_bad, 1, __ATOMIC_RELAXED);
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

static void test_barrier(void)
{
	pthread_t t[NBAR];

	pthread_barrier_init(&barrier, NULL, NBAR);
	for (long i = 0; i < NBAR; i++)
		pthread_create(&t[i], NULL, barrier_thread, (void *)i);
	for (int i = 0; i < NBAR; i++)
		pthread_join(t[i], NULL);
	ok(!barrier_bad, "barrier: %d threads, 3 rounds", NBAR);
}

/* A thread's __thread variable starts at its initial value and stays its own. */
static void *tls_thread(void *arg)
{
	long start = tls_value;

	tls_value = (long)arg;
	usleep(5000);
	return (void *)(start == 42 && tls_value == (long)arg && &tls_value != arg ? 1L : 0L);
}

static void test_tls(void)
{
	pthread_t t[4];
	long good = 0;
	void *r;

	tls_value = 7;
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, tls_thread, (void *)(100 + i));
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], &r);
		good += (long)r;
	}
	ok(good == 4 && tls_value == 7, "__thread: each thread its own copy (%ld/4)", good);
}

static void *cancel_me(void *arg)
{
	(void)arg;
	for (;;)
		usleep(1000);           /* a cancellation point */
	return NULL;
}

static void test_cancel(void)
{
	pthread_t t;
	void *res = NULL;

	pthread_create(&t, NULL, cancel_me, NULL);
	usleep(10000);
	ok(!pthread_cancel(t) && !pthread_join(t, &res) && res == PTHREAD_CANCELED,
	   "pthread_cancel ends a thread in usleep");
}

#define FAULT_PAGES     64
static char *shared_area;

/* Thread i writes its pages (every fourth, from i) of the shared mapping. */
static void *toucher(void *arg)
{
	long me = (long)arg;

	for (long p = me; p < FAULT_PAGES; p += 4)
		memset(shared_area + p * 4096, (int)(p + 1), 4096);
	return NULL;
}

static void test_shared_faults(void)
{
	pthread_t t[4];
	int bad = 0;

	shared_area = mmap(NULL, FAULT_PAGES * 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, toucher, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (long p = 0; p < FAULT_PAGES; p++)
		bad += shared_area[p * 4096 + 100] != (char)(p + 1);
	ok(!bad, "4 threads fault in one mapping; each sees the others' pages (%d bad)", bad);
}

/* The Threads: line of /proc/self/status, or -1. */
static int proc_threads(void)
{
	char line[256];
	int n = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/*
 * Fork from a second thread while a third is alive: the child has one
 * thread, sees the memory as it was and its writes stay its own (COW).
 */
static void *forker(void *arg)
{
	(void)arg;
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		int good = proc_threads() == 1 && shared_area[100] == 1;

		shared_area[100] = 99;
		_exit(good ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	return (void *)(long)status;
}

static void *sleeper(void *arg)
{
	(void)arg;
	sem_wait(arg);
	return NULL;
}

/*
 * clone() a thread that exits at once, from inline assembly: the child
 * touches no memory (it runs on the caller's stack: newsp 0) and only
 * calls gettid and exit.  Returns what the parent's clone returned; a
 * parent that got 0 — it would run the child's path — is recognised by
 * its own TID and returns 0.
 */
static long clone_exiting_thread(long my_tid)
{
	register long tid asm("r12") = my_tid;
	register long ctid asm("r10") = 0, tls asm("r8") = 0;
	long ret;

	asm volatile("syscall\n\t"
		     "test %%rax, %%rax\n\t"
		     "jnz 1f\n\t"
		     "mov %[gettid], %%eax\n\t"
		     "syscall\n\t"
		     "cmp %%rax, %%r12\n\t"
		     "je 2f\n\t"
		     "mov %[exit], %%eax\n\t"
		     "xor %%edi, %%edi\n\t"
		     "syscall\n"
		     "2:\txor %%eax, %%eax\n"
		     "1:"
		     : "=a"(ret)
		     : "a"((long)SYS_clone), "D"((long)(CLONE_VM | CLONE_FS | CLONE_FILES |
						       CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM)),
		       "S"(0L), "d"(0L), "r"(ctid), "r"(tls), "r"(tid),
		       [gettid] "i"(SYS_gettid), [exit] "i"(SYS_exit)
		     : "rcx", "r11", "memory");
	return ret;
}

/*
 * A thread may run, exit and be freed on another CPU before clone returns
 * in its parent: the parent must still get the new TID, never 0 (the
 * kernel once read the TID from the freed task and the parent ran the
 * child's path on its own stack).
 */
static void test_clone_exit_race(void)
{
	long me = syscall(SYS_gettid), ret = 1;
	int i;

	for (i = 0; i < 2000 && ret > 0; i++)
		ret = clone_exiting_thread(me);
	ok(ret > 0, "clone returns the TID of a thread that exits at once (%d of 2000, last %ld)",
	   i, ret);
	usleep(20000);                  /* let the last ones finish exiting */
}

static void test_fork_from_thread(void)
{
	pthread_t t, s;
	sem_t sem;
	void *status;

	sem_init(&sem, 0, 0);
	pthread_create(&s, NULL, sleeper, &sem);
	ok(proc_threads() == 2, "/proc/self/status: Threads: 2");
	pthread_create(&t, NULL, forker, NULL);
	pthread_join(t, &status);
	ok(status == 0 && shared_area[100] == 1,
	   "fork from a thread: the child has 1 thread and a COW copy (status %ld)", (long)status);
	sem_post(&sem);
	pthread_join(s, NULL);
	munmap(shared_area, FAULT_PAGES * 4096);
}

int main(void)
{
	mount_proc_sys();
	test_create_join();
	test_many_mutex();
	test_detach();
	test_cond();
	test_barrier();
	test_tls();
	test_cancel();
	test_shared_faults();
	test_fork_from_thread();
	test_clone_exit_race();
	return tap_done();
}
