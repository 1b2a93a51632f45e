/*
 * Guest test (TAP): page migration by mbind(MPOL_LOCAL, MPOL_MF_MOVE) on
 * a one-node machine — Linux moves every page of the range to a new page
 * there too.  4 KiB pages, a 64 KiB mTHP and a PMD THP get new PFNs and
 * keep their data, their write bit (a read-only page stays read-only, as
 * mkdirty checks) and their soft-dirty bit (set on a dirty page, as
 * Linux's pte_mkdirty on x86 sets it); a page shared with a child
 * moves only with MPOL_MF_MOVE_ALL, for both processes, and COW still
 * works after; a page referenced by a pipe (vmsplice) or pinned
 * (gup_test) stays, and MPOL_MF_STRICT says so with EIO; mbind's,
 * set_mempolicy's and get_mempolicy's argument errors are Linux's.
 */
#define _GNU_SOURCE
#include "thp_util.h"
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#define MPOL_DEFAULT    0
#define MPOL_PREFERRED  1
#define MPOL_BIND       2
#define MPOL_LOCAL      4
#define MPOL_F_MEMS_ALLOWED     (1 << 2)
#define MPOL_MF_STRICT  (1 << 0)
#define MPOL_MF_MOVE    (1 << 1)
#define MPOL_MF_MOVE_ALL (1 << 2)

#include "gup_test_abi.h"

/* mbind as mkdirty calls it: 0 or -errno. */
static long mbind_mask(void *p, size_t len, int mode, const unsigned long *mask,
		       unsigned long maxnode, unsigned int flags)
{
	return syscall(SYS_mbind, p, len, mode, mask, maxnode, flags) ? -errno : 0;
}

static long mbind_local(void *p, size_t len, unsigned int flags)
{
	return mbind_mask(p, len, MPOL_LOCAL, NULL, 0x7ff, flags);
}

static int soft_dirty(const void *p)
{
	return (pagemap_entry(p) >> 55) & 1;
}

/* Do the n pages from p all have other PFNs than old[]? */
static int all_moved(const char *p, unsigned long n, const unsigned long *old)
{
	for (unsigned long i = 0; i < n; i++)
		if (!pfn_of(p + i * PAGE) || pfn_of(p + i * PAGE) == old[i])
			return 0;
	return 1;
}

static void pfns(const char *p, unsigned long n, unsigned long *out)
{
	for (unsigned long i = 0; i < n; i++)
		out[i] = pfn_of(p + i * PAGE);
}

static sigjmp_buf segv_jmp;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(segv_jmp, 1);
}

/* Does a write to p fault (mkdirty's do_test_write_sigsegv)? */
static int write_faults(volatile char *p)
{
	struct sigaction sa = { .sa_handler = on_segv }, old;
	volatile int faulted = 0;

	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(segv_jmp, 1))
		faulted = 1;
	else
		*p = 2;
	sigaction(SIGSEGV, &old, NULL);
	return faulted;
}

