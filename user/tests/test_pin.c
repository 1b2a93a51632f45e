/*
 * Guest test (TAP): page references and pins across fork.  vmsplice(2)
 * into a pipe (its errors, the reader sees the page's content at read
 * time), vmsplice then fork then a write in the parent or the child: the
 * pipe keeps the content of the vmsplice (Linux's "GUP before fork" bug
 * class); a long-term pin (/sys/kernel/debug/gup_test) then fork: the
 * fork succeeds, the child gets its own copy, the parent's page stays
 * pinned and exclusive; a pinned PMD THP is split in the parent at fork;
 * a R/O pin of a page shared after fork unshares it first, so the
 * parent's later write shows through the pin.  Linux without
 * CONFIG_GUP_TEST skips the gup_test cases.
 */
#define _GNU_SOURCE
#include "thp_util.h"
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <stdint.h>

#include "gup_test_abi.h"

static int gup_fd = -1, gup_errno;    /* the open's errno */

/* Is this foliOS (its folio view exists)?  There gup_test must exist too. */
static int on_folios(void)
{
	return access("/proc/folio", F_OK) == 0;
}

/* gup_test open, or a failed check (foliOS) / a skip (Linux without it): 0 if usable. */
static int need_gup_test(const char *what)
{
	if (gup_fd >= 0)
		return 0;
	if (on_folios())
		ok(0, "%s: /sys/kernel/debug/gup_test opens (%s)", what, strerror(gup_errno));
	else
		skip("no /sys/kernel/debug/gup_test (CONFIG_GUP_TEST)");
	return -1;
}

static int pin_start(void *p, size_t len, int write)
{
	struct pin_longterm_test args = { (uintptr_t)p, len, write ? PIN_LONGTERM_TEST_FLAG_USE_WRITE : 0 };

	return ioctl(gup_fd, PIN_LONGTERM_TEST_START, &args);
}

/* The first byte of the first pinned page now. */
static char pin_read_byte(void)
{
	static char buf[PMD_SIZE];
	uint64_t addr = (uintptr_t)buf;

	buf[0] = 0;
	ioctl(gup_fd, PIN_LONGTERM_TEST_READ, &addr);
	return buf[0];
}

static char *map_page(char c)
{
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(tap_done());
	memset(p, c, PAGE);
	return p;
}

/* A PMD-mapped THP filled with c, or NULL (then the caller skips or fails). */
static char *map_thp(char c)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);

	thp_only(2048);
	madvise(p, PMD_SIZE, MADV_HUGEPAGE);
	memset(p, c, PMD_SIZE);
	thp_only(0);
	return p;
}

/* smaps' AnonHugePages (kB) of the VMA holding addr; -1 if not found. */
static long anon_huge_kb(const void *addr)
{
	static char buf[1 << 16];
	char *line;
	int in = 0;

	if (read_text("/proc/self/smaps", buf, sizeof(buf)))
		return -1;
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = (unsigned long)addr >= lo && (unsigned long)addr < hi;
		else if (in && !strncmp(line, "AnonHugePages:", 14))
			return strtol(line + 14, NULL, 10);
	}
	return -1;
}

static void test_vmsplice_errors(void)
{
	char *p = map_page('e');
	struct iovec iov = { p, PAGE };
	int fds[2], fd = open("/proc/self/status", O_RDONLY);

	xpipe(fds, 0);
	ok(vmsplice(fds[1], &iov, 1, 0x100) == -1 && errno == EINVAL, "vmsplice: unknown flag: EINVAL");
	ok(vmsplice(1000, &iov, 1, 0) == -1 && errno == EBADF, "vmsplice: no such fd: EBADF");
	ok(vmsplice(fd, &iov, 1, 0) == -1 && errno == EBADF, "vmsplice: not a pipe: EBADF");
	ok(vmsplice(fds[1], &iov, 1025, 0) == -1 && errno == EINVAL, "vmsplice: > UIO_MAXIOV: EINVAL");
	iov.iov_base = NULL;
	ok(vmsplice(fds[1], &iov, 1, 0) == -1 && errno == EFAULT, "vmsplice: unmapped memory: EFAULT");
	close(fd), close(fds[0]), close(fds[1]);
	munmap(p, PAGE);
}

