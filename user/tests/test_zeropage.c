/*
 * Guest test (TAP): the zero pages.  A read fault on untouched private
 * anon memory maps the shared 4 KiB zero page (pagemap: one PFN for
 * different pages, never exclusive; kpageflags ZERO_PAGE; no RSS); a write
 * replaces it by a new page; mprotect keeps it read-only; fork shares it;
 * MADV_DONTNEED and MADV_POPULATE_READ give it back, POPULATE_WRITE does
 * not; MAP_POPULATE of read-only memory maps it.  Where a 2 MiB THP is allowed the read maps the huge zero folio by
 * a PMD (kpageflags THP|ZERO_PAGE); a write to it splits the PMD into
 * zero-page PTEs and copies one 4 KiB page (Linux 6.1).  The same binary
 * passes on Linux 6.1 (linux-peer.sh --mounts --mem 1G).
 */
#include "thp_util.h"

#define KPF_ANON        12
#define KPF_ZERO_PAGE   24
#define PM_FILE         (1ULL << 61)
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#define MADV_POPULATE_WRITE 23
#endif

static unsigned long zero_pfn;

/* n pages of 4 KiB-only memory (MADV_NOHUGEPAGE: no huge zero folio either). */
static char *map_small(unsigned long n)
{
	char *p = map_aligned(n * PAGE, PMD_SIZE);

	madvise(p, n * PAGE, MADV_NOHUGEPAGE);
	return p;
}

/* Rss of the VMA holding addr, from /proc/self/smaps; -1 if not found. */
static long smaps_rss_kb(const void *addr)
{
	static char buf[65536];
	int fd = open("/proc/self/smaps", O_RDONLY);
	size_t len = 0;
	ssize_t n;
	char *line;

	while (fd >= 0 && len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;                       /* Linux's seq_file gives a page or so per read */
	if (fd >= 0)
		close(fd);
	buf[len] = '\0';
	for (line = buf; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && lo <= (unsigned long)addr &&
		    (unsigned long)addr < hi) {
			char *rss = strstr(line, "\nRss:");

			return rss ? strtol(rss + 5, NULL, 10) : -1;
		}
	}
	return -1;
}

/* foliOS's /proc/folio/<pfn> names a zero page (skipped on Linux, which has no such file). */
static void check_folio_view(unsigned long pfn, const char *kind)
{
	char path[64], buf[1024], want[32];

	snprintf(path, sizeof(path), "/proc/folio/%lu", pfn);
	snprintf(want, sizeof(want), "zero_page: %s\n", kind);
	if (read_text(path, buf, sizeof(buf)))
		skip("no /proc/folio (Linux)");
	else
		ok(strstr(buf, want) != NULL, "/proc/folio/<pfn> says \"%s\"", want);
}

static int is_zero(const char *p)
{
	unsigned long pfn = pfn_of(p);

	return pfn && (kpageflags(pfn) >> KPF_ZERO_PAGE & 1);
}

static void test_read_fault(void)
{
	char *p = map_small(64);
	long rss0 = status_kb("RssAnon");
	int sum = 0;

	for (unsigned long i = 0; i < 64; i++)
		sum += p[i * PAGE + 7];
	zero_pfn = pfn_of(p);
	ok(sum == 0 && zero_pfn && pfn_of(p + PAGE) == zero_pfn && pfn_of(p + 63 * PAGE) == zero_pfn,
	   "read faults on two different pages: one PFN in pagemap");
	ok(is_zero(p) && !(kpageflags(zero_pfn) >> KPF_ANON & 1), "kpageflags: ZERO_PAGE, not ANON");
	ok(!pm_exclusive(p) && !(pagemap_entry(p) & PM_FILE), "pagemap: present, not exclusive, not file");
	ok(kpagecount(zero_pfn) == 0, "kpagecount of the zero page: 0 (not in any rmap)");
	ok(status_kb("RssAnon") - rss0 < 64 * 4 / 2, "64 zero pages mapped: RssAnon does not grow");
	ok(smaps_rss_kb(p) == 0, "smaps: Rss 0 for a VMA of zero pages");
	check_folio_view(zero_pfn, "4K");
	p[5 * PAGE] = 42;
	ok(p[5 * PAGE] == 42 && pfn_of(p + 5 * PAGE) != zero_pfn && !is_zero(p + 5 * PAGE) &&
	   (kpageflags(pfn_of(p + 5 * PAGE)) >> KPF_ANON & 1) && pm_exclusive(p + 5 * PAGE),
	   "a write replaces the zero page by a new exclusive anon page");
	ok(pfn_of(p + 4 * PAGE) == zero_pfn && pfn_of(p + 6 * PAGE) == zero_pfn && p[6 * PAGE] == 0,
	   "its neighbours still map the zero page");
	ok(status_kb("RssAnon") - rss0 >= 4, "the written page counts in RssAnon");
	munmap(p, 64 * PAGE);
}