static void test_errors(void)
{
	char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long node0 = 1, node1 = 2;
	int mode = -1;

	p[0] = 1;
	ok(mbind_mask(p, PAGE, 100, NULL, 0, 0) == -EINVAL, "mbind: unknown mode: EINVAL");
	ok(mbind_local(p, PAGE, 0x100) == -EINVAL, "mbind: unknown flag: EINVAL");
	ok(mbind_local(p + 1, PAGE, MPOL_MF_MOVE) == -EINVAL, "mbind: unaligned start: EINVAL");
	ok(mbind_mask(p, PAGE, MPOL_BIND, &node1, 64, 0) == -EINVAL,
	   "mbind: MPOL_BIND to a node that does not exist: EINVAL");
	ok(mbind_mask(p, PAGE, MPOL_BIND, NULL, 0, 0) == -EINVAL, "mbind: MPOL_BIND, no nodes: EINVAL");
	ok(mbind_mask(p, PAGE, MPOL_LOCAL, &node0, 64, 0) == -EINVAL,
	   "mbind: MPOL_LOCAL with nodes: EINVAL");
	ok(mbind_mask(p, PAGE, MPOL_DEFAULT, &node0, 64, 0) == -EINVAL,
	   "mbind: MPOL_DEFAULT with nodes: EINVAL");
	ok(mbind_local(p, 0, MPOL_MF_MOVE) == 0, "mbind: empty range: 0");
	munmap(p + PAGE, PAGE);
	ok(mbind_local(p, 3 * PAGE, MPOL_MF_MOVE) == -EFAULT, "mbind: a hole in the range: EFAULT");
	ok(mbind_mask(p, 3 * PAGE, MPOL_DEFAULT, NULL, 0, 0) == 0,
	   "mbind: MPOL_DEFAULT may span a hole");
	ok(mbind_local(p + PAGE, PAGE, 0) == -EFAULT, "mbind: unmapped range: EFAULT");
	ok(mbind_local(p, PAGE, MPOL_MF_STRICT) == -EIO,
	   "mbind: MPOL_MF_STRICT without MOVE, a page off the policy: EIO");
	ok(mbind_mask(p, PAGE, MPOL_BIND, &node0, 64, MPOL_MF_MOVE | MPOL_MF_STRICT) == 0,
	   "mbind: MPOL_BIND to node 0, STRICT: the page is already there");
	ok(syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0) == 0 && mode == MPOL_DEFAULT,
	   "get_mempolicy: MPOL_DEFAULT");
	node0 = 0;
	ok(syscall(SYS_get_mempolicy, &mode, &node0, 64, NULL, MPOL_F_MEMS_ALLOWED) == 0 &&
	   node0 == 1, "get_mempolicy: MPOL_F_MEMS_ALLOWED is node 0");
	ok(syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0x100) == -1 && errno == EINVAL,
	   "get_mempolicy: unknown flag: EINVAL");
	ok(syscall(SYS_set_mempolicy, MPOL_BIND, &node1, 64) == -1 && errno == EINVAL,
	   "set_mempolicy: a node that does not exist: EINVAL");
	ok(syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0) == 0, "set_mempolicy: MPOL_DEFAULT");
	munmap(p, 3 * PAGE);
}

static void test_small(void)
{
	char *p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long old[4];

	fill_pattern(p, 4, 10);
	pfns(p, 4, old);
	write_text("/proc/self/clear_refs", "4");
	p[PAGE] = 11;           /* page 1 soft-dirty again, pages 0, 2, 3 clean */
	mprotect(p + 2 * PAGE, PAGE, PROT_READ);
	ok(mbind_local(p, 4 * PAGE, MPOL_MF_MOVE | MPOL_MF_STRICT) == 0, "4K: mbind moves");
	ok(all_moved(p, 4, old), "4K: every page has a new PFN");
	ok(check_pattern(p, 4, 10, ~0UL), "4K: the data moved with them");
	ok(soft_dirty(p) && soft_dirty(p + PAGE) && soft_dirty(p + 2 * PAGE),
	   "4K: soft-dirty kept, and a dirty page comes back soft-dirty (x86's pte_mkdirty)");
	ok(pm_exclusive(p) && pm_exclusive(p + 3 * PAGE), "4K: still exclusive");
	ok(write_faults(p + 2 * PAGE) && p[2 * PAGE] == 12, "4K: the read-only page stays read-only");
	ok(!write_faults(p + 3 * PAGE), "4K: a writable page stays writable");
	munmap(p, 4 * PAGE);
}

static long mthp_stat(const char *name)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), THP_DIR "hugepages-64kB/stats/%s", name);
	return read_text(path, buf, sizeof(buf)) ? -1 : strtol(buf, NULL, 10);
}

/*
 * The 64 KiB folio at p, half unmapped (queued for deferred split), moves
 * as a whole: still one folio counted in nr_anon, still queued as
 * partially mapped; the 4 KiB page mapped right after its half moves too.
 */
