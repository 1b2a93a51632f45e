/*
 * Guest test (TAP): PROT_NONE protects pages that were already touched.
 * mprotect(PROT_NONE) must leave the pages mapped (pagemap still shows
 * their frames, the data survives) yet make every access fault: user reads
 * and writes die of SIGSEGV and the kernel's copies give EFAULT.  For 4 KiB
 * pages, a PMD-mapped THP, a guard page inside a THP (a PMD split), and
 * across fork (the child sees the parent's data once it makes the range
 * accessible; copy-on-write stays intact).  Runs unchanged on Linux.
 */
#include "thp_util.h"
#include <errno.h>
#include <signal.h>

/* Does the kernel refuse to copy from and to addr (EFAULT both ways)? */
static int kernel_copies_fault(char *addr)
{
	int fds[2], from, to;
	char buf[16] = "0123456789abcdef";

	xpipe(fds, O_NONBLOCK);         /* a failed write (ENOMEM) must not leave the read asleep */
	from = write(fds[1], addr, 16) == -1 && errno == EFAULT;
	write(fds[1], buf, 16);
	to = read(fds[0], addr, 16) == -1 && errno == EFAULT;
	close(fds[0]);
	close(fds[1]);
	return from && to;
}

/* Is [p, p + n pages) still mapped by the frames in pfns? */
static int same_frames(const char *p, unsigned long n, const unsigned long *pfns)
{
	for (unsigned long i = 0; i < n; i++)
		if (!pfns[i] || pfn_of(p + i * PAGE) != pfns[i])
			return 0;
	return 1;
}

static void record_frames(const char *p, unsigned long n, unsigned long *pfns)
{
	for (unsigned long i = 0; i < n; i++)
		pfns[i] = pfn_of(p + i * PAGE);
}

static void test_4k(void)
{
	char *p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long pfns[4];

	madvise(p, 4 * PAGE, MADV_NOHUGEPAGE);
	fill_pattern(p, 4, 100);
	record_frames(p, 4, pfns);
	ok(mprotect(p + PAGE, 2 * PAGE, PROT_NONE) == 0, "4K: mprotect(PROT_NONE) of two touched pages");
	ok(touch_in_child(p + PAGE, 0) == SIGSEGV && touch_in_child(p + 2 * PAGE + 9, 0) == SIGSEGV,
	   "4K: reading a touched PROT_NONE page kills with SIGSEGV");
	ok(touch_in_child(p + PAGE, 1) == SIGSEGV, "4K: writing one kills with SIGSEGV");
	ok(touch_in_child(p, 0) == 0 && touch_in_child(p + 3 * PAGE, 1) == 0,
	   "4K: the pages around the guard stay accessible");
	ok(kernel_copies_fault(p + PAGE), "4K: write() from and read() into it give EFAULT");
	ok(same_frames(p, 4, pfns), "4K: pagemap still shows the same frames (present, not unmapped)");
	ok(mprotect(p + PAGE, 2 * PAGE, PROT_READ | PROT_WRITE) == 0 && check_pattern(p, 4, 100, ~0UL) &&
	   same_frames(p, 4, pfns), "4K: back to read-write, the data and frames are there");
	munmap(p, 4 * PAGE);
}

static char *touched_thp(int seed)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);

	if (!p)
		return NULL;
	madvise(p, PMD_SIZE, MADV_HUGEPAGE);
	fill_pattern(p, PMD_SIZE / PAGE, seed);
	return p;
}

static int is_pmd_thp(const char *p)
{
	return pfns_contiguous(p, PMD_SIZE / PAGE) && (kpageflags(pfn_of(p)) >> KPF_THP & 1);
}

static void test_thp(void)
{
	char *p = touched_thp(200);
	int thp = p && is_pmd_thp(p);

	ok(thp, "2M: a THP backs the region");
	if (!thp)
		return;
	ok(mprotect(p, PMD_SIZE, PROT_NONE) == 0, "2M: mprotect(PROT_NONE) of the whole THP");
	ok(touch_in_child(p, 0) == SIGSEGV && touch_in_child(p + PMD_SIZE - 1, 0) == SIGSEGV &&
	   touch_in_child(p + 77 * PAGE, 1) == SIGSEGV, "2M: reads and writes anywhere in it SIGSEGV");
	ok(kernel_copies_fault(p + 300 * PAGE), "2M: write() from and read() into it give EFAULT");
	ok(is_pmd_thp(p), "2M: pagemap still shows the THP's 512 contiguous frames");
	ok(mprotect(p, PMD_SIZE, PROT_READ | PROT_WRITE) == 0 &&
	   check_pattern(p, PMD_SIZE / PAGE, 200, ~0UL) && is_pmd_thp(p),
	   "2M: back to read-write, the data is there, still one THP");
	munmap(p, PMD_SIZE);
}

