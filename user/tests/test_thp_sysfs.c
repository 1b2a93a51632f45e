/*
 * Guest test (TAP): /sys/kernel/mm/transparent_hugepage/ as Linux has it —
 * real directories that list their entries, every file readable and its
 * value writable back (as the selftests' thp_settings.c saves and
 * restores), bad values refused with EINVAL, and the per-size stats
 * counters moving when a THP is faulted, queued for deferred split and
 * split; and /sys/kernel/debug/split_huge_pages splitting a PMD THP to
 * order 0 and to order 4.  On a Linux without per-size directories (6.1)
 * those cases skip (its split_huge_pages has no order either).
 */
#define _GNU_SOURCE
#include "thp_util.h"
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#define STATS(kb, name) THP_DIR "hugepages-" #kb "kB/stats/" name

static int on_folios;           /* foliOS: every file must be there */

static const char *const rw_files[] = {
	"enabled", "defrag", "use_zero_page", "shmem_enabled",
	"khugepaged/defrag", "khugepaged/max_ptes_none", "khugepaged/max_ptes_swap",
	"khugepaged/max_ptes_shared", "khugepaged/pages_to_scan",
	"khugepaged/scan_sleep_millisecs", "khugepaged/alloc_sleep_millisecs",
	"hugepages-16kB/enabled", "hugepages-2048kB/enabled",
	"hugepages-64kB/shmem_enabled", "hugepages-2048kB/shmem_enabled",
};

static const char *const ro_files[] = {
	"hpage_pmd_size", "khugepaged/pages_collapsed", "khugepaged/full_scans",
	"hugepages-2048kB/stats/anon_fault_alloc", "hugepages-2048kB/stats/anon_fault_fallback",
	"hugepages-2048kB/stats/anon_fault_fallback_charge", "hugepages-2048kB/stats/swpout",
	"hugepages-2048kB/stats/swpout_fallback", "hugepages-2048kB/stats/split",
	"hugepages-2048kB/stats/split_failed", "hugepages-2048kB/stats/split_deferred",
	"hugepages-64kB/stats/nr_anon", "hugepages-64kB/stats/nr_anon_partially_mapped",
};

static int have(const char *path)
{
	return access(path, F_OK) == 0;
}

/* Skip a case about a file Linux 6.1 lacks; on foliOS a missing file fails. */
static int present(const char *path)
{
	if (have(path))
		return 1;
	if (on_folios)
		ok(0, "%s exists", path);
	else
		skip("no such file on this kernel");
	return 0;
}

/* The value thp_settings.c writes back: the bracketed word, or the whole text. */
static void saved_value(const char *text, char *out, size_t size)
{
	const char *l = strchr(text, '['), *r = l ? strchr(l, ']') : NULL;

	if (l && r)
		snprintf(out, size, "%.*s", (int)(r - l - 1), l + 1);
	else
		snprintf(out, size, "%s", text);
}

static int write_errno(const char *path, const char *s)
{
	return write_text(path, s) ? errno : 0;
}

static void test_dirs(void)
{
	static const char *const dirs[] = {
		"/sys/kernel", "/sys/kernel/mm", THP_DIR, THP_DIR "khugepaged",
		THP_DIR "hugepages-2048kB", THP_DIR "hugepages-16kB/stats",
	};
	int found[3] = { 0 };
	struct dirent *d;
	struct stat st;
	DIR *dir;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (present(dirs[i]))
			ok(!stat(dirs[i], &st) && S_ISDIR(st.st_mode), "%s is a directory", dirs[i]);
	dir = opendir(THP_DIR);
	while (dir && (d = readdir(dir))) {
		found[0] |= !strcmp(d->d_name, "enabled") && d->d_type != DT_DIR;
		found[1] |= !strcmp(d->d_name, "khugepaged") && d->d_type == DT_DIR;
		found[2] |= !strcmp(d->d_name, "hugepages-2048kB");
	}
	if (dir)
		closedir(dir);
	ok(dir && found[0] && found[1], "readdir lists enabled and khugepaged/");
	if (present(THP_DIR "hugepages-2048kB"))
		ok(found[2], "readdir lists hugepages-2048kB");
}

