/*
 * Guest test (TAP): large anon folios on real page tables — the THP knobs,
 * mTHP faults of every size (PTE-mapped) and PMD THP faults (one PMD leaf),
 * the fallback order by order, MADV_(NO)HUGEPAGE, PMD split by partial
 * munmap / mprotect / MADV_DONTNEED, deferred split on demand and under
 * memory pressure, and what differs between the two mapcount modes.
 * Each check looks at data, PFNs (pagemap) and the folio view.
 */
#include "thp_util.h"
#include <signal.h>

static void test_knobs(void)
{
	char buf[128];

	read_text(THP_DIR "enabled", buf, sizeof(buf));
	ok(!strcmp(buf, "[always] madvise never\n"), "enabled defaults to always");
	read_text(THP_DIR "hugepages-2048kB/enabled", buf, sizeof(buf));
	ok(!strcmp(buf, "always [inherit] madvise never\n"), "hugepages-2048kB defaults to inherit");
	read_text(THP_DIR "hugepages-64kB/enabled", buf, sizeof(buf));
	ok(!strcmp(buf, "always inherit madvise [never]\n"), "hugepages-64kB defaults to never");
	ok(thp_set(0, "madvise") == 0 && !read_text(THP_DIR "enabled", buf, sizeof(buf)) &&
	   !strcmp(buf, "always [madvise] never\n"), "enabled takes madvise");
	ok(thp_set(0, "inherit") < 0 && thp_set(0, "bogus") < 0, "enabled refuses inherit and junk");
	ok(thp_set(16, "always") == 0 && !read_text(THP_DIR "hugepages-16kB/enabled", buf, sizeof(buf)) &&
	   !strcmp(buf, "[always] inherit madvise never\n"), "hugepages-16kB takes always");
	/* mapcount-pages also has 4 MiB folios: two PMDs map one (test_thp_4m) */
	ok(open(THP_DIR "hugepages-8kB/enabled", O_RDONLY) < 0 &&
	   open(mapcount_mode() == MAPCOUNT_PAGES ? THP_DIR "hugepages-8192kB/enabled" :
		THP_DIR "hugepages-4096kB/enabled", O_RDONLY) < 0,
	   "no knob for 8kB or beyond the largest THP");
	thp_set(0, "always");
	thp_only(0);
}

/* Touch one byte inside the second size-block of a 4-block region: a folio of that size. */
static void test_mthp_fault(unsigned long kb)
{
	unsigned long size = kb * 1024, n = size / PAGE;
	char *p = map_aligned(4 * size, size);
	long anon0 = meminfo_kb("AnonPages"), anon1;
	struct folio_view v;
	int s;

	thp_only(kb);
	p[size + PAGE + 5] = 7;
	anon1 = meminfo_kb("AnonPages");
	thp_only(0);
	folio_at(p + size, &v);
	s = my_slot(&v);
	ok(v.order == __builtin_ctzl(n) && v.head_pfn == (long)pfn_of(p + size) &&
	   pfns_contiguous(p + size, n) && !pfn_of(p) && !pfn_of(p + 2 * size),
	   "%lukB: one order-%d folio, %lu contiguous PFNs, neighbours untouched", kb,
	   __builtin_ctzl(n), n);
	ok(v.large_mapcount == (long)n && v.entire_mapcount == 0 && s >= 0 &&
	   v.mm_id_mapcount[s] == (long)n && v.mm_id[!s] == 0 && v.shared == 0 &&
	   v.anon_exclusive == 1 && v.refcount == (long)n,
	   "%lukB: mapped by %lu PTEs, all in this mm's slot, exclusive", kb, n);
	ok(p[size + PAGE + 5] == 7 && p[size] == 0 && p[2 * size - 1] == 0 &&
	   anon1 - anon0 >= (long)kb && anon1 - anon0 < (long)kb + 64,
	   "%lukB: zeroed, data there, AnonPages +%ld kB", kb, anon1 - anon0);
	munmap(p, 4 * size);
}

static void test_pmd_fault(void)
{
	char *p = map_aligned(2 * PMD_SIZE, PMD_SIZE);
	long huge0 = meminfo_kb("AnonHugePages"), rss0 = status_kb("RssAnon");
	struct folio_view v;

	thp_only(2048);
	p[PMD_SIZE + 123] = 1;
	thp_only(0);
	folio_at(p + PMD_SIZE + 300 * PAGE, &v);
	ok(v.order == 9 && v.entire_mapcount == 1 && v.large_mapcount == 1 && v.refcount == 1 &&
	   pfns_contiguous(p + PMD_SIZE, 512) && v.head_pfn == (long)pfn_of(p + PMD_SIZE) &&
	   (v.head_pfn & 511) == 0, "2048kB: one PMD leaf maps a 2 MiB-aligned order-9 folio");
	ok(status_kb("RssAnon") - rss0 == 2048 &&
	   status_kb("VmRSS") == status_kb("RssAnon") + status_kb("RssFile") + status_kb("RssShmem"),
	   "2048kB: this process's RssAnon +2048 kB (/proc/self/status)");
	ok(meminfo_kb("AnonHugePages") - huge0 == 2048 && v.mm_id_pid[my_slot(&v) < 0 ? 0 : my_slot(&v)] == getpid() &&
	   (!page_mapcount_mode() || v.page_mapcount == 1), "2048kB: AnonHugePages +2048 kB, slot (this mm, 1)");
	munmap(p, 2 * PMD_SIZE);
	ok(meminfo_kb("AnonHugePages") == huge0, "munmap of the PMD leaf: AnonHugePages back");
}

