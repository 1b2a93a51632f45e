/*
 * The native side of make bench (docs/measuring.md): fork and munmap of the same
 * mm/ code as the kernel's, built for the host at -O2 and timed in host
 * nanoseconds, where what -icount cannot see is real — memory traffic to
 * the struct pages and the cost of atomics.  Not a test: make bench-host.
 *
 *   bench_mm [-m MiB] [-r REPS] [-q] [SIZE ...]
 *
 * For each folio size (4K 16K 64K 256K 2M-pte 2M-pmd, chosen with the THP
 * policy as the guest's knobs do; 2M-pte by mprotect()ing one page of each
 * PMD read-only and back) a region (default 1024 MiB) of a fake machine's
 * RAM is faulted in through the software MMU, its backing checked (every
 * page in a folio of that order, PMD or PTE mapped as intended), then:
 *
 *   fork    dup_mm() of the mm (the child is torn down untimed)
 *   munmap  do_munmap() of the whole region, no child: every folio freed
 *
 * each "hot" (right after the setup, struct pages in the caches) and
 * "cold" (after streaming a buffer larger than the last-level cache, so
 * that the memmap comes from DRAM — the memmap of 1 GiB is 16 MiB).  -q is
 * a quick check of the harness (16 MiB, one repetition, no eviction).
 * Output: "bench_mm MODE SIZE BENCH hot|cold MEDIAN_NS REPS PAGES".
 */
#include "tests/host/hostenv.h"
#include "tests/host/softmmu.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include "linux/huge_mm.h"
#include "linux/sched/mm.h"
#include "linux/page-flags.h"
#include "linux/printk.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/host/bench_util.h"

#define BASE      0x40000000UL          /* PMD-aligned */
#define RW        (PROT_READ | PROT_WRITE)
#define NR_SIZES  6
#define MAX_REPS  31
#define EVICT_BYTES (1UL << 30)         /* over the 480 MiB LLC seen on these machines */

static const char *const size_name[NR_SIZES] = { "4K", "16K", "64K", "256K", "2M-pte", "2M-pmd" };
static const int size_order[NR_SIZES] = { 0, 2, 4, 6, 9, 9 };

static unsigned long len = 1024UL << 20;
static int reps = 9;
static bool quick;
static char *evict_buf;

/* Push the memmap and page tables out of every cache level. */
static void evict_caches(void)
{
	if (!evict_buf && !(evict_buf = malloc(EVICT_BYTES)))
		abort();
	for (unsigned long i = 0; i < EVICT_BYTES; i += 64)
		evict_buf[i]++;
}

/*
 * Make the host back every page of the fake RAM now (each byte written with
 * its own value), so that no host page fault lands in a timed region — the
 * child's page tables come from pages no one touched before.
 */
static void prefault_ram(void)
{
	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		volatile char *p = __va((phys_addr_t)pfn << PAGE_SHIFT);

		*p = *p;
	}
}

/* Only folios of this size for new faults: the knobs as bench_folio sets them. */
static void thp_only(int s)
{
	int order = size_order[s];

	thp_enabled_store(-1, order ? "always" : "never", order ? 6 : 5);
	for (int o = 2; o <= HPAGE_PMD_ORDER; o++) {
		const char *mode = o == order ? "always" : "never";

		thp_enabled_store(o, mode, strlen(mode));   /* -EINVAL: not an anon order */
	}
}

/*
 * Is every page of the region mapped by a folio of size s's order, by PTEs
 * (or a PMD for 2M-pmd)?  Checked through the page tables, as the guest
 * checks pagemap and kpageflags.
 */
static bool backed(struct mm_struct *mm, int s)
{
	for (unsigned long a = BASE; a < BASE + len; a += PAGE_SIZE) {
		struct pgwalk w;
		struct folio *folio;

		if (!pgtable_lookup((pgd_t *)mm->pgd, a, &w))
			return false;
		folio = page_folio(pfn_to_page(w.phys >> PAGE_SHIFT));
		if ((int)folio_order(folio) != size_order[s] ||
		    (w.leaf_level == PT_PMD) != (s == NR_SIZES - 1))
			return false;
	}
	return true;
}

