/*
 * Guest test (TAP): MAP_SHARED memory between processes.  A 2 MiB shmem
 * THP (a memfd, shmem_enabled=always) PMD-mapped by two processes fills
 * both MM owner slots and sets the shared bit; when one exits it is
 * exclusive again; a third mapper is not tracked, and the shared bit
 * stays once the other two are gone (the series' false positive); the
 * same folio PTE-mapped in one process and PMD-mapped in another; fork of
 * a shared mapping copies no page table (PageTables); MAP_SHARED|
 * MAP_ANONYMOUS is shared across fork both ways (and MADV_REMOVE punches a
 * hole in it); truncating a mapped file unmaps it everywhere, an access
 * past the end is SIGBUS (BUS_ADRERR) and the memory returns.  The folio-view checks are foliOS's own (skipped on
 * Linux); the rest passes unchanged on Linux 6.1.
 */
#define _GNU_SOURCE
#include "thp_util.h"
#include <signal.h>
#include <sys/stat.h>

static int have_folio_view;
static char shmem_enabled_was[32];

/* Set shmem_enabled, remembering the first setting to put back. */
static void shmem_enabled(const char *mode)
{
	char buf[128], *l, *r;

	if (!shmem_enabled_was[0] && !read_text(THP_DIR "shmem_enabled", buf, sizeof(buf)) &&
	    (l = strchr(buf, '[')) && (r = strchr(l, ']')) && r - l < 32) {
		memcpy(shmem_enabled_was, l + 1, r - l - 1);
		shmem_enabled_was[r - l - 1] = '\0';
	}
	write_text(THP_DIR "shmem_enabled", mode);
}

