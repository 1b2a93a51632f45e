/*
 * Guest test (TAP): the mmap_lock, an rw_semaphore, under contention from
 * several CPUs serves readers and writers in turn (issue 31: its sleepers
 * were all woken together to race for it, and a waiting writer stopped
 * every reader, so a stream of writers could keep a reader out, and
 * writers one another).  Threads on the other CPUs take it one way back
 * to back while the main thread takes it the other way, 100 times: its
 * worst wait must stay under a second (a stream of writers used to keep
 * a reader out for seconds; under TCG on a busy host a fair turn can take
 * a hundred milliseconds: each hand-off wakes a sleeper on another CPU).
 *
 *   for read:  a page fault (MADV_DONTNEED, then a write: both read-lock)
 *   for write: mprotect of one page of a three-page mapping, RO then RW
 *              (each splits a VMA and merges it back)
 *
 * The same binary runs on Linux (linux-peer.sh --mounts --smp 4).
 * Locks: none of its own; the threads meet at the stop flag and join.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <time.h>
#include "tap.h"

#define MAX_THREADS     3
#define OPS             100
#define WORST_US        1000000

static volatile int stop;

static long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

static char *map_pages(int n)
{
	char *p = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

/* One read-locked operation pair: the page goes, and the write faults it back. */
static void read_op(char *page)
{
	madvise(page, 4096, MADV_DONTNEED);
	page[0] = 1;
}

/* One write-locked operation pair: the middle page read-only, then writable again. */
static void write_op(char *three)
{
	mprotect(three + 4096, 4096, PROT_READ);
	mprotect(three + 4096, 4096, PROT_READ | PROT_WRITE);
}

static void *reader_loop(void *arg)
{
	while (!stop)
		read_op(arg);
	return NULL;
}

static void *writer_loop(void *arg)
{
	while (!stop)
		write_op(arg);
	return NULL;
}

/*
 * nr threads run loop on mappings of their own; the main thread times
 * OPS of op on its own mapping.  Returns the worst time of one.
 */
static long contend(int nr, void *(*loop)(void *), void (*op)(char *))
{
	pthread_t t[MAX_THREADS];
	char *mine = map_pages(3);
	long worst = 0;

	stop = 0;
	for (int i = 0; i < nr; i++)
		pthread_create(&t[i], NULL, loop, map_pages(3));
	for (int i = 0; i < 1000; i++)  /* let them get going */
		sched_yield();
	for (int i = 0; i < OPS; i++) {
		long t0 = now_us();

		op(mine);
		t0 = now_us() - t0;
		worst = t0 > worst ? t0 : worst;
	}
	stop = 1;
	for (int i = 0; i < nr; i++)
		pthread_join(t[i], NULL);
	return worst;
}

int main(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), worst;
	int nr = cpus - 1 < MAX_THREADS ? (int)cpus - 1 : MAX_THREADS;

	mount_proc_sys();
	if (nr < 1) {
		skip("a writer beside readers: needs 2 CPUs");
		skip("a reader beside writers: needs 2 CPUs");
		return tap_done();
	}
	worst = contend(nr, reader_loop, write_op);
	ok(worst < WORST_US, "a writer beside %d threads faulting (read): worst wait %ld us", nr,
	   worst);
	worst = contend(nr, writer_loop, read_op);
	ok(worst < WORST_US, "a reader beside %d threads in mprotect (write): worst wait %ld us", nr,
	   worst);
	return tap_done();
}
