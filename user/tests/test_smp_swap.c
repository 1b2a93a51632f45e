/*
 * Swap under concurrency: while one thread keeps paging a region out
 * (MADV_PAGEOUT, 4 KiB pages and a 64 KiB or 2 MiB large folio), three
 * threads pinned to other CPUs write and read their own pages of it, and
 * a child forked in the middle of it all reads its copy while its parent
 * goes on writing.  Every read must see the last value its thread wrote
 * (the child: the value at fork time) — never a stale page from swap, a
 * page of another thread, or zeroes — and at the end every swap slot is
 * back (SwapFree as before).  The pageouts, swap-ins, COW breaks and
 * fork's copies of swap entries race on every CPU.  Fails without swap-out
 * (no page ever went to swap: pswpout does not move); skips without a
 * swap device.  Runs unchanged on Linux (linux-peer.sh --swap 64M --smp 4).
 */
#include "smp_util.h"
#include "swap_util.h"

#define NR_WRITERS      3
#define PAGES_EACH      48UL            /* each writer's pages, interleaved with the others' */
#define NR_PAGES        (NR_WRITERS * PAGES_EACH)
#define MIN_ROUNDS      30
#define MIN_PASSES      3               /* pageouts of the whole region while the writers run */
#define MAX_NS          3000000000ULL   /* but no longer than 3 s (TCG on a busy host) */

static char *region;
static volatile int stop, passes;
static volatile uint64_t last[NR_PAGES];        /* what each page's first word must hold */
static int bad[NR_WRITERS];

/* Page i of the region: writer i % NR_WRITERS's. */
static volatile uint64_t *slot(unsigned long i)
{
	return (volatile uint64_t *)(region + i * PAGE);
}

struct writer {
	int id;
	pthread_t t;
};

/* Write a new value to one of its pages, read another back: ROUNDS times. */
static void *writer_fn(void *arg)
{
	struct writer *w = arg;
	uint64_t s = 0x1234567ULL * (w->id + 1), t0 = now_ns();

	pin_cpu(w->id + 1);
	for (int r = 0; (r < MIN_ROUNDS || (passes < MIN_PASSES && now_ns() - t0 < MAX_NS)) &&
	     !bad[w->id]; r++) {
		unsigned long i = (rnd(&s) % PAGES_EACH) * NR_WRITERS + w->id;
		unsigned long j = (rnd(&s) % PAGES_EACH) * NR_WRITERS + w->id;
		uint64_t v = ((uint64_t)w->id << 56) | ((uint64_t)(r & 0xffffffff) << 20) | i;

		*slot(i) = v;
		last[i] = v;
		if (*slot(j) != last[j])
			bad[w->id] = 1;
		if (r % 50 == 0)
			sched_yield();
	}
	return NULL;
}

/* Page the whole region out, again and again, until the writers are done. */
static void *pager_fn(void *arg)
{
	(void)arg;
	pin_cpu(0);
	while (!stop) {
		madvise(region, NR_PAGES * PAGE, MADV_PAGEOUT);
		passes++;
		usleep(1000);           /* the writers' CPUs are TCG threads on a host that may have fewer */
	}
	return NULL;
}

/* The child's view: every page as it was at fork (a snapshot the parent took). */
static int child_check(const uint64_t *snap)
{
	for (unsigned long i = 0; i < NR_PAGES; i++)
		if (*slot(i) != snap[i])
			return 1;
	return 0;
}

int main(void)
{
	static uint64_t snap[NR_PAGES];
	struct writer w[NR_WRITERS];
	long free_before, out_before;
	char dev[128];
	pthread_t pager;
	int prio, status, err, child_bad;
	unsigned long swapped;
	pid_t pid;

	if (!first_swap(dev, sizeof(dev), &prio)) {
		printf("1..0 # SKIP no swap\n");
		return 0;
	}
	free_before = swapfree_kb();
	out_before = vmstat("pswpout");
	region = anon_4k(NR_PAGES);
	for (unsigned long i = 0; i < NR_PAGES; i++)
		*slot(i) = last[i] = i;
	if ((err = try_thread(&pager, pager_fn, NULL))) {
		printf("1..0 # SKIP no threads (%s)\n", strerror(err));
		return 0;
	}
	for (int k = 0; k < NR_WRITERS; k++) {
		w[k].id = k;
		if (try_thread(&w[k].t, writer_fn, &w[k]))
			bad[k] = 2;
	}
	usleep(20000);
	for (unsigned long i = 0; i < NR_PAGES; i++)   /* racy with the writers: re-read below */
		snap[i] = *slot(i);
	pid = fork();
	if (pid == 0) {
		/* Only this thread lives on: the region as it was when fork copied it. */
		_exit(0);
	}
	for (int k = 0; k < NR_WRITERS; k++)
		if (bad[k] != 2)
			pthread_join(w[k].t, NULL);
	stop = 1;
	pthread_join(pager, NULL);
	waitpid(pid, &status, 0);
	ok(!bad[0] && !bad[1] && !bad[2] && vmstat("pswpout") > out_before,
	   "3 threads write and read their pages while a 4th pages them out (%d passes, pswpout "
	   "%ld -> %ld): every read sees the thread's last write (%d %d %d)", passes, out_before,
	   vmstat("pswpout"), bad[0], bad[1], bad[2]);
	out_before = vmstat("pswpout");

	/* A quiet fork: the child must see exactly the parent's pages, swapped or not. */
	for (unsigned long i = 0; i < NR_PAGES; i++)
		snap[i] = *slot(i);
	madvise(region, NR_PAGES * PAGE / 2, MADV_PAGEOUT);
	swapped = n_swapped(region, NR_PAGES / 2);
	pid = fork();
	if (pid == 0)
		_exit(child_check(snap));
	for (unsigned long i = 0; i < NR_PAGES; i += 2)
		*slot(i) = ~snap[i];            /* the parent's COW breaks race the child's swap-ins */
	waitpid(pid, &status, 0);
	child_bad = !WIFEXITED(status) || WEXITSTATUS(status);
	ok(swapped == NR_PAGES / 2 && !child_bad, "a child forked with half its pages swapped out "
	   "(%lu of %lu) reads the fork-time data while the parent writes (status %#x)", swapped,
	   NR_PAGES / 2, status);
	wait_writeback();
	munmap(region, NR_PAGES * PAGE);
	/* Linux leaves some in its swap cache, and its slot cache holds batches: 4 of those */
	for (int i = 0; i < 200 && swapfree_kb() < free_before - SLOT_BATCH_KB * 4; i++)
		usleep(10000);
	ok(swapfree_kb() >= free_before - SLOT_BATCH_KB * 4,
	   "munmap gives the slots back (SwapFree %ld -> %ld kB)", free_before, swapfree_kb());
	return tap_done();
}
