/*
 * Folios larger than a PMD (the mapcount-pages variant, the RFC's
 * "arbitrary folio mappings"): a 4 MiB anon folio mapped by two PMD
 * leaves, then by a PMD and 512 PTEs, shared by fork, written (COW copy
 * in the child, reuse through the MM owner slots in the parent), partly
 * unmapped and split by deferred split.  The other variants (and Linux)
 * have no 4 MiB size: there the test checks the knob is absent.
 */
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"
#include "thp_util.h"

#define SIZE_4M (4UL << 20)
#define KNOB THP_DIR "hugepages-4096kB/enabled"
#define MPOL_LOCAL      4
#define MPOL_MF_MOVE    (1 << 1)

/* smaps_rollup's AnonHugePages of this process, kB. */
static long rollup_anon_huge_kb(void)
{
	char buf[2048], *p;

	if (read_text("/proc/self/smaps_rollup", buf, sizeof(buf)) ||
	    !(p = strstr(buf, "AnonHugePages:")))
		return -1;
	return strtol(p + 14, NULL, 10);
}

/* A 4 MiB folio at a 4 MiB boundary, its pages 0..1023 numbered seed + i. */
static char *map_4m_folio(int seed)
{
	char *p = map_aligned(SIZE_4M, SIZE_4M);

	if (p)
		fill_pattern(p, 1024, seed);
	return p;
}

static void test_two_pmds(void)
{
	long huge1 = meminfo_kb("AnonHugePages"), huge0 = huge1, rollup0 = rollup_anon_huge_kb();
	static char trace[8192];
	struct folio_view v;
	char *p;

	write_text("/proc/mapcount_trace", "order 10");
	p = map_4m_folio(1000);
	write_text("/proc/mapcount_trace", "off");
	read_text("/proc/mapcount_trace", trace, sizeof(trace));
	write_text("/proc/mapcount_trace", "clear");
	ok(strstr(trace, " new nr=1024 ") && strstr(trace, "/10 by ") &&
	   strstr(trace, "lm 0->2 tmp 0->1024 "),
	   "the trace records it: new, 1024 pages, order 10, lm 0->2 tmp 0->1024");

	folio_at(p, &v);
	ok(v.order == 10 && v.large_mapcount == 2 && v.total_mapped_pages == 1024 &&
	   v.refcount == 2 && v.entire_mapcount == 0 && v.mm_id_mapcount[my_slot(&v) < 0 ? 0 : my_slot(&v)] == 2,
	   "a 4 MiB folio, two PMD mappings: order %ld, mapcount %ld, total %ld, refcount %ld",
	   v.order, v.large_mapcount, v.total_mapped_pages, v.refcount);
	ok(pfns_contiguous(p, 1024) && (kpageflags(pfn_of(p + SIZE_4M / 2)) & (1ULL << KPF_THP)),
	   "its 1024 pages are contiguous, the second PMD's too are THP");
	huge0 = meminfo_kb("AnonHugePages") - huge0;
	rollup0 = rollup_anon_huge_kb() - rollup0;
	ok(huge0 == 4096 && rollup0 == 4096,
	   "AnonHugePages +%ld kB in meminfo, +%ld kB in smaps_rollup (4096)", huge0, rollup0);
	ok(pm_exclusive(p) && pm_exclusive(p + SIZE_4M - PAGE) && check_pattern(p, 1024, 1000, ~0UL),
	   "pagemap: exclusive through both PMDs, the data in place");
	munmap(p, SIZE_4M);
	ok(meminfo_kb("AnonHugePages") == huge1, "munmap of both PMDs: AnonHugePages back");
}

/*
 * fork shares both PMDs; the child's write copies one page (its PMD is
 * split); once the child is gone the parent's write reuses the PMD: the
 * slots show every mapping is its own.
 */
static void test_fork_cow_reuse(void)
{
	char *p = map_4m_folio(2000);
	unsigned long pfn = pfn_of(p + SIZE_4M / 2);
	struct folio_view v;
	int go[2], st;
	pid_t pid;

	xpipe(go, 0);
	pid = fork();
	if (pid == 0) {
		char c;

		p[SIZE_4M / 2] = 'c';
		read(go[0], &c, 1);
		_exit(pfn_of(p + SIZE_4M / 2) != pfn && check_pattern(p, 512, 2000, ~0UL) ? 0 : 1);
	}
	usleep(100000);
	folio_at(p, &v);
	ok(v.shared == 1 && v.large_mapcount >= 3 && v.total_mapped_pages >= 1537,
	   "shared with a child: mapcount %ld, total %ld, maybe shared", v.large_mapcount,
	   v.total_mapped_pages);
	write(go[1], "x", 1);
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child's write copied one page, the rest shared");
	folio_at(p, &v);
	ok(v.shared == 0 && v.large_mapcount == 2 && v.total_mapped_pages == 1024,
	   "the child is gone: this mm alone, two PMDs (mapcount %ld)", v.large_mapcount);
	p[100] = 'p';
	p[SIZE_4M - PAGE + 100] = 'q';
	folio_at(p, &v);
	ok(pfn_of(p + SIZE_4M / 2) == pfn && v.order == 10 && v.large_mapcount == 2 &&
	   check_pattern(p, 1024, 2000, ~0UL) && p[100] == 'p',
	   "the parent's writes reuse both PMDs through the slots: nothing copied");
	close(go[0]);
	close(go[1]);
	munmap(p, SIZE_4M);
}

/*
 * Migration (mbind MPOL_MF_MOVE): both PMDs become PMD migration entries,
 * then PMDs of a new 4 MiB folio (or, with no 4 MiB block free, the
 * folio is split and its pages move one by one).
 */