/* A new mm with the region faulted in for size s; NULL if not backed as intended. */
static struct mm_struct *setup(int s)
{
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *vma;

	mm->mmap_base = MMAP_BASE;
	thp_only(s);
	if (do_mmap(mm, NULL, BASE, len, RW, MAP_PRIVATE | MAP_FIXED, 0) != (long)BASE)
		abort();
	vma = find_vma(mm, BASE);
	for (unsigned long a = BASE; a < BASE + len; a += PAGE_SIZE)
	{
		phys_addr_t pa;

		if (softmmu_translate((pgd_t *)mm->pgd, a, ACC_USER | ACC_WRITE, &pa) != SOFTMMU_OK &&
		    handle_mm_fault(vma, a, FAULT_FLAG_WRITE | FAULT_FLAG_USER))
			abort();
	}
	if (!strcmp(size_name[s], "2M-pte"))
		for (unsigned long a = BASE; a < BASE + len; a += PMD_SIZE)
			if (do_mprotect(mm, a, PAGE_SIZE, PROT_READ) ||
			    do_mprotect(mm, a, PAGE_SIZE, PROT_READ | PROT_WRITE))
				abort();
	if (backed(mm, s))
		return mm;
	exit_mmap(mm);
	mmdrop(mm);
	return NULL;
}

static void teardown(struct mm_struct *mm)
{
	exit_mmap(mm);
	mmdrop(mm);
}

/* One repetition: fork (1) or munmap (0) of a fresh setup; ns, or -1 if unbacked. */
static double run_once(int s, bool fork, bool cold)
{
	struct mm_struct *mm = setup(s), *child;
	double t0, t;

	if (!mm)
		return -1;
	if (cold)
		evict_caches();
	t0 = now_ns();
	if (fork) {
		child = dup_mm(mm);
		t = now_ns() - t0;
		if (!child)
			abort();
		teardown(child);
	} else {
		do_munmap(mm, BASE, len);
		t = now_ns() - t0;
	}
	teardown(mm);
	return t;
}

static void bench(int s, bool fork, bool cold)
{
	const char *mode = MAPCOUNT_VARIANT;
	double t[MAX_REPS];

	for (int r = 0; r < reps; r++) {
		t[r] = run_once(s, fork, cold);
		if (t[r] < 0) {
			printf("bench_mm %s %s %s %s unbacked\n", mode, size_name[s],
			       fork ? "fork" : "munmap", cold ? "cold" : "hot");
			return;
		}
	}
	printf("bench_mm %s %s %s %s %.0f %d %lu\n", mode, size_name[s], fork ? "fork" : "munmap",
	       cold ? "cold" : "hot", median(t, reps), reps, len >> PAGE_SHIFT);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	bool want[NR_SIZES] = { false }, any = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-q"))
			quick = true, len = 16UL << 20, reps = 1;
		else if (!strcmp(argv[i], "-m") && i + 1 < argc)
			len = strtoul(argv[++i], NULL, 0) << 20;
		else if (!strcmp(argv[i], "-r") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else {
			int s = 0;

			while (s < NR_SIZES && strcmp(argv[i], size_name[s]))
				s++;
			if (s == NR_SIZES) {
				fprintf(stderr, "usage: bench_mm [-m MiB] [-r REPS] [-q] [SIZE ...]\n");
				return 2;
			}
			want[s] = any = true;
		}
	}
	if (reps < 1 || reps > MAX_REPS || !len || len % PMD_SIZE) {
		fprintf(stderr, "bench_mm: 1..%d repetitions, a region of whole 2 MiB\n", MAX_REPS);
		return 2;
	}
	host_machine_boot(len + (len >> 2) + (64UL << 20));
	prefault_ram();
	for (int s = 0; s < NR_SIZES; s++)
		for (int fork = 1; fork >= 0 && (want[s] || !any); fork--)
			for (int cold = 0; cold <= !quick; cold++)
				bench(s, fork, cold);
	if (nr_bad_pages || nr_warnings) {
		fprintf(stderr, "bench_mm: %lu bad pages, %lu warnings\n", nr_bad_pages,
			nr_warnings);
		return 1;
	}
	return 0;
}