static void test_files(void)
{
	char path[160], text[128], val[64];

	for (size_t i = 0; i < sizeof(rw_files) / sizeof(rw_files[0]); i++) {
		snprintf(path, sizeof(path), THP_DIR "%s", rw_files[i]);
		if (!present(path))
			continue;
		ok(!read_text(path, text, sizeof(text)), "%s reads", rw_files[i]);
		saved_value(text, val, sizeof(val));
		ok(!write_text(path, val) && !read_text(path, path + 100, 60) &&
		   !strcmp(path + 100, text), "%s takes back its value %s", rw_files[i], val);
	}
	for (size_t i = 0; i < sizeof(ro_files) / sizeof(ro_files[0]); i++) {
		snprintf(path, sizeof(path), THP_DIR "%s", ro_files[i]);
		if (present(path))
			ok(!read_text(path, text, sizeof(text)) && text[0] >= '0' && text[0] <= '9',
			   "%s reads a number", ro_files[i]);
	}
	read_text(THP_DIR "hpage_pmd_size", text, sizeof(text));
	ok(!strcmp(text, "2097152\n"), "hpage_pmd_size is 2 MiB");
}

static void test_bad_values(void)
{
	static const char *const bad[][2] = {
		{ "enabled", "inherit" }, { "defrag", "sometimes" }, { "use_zero_page", "2" },
		{ "use_zero_page", "x" }, { "shmem_enabled", "bogus" },
		{ "khugepaged/defrag", "2" }, { "khugepaged/max_ptes_none", "512" },
		{ "khugepaged/max_ptes_swap", "512" }, { "khugepaged/max_ptes_shared", "512" },
		{ "khugepaged/pages_to_scan", "0" }, { "khugepaged/scan_sleep_millisecs", "-1" },
		{ "hugepages-2048kB/shmem_enabled", "deny" },
	};
	char path[128], text[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(path, sizeof(path), THP_DIR "%s", bad[i][0]);
		if (present(path))
			ok(write_errno(path, bad[i][1]) == EINVAL, "%s refuses %s (EINVAL)",
			   bad[i][0], bad[i][1]);
	}
	ok(!write_text(THP_DIR "khugepaged/max_ptes_none", "0") &&
	   !read_text(THP_DIR "khugepaged/max_ptes_none", text, sizeof(text)) &&
	   !strcmp(text, "0\n") && !write_text(THP_DIR "khugepaged/max_ptes_none", "511\n"),
	   "max_ptes_none keeps 0, then 511");
	ok(!write_text(THP_DIR "defrag", "defer+madvise") &&
	   !read_text(THP_DIR "defrag", text, sizeof(text)) &&
	   !strcmp(text, "always defer [defer+madvise] madvise never\n") &&
	   !write_text(THP_DIR "defrag", "madvise"), "defrag keeps defer+madvise");
}

static void test_defaults(void)
{
	char text[128];

	if (!on_folios) {
		skip("defaults are foliOS's (a distribution kernel may differ)");
		return;
	}
	read_text(THP_DIR "defrag", text, sizeof(text));
	ok(!strcmp(text, "always defer defer+madvise [madvise] never\n"), "defrag: madvise");
	read_text(THP_DIR "use_zero_page", text, sizeof(text));
	ok(!strcmp(text, "1\n"), "use_zero_page: 1");
	read_text(THP_DIR "shmem_enabled", text, sizeof(text));
	ok(!strcmp(text, "always within_size advise [never] deny force\n"), "shmem_enabled: never");
	read_text(THP_DIR "khugepaged/pages_to_scan", text, sizeof(text));
	ok(!strcmp(text, "4096\n"), "khugepaged/pages_to_scan: 4096");
}

static long stat_of(const char *path)
{
	char text[64];

	return read_text(path, text, sizeof(text)) ? -1 : strtol(text, NULL, 10);
}

/* A PMD THP faulted, a page unmapped (deferred split), then split. */
static void test_pmd_stats(void)
{
	long alloc0, nr0, def0, pm0, split0;
	char *p;

	if (!present(STATS(2048, "anon_fault_alloc")))
		return;
	alloc0 = stat_of(STATS(2048, "anon_fault_alloc"));
	nr0 = stat_of(STATS(2048, "nr_anon"));
	def0 = stat_of(STATS(2048, "split_deferred"));
	pm0 = stat_of(STATS(2048, "nr_anon_partially_mapped"));
	split0 = stat_of(STATS(2048, "split"));
	p = map_aligned(PMD_SIZE, PMD_SIZE);
	madvise(p, PMD_SIZE, MADV_HUGEPAGE);
	p[0] = 1;
	ok(stat_of(STATS(2048, "anon_fault_alloc")) == alloc0 + 1 &&
	   stat_of(STATS(2048, "nr_anon")) == nr0 + 1, "2048kB: a PMD fault counts alloc, nr_anon");
	munmap(p + PMD_SIZE / 2, PAGE);
	ok(stat_of(STATS(2048, "split_deferred")) == def0 + 1 &&
	   stat_of(STATS(2048, "nr_anon_partially_mapped")) == pm0 + 1,
	   "2048kB: unmapping a page queues a deferred split");
	if (have(THP_DIR "split_deferred")) {
		split_deferred();
		ok(stat_of(STATS(2048, "split")) == split0 + 1 &&
		   stat_of(STATS(2048, "nr_anon")) == nr0 &&
		   stat_of(STATS(2048, "nr_anon_partially_mapped")) == pm0,
		   "2048kB: the split counts split, nr_anon and partially mapped go back");
	}
	munmap(p, PMD_SIZE);
	ok(stat_of(STATS(2048, "nr_anon")) == nr0, "2048kB: nr_anon back after munmap");
}