/* The reader copies at read time: a write after the vmsplice (no fork) shows. */
static void test_vmsplice_read_time(void)
{
	char *p = map_page('a'), got[PAGE];
	struct iovec iov = { p + 100, 200 };
	int fds[2];

	xpipe(fds, O_NONBLOCK);         /* a kernel without vmsplice fails, not hangs */
	ok(vmsplice(fds[1], &iov, 1, 0) == 200, "vmsplice of 200 bytes into a pipe");
	p[100] = 'b';
	ok(read(fds[0], got, sizeof(got)) == 200 && got[0] == 'b' && got[199] == 'a',
	   "vmsplice: the reader sees the page as it is at read time");
	iov = (struct iovec){ p, PAGE };
	ok(vmsplice(fds[1], &iov, 1, SPLICE_F_NONBLOCK) == PAGE && write(fds[1], "xyz", 3) == 3 &&
	   read(fds[0], got, sizeof(got)) == PAGE && read(fds[0], got, 3) == 3 && !memcmp(got, "xyz", 3),
	   "vmsplice then write: the bytes arrive in order, the write not in the user page");
	close(fds[0]), close(fds[1]);
	munmap(p, PAGE);
}

/*
 * vmsplice, fork, then a write by the parent (child_writes 0; the child
 * keeps its mapping) or by the child after the parent unmapped (1): the
 * pipe still reads the content of the vmsplice.
 */
static void vmsplice_then_fork(char *p, size_t len, int child_writes, const char *kind)
{
	struct iovec iov = { p, PAGE };
	int fds[2], sync[2];
	char got[PAGE], c;
	pid_t pid;

	xpipe(fds, 0);
	xpipe(sync, 0);
	if (vmsplice(fds[1], &iov, 1, 0) != PAGE) {
		ok(0, "%s: vmsplice (%s)", kind, strerror(errno));
		return;
	}
	pid = fork();
	if (!pid) {
		if (read(sync[0], &c, 1) == 1 && child_writes)
			memset(p, 'C', PAGE);
		_exit(p[0] == (child_writes ? 'C' : 'A') ? 0 : 1);
	}
	if (child_writes)
		munmap(p, len);
	else
		memset(p, 'P', PAGE);
	write(sync[1], "g", 1);
	ok(pid > 0 && wait_exit(pid) == 0 && read(fds[0], got, PAGE) == PAGE && got[0] == 'A' &&
	   got[PAGE - 1] == 'A', "%s: vmsplice, fork, %s writes: the pipe reads the old content",
	   kind, child_writes ? "parent unmaps, child" : "parent");
	close(fds[0]), close(fds[1]), close(sync[0]), close(sync[1]);
	if (!child_writes)
		munmap(p, len);
}

static void test_vmsplice_fork(void)
{
	char *p;

	vmsplice_then_fork(map_page('A'), PAGE, 0, "4K");
	vmsplice_then_fork(map_page('A'), PAGE, 1, "4K");
	p = map_thp('A');
	vmsplice_then_fork(p, PMD_SIZE, 0, "THP");
	p = map_thp('A');
	vmsplice_then_fork(p, PMD_SIZE, 1, "THP");
}

/*
 * A page pinned (R/W, long-term), then fork: the fork succeeds, the child
 * gets its own copy (a new PFN) and keeps it; the parent's page stays the
 * pinned one, exclusive, and its later write shows through the pin.
 */
static void test_pinned_fork(void)
{
	char *p = map_page('A');
	unsigned long pfn = pfn_of(p);
	int sync[2], res = 0;
	pid_t pid;
	char c;

	if (need_gup_test("fork with a pinned page") || pin_start(p, PAGE, 1)) {
		munmap(p, PAGE);
		return;
	}
	xpipe(sync, 0);
	pid = fork();
	if (!pid) {
		res = p[0] == 'A' && pfn_of(p) != pfn && pfn_of(p) && pm_exclusive(p);
		read(sync[0], &c, 1);
		_exit(res && p[0] == 'A' ? 0 : 1);
	}
	ok(pid > 0, "fork with a pinned page succeeds");
	p[0] = 'P';
	ok(pfn_of(p) == pfn && pm_exclusive(p) && pin_read_byte() == 'P',
	   "fork with a pinned page: the parent keeps the pinned page, exclusive; its write shows in the pin");
	write(sync[1], "g", 1);
	ok(wait_exit(pid) == 0, "fork with a pinned page: the child has its own copy (new PFN, exclusive, unchanged)");
	ioctl(gup_fd, PIN_LONGTERM_TEST_STOP);
	close(sync[0]), close(sync[1]);
	munmap(p, PAGE);
}

/* foliOS's folio view counts the pins of a large folio; Linux has no such view. */
static void folio_pincount_check(unsigned long pfn, int pins, const char *what)
{
	char path[64], buf[2048], *line;

	snprintf(path, sizeof(path), "/proc/folio/%lu", pfn);
	if (!on_folios()) {
		skip("no /proc/folio (foliOS's folio view)");
		return;
	}
	if (read_text(path, buf, sizeof(buf))) {
		ok(0, "%s: %s reads", what, path);
		return;
	}
	line = strstr(buf, "pincount: ");      /* only a large folio has one */
	ok((line ? atoi(line + 10) == pins : !pins) &&
	   strstr(buf, pins ? "maybe_dma_pinned: 1" : "maybe_dma_pinned: 0"),
	   "%s: /proc/folio shows %d pins", what, pins);
}

