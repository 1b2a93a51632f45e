/*
 * Guest test (TAP): MADV_COLLAPSE of private anon memory into one
 * PMD-mapped THP with the same contents — from 512 4 KiB pages (with THP
 * "never": the sysfs knobs do not matter), from 16 64 KiB mTHPs, from a
 * range with none and zero-page PTEs, from a PTE-mapped THP, in a child whose pages are shared
 * with its parent (both keep their data); an already PMD-mapped range;
 * Linux's errors (EINVAL, ENOMEM).  MADV_PAGEOUT and MADV_COLD are
 * accepted and keep the data.  The same binary passes on Linux 6.1
 * (linux-peer.sh --mounts --mem 1G; there 64 KiB mTHPs do not exist yet).
 */
#include "thp_util.h"
#include <errno.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#ifndef MADV_PAGEOUT
#define MADV_COLD 20
#define MADV_PAGEOUT 21
#endif

/* Is the 2 MiB at p one THP mapped by a PMD: 512 consecutive PFNs of one anon THP, 2 MiB-aligned? */
static int pmd_mapped_thp(const char *p)
{
	unsigned long pfn = pfn_of(p);

	return pfn && (pfn & 511) == 0 && pfns_contiguous(p, 512) &&
	       (kpageflags(pfn + 200) >> KPF_THP & 1) && kpagecount(pfn + 100) == 1;
}

static int collapse(char *p, size_t len)
{
	return madvise(p, len, MADV_COLLAPSE) ? -errno : 0;
}

/* 2 MiB of 4 KiB pages, each holding its pattern (THP off while they fault). */
static char *small_pages(int seed)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);

	thp_set(0, "never");
	fill_pattern(p, 512, seed);
	return p;
}

static void test_small(void)
{
	long huge0 = meminfo_kb("AnonHugePages"), rss0 = status_kb("RssAnon");
	char *p = small_pages(100);

	ok(!(kpageflags(pfn_of(p)) >> KPF_THP & 1) && !(kpageflags(pfn_of(p + 300 * PAGE)) >> KPF_THP & 1),
	   "512 pages faulted with THP never: small pages");
	ok(collapse(p, PMD_SIZE) == 0, "MADV_COLLAPSE with THP never: 0");
	ok(pmd_mapped_thp(p) && check_pattern(p, 512, 100, ~0UL),
	   "one 2 MiB THP now, every page's data copied");
	/* Linux 6.1 caches RSS per task, up to 64 faults behind: RssAnon within 256 kB */
	ok(meminfo_kb("AnonHugePages") - huge0 == 2048 && labs(status_kb("RssAnon") - rss0 - 2048) <= 256,
	   "AnonHugePages +2048 kB, RssAnon 2048 kB for the range");
	ok(collapse(p, PMD_SIZE) == 0 && pmd_mapped_thp(p), "MADV_COLLAPSE of a PMD-mapped THP: 0");
	p[7] = 1;
	ok(p[7] == 1 && pmd_mapped_thp(p), "the THP is writable");
	munmap(p, PMD_SIZE);
	ok(meminfo_kb("AnonHugePages") == huge0, "munmap: AnonHugePages back");
	thp_set(0, "always");
}

static void test_mthp(void)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);
	int have = !thp_set(64, "always");

	thp_set(0, "never");
	fill_pattern(p, 512, 200);
	thp_set(64, "never");
	if (have) {
		struct folio_view v;

		ok(folio_at(p + 17 * PAGE, &v) == 0 && v.order == 4, "16 64 KiB mTHPs faulted");
	} else {
		skip("no hugepages-64kB (Linux before 6.8)");
	}
	ok(collapse(p, PMD_SIZE) == 0 && pmd_mapped_thp(p) && check_pattern(p, 512, 200, ~0UL),
	   "MADV_COLLAPSE of 16 64 KiB folios: one THP, data kept");
	munmap(p, PMD_SIZE);
	thp_set(0, "always");
}

static void test_holes(void)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);
	int sum = 0;

	thp_set(0, "never");
	for (int i = 0; i < 512; i += 50)
		*(int *)(p + i * PAGE) = 7 + i;
	for (int i = 1; i < 512; i += 50)
		sum += p[i * PAGE];             /* zero pages */
	ok(sum == 0 && collapse(p, PMD_SIZE) == 0 && pmd_mapped_thp(p),
	   "MADV_COLLAPSE of 11 pages, 11 zero pages and 490 holes: one THP");
	for (int i = 0; i < 512; i++)
		sum += *(int *)(p + i * PAGE) != (i % 50 ? 0 : 7 + i);
	ok(sum == 0, "the pages' data there, zeroes elsewhere");
	munmap(p, PMD_SIZE);
	thp_set(0, "always");
}