/* len bytes of fd (or of new shared anonymous memory, fd -1) at an align boundary. */
static char *map_shared_aligned(int fd, size_t len, size_t align)
{
	char *r = mmap(NULL, len + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a, *p;

	if (r == MAP_FAILED)
		return NULL;
	a = (char *)(((unsigned long)r + align - 1) & ~(align - 1));
	p = mmap(a, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | (fd < 0 ? MAP_ANONYMOUS : 0),
		 fd, 0);
	if (a > r)
		munmap(r, a - r);
	munmap(a + len, r + len + align - (a + len));
	return p == MAP_FAILED ? NULL : p;
}

/*
 * Is the THP at p mapped by a PMD here?  ShmemPmdMapped where /proc/meminfo
 * has it, else the folio view's entire mapcount.
 */
static int shmem_pmd_mapped(const char *p)
{
	struct folio_view v;
	long kb = meminfo_kb("ShmemPmdMapped");

	if (kb >= 0)
		return kb >= 2048 && pfns_contiguous(p, 512);
	return pfns_contiguous(p, 512) && !folio_at(p, &v) && v.entire_mapcount >= 1;
}

/* A memfd of len bytes. */
static int memfd(size_t len)
{
	int fd = memfd_create("test_shared", 0);

	if (fd >= 0 && ftruncate(fd, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A child that runs fn(arg), reports one byte on rep and waits for go before it exits. */
struct child {
	pid_t pid;
	int rep[2], go[2];
};

static void child_start(struct child *c, int (*fn)(void *), void *arg)
{
	char b;

	xpipe(c->rep, 0);
	xpipe(c->go, 0);
	c->pid = fork();
	if (c->pid == 0) {
		b = (char)fn(arg);
		close(c->rep[0]);
		close(c->go[1]);
		write(c->rep[1], &b, 1);
		read(c->go[0], &b, 1);
		_exit(0);
	}
	close(c->rep[1]);
	close(c->go[0]);
}

/* The child's report (its fn's value), -1 if it died. */
static int child_report(struct child *c)
{
	char b;

	return read(c->rep[0], &b, 1) == 1 ? b : -1;
}

/* Let the child exit (a byte, not EOF: later children hold copies of the pipe) and reap it. */
static int child_end(struct child *c)
{
	write(c->go[1], "e", 1);
	close(c->go[1]);
	close(c->rep[0]);
	return wait_exit(c->pid);
}

static int read_first(void *arg)
{
	return *(volatile char *)arg;
}

/* B maps the memfd a second time and reads both mappings: two mappings by one mm. */
struct two_maps {
	int fd;
	char *p;
};

static int read_twice(void *arg)
{
	struct two_maps *t = arg;
	char *q = map_shared_aligned(t->fd, PMD_SIZE, PMD_SIZE);

	return q && *(volatile char *)t->p == 'T' && *(volatile char *)q == 'T' ? 'T' : 0;
}

static int slot_of(const struct folio_view *v, pid_t pid)
{
	return v->mm_id_pid[0] == pid ? 0 : v->mm_id_pid[1] == pid ? 1 : -1;
}

/*
 * Two processes PMD-map one 2 MiB shmem THP: both slots and the shared
 * bit; the child exits: exclusive.  Then three mappers (the third, who
 * maps it twice, untracked); when the two tracked ones are gone the
 * folio is still "maybe shared" though one mm maps it.
 */
static void test_thp_slots(void)
{
	int fd = memfd(PMD_SIZE);
	char *p = fd >= 0 ? map_shared_aligned(fd, PMD_SIZE, PMD_SIZE) : NULL;
	struct child c, a, b;
	struct two_maps tm = { fd, p };
	struct folio_view v;
	unsigned long pfn;

	if (!p) {
		ok(0, "memfd of 2 MiB mapped MAP_SHARED at a 2 MiB boundary");
		return;
	}
	p[0] = 'T';
	pfn = pfn_of(p);
	ok(shmem_pmd_mapped(p), "a write maps a 2 MiB shmem THP by a PMD");
	child_start(&c, read_first, p);
	ok(child_report(&c) == 'T', "a child reads the parent's write through its own PMD");
	if (have_folio_view) {
		folio_view_pfn(pfn, &v);
		ok(v.order == 9 && v.large_mapcount == 2 && v.entire_mapcount == 2 &&
		   slot_of(&v, getpid()) >= 0 && slot_of(&v, c.pid) >= 0 && v.shared == 1,
		   "two mappers: both MM owner slots taken, shared bit set");
	} else {
		skip("no /proc/folio (Linux)");
	}
	ok(child_end(&c) == 0, "the child exits");
	if (have_folio_view) {
		folio_view_pfn(pfn, &v);
		ok(v.large_mapcount == 1 && v.entire_mapcount == 1 && slot_of(&v, getpid()) >= 0 &&
		   v.mm_id[0] + v.mm_id[1] == v.mm_id[slot_of(&v, getpid())] && v.shared == 0,
		   "one mapper left: exclusive again, its slot alone");
	} else {
		skip("no /proc/folio (Linux)");
	}
	child_start(&a, read_first, p);
	child_report(&a);
	child_start(&b, read_twice, &tm);
	ok(child_report(&b) == 'T', "a third process maps it twice");
	if (have_folio_view) {
		folio_view_pfn(pfn, &v);
		ok(v.large_mapcount == 4 && slot_of(&v, getpid()) >= 0 && slot_of(&v, a.pid) >= 0 &&
		   slot_of(&v, b.pid) < 0 && v.shared == 1,
		   "three mappers: the third is not in a slot, counted in the large mapcount");
	} else {
		skip("no /proc/folio (Linux)");
	}
	child_end(&a);
	munmap(p, PMD_SIZE);
	if (have_folio_view) {
		folio_view_pfn(pfn, &v);
		ok(v.large_mapcount == 2 && v.mm_id[0] == 0 && v.mm_id[1] == 0 && v.shared == 1,
		   "only the untracked mm maps it now: slots free, still maybe shared");
	} else {
		skip("no /proc/folio (Linux)");
	}
	child_end(&b);
	if (have_folio_view) {
		folio_view_pfn(pfn, &v);
		ok(v.large_mapcount == 0 && v.shared == 0, "nobody maps it: unmapped, not shared");
	} else {
		skip("no /proc/folio (Linux)");
	}
	close(fd);
}

static unsigned long parent_pfn;

/*
 * The child's view of the parent's PMD-mapped THP: fork left its mapping
 * empty; an mprotect of one page splits its VMA, so its faults map PTEs
 * of the same folio.
 */
static int pte_and_pmd(void *arg)
{
	char *p = arg;
	struct folio_view v;
	int slot;

	if (pfn_of(p) || mprotect(p + PAGE, PAGE, PROT_READ))
		return 1;
	if (p[0] != 'M' || p[2 * PAGE] != 0)
		return 2;
	if (pfn_of(p) != parent_pfn || pfn_of(p + 2 * PAGE) != parent_pfn + 2)
		return 3;
	if (!have_folio_view)
		return 0;
	if (folio_at(p, &v) || (slot = slot_of(&v, getpid())) < 0)
		return 4;
	return v.entire_mapcount == 1 && v.large_mapcount == 3 && v.mm_id_mapcount[slot] == 2 &&
	       v.shared == 1 ? 0 : 5;
}

/* The same THP PMD-mapped by the parent and PTE-mapped by a child. */
static void test_pte_and_pmd(void)
{
	int fd = memfd(PMD_SIZE);
	char *p = fd >= 0 ? map_shared_aligned(fd, PMD_SIZE, PMD_SIZE) : NULL;
	struct child c;
	int r;

	if (!p) {
		ok(0, "memfd mapped");
		return;
	}
	p[0] = 'M';
	parent_pfn = pfn_of(p);
	child_start(&c, pte_and_pmd, p);
	r = child_report(&c);
	ok(r == 0, "one THP: PMD-mapped by the parent, PTE-mapped by a child that split its "
	   "mapping (child's check %d)", r);
	ok(shmem_pmd_mapped(p), "the parent's PMD stays");
	child_end(&c);
	munmap(p, PMD_SIZE);
	close(fd);
}

static int pt_delta_child(void *arg)
{
	return ((volatile char *)arg)[5 * PAGE] == 5;
}

/*
 * fork does not copy a shared mapping's page tables (Linux's
 * vma_needs_copy): 64 MiB of touched MAP_SHARED memory needs 32 PTE
 * tables, the child gets none of them; a private region gets its copy.
 */
static void test_fork_copies_no_ptes(void)
{
	const size_t len = 64UL << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long pt0, pt1, pt2;
	struct child c;

	for (size_t i = 0; i < len; i += PAGE)
		p[i] = (char)(i / PAGE);
	pt0 = meminfo_kb("PageTables");
	child_start(&c, pt_delta_child, p);
	ok(child_report(&c) == 1, "the child refaults the shared pages it reads");
	pt1 = meminfo_kb("PageTables");
	child_end(&c);
	ok(pt1 - pt0 < 64, "fork of 64 MiB shared: %ld kB of page tables (32 PTE tables would be "
	   "128 kB)", pt1 - pt0);
	munmap(p, len);
	madvise(q, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += PAGE)
		q[i] = 1;
	pt0 = meminfo_kb("PageTables");
	child_start(&c, pt_delta_child, q);
	child_report(&c);
	pt2 = meminfo_kb("PageTables");
	child_end(&c);
	ok(pt2 - pt0 >= 128, "fork of 64 MiB private: %ld kB of page tables copied", pt2 - pt0);
	munmap(q, len);
}

static int write_page2(void *arg)
{
	char *p = arg;

	if (p[PAGE] != 'p')
		return 1;
	p[2 * PAGE] = 'c';
	return 0;
}

/* Shmem of /proc/meminfo, or minus MemFree where meminfo has no Shmem line. */
static long shmem_kb(void)
{
	long kb = meminfo_kb("Shmem");

	return kb >= 0 ? kb : -meminfo_kb("MemFree");
}

#define TRUNC_PAGES 256         /* 1 MiB: Linux's Shmem counter is exact to a few dozen pages */

/* A child that reads every page of arg, so that they are mapped in it too. */
static int touch_all(void *arg)
{
	int same = 0;

	for (int i = 0; i < TRUNC_PAGES; i++)
		same += ((volatile char *)arg)[i * PAGE] == 'x';
	return same == TRUNC_PAGES ? 0 : 1;
}

/* MAP_SHARED|MAP_ANONYMOUS across fork: each sees the other's writes. */
static void test_shared_anon_fork(void)
{
	char *p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct child c;
	int go[2];
	pid_t pid;
	char b;

	if (p == MAP_FAILED) {
		ok(0, "mmap(MAP_SHARED|MAP_ANONYMOUS)");
		return;
	}
	p[PAGE] = 'p';
	child_start(&c, write_page2, p);
	ok(child_report(&c) == 0 && p[2 * PAGE] == 'c',
	   "a child sees the parent's write, the parent sees the child's");
	child_end(&c);
	ok(madvise(p + 2 * PAGE, PAGE, MADV_REMOVE) == 0 && p[2 * PAGE] == 0 && p[PAGE] == 'p',
	   "MADV_REMOVE punches a hole: the page reads zeros, the one before keeps its data");
	xpipe(go, 0);
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		read(go[0], &b, 1);
		_exit(p[3 * PAGE] == 'x' && p[PAGE] == 'p' ? 0 : 1);
	}
	close(go[0]);
	p[3 * PAGE] = 'x';                      /* after the fork: still the same page */
	close(go[1]);
	ok(wait_exit(pid) == 0, "a child sees what the parent writes after the fork");
	munmap(p, 4 * PAGE);
}

static volatile char *bus_addr;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	_exit(si->si_code == BUS_ADRERR && si->si_addr == (void *)bus_addr ? 42 : 43);
}

/* A child that reads addr: 42 if it got SIGBUS with BUS_ADRERR at addr. */
static int sigbus_in_child(volatile char *addr)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };

		sigaction(SIGBUS, &sa, NULL);
		bus_addr = addr;
		(void)*addr;
		_exit(0);
	}
	return wait_exit(pid);
}

