/*
 * Guest test (TAP): the mlock family as Linux 6.1 has it (docs/mlock.md).
 * mlock faults its range in (writable private memory as anon pages, not
 * the zero page) and locks it: VmLck, smaps Locked and "lo", Mlocked and
 * KPF_MLOCKED move, and munlock moves them back; a locked part of a
 * mapping is its own VMA until unlocked; MLOCK_ONFAULT faults nothing and
 * Locked grows as pages are touched; mlockall(MCL_CURRENT | MCL_FUTURE)
 * locks what is mapped and what mmap and brk map later, MCL_ONFAULT
 * without faulting, munlockall undoes both; a fork's child and an exec'd
 * program start unlocked, and a child that locks and unlocks its COW copy
 * leaves the parent's pages mlocked (each folio counts its locked VMAs);
 * RLIMIT_MEMLOCK without CAP_IPC_LOCK (ENOMEM, EAGAIN, EPERM) and with it;
 * bad flags and holes; PROT_NONE locks but faults nothing (ENOMEM), and
 * mprotect RW faults it in; mremap grows a locked mapping faulted in;
 * MADV_DONTNEED/FREE/COLD/PAGEOUT refuse a locked VMA, and with swap
 * locked memory stays resident; a THP is mlocked only while a PMD maps
 * it; a memfd's shared pages lock too; unmap and exit give Mlocked back.
 *
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts --mem 1G
 * --swap 64M).  Linux moves Mlocked through per-CPU counters, so those
 * checks allow some slack (MLOCK_SLACK_KB).
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "swap_util.h"

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT   1
#endif
#ifndef MCL_ONFAULT
#define MCL_ONFAULT     4
#endif
#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24
#endif
#define KPF_ANON        12
#define KPF_MLOCKED     33
#define CAP_IPC_LOCK    14
#define N               256             /* pages: 1 MiB */
#define MLOCK_SLACK_KB  128

#define mlock2_(p, len, flags)  syscall(SYS_mlock2, p, len, flags)

#define mlocked_kb()    proc_value("/proc/meminfo", "Mlocked:")
#define vmlck_kb()      proc_value("/proc/self/status", "VmLck:")

#define near(got, want)         (labs((got) - (want)) <= MLOCK_SLACK_KB)

/* Is VmFlags mnemonic flag set on the VMA holding addr? */
static bool vmflag(const void *addr, const char *flag)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long start, end, a = (unsigned long)addr;
	char line[512], pat[8];
	bool in = false, set = false;

	snprintf(pat, sizeof(pat), " %s", flag);
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = start <= a && a < end;
		else if (in && !strncmp(line, "VmFlags:", 8))
			set = strstr(line + 7, pat) != NULL;
	}
	if (f)
		fclose(f);
	return set;
}

/* How many VMAs of /proc/self/maps overlap [p, p + n pages). */
static int nr_vmas(const char *p, unsigned long n)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long start, end, a = (unsigned long)p, e = a + n * PAGE;
	char line[512];
	int k = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 && start < e && end > a)
			k++;
	if (f)
		fclose(f);
	return k;
}

static bool mlocked_page(const void *p)
{
	unsigned long pfn = pfn_of(p);

	return pfn && (kpageflags(pfn) >> KPF_MLOCKED) & 1;
}

/* Take CAP_IPC_LOCK out of the effective set (capset; root keeps the rest). */
static int drop_ipc_lock(void)
{
	struct { unsigned int version; int pid; } hdr = { 0x20080522, 0 };
	struct { unsigned int effective, permitted, inheritable; } data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[0].effective &= ~(1U << CAP_IPC_LOCK);
	return syscall(SYS_capset, &hdr, data);
}

static int set_memlock(rlim_t bytes)
{
	struct rlimit r = { bytes, bytes };

	return setrlimit(RLIMIT_MEMLOCK, &r);
}

/* fn() in a child; its failures reported there as "#" lines; true if it passed. */
static bool in_child(int (*fn)(void))
{
	pid_t pid = xfork();
	int status;

	if (!pid) {
		fflush(stdout);
		_exit(fn());
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status);
}