static void test_guard_in_thp(void)
{
	char *p = touched_thp(300);
	char *g = p + 100 * PAGE;
	int thp = p && is_pmd_thp(p);

	ok(thp, "guard: a THP backs the region");
	if (!thp)
		return;
	ok(mprotect(g, PAGE, PROT_NONE) == 0, "guard: mprotect(PROT_NONE) of one page inside a THP");
	ok(touch_in_child(g, 0) == SIGSEGV && touch_in_child(g + PAGE - 1, 1) == SIGSEGV,
	   "guard: the guard page faults");
	ok(touch_in_child(g - 1, 0) == 0 && touch_in_child(g + PAGE, 1) == 0,
	   "guard: its neighbours do not");
	ok(kernel_copies_fault(g), "guard: kernel copies of the guard page give EFAULT");
	ok(pfns_contiguous(p, PMD_SIZE / PAGE), "guard: the folio is still whole (only the PMD split)");
	ok(mprotect(g, PAGE, PROT_READ | PROT_WRITE) == 0 && check_pattern(p, PMD_SIZE / PAGE, 300, ~0UL),
	   "guard: removed again, every page holds its data");
	munmap(p, PMD_SIZE);
}

/*
 * A THP with a guard page that is then partly unmapped goes to the deferred
 * split queue; split into 4 KiB folios, the guard page must still fault and
 * every page keep its data (foliOS's split_deferred knob; on Linux the
 * folio just stays queued).
 */
static void test_split_with_guard(void)
{
	char *p = touched_thp(600);
	char *g = p + 10 * PAGE;

	if (!p || !is_pmd_thp(p)) {
		ok(0, "split: a THP backs the region");
		return;
	}
	mprotect(g, PAGE, PROT_NONE);
	munmap(p + 256 * PAGE, 256 * PAGE);
	split_deferred();
	ok(!(kpageflags(pfn_of(p)) >> KPF_THP & 1) || access("/proc/folio", F_OK),
	   "split: the partly unmapped THP was split (foliOS's split_deferred)");
	ok(touch_in_child(g, 0) == SIGSEGV && touch_in_child(g + PAGE, 0) == 0,
	   "split: the guard page still faults after the split, its neighbour not");
	ok(mprotect(g, PAGE, PROT_READ) == 0 && check_pattern(p, 256, 600, ~0UL),
	   "split: every page kept its data");
	munmap(p, 256 * PAGE);
}

/* A child inherits PROT_NONE pages: they fault in it too, hold the parent's data once accessible, and COW. */
static void test_fork(const char *what, char *p, unsigned long n, int seed)
{
	int st, fds[2];
	char verdict = 0;
	pid_t pid;

	mprotect(p, n * PAGE, PROT_NONE);
	xpipe(fds, 0);
	pid = fork();
	if (pid == 0) {
		char v = touch_in_child(p, 0) == SIGSEGV;

		v = v && mprotect(p, n * PAGE, PROT_READ | PROT_WRITE) == 0 &&
		    check_pattern(p, n, seed, ~0UL);
		fill_pattern(p, n, seed + 1000);
		write(fds[1], &v, 1);
		_exit(0);
	}
	close(fds[1]);                  /* no child, or one that dies early: EOF, not a hang */
	read(fds[0], &verdict, 1);
	ok(pid > 0 && waitpid(pid, &st, 0) == pid && verdict == 1,
	   "%s fork: the child's copy faults, then holds the parent's data", what);
	ok(mprotect(p, n * PAGE, PROT_READ) == 0 && check_pattern(p, n, seed, ~0UL),
	   "%s fork: the child's writes did not reach the parent", what);
	close(fds[0]);
	munmap(p, n * PAGE);
}

int main(void)
{
	char *p;

	mount_proc_sys();
	test_4k();
	test_thp();
	test_guard_in_thp();
	test_split_with_guard();
	p = mmap(NULL, 8 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	madvise(p, 8 * PAGE, MADV_NOHUGEPAGE);
	fill_pattern(p, 8, 400);
	test_fork("4K", p, 8, 400);
	p = touched_thp(500);
	if (p)
		test_fork("2M", p, PMD_SIZE / PAGE, 500);
	return tap_done();
}