static void test_mthp_partial(char *p)
{
	long nr_anon, partial;
	unsigned long old[9];

	munmap(p + 8 * PAGE, 8 * PAGE);
	mmap(p + 8 * PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	*(int *)(p + 8 * PAGE) = 38;
	nr_anon = mthp_stat("nr_anon");
	partial = mthp_stat("nr_anon_partially_mapped");
	pfns(p, 9, old);
	ok(mbind_local(p, 9 * PAGE, MPOL_MF_MOVE | MPOL_MF_STRICT) == 0 && all_moved(p, 9, old) &&
	   pfns_contiguous(p, 8) && check_pattern(p, 9, 30, 1),
	   "mTHP: a partially mapped folio moves, and the page after it");
	ok(mthp_stat("nr_anon") == nr_anon && mthp_stat("nr_anon_partially_mapped") == partial &&
	   partial >= 1, "mTHP: nr_anon %ld, nr_anon_partially_mapped %ld stay", nr_anon, partial);
}

/* A 64 KiB mTHP, where the kernel has them. */
static void test_mthp(void)
{
	const char *knob = THP_DIR "hugepages-64kB/enabled";
	char saved[128], *p, *mode;
	unsigned long old[16];

	if (read_text(knob, saved, sizeof(saved))) {
		skip("no 64 KiB mTHP (hugepages-64kB)");
		return;
	}
	mode = strchr(saved, '[');
	thp_set(64, "always");
	p = map_aligned(16 * PAGE, 16 * PAGE);
	fill_pattern(p, 16, 30);
	pfns(p, 16, old);
	if (!pfns_contiguous(p, 16) || old[0] % 16) {
		skip("no 64 KiB mTHP populated");
	} else {
		ok(mbind_local(p, 16 * PAGE, MPOL_MF_MOVE | MPOL_MF_STRICT) == 0, "mTHP: mbind moves");
		ok(all_moved(p, 16, old) && pfns_contiguous(p, 16) && pfn_of(p) % 16 == 0,
		   "mTHP: a new 64 KiB folio");
		ok(check_pattern(p, 16, 30, ~0UL) && !write_faults(p + PAGE), "mTHP: data and write bit kept");
		test_mthp_partial(p);
	}
	munmap(p, 16 * PAGE);
	if (mode)
		*strchr(mode, ']') = 0, thp_set(64, mode + 1);
}

static void test_thp(void)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);
	unsigned long old = 0;

	madvise(p, PMD_SIZE, MADV_HUGEPAGE);
	p[0] = 1;
	fill_pattern(p, 512, 50);
	mprotect(p, PMD_SIZE, PROT_READ);
	old = pfn_of(p);
	if (!pfns_contiguous(p, 512) || old % 512 || !(kpageflags(old) & (1ULL << KPF_THP))) {
		skip("no PMD THP populated");
		munmap(p, PMD_SIZE);
		return;
	}
	ok(mbind_local(p, PMD_SIZE, MPOL_MF_MOVE | MPOL_MF_STRICT) == 0, "THP: mbind moves");
	ok(pfn_of(p) != old && pfn_of(p) % 512 == 0 && pfns_contiguous(p, 512) &&
	   (kpageflags(pfn_of(p)) & (1ULL << KPF_THP)), "THP: a new PMD THP");
	ok(check_pattern(p, 512, 50, ~0UL), "THP: the data moved");
	ok(write_faults(p + PAGE), "THP: the read-only PMD stays read-only");
	munmap(p, PMD_SIZE);
}