/* A failed step of a child's check: printed as a TAP comment. */
#define CHILD_EXPECT(cond, ...) do {                                              \
	if (!(cond)) {                                                            \
		printf("# line %d: ", __LINE__);                                   \
		printf(__VA_ARGS__);                                              \
		printf(" (errno %s)\n", strerror(errno));                         \
		bad = 1;                                                          \
	}                                                                         \
} while (0)

static void check_mlock_populates(char *p)
{
	long mlocked0 = mlocked_kb(), vmlck0 = vmlck_kb();

	if (mlock(p, N * PAGE))
		fail("mlock: %s", strerror(errno));
	if (n_present(p, N) != N)
		fail("%lu of %d pages present", n_present(p, N), N);
	if (!((kpageflags(pfn_of(p)) >> KPF_ANON) & 1))
		fail("a locked writable private page is not an anon page (the zero page?)");
	if (vmlck_kb() - vmlck0 != N * 4)
		fail("VmLck grew by %ld kB, not %d", vmlck_kb() - vmlck0, N * 4);
	if (smaps_kb(p, "Locked:") != N * 4)
		fail("smaps Locked %ld kB", smaps_kb(p, "Locked:"));
	if (!vmflag(p, "lo"))
		fail("no \"lo\" in VmFlags");
	if (!near(mlocked_kb() - mlocked0, N * 4))
		fail("Mlocked grew by %ld kB", mlocked_kb() - mlocked0);
	if (!mlocked_page(p) || !mlocked_page(p + (N - 1) * PAGE))
		fail("kpageflags: not MLOCKED");
	check_done("mlock faults the range in and locks it: VmLck, smaps Locked and lo, Mlocked, KPF_MLOCKED");
}

static void check_munlock(char *p)
{
	long mlocked0 = mlocked_kb(), vmlck0 = vmlck_kb();

	if (munlock(p, N * PAGE))
		fail("munlock: %s", strerror(errno));
	if (vmlck0 - vmlck_kb() != N * 4)
		fail("VmLck fell by %ld kB", vmlck0 - vmlck_kb());
	if (smaps_kb(p, "Locked:") != 0 || vmflag(p, "lo"))
		fail("smaps: Locked %ld kB, lo %d", smaps_kb(p, "Locked:"), vmflag(p, "lo"));
	if (!near(mlocked0 - mlocked_kb(), N * 4))
		fail("Mlocked fell by %ld kB", mlocked0 - mlocked_kb());
	if (mlocked_page(p))
		fail("kpageflags: still MLOCKED");
	if (n_present(p, N) != N)
		fail("%lu of %d pages still present", n_present(p, N), N);
	check_done("munlock gives it all back; the pages stay");
}

static void check_split_merge(void)
{
	char *q = anon_4k(3);
	int before = nr_vmas(q, 3), locked, after;

	if (mlock(q + PAGE, PAGE))
		fail("mlock: %s", strerror(errno));
	locked = nr_vmas(q, 3);
	if (!vmflag(q + PAGE, "lo") || vmflag(q, "lo") || vmflag(q + 2 * PAGE, "lo"))
		fail("lo on the wrong VMAs");
	if (munlock(q + PAGE, PAGE))
		fail("munlock: %s", strerror(errno));
	after = nr_vmas(q, 3);
	if (before != 1 || locked != 3 || after != 1)
		fail("VMAs over the 3 pages: %d, locked the middle %d, unlocked %d", before, locked, after);
	munmap(q, 3 * PAGE);
	check_done("mlock of the middle page splits the VMA in three, munlock merges it again");
}

static void check_onfault(void)
{
	char *r = anon_4k(64);
	long vmlck0 = vmlck_kb();

	if (mlock2_(r, 64 * PAGE, MLOCK_ONFAULT))
		fail("mlock2(MLOCK_ONFAULT): %s", strerror(errno));
	if (n_present(r, 64))
		fail("%lu pages faulted in", n_present(r, 64));
	if (vmlck_kb() - vmlck0 != 256 || !vmflag(r, "lo"))
		fail("VmLck grew by %ld kB, lo %d", vmlck_kb() - vmlck0, vmflag(r, "lo"));
	if (smaps_kb(r, "Locked:") != 0)
		fail("Locked %ld kB before a touch", smaps_kb(r, "Locked:"));
	for (int i = 0; i < 10; i++)
		r[i * 2 * PAGE] = 1;
	if (smaps_kb(r, "Locked:") != 40 || n_present(r, 64) != 10)
		fail("after 10 touches: Locked %ld kB, %lu present", smaps_kb(r, "Locked:"),
		     n_present(r, 64));
	if (!mlocked_page(r))
		fail("a touched page is not MLOCKED");
	munmap(r, 64 * PAGE);
	check_done("mlock2(MLOCK_ONFAULT) faults nothing in; Locked grows with each page touched");
}