/* A folio must fit the VMA and find its PTE range empty, else the next order down. */
static void test_fallback(void)
{
	char *p = map_aligned(16 * PAGE, 16 * PAGE);
	struct folio_view v;

	munmap(p + 8 * PAGE, 8 * PAGE);         /* the VMA: 8 pages, 64K-aligned */
	thp_only(64);
	p[0] = 1;
	ok(folio_at(p, &v) == 0 && v.order == 0, "64kB block does not fit an 8-page VMA: 4 KiB");
	munmap(p, 8 * PAGE);
	p = map_aligned(32 * PAGE, 16 * PAGE);
	thp_only(0);
	p[3 * PAGE] = 1;                        /* order 0 at page 3 */
	thp_set(16, "always");
	thp_set(64, "always");
	p[0] = 1;
	ok(folio_at(p, &v) == 0 && v.order == 0, "page 3 mapped: no 16K or 64K folio at page 0");
	p[8 * PAGE] = 1;
	ok(folio_at(p + 8 * PAGE, &v) == 0 && v.order == 2, "64K range busy, 16K range free: order 2");
	p[16 * PAGE] = 1;
	ok(folio_at(p + 16 * PAGE, &v) == 0 && v.order == 4, "an empty 64K range: order 4");
	thp_only(0);
	munmap(p, 32 * PAGE);
}

static long order_after_touch(char *p)
{
	struct folio_view v;

	p[0] = 1;
	return folio_at(p, &v) ? -1 : v.order;
}

static void test_madvise(void)
{
	char *p = map_aligned(4 * PMD_SIZE, PMD_SIZE);

	thp_only(0);
	thp_set(2048, "inherit");
	thp_set(0, "madvise");
	ok(order_after_touch(p) == 0, "top-level madvise, no MADV_HUGEPAGE: 4 KiB");
	ok(madvise(p + PMD_SIZE, PMD_SIZE, MADV_HUGEPAGE) == 0 && order_after_touch(p + PMD_SIZE) == 9,
	   "top-level madvise, MADV_HUGEPAGE on 2 MiB of the VMA: a PMD THP there");
	ok(order_after_touch(p + 2 * PMD_SIZE) == 0, "the rest of the VMA is not advised: 4 KiB");
	thp_set(0, "always");
	ok(madvise(p + 3 * PMD_SIZE, PMD_SIZE, MADV_NOHUGEPAGE) == 0 &&
	   order_after_touch(p + 3 * PMD_SIZE) == 0, "top-level always, MADV_NOHUGEPAGE: 4 KiB");
	munmap(p, 4 * PMD_SIZE);
	p = map_aligned(PMD_SIZE, PMD_SIZE);
	thp_set(0, "never");
	thp_set(2048, "always");
	ok(order_after_touch(p) == 9, "top-level never, hugepages-2048kB always: a PMD THP");
	thp_set(0, "always");
	thp_set(2048, "inherit");
	munmap(p, PMD_SIZE);
}

/* A 2 MiB PMD THP filled with a pattern. */
static char *pmd_thp(int seed)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);

	thp_only(2048);
	fill_pattern(p, 512, seed);
	thp_only(0);
	return p;
}

static void test_partial_munmap(void)
{
	char *p = pmd_thp(100);
	long anon0 = meminfo_kb("AnonPages"), free0, free1;
	struct folio_view v;
	int pm = page_mapcount_mode();

	munmap(p, PMD_SIZE / 2);
	folio_at(p + PMD_SIZE / 2, &v);
	ok(check_pattern(p + PMD_SIZE / 2, 256, 100 + 256, 256) && v.order == 9 && v.entire_mapcount == 0 &&
	   v.large_mapcount == 256 && v.partially_mapped == 1 && pfns_contiguous(p + PMD_SIZE / 2, 256),
	   "munmap of half a PMD THP: PMD split, 256 PTEs left, data intact, queued");
	ok(pm ? anon0 - meminfo_kb("AnonPages") == 1024 : anon0 == meminfo_kb("AnonPages"),
	   "AnonPages %s (mode: %s)", pm ? "drops by the 1024 kB unmapped" :
	   "still counts the whole folio", pm ? "page-mapcount" : "no-page-mapcount");
	free0 = meminfo_kb("MemFree");
	split_deferred();
	free1 = meminfo_kb("MemFree");
	folio_at(p + PMD_SIZE / 2, &v);
	ok(v.order == 0 && v.large_mapcount == 1 && free1 - free0 >= 1024 && free1 - free0 < 1100 &&
	   check_pattern(p + PMD_SIZE / 2, 256, 100 + 256, 256),
	   "split_deferred: order-0 folios, MemFree +%ld kB, data intact", free1 - free0);
	ok(anon0 - meminfo_kb("AnonPages") == 1024, "after the split AnonPages counts only mapped pages");
	munmap(p, PMD_SIZE);
}

