/*
 * Benchmark: 64 MiB (or argv[1] MiB) of anon memory backed by 4K, 64K,
 * PTE-mapped 2M or PMD-mapped 2M folios; guest cycles (rdtsc; run under
 * --icount) of
 *   fork        the parent's fork() with the child alive
 *   cow-byte    one byte written per 4 KiB page, child alive (COW copies)
 *   reuse-byte  the same after the child exited (COW reuse)
 *   munmap      unmapping the whole region
 * Median of 3.  Before timing, the backing is checked through the folio
 * view (order, PMD or PTE mapping); a kind that is not backed as intended
 * prints "unbacked" instead of a number.  Output: "bench_thp KIND OP CYCLES".
 */
#include "thp_util.h"
#include <x86intrin.h>

enum kind { K_4K, K_64K, K_2M_PTE, K_2M_PMD, NR_KINDS };
static const char *const kind_name[] = { "4K", "64K", "2M-pte", "2M-pmd" };
static const unsigned long kind_kb[] = { 0, 64, 2048, 2048 };
static const long kind_order[] = { 0, 4, 9, 9 };

static size_t len;

static char *setup(enum kind k)
{
	char *p = map_aligned(len, PMD_SIZE);

	thp_only(kind_kb[k]);
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	thp_only(0);
	for (size_t off = 0; k == K_2M_PTE && off < len; off += PMD_SIZE) {
		mprotect(p + off, PAGE, PROT_READ);     /* split each PMD... */
		mprotect(p + off, PAGE, PROT_READ | PROT_WRITE);        /* ...and merge the VMAs */
	}
	return p;
}

/* Is every 2 MiB chunk's first page in a folio of the intended order and mapping? */
static int backed(const char *p, enum kind k)
{
	for (size_t off = 0; off < len; off += PMD_SIZE) {
		struct folio_view v;

		if (folio_at(p + off + 5 * PAGE, &v) || v.order != kind_order[k] ||
		    (v.entire_mapcount > 0) != (k == K_2M_PMD))
			return 0;
	}
	return 1;
}

static void touch(char *p)
{
	for (size_t off = 0; off < len; off += PAGE)
		p[off + 1] = 2;
}

static int cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

/* One repetition: cycles of fork, cow-byte, reuse-byte, munmap in t[0..3]; 0 if unbacked. */
static int run_once(enum kind k, unsigned long long *t)
{
	int go[2];
	char c = 0;
	unsigned long long t0;
	char *p = setup(k);
	pid_t pid;

	if (!backed(p, k))
		return 0;
	pipe(go);
	t0 = __rdtsc();
	pid = fork();
	if (!pid) {
		read(go[0], &c, 1);
		_exit(0);
	}
	t[0] = __rdtsc() - t0;
	t0 = __rdtsc();
	touch(p);
	t[1] = __rdtsc() - t0;
	write(go[1], &c, 1);
	wait_exit(pid);
	munmap(p, len);
	p = setup(k);
	if (!(pid = fork()))
		_exit(0);
	wait_exit(pid);
	t0 = __rdtsc();
	touch(p);
	t[2] = __rdtsc() - t0;
	munmap(p, len);
	p = setup(k);
	t0 = __rdtsc();
	munmap(p, len);
	t[3] = __rdtsc() - t0;
	close(go[0]);
	close(go[1]);
	return 1;
}

int main(int argc, char **argv)
{
	static const char *const op[] = { "fork", "cow-byte", "reuse-byte", "munmap" };

	len = (size_t)(argc > 1 ? atoi(argv[1]) : 64) << 20;
	printf("# bench_thp: %zu MiB, %s, median of 3\n", len >> 20,
	       mapcount_mode_name());
	for (enum kind k = K_4K; k < NR_KINDS; k++) {
		unsigned long long t[4][3];
		int ok_ = 1;

		for (int r = 0; r < 3 && ok_; r++) {
			unsigned long long one[4] = { 0 };

			ok_ = run_once(k, one);
			for (int i = 0; i < 4; i++)
				t[i][r] = one[i];
		}
		for (int i = 0; i < 4; i++) {
			if (!ok_) {
				printf("bench_thp %s %s unbacked\n", kind_name[k], op[i]);
				continue;
			}
			qsort(t[i], 3, sizeof(t[i][0]), cmp);
			printf("bench_thp %s %s %llu\n", kind_name[k], op[i], t[i][1]);
		}
	}
	thp_set(2048, "inherit");
	return 0;
}