static void check_errors(void)
{
	char *h = anon_4k(4);

	if (mlock2_(h, PAGE, 2) != -1 || errno != EINVAL)
		fail("mlock2 flags 2: not EINVAL");
	if (mlockall(0) != -1 || errno != EINVAL)
		fail("mlockall(0): not EINVAL");
	if (mlockall(MCL_ONFAULT) != -1 || errno != EINVAL)
		fail("mlockall(MCL_ONFAULT): not EINVAL");
	if (mlockall(8) != -1 || errno != EINVAL)
		fail("mlockall(8): not EINVAL");
	if (mlock(h, 0))
		fail("mlock of 0 bytes: %s", strerror(errno));
	munmap(h + PAGE, PAGE);
	if (mlock(h, 3 * PAGE) != -1 || errno != ENOMEM)
		fail("mlock over a hole: not ENOMEM");
	/* the part before the hole was locked before the walk met it (Linux's order) */
	if (!vmflag(h, "lo") || vmflag(h + 2 * PAGE, "lo"))
		fail("before the hole lo %d, after it lo %d", vmflag(h, "lo"), vmflag(h + 2 * PAGE, "lo"));
	if (munlock(h, 3 * PAGE) != -1 || errno != ENOMEM || vmflag(h, "lo"))
		fail("munlock over a hole: not ENOMEM, or the VMA before it still locked");
	if (mlock(h + PAGE, PAGE) != -1 || errno != ENOMEM)
		fail("mlock of an unmapped page: not ENOMEM");
	munmap(h, 4 * PAGE);
	check_done("EINVAL for bad flags; ENOMEM for a hole, after the VMAs before it were locked");
}