/* A 2 MiB folio mapped by PTEs (a PMD split by mprotect) is copied into a new PMD-mapped THP. */
static void test_pte_mapped_thp(void)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);

	thp_set(0, "always");
	thp_set(2048, "inherit");
	madvise(p, PMD_SIZE, MADV_HUGEPAGE);
	fill_pattern(p, 512, 600);
	mprotect(p, PAGE, PROT_READ);
	mprotect(p, PAGE, PROT_READ | PROT_WRITE);
	ok(pfns_contiguous(p, 512) && meminfo_kb("AnonHugePages") == 0, "a PTE-mapped 2 MiB THP");
	ok(collapse(p, PMD_SIZE) == 0 && pmd_mapped_thp(p) && check_pattern(p, 512, 600, ~0UL) &&
	   meminfo_kb("AnonHugePages") == 2048, "MADV_COLLAPSE maps it by a PMD again, data kept");
	munmap(p, PMD_SIZE);
}

/* Pages shared with the parent: the child's collapse gives it a THP; the parent keeps its pages. */
static void test_shared(void)
{
	char *p = small_pages(300);
	unsigned long pfn5 = pfn_of(p + 5 * PAGE);
	pid_t pid = fork();

	if (pid == 0) {
		int r;

		*(int *)(p + PAGE) = 1;         /* one writable PTE, as Linux's selftest */
		r = collapse(p, PMD_SIZE) == 0 && pmd_mapped_thp(p) &&
		    check_pattern(p, 512, 300, 1) && *(int *)(p + PAGE) == 1;
		fill_pattern(p, 512, 400);
		_exit(r && check_pattern(p, 512, 400, ~0UL) ? 0 : 1);
	}
	ok(wait_exit(pid) == 0, "a child collapses pages shared with its parent: its THP has its data");
	ok(check_pattern(p, 512, 300, ~0UL) && pfn_of(p + 5 * PAGE) == pfn5 && !pmd_mapped_thp(p),
	   "the parent keeps its own pages and data");
	munmap(p, PMD_SIZE);
	thp_set(0, "always");
}

static void test_errors(void)
{
	char *p = map_aligned(2 * PMD_SIZE, PMD_SIZE);
	int sum = 0;

	ok(collapse(p, PMD_SIZE) == -EINVAL, "an untouched range: EINVAL");
	thp_set(0, "never");
	for (int i = 0; i < 512; i++)
		sum += p[i * PAGE];
	ok(sum == 0 && collapse(p, PMD_SIZE) == -EINVAL, "only zero pages (nothing writable): EINVAL");
	p[PMD_SIZE] = 1;
	ok(madvise(p + PMD_SIZE, PMD_SIZE, MADV_NOHUGEPAGE) == 0 &&
	   collapse(p + PMD_SIZE, PMD_SIZE) == -EINVAL, "MADV_NOHUGEPAGE: EINVAL");
	munmap(p + PMD_SIZE, PMD_SIZE);
	munmap(p + PMD_SIZE / 2, PMD_SIZE / 2);
	p[0] = 1;
	ok(collapse(p, PMD_SIZE / 2) == -EINVAL, "a VMA smaller than 2 MiB: EINVAL");
	ok(collapse(p + PMD_SIZE, PMD_SIZE) == -ENOMEM, "an unmapped range: ENOMEM");
	ok(collapse(p + 1, PAGE) == -EINVAL, "a misaligned start: EINVAL");
	munmap(p, PMD_SIZE / 2);
	thp_set(0, "always");
}

static void test_hints(void)
{
	char *p = small_pages(500);

	ok(madvise(p, PMD_SIZE, MADV_COLD) == 0 && madvise(p, PMD_SIZE, MADV_PAGEOUT) == 0 &&
	   check_pattern(p, 512, 500, ~0UL), "MADV_COLD and MADV_PAGEOUT: 0, data kept");
	munmap(p, PMD_SIZE);
	thp_set(0, "always");
}

int main(void)
{
	mount_proc_sys();
	test_small();
	test_mthp();
	test_holes();
	test_pte_mapped_thp();
	test_shared();
	test_errors();
	test_hints();
	return tap_done();
}
