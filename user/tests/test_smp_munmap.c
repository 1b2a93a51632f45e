/*
 * munmap racing with faults: 3 threads write and read back their own word
 * of every page of a 4 MiB region (THP-backed where the kernel gives THPs)
 * while the main thread unmaps all or part of it and maps fresh memory
 * there again (MAP_FIXED), over and over.  A faulting thread survives its
 * SIGSEGV (sigsetjmp) and goes on; what it reads back must be what it
 * wrote or zero (the region was replaced in between) — never another
 * thread's value, never garbage — and the kernel must not crash.  Without
 * threads, one thread checks the same answers in turn.
 */
#include "smp_util.h"

#define NR_THREADS      3
#define LEN             (4UL << 20)
#define ROUNDS          300
#define TIME_NS         4000000000ULL

static char *region;
static volatile int stop;

struct toucher {
	pthread_t t;
	int id;
	unsigned long writes, faults, bad;
};

/* Thread id's word of page i: written with a tag, read back at once. */
static void touch_page(struct toucher *tc, unsigned long i, uint64_t seq)
{
	volatile uint64_t *w = (uint64_t *)(region + i * PAGE) + tc->id;
	uint64_t v = (uint64_t)(tc->id + 1) << 56 | seq, got;
	sigjmp_buf jb;

	SEGV_TRY(jb) {
		*w = v;
		got = *w;
		tc->writes++;
		tc->bad += got != v && got != 0;
	} else {
		tc->faults++;
	}
	SEGV_END();
}

static void *toucher(void *arg)
{
	struct toucher *tc = arg;
	uint64_t seq = 0;

	pin_cpu(tc->id + 1);
	while (!stop)
		for (unsigned long i = 0; i < LEN / PAGE && !stop; i += 3)
			touch_page(tc, i, ++seq);
	return NULL;
}

/* Replace [off, off+len) of the region: unmap, then map fresh (MAP_FIXED). */
static int replace(unsigned long off, unsigned long len)
{
	munmap(region + off, len);
	if (mmap(region + off, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		 -1, 0) != region + off)
		return -1;
	madvise(region + off, len, MADV_HUGEPAGE);
	return 0;
}

static int unmapper(uint64_t *s)
{
	uint64_t end = now_ns() + TIME_NS;
	int r;

	for (r = 0; r < ROUNDS && now_ns() < end; r++) {
		unsigned long off = rnd(s) % (LEN / PAGE) * PAGE;
		unsigned long len = r % 4 == 0 ? LEN - off : (1 + rnd(s) % 64) * PAGE;

		if (r % 8 == 0)
			off = 0, len = LEN;
		if (off + len > LEN)
			len = LEN - off;
		if (replace(off, len))
			return -1;
		sched_yield();
	}
	return r;
}

static void threaded(void)
{
	struct toucher tc[NR_THREADS] = { 0 };
	unsigned long writes = 0, faults = 0, bad = 0;
	uint64_t s = 19;
	int n = 0, err = 0, rounds;

	while (n < NR_THREADS) {
		tc[n].id = n;
		if ((err = try_thread(&tc[n].t, toucher, &tc[n])))
			break;
		n++;
	}
	if (err) {
		stop = 1;
		for (int i = 0; i < n; i++)
			pthread_join(tc[i].t, NULL);
		skip("no threads");
		return;
	}
	rounds = unmapper(&s);
	stop = 1;
	for (int i = 0; i < n; i++) {
		pthread_join(tc[i].t, NULL);
		writes += tc[i].writes, faults += tc[i].faults, bad += tc[i].bad;
	}
	printf("# %d unmap/map rounds; %lu writes, %lu SIGSEGVs survived\n", rounds, writes, faults);
	ok(rounds > 0 && writes > 0 && !bad,
	   "munmap racing faults in 3 threads: every read-back is the thread's own value or zero (%lu wrong)", bad);
}

/* One thread: a write to an unmapped page faults, and a fresh mapping reads zero. */
static void sequential(void)
{
	struct toucher tc = { .id = 0 };

	munmap(region, PAGE);
	touch_page(&tc, 0, 1);
	ok(tc.faults == 1 && tc.writes == 0, "a write to an unmapped page raises SIGSEGV, and the thread goes on");
	replace(0, LEN);
	touch_page(&tc, 0, 2);
	ok(tc.writes == 1 && !tc.bad && *(uint64_t *)region == (1ULL << 56 | 2),
	   "the page mapped again is fresh and takes the write");
}

int main(void)
{
	mount_proc_sys();
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("# test_smp_munmap: %d CPUs\n", nr_cpus());
	segv_catch();
	region = map_aligned(LEN, PMD_SIZE);
	if (!region) {
		ok(0, "map 4 MiB");
		return tap_done();
	}
	madvise(region, LEN, MADV_HUGEPAGE);
	sequential();
	threaded();
	munmap(region, LEN);
	return tap_done();
}
