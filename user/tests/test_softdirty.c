/*
 * Guest test (TAP): /proc/self/clear_refs and soft-dirty tracking (Linux's
 * CONFIG_MEM_SOFT_DIRTY): pagemap bit 55 is set on new anon pages, cleared
 * by clear_refs 4, set again by a write and not by a read — for 4 KiB
 * pages, a PMD THP and pages kept across mprotect and fork; the write
 * after clear_refs reuses the exclusive page (same PFN).  A new mapping
 * is soft-dirty before it is touched (VM_SOFTDIRTY), even at a reused
 * address.  Bad values give EINVAL; 1, 2 and 3 are accepted, 5 resets
 * the peak RSS (VmHWM).
 */
#include "thp_util.h"
#include <errno.h>

#define PM_SOFT_DIRTY   (1ULL << 55)
#define CLEAR_REFS      "/proc/self/clear_refs"

static int soft_dirty(const void *p)
{
	return !!(pagemap_entry(p) & PM_SOFT_DIRTY);
}

static int clear_refs(const char *v)
{
	return write_text(CLEAR_REFS, v) ? errno : 0;
}

static void test_values(void)
{
	ok(clear_refs("0") == EINVAL && clear_refs("6") == EINVAL && clear_refs("x") == EINVAL,
	   "clear_refs refuses 0, 6 and junk (EINVAL)");
	ok(!clear_refs("1") && !clear_refs("2") && !clear_refs("3\n"), "clear_refs takes 1, 2 and 3");
}

static void test_small(void)
{
	char *p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long pfn;
	volatile char c;

	p[0] = 1;
	p[PAGE] = 2;
	pfn = pfn_of(p);
	ok(soft_dirty(p) && soft_dirty(p + PAGE), "4K: a new page is soft-dirty");
	ok(!clear_refs("4") && !soft_dirty(p) && !soft_dirty(p + PAGE) && pfn_of(p) == pfn,
	   "4K: clear_refs 4 clears it, the page stays");
	c = p[PAGE];
	(void)c;
	p[0] = 3;
	ok(soft_dirty(p) && !soft_dirty(p + PAGE) && pfn_of(p) == pfn && p[0] == 3 && p[PAGE] == 2,
	   "4K: a write sets it (same page, no copy), a read does not");
	clear_refs("4");
	mprotect(p, 4 * PAGE, PROT_READ);
	mprotect(p, 4 * PAGE, PROT_READ | PROT_WRITE);
	ok(!soft_dirty(p), "4K: mprotect RO then RW keeps it clear");
	p[0] = 4;
	ok(soft_dirty(p) && p[0] == 4, "4K: the write after mprotect RW sets it");
	munmap(p, 4 * PAGE);
}

static void test_pmd(void)
{
	char *p;
	unsigned long pfn;
	volatile char c;

	thp_set(0, "always");
	p = map_aligned(PMD_SIZE, PMD_SIZE);
	madvise(p, PMD_SIZE, MADV_HUGEPAGE);
	p[0] = 1;
	pfn = pfn_of(p);
	if (!(kpageflags(pfn) & (1ULL << KPF_THP))) {
		skip("no PMD THP");
		munmap(p, PMD_SIZE);
		return;
	}
	ok(soft_dirty(p) && soft_dirty(p + PMD_SIZE - PAGE), "THP: a new PMD THP is soft-dirty");
	ok(!clear_refs("4") && !soft_dirty(p) && !soft_dirty(p + PMD_SIZE / 2),
	   "THP: clear_refs 4 clears it");
	c = p[100];
	(void)c;
	ok(!soft_dirty(p), "THP: a read does not set it");
	p[PAGE] = 5;
	ok(soft_dirty(p + PAGE) && pfn_of(p) == pfn && p[PAGE] == 5 &&
	   (kpageflags(pfn) & (1ULL << KPF_THP)), "THP: a write sets it, the THP stays");
	munmap(p, PMD_SIZE);
}

static void test_hiwater(void)
{
	size_t len = 8UL << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long hwm, rss;

	for (size_t i = 0; i < len; i += PAGE)
		p[i] = 1;
	munmap(p, len);
	hwm = status_kb("VmHWM");
	rss = status_kb("VmRSS");
	ok(hwm >= rss + 4096, "VmHWM keeps the peak after munmap (%ld kB, RSS %ld kB)", hwm, rss);
	clear_refs("5");
	hwm = status_kb("VmHWM");
	rss = status_kb("VmRSS");
	ok(hwm >= rss && hwm < rss + 64, "clear_refs 5 resets VmHWM to the RSS (%ld kB, %ld kB)",
	   hwm, rss);
}

static void test_new_vma(void)
{
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *q;

	ok(soft_dirty(p), "a new mapping is soft-dirty before it is touched");
	ok(!clear_refs("4") && !soft_dirty(p), "clear_refs 4 clears the mapping's soft-dirty state");
	munmap(p, PAGE);
	q = mmap(p, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok(q == p && soft_dirty(q), "a new mapping at the same address is soft-dirty again");
	munmap(q, PAGE);
}

/* The bit goes with the PTE into the child; the child's write after clear_refs sets its own. */
static void test_fork(void)
{
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t pid;

	p[0] = 1;
	pid = fork();
	if (pid == 0) {
		int good = soft_dirty(p);

		good &= !clear_refs("4") && !soft_dirty(p);
		p[0] = 2;
		good &= soft_dirty(p) && p[0] == 2;
		_exit(good ? 0 : 1);
	}
	ok(wait_exit(pid) == 0, "fork: the child's page is soft-dirty; its clear and write work");
	ok(soft_dirty(p) && p[0] == 1, "fork: the parent's page stays soft-dirty, data intact");
	munmap(p, PAGE);
}

/* The parent clears a child's soft-dirty bits through /proc/<pid>/clear_refs. */
static void test_other_process(void)
{
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int go[2], done[2];
	char path[64], c;
	pid_t pid;

	xpipe(go, 0);
	xpipe(done, 0);
	pid = fork();
	if (pid == 0) {
		int good;

		p[0] = 1;
		write(done[1], "x", 1);
		read(go[0], &c, 1);
		good = !soft_dirty(p);
		p[0] = 2;
		_exit(good && soft_dirty(p) ? 0 : 1);
	}
	close(done[1]);                 /* no child, or one that dies early: EOF, not a hang */
	close(go[0]);
	read(done[0], &c, 1);
	snprintf(path, sizeof(path), "/proc/%d/clear_refs", pid);
	ok(!write_text(path, "4"), "clear_refs of another process");
	write(go[1], "x", 1);
	ok(wait_exit(pid) == 0, "its page is soft-clean, and soft-dirty after its write");
	ok(!write_text(path, "4") || errno == ENOENT, "clear_refs of a reaped process: success or ENOENT");
	close(go[1]), close(done[0]);
	munmap(p, PAGE);
}

int main(void)
{
	mount_proc_sys();
	printf("# test_softdirty\n");
	test_values();
	test_hiwater();
	test_new_vma();
	test_small();
	test_pmd();
	test_fork();
	test_other_process();
	return tap_done();
}