static void test_migrate(void)
{
	char *p = map_4m_folio(5000);
	unsigned long old = pfn_of(p);
	struct folio_view v;
	long ret = syscall(SYS_mbind, p, SIZE_4M, MPOL_LOCAL, NULL, 0x7ffUL, MPOL_MF_MOVE);

	folio_at(p, &v);
	ok(ret == 0 && pfn_of(p) != old && check_pattern(p, 1024, 5000, ~0UL) &&
	   (v.order == 10 ? v.large_mapcount == 2 && v.total_mapped_pages == 1024 &&
			    pfns_contiguous(p, 1024) : v.order == 0),
	   "mbind MPOL_MF_MOVE: moved (pfn %#lx -> %#lx), order %ld, mapcount %ld, data intact",
	   old, pfn_of(p), v.order, v.large_mapcount);
	munmap(p, SIZE_4M);
}

/*
 * A PMD and PTEs: mprotect of one page splits the second PMD (513
 * mappings, 1024 pages), then of the first (PTEs only: 1024, 1024);
 * unmapping one page leaves 1023: partially mapped, and deferred split
 * splits the folio.
 */
static void test_pmd_and_ptes(void)
{
	char *p = map_4m_folio(3000);
	char *second = p + SIZE_4M / 2;
	struct folio_view v;

	mprotect(second, PAGE, PROT_READ);
	mprotect(second, PAGE, PROT_READ | PROT_WRITE);
	folio_at(p, &v);
	ok(v.order == 10 && v.large_mapcount == 513 && v.total_mapped_pages == 1024 &&
	   v.partially_mapped == 0 && rollup_anon_huge_kb() >= 2048,
	   "a PMD and 512 PTEs: mapcount %ld, total %ld, not partially mapped",
	   v.large_mapcount, v.total_mapped_pages);
	mprotect(p, PAGE, PROT_READ);
	mprotect(p, PAGE, PROT_READ | PROT_WRITE);
	folio_at(p, &v);
	ok(v.order == 10 && v.large_mapcount == 1024 && v.total_mapped_pages == 1024 &&
	   v.partially_mapped == 0 && pfns_contiguous(p, 1024) && check_pattern(p, 1024, 3000, ~0UL),
	   "PTEs only, 1024 of them: mapcount %ld, total %ld, still one folio",
	   v.large_mapcount, v.total_mapped_pages);
	madvise(second + 7 * PAGE, PAGE, MADV_DONTNEED);
	folio_at(p, &v);
	ok(v.large_mapcount == 1023 && v.total_mapped_pages == 1023 && v.partially_mapped == 1,
	   "one PTE gone: total %ld < 1024, queued for deferred split", v.total_mapped_pages);
	split_deferred();
	folio_at(p, &v);
	ok(v.order == 0 && check_pattern(p, 1024, 3000, 512 + 7) && *(int *)(second + 7 * PAGE) == 0,
	   "deferred split: the pages are order 0 now, data intact, the unmapped page reads 0");
	munmap(p, SIZE_4M);
}

/*
 * The RFC's example A: fork, both unmap the second half.  Each page still
 * mapped is mapped twice, the average stays 1: the scheme cannot tell the
 * folio is partially mapped until the child exits.
 */
static void test_partial_while_shared(void)
{
	char *p = map_4m_folio(4000);
	struct folio_view v;
	int done[2], go[2], st;
	char c;
	pid_t pid;

	xpipe(done, 0);
	xpipe(go, 0);
	pid = fork();
	if (pid == 0) {
		munmap(p + SIZE_4M / 2, SIZE_4M / 2);
		write(done[1], "d", 1);
		read(go[0], &c, 1);
		_exit(0);
	}
	read(done[0], &c, 1);
	munmap(p + SIZE_4M / 2, SIZE_4M / 2);
	folio_at(p, &v);
	ok(v.large_mapcount == 2 && v.total_mapped_pages == 1024 && v.partially_mapped == 0,
	   "fork, both unmap the second half: total 1024 = the folio's pages, not seen as partial");
	write(go[1], "g", 1);
	waitpid(pid, &st, 0);
	folio_at(p, &v);
	ok(v.large_mapcount == 1 && v.total_mapped_pages == 512 && v.partially_mapped == 1,
	   "the child exits: total 512, queued for deferred split");
	munmap(p, SIZE_4M / 2);
	close(done[0]);
	close(done[1]);
	close(go[0]);
	close(go[1]);
}

int main(void)
{
	char buf[128];

	printf("# test_thp_4m (%s)\n", access("/proc/folio", F_OK) ? "linux" : mapcount_mode_name());
	if (access("/proc/folio", F_OK) || mapcount_mode() != MAPCOUNT_PAGES) {
		ok(access(KNOB, F_OK) != 0, "no hugepages-4096kB: a PMD cannot map part of a folio here");
		return tap_done();
	}
	ok(!read_text(KNOB, buf, sizeof(buf)) && !strcmp(buf, "always inherit madvise [never]\n") &&
	   access(THP_DIR "hugepages-4096kB/shmem_enabled", F_OK) != 0,
	   "hugepages-4096kB/enabled exists, never by default; no shmem_enabled (shmem has no 4 MiB)");
	thp_only(4096);                 /* 2 MiB off: a 4 MiB fault needs only its own knob */
	test_two_pmds();
	test_fork_cow_reuse();
	test_migrate();
	test_pmd_and_ptes();
	test_partial_while_shared();
	thp_set(4096, "never");
	thp_set(2048, "inherit");
	return tap_done();
}