static void test_mprotect_dontneed(void)
{
	char *p = map_small(8);

	(void)*(volatile char *)p;
	ok(mprotect(p, 8 * PAGE, PROT_READ) == 0 && mprotect(p, 8 * PAGE, PROT_READ | PROT_WRITE) == 0 &&
	   pfn_of(p) == zero_pfn, "mprotect RO then RW: still the zero page");
	p[0] = 3;
	ok(p[0] == 3 && pfn_of(p) != zero_pfn, "then a write still gets its own page");
	ok(madvise(p, PAGE, MADV_DONTNEED) == 0 && p[0] == 0 && pfn_of(p) == zero_pfn,
	   "MADV_DONTNEED, read again: the zero page");
	ok(madvise(p, PAGE, MADV_DONTNEED) == 0 && pfn_of(p) == 0, "MADV_DONTNEED of a zero page: not mapped");
	munmap(p, 8 * PAGE);
	p = map_small(8);
	ok(madvise(p, 8 * PAGE, MADV_POPULATE_READ) == 0 && pfn_of(p) == zero_pfn &&
	   pfn_of(p + 7 * PAGE) == zero_pfn, "MADV_POPULATE_READ maps zero pages");
	ok(madvise(p, 8 * PAGE, MADV_POPULATE_WRITE) == 0 && pfn_of(p) != zero_pfn &&
	   pfn_of(p + 7 * PAGE) != zero_pfn && pfn_of(p) != pfn_of(p + 7 * PAGE) && pfn_of(p),
	   "MADV_POPULATE_WRITE replaces them by pages of their own");
	munmap(p, 8 * PAGE);
}

/*
 * A child sees the parent's zero page at p (PFN zpfn, the next page's
 * zpfn + step), writes its own copy of the next page; the parent keeps
 * the zero page.
 */
static void test_fork(char *p, unsigned long zpfn, unsigned long step, const char *what)
{
	int fds[2];
	char res = 0;
	pid_t pid;

	xpipe(fds, 0);
	pid = fork();
	if (pid < 0) {
		ok(0, "fork (%s)", what);
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		/* read first: Linux copies no PTEs of a VMA without an anon_vma (zero pages only) */
		char r = p[0] == 0 && pfn_of(p) == zpfn && p[PAGE] == 0;

		p[PAGE] = 9;
		r = r && p[PAGE] == 9 && pfn_of(p + PAGE) != zpfn && !is_zero(p + PAGE);
		write(fds[1], &r, 1);
		_exit(0);
	}
	close(fds[1]);                  /* a child that dies early gives EOF, not a hang */
	read(fds[0], &res, 1);
	ok(wait_exit(pid) == 0 && res == 1, "fork (%s): the child maps it too, its write gets a page", what);
	ok(pfn_of(p) == zpfn && pfn_of(p + PAGE) == zpfn + step && p[PAGE] == 0,
	   "fork (%s): the parent still maps the zero page", what);
	close(fds[0]);
}

/* Let 2 MiB THPs in: top-level always and MADV_HUGEPAGE (hugepages-2048kB is foliOS's/6.8's). */
static char *map_huge(void)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);

	thp_set(0, "always");
	thp_set(2048, "inherit");
	madvise(p, PMD_SIZE, MADV_HUGEPAGE);
	return p;
}