/* A 64 KiB mTHP faulted and unmapped. */
static void test_mthp_stats(void)
{
	long alloc0, nr0;
	char *p;

	if (!present(STATS(64, "anon_fault_alloc")))
		return;
	alloc0 = stat_of(STATS(64, "anon_fault_alloc"));
	nr0 = stat_of(STATS(64, "nr_anon"));
	thp_only(64);
	p = map_aligned(4 * 65536, 65536);
	p[65536] = 1;
	thp_only(0);
	ok(stat_of(STATS(64, "anon_fault_alloc")) == alloc0 + 1 &&
	   stat_of(STATS(64, "nr_anon")) == nr0 + 1, "64kB: a fault counts alloc and nr_anon");
	munmap(p, 4 * 65536);
	ok(stat_of(STATS(64, "nr_anon")) == nr0, "64kB: nr_anon back after munmap");
	thp_set(2048, "inherit");
}

#define SPLIT_DEBUGFS   "/sys/kernel/debug/split_huge_pages"
#define KPF_HEAD        (1ULL << 15)
#define KPF_TAIL        (1ULL << 16)
#define NPG             (PMD_SIZE / PAGE)

/* A PMD THP filled with a pattern, or NULL if none could be had. */
static char *pmd_thp(void)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);

	madvise(p, PMD_SIZE, MADV_HUGEPAGE);
	fill_pattern(p, NPG, 3);
	if (kpageflags(pfn_of(p)) & (1ULL << KPF_THP))
		return p;
	munmap(p, PMD_SIZE);
	return NULL;
}

static int split_range(char *p, unsigned long len, int order)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), order < 0 ? "%d,%p,%p" : "%d,%p,%p,%d", getpid(), (void *)p,
		 (void *)(p + len), order);
	return write_text(SPLIT_DEBUGFS, cmd);
}

/* Do the pages from p on come in folios of 2^order pages (kpageflags head/tail bits)? */
static int folios_of_order(char *p, unsigned long npages, int order)
{
	unsigned long pfn = pfn_of(p);

	for (unsigned long i = 0; i < npages; i++) {
		unsigned long long f = kpageflags(pfn + i);

		if (pfn_of(p + i * PAGE) != pfn + i)
			return 0;
		if (!order && (f & (KPF_HEAD | KPF_TAIL)))
			return 0;
		if (order && !(f & (i % (1UL << order) ? KPF_TAIL : KPF_HEAD)))
			return 0;
	}
	return 1;
}

/*
 * A PMD THP with pages 0-15 and 20-23 unmapped, split to order 4: the
 * first 64 KiB goes back to the buddy, the second is a partially mapped
 * order-4 folio on the deferred split queue, the rest whole and mapped
 * (foliOS's folio view shows their counts).
 */
static void test_split_partial_to_order4(void)
{
	long def0 = stat_of(STATS(64, "split_deferred"));
	struct folio_view v;
	char *p = pmd_thp();
	unsigned long pfn;

	ok(p != NULL, "a PMD THP to unmap parts of and split");
	if (!p)
		return;
	pfn = pfn_of(p);
	munmap(p, 16 * PAGE);
	munmap(p + 20 * PAGE, 4 * PAGE);
	ok(!split_range(p, PMD_SIZE, 4) && folios_of_order(p + 32 * PAGE, NPG - 32, 4) &&
	   check_pattern(p + 24 * PAGE, NPG - 24, 3 + 24, NPG) && pfn_of(p + 16 * PAGE) == pfn + 16,
	   "partly unmapped THP split to order 4: data and PFNs intact");
	if (!on_folios) {
		munmap(p, PMD_SIZE);
		return;
	}
	ok(folio_view_pfn(pfn, &v) == 0 && v.order == 0 && v.refcount == 0,
	   "the unmapped first 64 KiB is free");
	folio_at(p + 16 * PAGE, &v);
	ok(v.order == 4 && v.large_mapcount == 12 && v.refcount == 12 && my_slot(&v) >= 0 &&
	   v.mm_id_mapcount[my_slot(&v)] == 12 && v.partially_mapped == 1 &&
	   stat_of(STATS(64, "split_deferred")) == def0 + 1,
	   "the next one: order 4, 12 mappings in this mm's slot, queued for deferred split");
	folio_at(p + 100 * PAGE, &v);
	ok(v.order == 4 && v.large_mapcount == 16 && v.refcount == 16 && v.anon_exclusive == 1 &&
	   v.partially_mapped == 0, "a whole one: order 4, 16 mappings, exclusive, not queued");
	munmap(p, PMD_SIZE);
}