static void test_mprotect_split(void)
{
	char *p = pmd_thp(200);
	struct folio_view v;

	ok(mprotect(p + 7 * PAGE, PAGE, PROT_READ) == 0 && check_pattern(p, 512, 200, 512),
	   "mprotect(PROT_READ) one page of a PMD THP: data intact");
	folio_at(p, &v);
	ok(v.order == 9 && v.entire_mapcount == 0 && v.large_mapcount == 512 &&
	   v.partially_mapped == 0 && v.refcount == 512, "PMD split into 512 PTEs, folio whole");
	ok(mprotect(p + 7 * PAGE, PAGE, PROT_READ | PROT_WRITE) == 0, "mprotect it writable again");
	fill_pattern(p, 512, 300);
	folio_at(p + 7 * PAGE, &v);
	ok(check_pattern(p, 512, 300, 512) && v.order == 9 && pfns_contiguous(p, 512) && pm_exclusive(p + 7 * PAGE),
	   "a PTE-mapped 2 MiB folio, writable in place (no copy)");
	munmap(p, PMD_SIZE);
}

static void test_dontneed_split(void)
{
	char *p = pmd_thp(400);
	struct folio_view v;
	long free0;

	madvise(p + 10 * PAGE, 4 * PAGE, MADV_DONTNEED);
	folio_at(p, &v);
	ok(p[10 * PAGE] == 0 && p[13 * PAGE + 9] == 0 && check_pattern(p, 10, 400, 10) &&
	   check_pattern(p + 14 * PAGE, 498, 414, 498), "MADV_DONTNEED of 4 pages of a PMD THP: zeroes there, data elsewhere");
	ok(v.order == 9 && v.large_mapcount == 508 && pfn_of(p + 10 * PAGE) != (unsigned long)v.head_pfn + 10,
	   "the THP keeps 508 PTEs; the zero-filled pages are new 4 KiB folios");
	free0 = meminfo_kb("MemFree");
	split_deferred();
	ok(meminfo_kb("MemFree") - free0 >= 16, "split_deferred returns the 4 dropped pages");
	munmap(p, PMD_SIZE);
}

/*
 * Memory pressure: a child keeps a partially mapped folio, its half
 * mlocked (reclaim must not send it to swap: the check reads its PFN);
 * another child allocates more than RAM and swap hold.  Reclaim shrinks
 * the deferred split queue on its way (Linux's shrinker), so the queued
 * folio is split before the OOM killer ends the hog.
 */
static void test_pressure(void)
{
	int fds[2];
	unsigned long pfn = 0;
	pid_t keeper, hog;
	struct folio_view v;

	xpipe(fds, 0);
	keeper = fork();
	if (!keeper) {
		char *p = pmd_thp(500);

		close(fds[0]);
		munmap(p, PMD_SIZE / 2);
		mlock(p + PMD_SIZE / 2, PMD_SIZE / 2);
		pfn = pfn_of(p + PMD_SIZE / 2);
		write(fds[1], &pfn, sizeof(pfn));
		pause();
		_exit(0);
	}
	close(fds[1]);                          /* the keeper's death reads as EOF */
	read(fds[0], &pfn, sizeof(pfn));
	folio_view_pfn(pfn, &v);
	ok(v.order == 9 && v.partially_mapped == 1, "a partially mapped THP is queued");
	hog = fork();
	if (!hog) {
		size_t len = (size_t)(meminfo_kb("MemTotal") + 65536) * 1024;
		char *q = map_beyond_ram(len);

		thp_only(2048);                 /* 2 MiB faults while they last, then 4 KiB */
		for (size_t off = 0; off < len; off += PAGE)
			q[off] = 1;
		_exit(0);
	}
	if (hog < 0 || keeper < 0) {            /* out of memory already: no test */
		ok(0, "fork the keeper and the memory hog");
		if (keeper > 0)
			kill(keeper, SIGKILL), wait_exit(keeper);
		close(fds[0]);
		return;
	}
	ok(wait_exit(hog) == 128 + SIGKILL, "the memory hog is killed (OOM), not the kernel");
	folio_view_pfn(pfn, &v);
	ok(v.order == 0 && v.large_mapcount == 1, "under memory pressure the queued folio was split");
	kill(keeper, SIGKILL);
	wait_exit(keeper);
	close(fds[0]);
}

int main(void)
{
	printf("# test_thp (%s)\n", mapcount_mode_name());
	test_knobs();
	for (unsigned long kb = 16; kb <= 1024; kb *= 2)
		test_mthp_fault(kb);
	test_pmd_fault();
	test_fallback();
	test_madvise();
	test_partial_munmap();
	test_mprotect_split();
	test_dontneed_split();
	test_pressure();
	thp_set(0, "always");
	thp_only(0);
	thp_set(2048, "inherit");
	return tap_done();
}