/* A page shared with a child moves only with MOVE_ALL, for both. */
static void test_shared(void)
{
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int to_child[2], to_parent[2];
	unsigned long pfn, child_pfn = 0;
	pid_t pid;

	p[0] = 7;
	pfn = pfn_of(p);
	xpipe(to_child, 0);
	xpipe(to_parent, 0);
	pid = fork();
	if (pid == 0) {
		char c;

		close(to_child[1]);
		close(to_parent[0]);
		read(to_child[0], &c, 1);
		child_pfn = pfn_of(p);
		write(to_parent[1], &child_pfn, sizeof(child_pfn));
		read(to_child[0], &c, 1);
		_exit(p[0] == 7 ? 0 : 1);
	}
	close(to_child[0]);
	close(to_parent[1]);
	ok(mbind_local(p, PAGE, MPOL_MF_MOVE | MPOL_MF_STRICT) == 0 && pfn_of(p) == pfn,
	   "shared: MPOL_MF_MOVE leaves a page the child maps (no error)");
	ok(mbind_local(p, PAGE, MPOL_MF_MOVE_ALL) == 0 && pfn_of(p) != pfn,
	   "shared: MPOL_MF_MOVE_ALL moves it");
	write(to_child[1], "x", 1);
	read(to_parent[0], &child_pfn, sizeof(child_pfn));
	ok(child_pfn == pfn_of(p), "shared: the child maps the new page too");
	p[0] = 8;
	ok(pfn_of(p) != child_pfn && p[0] == 8, "shared: a write after it copies (COW)");
	write(to_child[1], "x", 1);
	ok(wait_exit(pid) == 0, "shared: the child still sees its data");
	close(to_child[1]);
	close(to_parent[0]);
	munmap(p, PAGE);
}

/* A page a pipe holds (vmsplice) stays; STRICT reports it. */
static void test_vmsplice(void)
{
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct iovec iov = { p, PAGE };
	unsigned long pfn;
	int fds[2];
	char buf[16];

	memset(p, 5, PAGE);
	pfn = pfn_of(p);
	xpipe(fds, 0);
	if (vmsplice(fds[1], &iov, 1, 0) != (ssize_t)PAGE) {
		ok(0, "vmsplice: %s", strerror(errno));
		return;
	}
	ok(mbind_local(p, PAGE, MPOL_MF_MOVE) == 0 && pfn_of(p) == pfn,
	   "vmsplice: the page stays (no error without STRICT)");
	ok(mbind_local(p, PAGE, MPOL_MF_MOVE | MPOL_MF_STRICT) == -EIO, "vmsplice: STRICT gives EIO");
	close(fds[1]);
	ok(read(fds[0], buf, sizeof(buf)) == sizeof(buf) && buf[0] == 5, "vmsplice: the pipe reads it");
	close(fds[0]);
	ok(mbind_local(p, PAGE, MPOL_MF_MOVE | MPOL_MF_STRICT) == 0 && pfn_of(p) != pfn && p[1] == 5,
	   "vmsplice: released, it moves");
	munmap(p, PAGE);
}

/* A long-term pinned page stays (gup_test, where the kernel has it). */
static void test_pinned(void)
{
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct pin_longterm_test args = { (uintptr_t)p, PAGE, 1 };
	int fd = open("/sys/kernel/debug/gup_test", O_RDWR);
	unsigned long pfn;

	p[0] = 9;
	if (fd < 0 || ioctl(fd, PIN_LONGTERM_TEST_START, &args)) {
		skip("no /sys/kernel/debug/gup_test (CONFIG_GUP_TEST)");
	} else {
		pfn = pfn_of(p);
		ok(mbind_local(p, PAGE, MPOL_MF_MOVE | MPOL_MF_STRICT) == -EIO && pfn_of(p) == pfn,
		   "pinned: the page stays, STRICT gives EIO");
		ioctl(fd, PIN_LONGTERM_TEST_STOP);
		ok(mbind_local(p, PAGE, MPOL_MF_MOVE | MPOL_MF_STRICT) == 0 && pfn_of(p) != pfn &&
		   p[0] == 9, "pinned: unpinned, it moves");
	}
	if (fd >= 0)
		close(fd);
	munmap(p, PAGE);
}

int main(void)
{
	mount_proc_sys();
	if (access("/sys/kernel/debug/gup_test", F_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	test_errors();
	test_small();
	test_mthp();
	test_thp();
	test_shared();
	test_vmsplice();
	test_pinned();
	return tap_done();
}