static void check_prot_none(void)
{
	char *pn = mmap(NULL, 4 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ret = mlock(pn, 4 * PAGE), err = errno;

	/* Linux 6.1: the VMA is locked, faulting it in fails with EFAULT, which mlock calls ENOMEM */
	if (ret != -1 || err != ENOMEM)
		fail("mlock of PROT_NONE: %d (%s), not ENOMEM", ret, strerror(err));
	if (!vmflag(pn, "lo") || n_present(pn, 4))
		fail("lo %d, %lu present", vmflag(pn, "lo"), n_present(pn, 4));
	if (mprotect(pn, 4 * PAGE, PROT_READ | PROT_WRITE) || n_present(pn, 4) != 4 || !mlocked_page(pn))
		fail("mprotect RW: %lu of 4 pages faulted in, MLOCKED %d", n_present(pn, 4), mlocked_page(pn));
	munmap(pn, 4 * PAGE);
	check_done("mlock of PROT_NONE memory: the VMA locked, nothing faulted, ENOMEM; mprotect RW faults it in");
}

static int rlimit_unprivileged(void)
{
	char *a = anon_4k(32), *m;
	int bad = 0;

	CHILD_EXPECT(!drop_ipc_lock(), "capset");
	CHILD_EXPECT(!set_memlock(64 << 10), "setrlimit");
	CHILD_EXPECT(mlock(a, 32 * PAGE) == -1 && errno == ENOMEM, "mlock of 128 kB under 64 kB");
	CHILD_EXPECT(!mlock(a, 16 * PAGE), "mlock of 64 kB");
	CHILD_EXPECT(!mlock(a, 16 * PAGE), "the same 64 kB again (not counted twice)");
	CHILD_EXPECT(mlock(a + 16 * PAGE, PAGE) == -1 && errno == ENOMEM, "one page more");
	m = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	CHILD_EXPECT(m == MAP_FAILED && errno == EAGAIN, "MAP_LOCKED past the limit");
	CHILD_EXPECT(!munlock(a, 16 * PAGE), "munlock");
	m = mmap(NULL, 8 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	CHILD_EXPECT(m != MAP_FAILED, "MAP_LOCKED of 32 kB");
	if (m != MAP_FAILED) {
		CHILD_EXPECT(vmflag(m, "lo") && n_present(m, 8) == 8, "MAP_LOCKED: lo %d, %lu present",
			     vmflag(m, "lo"), n_present(m, 8));
		munmap(m, 8 * PAGE);
	}
	CHILD_EXPECT(mlockall(MCL_CURRENT) == -1 && errno == ENOMEM, "mlockall(MCL_CURRENT)");
	CHILD_EXPECT(!mlockall(MCL_FUTURE), "mlockall(MCL_FUTURE)");
	m = mmap(NULL, 32 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHILD_EXPECT(m == MAP_FAILED && errno == EAGAIN, "mmap of 128 kB after MCL_FUTURE");
	m = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHILD_EXPECT(m != MAP_FAILED && vmflag(m, "lo"), "mmap of 16 kB after MCL_FUTURE");
	CHILD_EXPECT(mremap(m, 4 * PAGE, 32 * PAGE, MREMAP_MAYMOVE) == MAP_FAILED && errno == EAGAIN,
		     "mremap of a locked mapping past the limit");
	CHILD_EXPECT(!munlockall(), "munlockall");
	CHILD_EXPECT(!set_memlock(0), "setrlimit 0");
	CHILD_EXPECT(mlock(a, PAGE) == -1 && errno == EPERM, "mlock with the limit 0");
	CHILD_EXPECT(mlockall(MCL_FUTURE) == -1 && errno == EPERM, "mlockall with the limit 0");
	/* the system call itself: musl's mmap calls an anonymous mapping's EPERM ENOMEM */
	CHILD_EXPECT(syscall(SYS_mmap, NULL, PAGE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0) == -1 && errno == EPERM,
		     "MAP_LOCKED with the limit 0");
	CHILD_EXPECT(!munlock(a, PAGE), "munlock needs no limit");
	return bad;
}

static int rlimit_root(void)
{
	char *a = anon_4k(64);
	int bad = 0;

	CHILD_EXPECT(!set_memlock(64 << 10), "setrlimit");
	CHILD_EXPECT(!mlock(a, 64 * PAGE), "mlock of 256 kB under 64 kB with CAP_IPC_LOCK");
	CHILD_EXPECT(vmlck_kb() >= 256, "VmLck %ld kB", vmlck_kb());
	CHILD_EXPECT(!set_memlock(0), "setrlimit 0");
	CHILD_EXPECT(!mlock(a, PAGE), "mlock with the limit 0 and CAP_IPC_LOCK");
	return bad;
}

static int mlockall_current_future(void)
{
	char *old = anon_4k(16), *m, *brk0;
	int bad = 0;

	CHILD_EXPECT(!mlockall(MCL_CURRENT | MCL_FUTURE), "mlockall");
	CHILD_EXPECT(n_present(old, 16) == 16 && vmflag(old, "lo"),
		     "an old mapping: %lu present, lo %d", n_present(old, 16), vmflag(old, "lo"));
	CHILD_EXPECT(vmlck_kb() > 0 && vmlck_kb() <= proc_value("/proc/self/status", "VmSize:"),
		     "VmLck %ld kB", vmlck_kb());
	m = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHILD_EXPECT(m != MAP_FAILED && vmflag(m, "lo") && n_present(m, 16) == 16,
		     "a new mapping: lo %d, %lu present", vmflag(m, "lo"), n_present(m, 16));
	/* it may merge with a locked neighbour */
	CHILD_EXPECT(smaps_kb(m, "Locked:") >= 64 && mlocked_page(m + 15 * PAGE),
		     "new mapping Locked %ld kB", smaps_kb(m, "Locked:"));
	/* musl's sbrk grows nothing: brk itself */
	brk0 = (char *)((syscall(SYS_brk, 0) + PAGE - 1) & ~(PAGE - 1));
	CHILD_EXPECT(syscall(SYS_brk, brk0 + 8 * PAGE) == (long)(brk0 + 8 * PAGE), "brk");
	CHILD_EXPECT(n_present(brk0, 8) == 8 && vmflag(brk0, "lo"),
		     "the heap's new part: %lu present, lo %d", n_present(brk0, 8), vmflag(brk0, "lo"));
	CHILD_EXPECT(!munlockall(), "munlockall");
	CHILD_EXPECT(vmlck_kb() == 0 && !vmflag(m, "lo"), "after munlockall: VmLck %ld kB", vmlck_kb());
	munmap(m, 16 * PAGE);
	m = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHILD_EXPECT(!vmflag(m, "lo") && !n_present(m, 16), "a mapping after munlockall is locked");
	return bad;
}

static int mlockall_future_onfault(void)
{
	char *m;
	int bad = 0;

	CHILD_EXPECT(!mlockall(MCL_FUTURE | MCL_ONFAULT), "mlockall");
	CHILD_EXPECT(vmlck_kb() == 0, "MCL_FUTURE alone locked %ld kB now", vmlck_kb());
	m = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHILD_EXPECT(m != MAP_FAILED && vmflag(m, "lo") && !n_present(m, 16),
		     "a new mapping: lo %d, %lu present", vmflag(m, "lo"), n_present(m, 16));
	m[0] = 1;
	CHILD_EXPECT(smaps_kb(m, "Locked:") >= 4 && smaps_kb(m, "Locked:") < 64 && mlocked_page(m) &&
		     n_present(m, 16) == 1, "after a touch: Locked %ld kB", smaps_kb(m, "Locked:"));
	CHILD_EXPECT(!munlockall(), "munlockall");
	return bad;
}

static char *locked_region;

static int fork_child(void)
{
	int bad = 0;

	CHILD_EXPECT(vmlck_kb() == 0, "the child's VmLck %ld kB", vmlck_kb());
	CHILD_EXPECT(!vmflag(locked_region, "lo") && smaps_kb(locked_region, "Locked:") == 0,
		     "the child's copy is locked");
	locked_region[0] = 2;           /* its own copy */
	return bad;
}

/* The child locks its copy of the parent's locked pages (COW-shared), then unlocks it. */
static int lock_shared_child(void)
{
	int bad = 0;

	CHILD_EXPECT(!mlock(locked_region, N * PAGE), "mlock");
	CHILD_EXPECT(!munlock(locked_region, N * PAGE), "munlock");
	return bad;
}

static const char *self_exe;

static int exec_child(void)
{
	int bad = 0;

	CHILD_EXPECT(!mlockall(MCL_CURRENT | MCL_FUTURE), "mlockall");
	execl(self_exe, self_exe, "exec-check", (char *)NULL);
	CHILD_EXPECT(0, "exec");
	return bad;
}

/* The program exec'd by exec_child: nothing locked, nothing to come. */
static int exec_check(void)
{
	char *m = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int bad = 0;

	mount_proc_sys();
	CHILD_EXPECT(vmlck_kb() == 0, "VmLck %ld kB after exec", vmlck_kb());
	CHILD_EXPECT(!vmflag(m, "lo") && !n_present(m, 4), "a mapping after exec is locked");
	return bad;
}

static void check_mremap(void)
{
	char *a = anon_4k(8), *b, *d;

	munmap(a + 4 * PAGE, 4 * PAGE);
	if (mlock(a, 4 * PAGE))
		fail("mlock: %s", strerror(errno));
	b = mremap(a, 4 * PAGE, 16 * PAGE, MREMAP_MAYMOVE);
	if (b == MAP_FAILED) {
		fail("mremap: %s", strerror(errno));
	} else {
		if (!vmflag(b, "lo") || n_present(b, 16) != 16 || !mlocked_page(b + 15 * PAGE))
			fail("grown: lo %d, %lu of 16 present", vmflag(b, "lo"), n_present(b, 16));
		d = mremap(b, 16 * PAGE, 16 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP);
		if (d == MAP_FAILED)
			fail("MREMAP_DONTUNMAP: %s", strerror(errno));
		else if (vmflag(b, "lo") || !vmflag(d, "lo") || n_present(d, 16) != 16 || !mlocked_page(d))
			fail("DONTUNMAP: old lo %d, new lo %d, %lu present", vmflag(b, "lo"), vmflag(d, "lo"),
			     n_present(d, 16));
		if (d != MAP_FAILED)
			munmap(d, 16 * PAGE);
		munmap(b, 16 * PAGE);
	}
	check_done("mremap of a locked mapping faults its new part in; MREMAP_DONTUNMAP leaves the old range unlocked");
}

static void check_madvise(char *p)
{
	if (mlock(p, N * PAGE))
		fail("mlock: %s", strerror(errno));
	fill(p, N, 7);
	if (madvise(p, N * PAGE, MADV_DONTNEED) != -1 || errno != EINVAL)
		fail("MADV_DONTNEED: not EINVAL");
	if (madvise(p, N * PAGE, MADV_FREE) != -1 || errno != EINVAL)
		fail("MADV_FREE: not EINVAL");
	if (madvise(p, N * PAGE, MADV_COLD) != -1 || errno != EINVAL)
		fail("MADV_COLD: not EINVAL");
	if (madvise(p, N * PAGE, MADV_PAGEOUT) != -1 || errno != EINVAL)
		fail("MADV_PAGEOUT: not EINVAL");
	if (n_present(p, N) != N || n_intact(p, N, 7) != N)
		fail("%lu present, %lu intact", n_present(p, N), n_intact(p, N, 7));
	if (madvise(p, 4 * PAGE, MADV_DONTNEED_LOCKED) || n_present(p, 4) || !vmflag(p, "lo"))
		fail("MADV_DONTNEED_LOCKED: %lu of 4 pages left, lo %d", n_present(p, 4), vmflag(p, "lo"));
	check_done("MADV_DONTNEED, FREE, COLD and PAGEOUT refuse a locked VMA; DONTNEED_LOCKED zaps it");
}

static void check_pageout(bool have_swap)
{
	char *s = anon_4k(48);

	if (!have_swap) {
		skip("no swap: locked memory against MADV_PAGEOUT");
		munmap(s, 48 * PAGE);
		return;
	}
	fill(s, 48, 9);
	if (mlock(s + 16 * PAGE, 16 * PAGE))
		fail("mlock: %s", strerror(errno));
	if (madvise(s, 48 * PAGE, MADV_PAGEOUT) != -1 || errno != EINVAL)
		fail("MADV_PAGEOUT over a locked VMA: not EINVAL");
	if (n_swapped(s + 16 * PAGE, 16) || n_present(s + 16 * PAGE, 16) != 16)
		fail("locked part: %lu swapped, %lu present", n_swapped(s + 16 * PAGE, 16),
		     n_present(s + 16 * PAGE, 16));
	if (munlock(s + 16 * PAGE, 16 * PAGE))
		fail("munlock: %s", strerror(errno));
	pageout(s + 16 * PAGE, 16 * PAGE);
	if (!n_swapped(s + 16 * PAGE, 16))
		fail("once unlocked, none went to swap");
	if (n_intact(s, 48, 9) != 48)
		fail("%lu of 48 pages intact", n_intact(s, 48, 9));
	munmap(s, 48 * PAGE);
	check_done("with swap: locked pages stay resident, unlocked they can go");
}

/* A 2 MiB-aligned THP: mlocked while its PMD maps it, not once PTEs do. */
static void check_thp(void)
{
	char *raw = mmap(NULL, 2 * PMD_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *t = (char *)(((unsigned long)raw + PMD_SIZE - 1) & ~(PMD_SIZE - 1));
	long m0, m1, m2;

	madvise(t, PMD_SIZE, MADV_HUGEPAGE);
	t[0] = 1;
	if (smaps_kb(t, "AnonHugePages:") != 2048) {
		skip("no THP for the mlock check");
		munmap(raw, 2 * PMD_SIZE);
		return;
	}
	m0 = mlocked_kb();
	if (mlock(t, PMD_SIZE))
		fail("mlock: %s", strerror(errno));
	m1 = mlocked_kb();
	/* the head page: Linux 6.1 shows a tail's own flags, foliOS its folio's */
	if (!near(m1 - m0, 2048) || !mlocked_page(t))
		fail("PMD-mapped: Mlocked grew by %ld kB, MLOCKED %d", m1 - m0, mlocked_page(t));
	if (mprotect(t, PAGE, PROT_READ))
		fail("mprotect: %s", strerror(errno));
	m2 = mlocked_kb();
	if (smaps_kb(t + PAGE, "AnonHugePages:") != 0 || !near(m1 - m2, 2048) || mlocked_page(t))
		fail("PTE-mapped: AnonHugePages %ld kB, Mlocked fell by %ld kB, MLOCKED %d",
		     smaps_kb(t + PAGE, "AnonHugePages:"), m1 - m2, mlocked_page(t));
	munmap(raw, 2 * PMD_SIZE);
	if (!near(mlocked_kb(), m0))
		fail("Mlocked %ld kB after munmap, %ld before", mlocked_kb(), m0);
	check_done("a THP is mlocked while a PMD maps it, not once its PMD is split");
}

static void check_memfd(void)
{
	int fd = memfd_create("mlock", 0);
	char *s;
	long m0 = mlocked_kb();

	if (fd < 0 || ftruncate(fd, 64 * PAGE)) {
		fail("memfd: %s", strerror(errno));
		check_done("a memfd's shared pages");
		return;
	}
	s = mmap(NULL, 64 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	madvise(s, 64 * PAGE, MADV_NOHUGEPAGE);
	if (mlock(s, 64 * PAGE))
		fail("mlock: %s", strerror(errno));
	if (n_present(s, 64) != 64 || smaps_kb(s, "Locked:") != 256 || !mlocked_page(s))
		fail("%lu present, Locked %ld kB, MLOCKED %d", n_present(s, 64), smaps_kb(s, "Locked:"),
		     mlocked_page(s));
	if (!near(mlocked_kb() - m0, 256))
		fail("Mlocked grew by %ld kB", mlocked_kb() - m0);
	munmap(s, 64 * PAGE);
	close(fd);
	if (!near(mlocked_kb(), m0))
		fail("Mlocked %ld kB after munmap, %ld before", mlocked_kb(), m0);
	check_done("a memfd's shared pages lock too, and unlock with munmap");
}

static int locked_then_exit(void)
{
	char *c = anon_4k(N);

	return mlock(c, N * PAGE) != 0;
}

int main(int argc, char **argv)
{
	char name[128], *p;
	bool have_swap;
	long m0;
	int prio;

	if (argc > 1 && !strcmp(argv[1], "exec-check"))
		return exec_check();
	mount_proc_sys();
	self_exe = "/proc/self/exe";
	have_swap = first_swap(name, sizeof(name), &prio);
	p = anon_4k(N);

	check_mlock_populates(p);
	check_munlock(p);
	check_split_merge();
	check_onfault();
	check_errors();
	check_prot_none();
	ok(in_child(rlimit_unprivileged),
	   "without CAP_IPC_LOCK: RLIMIT_MEMLOCK gives ENOMEM (mlock, mlockall), EAGAIN (MAP_LOCKED, MCL_FUTURE mmap, mremap), EPERM at 0");
	ok(in_child(rlimit_root), "with CAP_IPC_LOCK RLIMIT_MEMLOCK does not apply");
	ok(in_child(mlockall_current_future),
	   "mlockall(MCL_CURRENT | MCL_FUTURE) locks and faults in old and new mappings and the heap; munlockall undoes it");
	ok(in_child(mlockall_future_onfault), "mlockall(MCL_FUTURE | MCL_ONFAULT): new mappings locked, faulted as touched");
	if (mlock(p, N * PAGE))
		fail("mlock: %s", strerror(errno));
	locked_region = p;
	ok(in_child(fork_child) && vmflag(p, "lo") && mlocked_page(p) && p[0] != 2,
	   "a fork's child starts unlocked; the parent stays locked");
	ok(in_child(exec_child), "exec starts unlocked, MCL_FUTURE forgotten");
	m0 = mlocked_kb();
	ok(in_child(lock_shared_child) && mlocked_page(p) && near(mlocked_kb(), m0),
	   "a child locking and unlocking its copy leaves the parent's pages mlocked (Mlocked %ld -> %ld kB)",
	   m0, mlocked_kb());
	check_mremap();
	check_madvise(p);
	check_pageout(have_swap);
	check_thp();
	check_memfd();
	m0 = mlocked_kb();
	ok(in_child(locked_then_exit) && near(mlocked_kb(), m0), "Mlocked back after a locked process exits (%ld -> %ld kB)",
	   m0, mlocked_kb());
	m0 = mlocked_kb();
	munmap(p, N * PAGE);
	ok(near(m0 - mlocked_kb(), N * 4), "munmap of a locked mapping: Mlocked fell by %ld kB", m0 - mlocked_kb());
	return tap_done();
}
