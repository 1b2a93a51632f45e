/*
 * Benchmark: swap; guest cycles (rdtsc; run under --icount, with a swap
 * disk: run-qemu.sh --swap 256M, linux-peer.sh --swap 256M) of
 *   pageout   MADV_PAGEOUT of 64 MiB (or argv[1] MiB) of private anon
 *             memory backed by 4K, 64K or 2M folios, and of a memfd's
 *             4K pages (shmem) mapped shared
 *   swapin    reading one byte of every page of it back, with the same
 *             mTHP policy (a 64K mTHP may come back whole)
 *   fork      fork() of a process with all of it swapped out (4K pages)
 *   swapoff   swapoff(2) of the disk with all of it swapped out (then
 *             swapon again, not timed)
 * Median of 3.  A pageout is only timed if every page went to swap
 * (pagemap's PM_SWAP): else "unbacked" (the folios were not the size
 * asked for, e.g. no 64K mTHP on Linux 6.1: "unsupported") or "kept".
 * Output: "bench_swap OP KIND CYCLES".
 */
#define _GNU_SOURCE
#include <sys/swap.h>
#include <x86intrin.h>
#include "bench_util.h"
#include "swap_util.h"

#define RUNS 3

static size_t len;


/* len bytes, 2 MiB-aligned, filled with kb-sized folios (0: 4 KiB pages); NULL if unsupported. */
static char *populated(unsigned long kb)
{
	char *p;

	if (kb && kb != 2048 && access(THP_DIR "hugepages-64kB/enabled", F_OK))
		return NULL;
	thp_set(0, kb == 2048 ? "always" : "never");
	thp_only(kb);
	p = map_aligned(len, PMD_SIZE);
	memset(p, 1, len);
	thp_only(0);
	thp_set(0, "madvise");
	return p;
}

/* The cycles of the region's pageout, or 0 if not all of it went out. */
static unsigned long long timed_pageout(char *p)
{
	unsigned long long t0 = __rdtsc(), t;

	madvise(p, len, MADV_PAGEOUT);
	t = __rdtsc() - t0;
	return n_swapped(p, len / PAGE) == len / PAGE ? t : 0;
}

static unsigned long long timed_swapin(char *p)
{
	unsigned long long t0 = __rdtsc();

	for (size_t off = 0; off < len; off += PAGE)
		(void)*(volatile char *)(p + off);
	return __rdtsc() - t0;
}

static void bench_size(const char *kind, unsigned long kb)
{
	unsigned long long out[RUNS], in[RUNS];
	int ok = 1;

	for (int r = 0; r < RUNS && ok; r++) {
		char *p = populated(kb);

		if (!p) {
			printf("bench_swap pageout %s unsupported\n", kind);
			return;
		}
		out[r] = timed_pageout(p);
		ok = out[r] != 0;
		thp_only(kb);                   /* an mTHP policy lets swap-in read mTHPs whole */
		in[r] = timed_swapin(p);
		thp_only(0);
		munmap(p, len);
	}
	if (!ok) {
		printf("bench_swap pageout %s kept\n", kind);
		return;
	}
	printf("bench_swap pageout %s %llu\n", kind, median_of(out, RUNS));
	printf("bench_swap swapin %s %llu\n", kind, median_of(in, RUNS));
}

/*
 * A memfd (shmem) of len bytes, 4K pages, mapped shared: its pageout
 * (timed only if meminfo's Shmem: fell by all of it, to within a tenth)
 * and swap-in, as bench_size's.
 */
static void bench_shmem(void)
{
	unsigned long long out[RUNS], in[RUNS];

	for (int r = 0; r < RUNS; r++) {
		int fd = memfd_create("bench_swap", 0);
		char *p = fd < 0 || ftruncate(fd, len) ? MAP_FAILED :
			mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		long shmem;

		if (p == MAP_FAILED) {
			printf("bench_swap pageout shmem unsupported\n");
			return;
		}
		memset(p, 1, len);
		shmem = proc_value("/proc/meminfo", "Shmem:");
		out[r] = __rdtsc();
		madvise(p, len, MADV_PAGEOUT);
		out[r] = __rdtsc() - out[r];
		if (shmem - proc_value("/proc/meminfo", "Shmem:") < (long)(len / 1024) * 9 / 10) {
			printf("bench_swap pageout shmem kept\n");
			return;
		}
		in[r] = timed_swapin(p);
		munmap(p, len);
		close(fd);
	}
	printf("bench_swap pageout shmem %llu\n", median_of(out, RUNS));
	printf("bench_swap swapin shmem %llu\n", median_of(in, RUNS));
}

static void bench_fork(void)
{
	unsigned long long t[RUNS];

	for (int r = 0; r < RUNS; r++) {
		char *p = populated(0);
		unsigned long long t0;
		pid_t pid;

		madvise(p, len, MADV_PAGEOUT);
		t0 = __rdtsc();
		pid = fork();
		if (!pid)
			_exit(0);
		t[r] = __rdtsc() - t0;
		waitpid(pid, NULL, 0);
		munmap(p, len);
	}
	printf("bench_swap fork 4K %llu\n", median_of(t, RUNS));
}

static void bench_swapoff(void)
{
	unsigned long long t[RUNS];
	char dev[128];
	int prio;

	if (!first_swap(dev, sizeof(dev), &prio))
		return;
	for (int r = 0; r < RUNS; r++) {
		char *p = populated(0);
		unsigned long long t0;

		madvise(p, len, MADV_PAGEOUT);
		t0 = __rdtsc();
		if (swapoff(dev)) {
			printf("bench_swap swapoff 4K failed: %s\n", strerror(errno));
			return;
		}
		t[r] = __rdtsc() - t0;
		swapon(dev, prio >= 0 ? SWAP_FLAG_PREFER | prio : 0);
		munmap(p, len);
	}
	printf("bench_swap swapoff 4K %llu\n", median_of(t, RUNS));
}

int main(int argc, char **argv)
{
	char dev[128];
	int prio;

	len = (argc > 1 ? strtoul(argv[1], NULL, 0) : 64) << 20;
	if (!first_swap(dev, sizeof(dev), &prio)) {
		printf("bench_swap: no swap device\n");
		return 1;
	}
	bench_size("4K", 0);
	bench_size("64K", 64);
	bench_size("2M", 2048);
	bench_shmem();
	bench_fork();
	bench_swapoff();
	return 0;
}
