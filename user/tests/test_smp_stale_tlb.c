/*
 * Stale TLB: a reader thread (on another CPU where affinity exists) keeps
 * reading a page filled with OLD while the main thread unmaps it and at
 * once maps and fills new memory with NEW — memory that likely reuses the
 * freed frame (pagemap tells how often it did).  After munmap returns, no
 * CPU may reach the old frame: the reader must fault (SIGSEGV) and must
 * never read NEW (or anything but OLD) at the old address.  Repeated for
 * a 4 KiB page and for a 2 MiB THP (a PMD entry).  Without threads: an
 * access after munmap faults.
 */
#include "smp_util.h"

#define ROUNDS          60
#define TIME_NS         5000000000ULL
#define OLD             0x01d01d01d01d01d0ULL
#define NEW             0x0e30e30e30e30e30ULL

static volatile uint64_t *volatile target;
static volatile int phase;              /* 1: read target; 2: it faulted; 0: stop */
static volatile unsigned long reads, saw_new, saw_other;

static void *reader(void *arg)
{
	(void)arg;
	pin_cpu(1);
	while (phase >= 0) {
		sigjmp_buf jb;

		if (phase != 1) {
			sched_yield();
			continue;
		}
		SEGV_TRY(jb) {
			for (;;) {
				uint64_t v = *target;

				saw_new += v == NEW;
				saw_other += v != NEW && v != OLD;
				reads++;
			}
		}
		SEGV_END();
		phase = 2;
	}
	return NULL;
}

/* Wait (bounded) until the reader is in phase want; 0 if it got there. */
static int wait_phase(int want, uint64_t max_ns)
{
	uint64_t end = now_ns() + max_ns;

	while (phase != want && now_ns() < end)
		sched_yield();
	return phase == want ? 0 : -1;
}

/* Fill every stride-th word of len bytes from p with v. */
static void fill(char *p, size_t len, size_t stride, uint64_t v)
{
	for (size_t off = 0; off < len; off += stride)
		*(uint64_t *)(p + off) = v;
}

/*
 * One round with a region of len: 1 if the reader faulted, 0 if not;
 * *reused if the new memory got the old frame.
 */
static int one_round(size_t len, int *reused)
{
	char *old = map_aligned(len, len), *fresh;
	size_t stride = len > PAGE ? PAGE : 8;  /* the reader reads at len / 2 */
	unsigned long old_pfn, r0;
	int faulted;

	*reused = 0;
	if (!old)
		return 0;
	fill(old, len, stride, OLD);
	old_pfn = pfn_of(old);
	target = (uint64_t *)(old + len / 2);
	r0 = reads;
	phase = 1;
	while (reads < r0 + 100 && phase == 1)
		sched_yield();
	munmap(old, len);
	/* keep the address from being handed out again: only the frame may come back */
	mmap(old, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	fresh = map_aligned(len, len);
	if (fresh) {
		fill(fresh, len, stride, NEW);
		*reused = old_pfn && pfn_of(fresh) == old_pfn;
	}
	faulted = !wait_phase(2, 2000000000);
	munmap(old, len);
	if (fresh)
		munmap(fresh, len);
	return faulted;
}

static void rounds(size_t len, const char *what)
{
	uint64_t end = now_ns() + TIME_NS / 2;
	int r, faulted = 0, reused = 0, one;

	saw_new = saw_other = 0;
	for (r = 0; r < ROUNDS && now_ns() < end; r++) {
		faulted += one_round(len, &one);
		reused += one;
	}
	printf("# %s: %d rounds, %d with the frame reused at once\n", what, r, reused);
	ok(faulted == r, "%s: the reader faulted after every munmap (%d of %d)", what, faulted, r);
	ok(!saw_new && !saw_other, "%s: the reader never read the new data (%lu NEW, %lu other)", what,
	   saw_new, saw_other);
}

int main(void)
{
	pthread_t t;
	sigjmp_buf jb;
	char *p;

	mount_proc_sys();
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("# test_smp_stale_tlb: %d CPUs\n", nr_cpus());
	segv_catch();
	p = map_aligned(PAGE, PAGE);
	*p = 1;
	munmap(p, PAGE);
	SEGV_TRY(jb) {
		*(volatile char *)p;
	}
	SEGV_END();
	ok(segv_count == 1, "a read after munmap faults");
	if (try_thread(&t, reader, NULL)) {
		skip("no threads");
		skip("no threads");
		return tap_done();
	}
	pin_cpu(0);
	rounds(PAGE, "4 KiB page");
	thp_set(2048, "always");
	rounds(PMD_SIZE, "2 MiB THP");
	thp_set(2048, "inherit");
	phase = -1;
	pthread_join(t, NULL);
	return tap_done();
}