/*
 * Page 0 of one PMD THP and page 1 of another, moved side by side by
 * mremap (as Linux's split_huge_page_test does): a split of those two
 * pages splits both folios, each reached from its own page.
 */
static void test_split_moved_pages(void)
{
	char *a = pmd_thp(), *b = pmd_thp();
	char *dst = mmap(NULL, 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int moved;

	ok(a && b && dst != MAP_FAILED, "two PMD THPs and a place for a page of each");
	if (!a || !b || dst == MAP_FAILED)
		return;
	moved = mremap(a, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst) == dst &&
		mremap(b + PAGE, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst + PAGE) == dst + PAGE;
	ok(moved && (kpageflags(pfn_of(dst)) & KPF_HEAD) && (kpageflags(pfn_of(dst + PAGE)) & KPF_TAIL),
	   "mremap puts page 0 of one THP next to page 1 of another");
	ok(moved && !split_range(dst, 2 * PAGE, -1) && folios_of_order(dst, 1, 0) &&
	   folios_of_order(dst + PAGE, 1, 0) && *(int *)dst == 3 && *(int *)(dst + PAGE) == 4 &&
	   check_pattern(a + PAGE, NPG - 1, 4, NPG) && check_pattern(b, NPG, 3, 1),
	   "split_huge_pages of the two pages splits both folios, data intact");
	munmap(a, PMD_SIZE);
	munmap(b, PMD_SIZE);
	munmap(dst, 2 * PAGE);
}

static void test_split_huge_pages(void)
{
	long split0 = stat_of(STATS(2048, "split"));
	unsigned long pfn;
	char *p;

	if (!have(SPLIT_DEBUGFS)) {
		skip("no debugfs split_huge_pages");
		return;
	}
	ok(write_errno(SPLIT_DEBUGFS, "bogus") == EINVAL &&
	   write_errno(SPLIT_DEBUGFS, "1,0x1000") == EINVAL, "split_huge_pages refuses bad text");
	p = pmd_thp();
	ok(p != NULL, "a PMD THP to split");
	if (!p)
		return;
	pfn = pfn_of(p);
	ok(!split_range(p, PMD_SIZE, -1) && pfn_of(p) == pfn &&
	   folios_of_order(p, PMD_SIZE / PAGE, 0) && check_pattern(p, NPG, 3, NPG),
	   "split_huge_pages: the PMD THP is 512 order-0 pages, same PFNs, data intact");
	if (split0 >= 0)
		ok(stat_of(STATS(2048, "split")) == split0 + 1, "2048kB: the split is counted");
	munmap(p, PMD_SIZE);
	p = pmd_thp();
	ok(p && !write_text(SPLIT_DEBUGFS, "1") && folios_of_order(p, NPG, 0) &&
	   check_pattern(p, NPG, 3, NPG), "split_huge_pages 1: every THP is split");
	if (p)
		munmap(p, PMD_SIZE);
	test_split_moved_pages();
	if (!have(STATS(2048, "split"))) {
		skip("split_huge_pages has no order on this kernel");
		return;
	}
	p = pmd_thp();
	ok(p != NULL, "another PMD THP to split");
	if (!p)
		return;
	ok(!split_range(p, PMD_SIZE, 4) && folios_of_order(p, PMD_SIZE / PAGE, 4) &&
	   check_pattern(p, NPG, 3, NPG),
	   "split_huge_pages to order 4: 32 folios of 64 KiB, data intact");
	ok(!split_range(p, PMD_SIZE, 1) && folios_of_order(p, PMD_SIZE / PAGE, 4),
	   "no anon split to order 1");
	ok(!split_range(p, PMD_SIZE / 2, 0) && folios_of_order(p, PMD_SIZE / 2 / PAGE, 0) &&
	   folios_of_order(p + PMD_SIZE / 2, PMD_SIZE / 2 / PAGE, 4) &&
	   check_pattern(p, NPG, 3, NPG), "order-4 folios split to 0 in half the range");
	munmap(p, PMD_SIZE);
	test_split_partial_to_order4();
}

int main(void)
{
	mount_proc_sys();
	on_folios = have("/proc/folio");
	printf("# test_thp_sysfs\n");
	test_defaults();
	test_dirs();
	test_files();
	test_bad_values();
	thp_set(0, "always");
	test_pmd_stats();
	test_mthp_stats();
	test_split_huge_pages();
	return tap_done();
}
