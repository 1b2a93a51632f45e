/*
 * Guest test (TAP): MAP_PRIVATE file mappings, the classic path from the
 * page cache to anon memory.  A read fault maps the page-cache page itself
 * (the PFN a MAP_SHARED view of the file shows, pagemap); a write copies
 * that one page into a new anon page and leaves the cache's page, the
 * file and the other pages' mappings as they were; fork shares the private
 * mapping's file pages.  Then what each mapcount mode shows of a file THP
 * mapped by a PMD and, for one page, by a PTE too: kpagecount and
 * PM_MMAP_EXCLUSIVE (with CONFIG_PAGE_MAPCOUNT and on Linux 6.1 the page's
 * precise mapcount; without it, the folio's average and
 * !folio_maybe_mapped_shared()).  Passes unchanged on Linux 6.1.
 */
#define _GNU_SOURCE
#include "thp_util.h"
#include <sys/stat.h>

#define NPAGES 4

/* A tmpfs file of NPAGES pages, page i full of '0' + i, written with write(). */
static int make_file(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	char page[PAGE];

	for (int i = 0; fd >= 0 && i < NPAGES; i++) {
		memset(page, '0' + i, PAGE);
		if (write(fd, page, PAGE) != (ssize_t)PAGE)
			return -1;
	}
	return fd;
}

/*
 * The page cache's pages behind a private mapping: a read maps the cache's
 * page (same PFN as the shared view), a write copies one page only.
 */
static void test_private_cow(void)
{
	const char *path = "/tmp/test_filemap.f";
	int fd = make_file(path), same = 0;
	char *s, *p, c;
	unsigned long cache_pfn;
	pid_t pid;

	if (fd < 0) {
		ok(0, "a file on /tmp");
		return;
	}
	s = mmap(NULL, NPAGES * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	p = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	for (int i = 0; i < NPAGES; i++)
		same += s[i * PAGE] == '0' + i && p[i * PAGE] == '0' + i &&
			pfn_of(p + i * PAGE) == pfn_of(s + i * PAGE) && pfn_of(s + i * PAGE);
	ok(same == NPAGES, "read faults of a private mapping map the page-cache pages (%d of %d "
	   "PFNs as the shared view's)", same, NPAGES);
	cache_pfn = pfn_of(s + PAGE);
	ok(kpagecount(cache_pfn) == 2 && !pm_exclusive(p + PAGE),
	   "a cache page mapped twice: kpagecount 2, not exclusive");
	p[PAGE + 7] = 'w';
	ok(pfn_of(p + PAGE) != cache_pfn && pfn_of(p + PAGE) && pm_exclusive(p + PAGE),
	   "a write gets a new page, exclusive to this process");
	ok(s[PAGE + 7] == '1' && pread(fd, &c, 1, PAGE + 7) == 1 && c == '1' &&
	   pfn_of(s + PAGE) == cache_pfn && kpagecount(cache_pfn) == 1,
	   "the page-cache page keeps the file's data, mapped by the shared view only");
	same = 0;
	for (int i = 0; i < NPAGES; i++)
		same += pfn_of(p + i * PAGE) == pfn_of(s + i * PAGE);
	ok(same == NPAGES - 1 && p[PAGE] == '1' && p[PAGE + 7] == 'w',
	   "one page copied: the other %d still the cache's, the copy has the file's data", same);
	pid = fork();
	if (pid == 0)
		_exit(p[PAGE + 7] == 'w' && p[2 * PAGE] == '2' ? 0 : 1);
	ok(wait_exit(pid) == 0, "a child sees the private copy and the file's pages");
	munmap(p, NPAGES * PAGE);
	munmap(s, NPAGES * PAGE);
	close(fd);
	unlink(path);
}

static char shmem_enabled_was[32];

static void set_shmem_enabled(const char *mode)
{
	char buf[128], *l, *r;

	if (!read_text(THP_DIR "shmem_enabled", buf, sizeof(buf)) && (l = strchr(buf, '[')) &&
	    (r = strchr(l, ']')) && r - l < 32) {
		memcpy(shmem_enabled_was, l + 1, r - l - 1);
		shmem_enabled_was[r - l - 1] = '\0';
	}
	write_text(THP_DIR "shmem_enabled", mode);
}

/*
 * A 2 MiB shmem THP PMD-mapped, and its first page mapped a second time
 * by a one-page mapping (a PTE), in one process.  Page 0 is mapped twice,
 * page 1 once; the mm is the folio's only one.
 */
static void test_modes(void)
{
	int fd = memfd_create("test_filemap", 0), pm;
	char *r, *big, *one;
	unsigned long pfn0;
	struct folio_view v;

	set_shmem_enabled("always");
	r = mmap(NULL, 2 * PMD_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	big = (char *)(((unsigned long)r + PMD_SIZE - 1) & ~(PMD_SIZE - 1));
	if (fd < 0 || ftruncate(fd, PMD_SIZE) ||
	    mmap(big, PMD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) != big) {
		ok(0, "a memfd THP mapped at a 2 MiB boundary");
		return;
	}
	big[0] = 1;
	one = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	pfn0 = pfn_of(big);
	ok(one != MAP_FAILED && one[0] == 1 && pfn_of(one) == pfn0 && pfns_contiguous(big, 512),
	   "a PMD-mapped memfd THP, its first page mapped again by a PTE");
	/* foliOS says which mode it runs in; Linux 6.1 keeps per-page mapcounts */
	pm = access("/proc/folio", F_OK) ? 1 : page_mapcount_mode();
	if (pm) {
		ok(kpagecount(pfn0) == 2 && kpagecount(pfn0 + 1) == 1,
		   "PAGE_MAPCOUNT: kpagecount is each page's precise mapcount: 2 and 1 (%ld, %ld)",
		   kpagecount(pfn0), kpagecount(pfn0 + 1));
		ok(!pm_exclusive(big) && !pm_exclusive(one),
		   "PAGE_MAPCOUNT: page 0, mapped twice, is not PM_MMAP_EXCLUSIVE in either mapping");
	} else {
		ok(kpagecount(pfn0) == 1 && kpagecount(pfn0 + 1) == 1,
		   "NO_PAGE_MAPCOUNT: kpagecount is the folio's average: 1 and 1 (%ld, %ld)",
		   kpagecount(pfn0), kpagecount(pfn0 + 1));
		ok(pm_exclusive(big) && pm_exclusive(one) && pm_exclusive(big + PAGE),
		   "NO_PAGE_MAPCOUNT: PM_MMAP_EXCLUSIVE everywhere: one mm, not maybe shared");
	}
	if (!access("/proc/folio", F_OK) && !folio_view_pfn(pfn0, &v))
		ok(v.large_mapcount == 2 && v.entire_mapcount == 1 && v.shared == 0 &&
		   my_slot(&v) >= 0 && v.mm_id_mapcount[my_slot(&v)] == 2,
		   "the folio: two mappings, both in this mm's slot");
	else
		skip("no /proc/folio (Linux)");
	munmap(one, PAGE);
	munmap(r, 2 * PMD_SIZE);
	close(fd);
	if (shmem_enabled_was[0])
		write_text(THP_DIR "shmem_enabled", shmem_enabled_was);
}

int main(void)
{
	mount_proc_sys();
	test_private_cow();
	test_modes();
	return tap_done();
}