/* A pinned PMD THP, then fork: the parent's PMD is split, the child copies each page. */
static void test_pinned_thp_fork(void)
{
	char *p = map_thp('T');
	unsigned long pfn = pfn_of(p);
	pid_t pid;

	if (need_gup_test("fork with a pinned THP"))
		goto out;
	if (anon_huge_kb(p) != 2048) {
		if (on_folios())
			ok(0, "a PMD-mapped THP for the pin test (AnonHugePages %ld)", anon_huge_kb(p));
		else
			skip("no PMD THP on this kernel");
		goto out;
	}
	if (pin_start(p, PAGE, 1))
		goto out;
	folio_pincount_check(pfn, 1, "pinned THP");
	pid = fork();
	if (!pid)
		_exit(pfn_of(p) != pfn && pfn_of(p + PMD_SIZE - PAGE) != pfn + 511 &&
		      p[PMD_SIZE - 1] == 'T' && anon_huge_kb(p) == 0 ? 0 : 1);
	ok(pid > 0 && wait_exit(pid) == 0, "pinned THP, fork: the child copies every page (new PFNs)");
	ok(anon_huge_kb(p) == 0 && pfn_of(p) == pfn && pfn_of(p + PMD_SIZE - PAGE) == pfn + 511 &&
	   pm_exclusive(p + 7 * PAGE), "pinned THP, fork: the parent's PMD is split, its pages stay, exclusive");
	ioctl(gup_fd, PIN_LONGTERM_TEST_STOP);
out:
	munmap(p, PMD_SIZE);
}

/*
 * A page shared with a child, then a R/O pin in the parent: the pin
 * unshares it (the parent gets its own exclusive page), so the parent's
 * write later is seen through the pin and not by the child.
 */
static void test_ro_pin_unshares(void)
{
	char *p = map_page('A');
	unsigned long pfn = pfn_of(p);
	int sync[2];
	pid_t pid;
	char c;

	if (need_gup_test("R/O pin of a shared page")) {
		munmap(p, PAGE);
		return;
	}
	xpipe(sync, 0);
	pid = fork();
	if (!pid) {
		read(sync[0], &c, 1);
		_exit(p[0] == 'A' && pfn_of(p) == pfn ? 0 : 1);
	}
	ok(!pm_exclusive(p) && pin_start(p, PAGE, 0) == 0 && pfn_of(p) != pfn && pm_exclusive(p),
	   "R/O pin of a page shared after fork: unshared first (new PFN, exclusive)");
	p[0] = 'P';
	ok(pin_read_byte() == 'P', "R/O pin: the parent's later write shows through the pin");
	write(sync[1], "g", 1);
	ok(wait_exit(pid) == 0, "R/O pin: the child still has the old page and content");
	ioctl(gup_fd, PIN_LONGTERM_TEST_STOP);
	close(sync[0]), close(sync[1]);
	munmap(p, PAGE);
}

/*
 * GUP_BASIC_TEST and PIN_BASIC_TEST take and drop references to a range,
 * 3 pages a call; they stop at a hole, and size says how far they got.
 */
static void test_gup_basic(void)
{
	char *p = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct gup_test g = { .addr = (uintptr_t)p, .size = 16 * PAGE, .nr_pages_per_call = 3,
			      .gup_flags = 1 /* FOLL_WRITE */ };
	int ret;

	if (need_gup_test("GUP_BASIC_TEST")) {
		munmap(p, 16 * PAGE);
		return;
	}
	ret = ioctl(gup_fd, GUP_BASIC_TEST, &g);
	ok(ret == 0 && g.size == 16 * PAGE, "GUP_BASIC_TEST: 16 pages, 3 a call");
	munmap(p + 8 * PAGE, 8 * PAGE);
	g.size = 16 * PAGE;
	ret = ioctl(gup_fd, PIN_BASIC_TEST, &g);
	ok(ret == 0 && g.size == 8 * PAGE, "PIN_BASIC_TEST: stops at the hole after 8 pages");
	folio_pincount_check(pfn_of(p), 0, "after PIN_BASIC_TEST");
	munmap(p, 8 * PAGE);
}

int main(void)
{
	mount_proc_sys();
	if (access("/sys/kernel/debug/gup_test", F_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	gup_fd = open("/sys/kernel/debug/gup_test", O_RDWR);
	gup_errno = errno;
	test_vmsplice_errors();
	test_vmsplice_read_time();
	test_vmsplice_fork();
	test_pinned_fork();
	test_pinned_thp_fork();
	test_ro_pin_unshares();
	test_gup_basic();
	if (gup_fd >= 0)
		close(gup_fd);
	return tap_done();
}