/*
 * Truncate a file two processes map: the pages past the end leave both
 * (an access is SIGBUS, BUS_ADRERR at the address) and the memory returns;
 * the page inside stays mapped with its data.
 */
static void test_truncate_mapped(void)
{
	const char *path = "/tmp/test_shared.trunc";
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	char *p, buf[4];
	long shmem0;
	struct child c;

	if (fd < 0 || ftruncate(fd, TRUNC_PAGES * PAGE)) {
		ok(0, "a file on /tmp");
		return;
	}
	p = mmap(NULL, TRUNC_PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	memset(p, 'x', TRUNC_PAGES * PAGE);
	child_start(&c, touch_all, p);
	ok(child_report(&c) == 0, "a child maps the file's pages too");
	shmem0 = shmem_kb();
	ok(ftruncate(fd, PAGE) == 0, "ftruncate a mapped file to one page");
	ok(sigbus_in_child(p + 2 * PAGE) == 42, "an access past the end: SIGBUS, BUS_ADRERR, si_addr");
	ok(shmem0 - shmem_kb() >= 800, "the 1020 kB cut off are freed (%ld -> %ld kB)",
	   shmem0, shmem_kb());
	ok(p[0] == 'x' && pread(fd, buf, 1, 0) == 1 && buf[0] == 'x',
	   "the page inside the file stays mapped");
	child_end(&c);
	munmap(p, TRUNC_PAGES * PAGE);
	close(fd);
	unlink(path);
}

int main(void)
{
	mount_proc_sys();
	have_folio_view = !access("/proc/folio", F_OK);
	shmem_enabled("always");
	test_thp_slots();
	test_pte_and_pmd();
	shmem_enabled("never");
	test_fork_copies_no_ptes();
	test_shared_anon_fork();
	test_truncate_mapped();
	if (shmem_enabled_was[0])
		write_text(THP_DIR "shmem_enabled", shmem_enabled_was);
	return tap_done();
}