static void test_huge_zero(void)
{
	char *p = map_huge();
	long rss0 = status_kb("RssAnon"), huge0 = meminfo_kb("AnonHugePages");
	unsigned long hz;
	unsigned long long f;

	(void)*(volatile char *)(p + 100);
	hz = pfn_of(p);
	f = kpageflags(hz + 3);
	ok(hz && hz != zero_pfn && (hz & 511) == 0 && pfns_contiguous(p, 512),
	   "read fault in a THP-allowed 2 MiB: a 2 MiB-aligned folio by a PMD");
	ok((f >> KPF_THP & 1) && (f >> KPF_ZERO_PAGE & 1) && !(f >> KPF_ANON & 1),
	   "kpageflags of the huge zero folio: THP|ZERO_PAGE, not ANON");
	ok(!pm_exclusive(p + 5 * PAGE) && (pagemap_entry(p) & PM_FILE) && kpagecount(hz) == 0,
	   "pagemap: not exclusive, PM_FILE (no anon folio, as Linux); kpagecount 0");
	ok(status_kb("RssAnon") == rss0 && meminfo_kb("AnonHugePages") == huge0 && smaps_rss_kb(p) == 0,
	   "no RssAnon, no AnonHugePages, no smaps Rss for it");
	check_folio_view(hz + 7, "huge");
	test_fork(p, hz, 1, "huge zero PMD");
	p[3 * PAGE] = 5;
	ok(p[3 * PAGE] == 5 && !is_zero(p + 3 * PAGE) && !(kpageflags(pfn_of(p + 3 * PAGE)) >> KPF_THP & 1),
	   "a write to it: a new 4 KiB page there (Linux 6.1: PMD split, then COW)");
	ok(pfn_of(p) == zero_pfn && pfn_of(p + 511 * PAGE) == zero_pfn && p[511 * PAGE] == 0,
	   "the rest of the split PMD maps the 4 KiB zero page");
	munmap(p, PMD_SIZE);
	p = map_huge();
	(void)*(volatile char *)p;
	ok(pfn_of(p) == hz && munmap(p + PAGE, PAGE) == 0 && pfn_of(p + 2 * PAGE) == zero_pfn &&
	   pfn_of(p) == zero_pfn, "munmap of one page of a huge zero PMD: the rest maps the zero page");
	munmap(p, PMD_SIZE);
}

/* MAP_POPULATE faults the range in: a read-only one with zero pages, a writable one with its own. */
static void test_map_populate(void)
{
	char *r = mmap(NULL, 4 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	char *w = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	ok(r != MAP_FAILED && pfn_of(r) == zero_pfn && pfn_of(r + 3 * PAGE) == zero_pfn,
	   "MAP_POPULATE, PROT_READ: zero pages mapped before any access");
	ok(w != MAP_FAILED && pfn_of(w) && pfn_of(w + 3 * PAGE) && pfn_of(w) != zero_pfn &&
	   pm_exclusive(w + 3 * PAGE), "MAP_POPULATE, PROT_READ|PROT_WRITE: own pages mapped");
	munmap(r, 4 * PAGE);
	munmap(w, 4 * PAGE);
}

/* use_zero_page 0: a read fault allocates a THP (skipped where the knob cannot be written). */
static void test_use_zero_page_off(void)
{
	char *p;
	int wrote = !write_text(THP_DIR "use_zero_page", "0");

	if (!wrote) {
		skip("use_zero_page not writable");
		return;
	}
	p = map_huge();
	(void)*(volatile char *)p;
	ok(!is_zero(p) && (kpageflags(pfn_of(p)) >> KPF_THP & 1) && pm_exclusive(p),
	   "use_zero_page 0: a read fault allocates a THP");
	write_text(THP_DIR "use_zero_page", "1");
	munmap(p, PMD_SIZE);
}

int main(void)
{
	char *p;

	mount_proc_sys();
	test_read_fault();
	test_mprotect_dontneed();
	p = map_small(2);
	(void)*(volatile char *)p;
	(void)*(volatile char *)(p + PAGE);
	test_fork(p, zero_pfn, 0, "4K zero page");
	munmap(p, 2 * PAGE);
	test_huge_zero();
	test_map_populate();
	test_use_zero_page_off();
	return tap_done();
}
