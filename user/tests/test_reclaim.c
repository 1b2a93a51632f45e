/*
 * Guest test (TAP): reclaim under memory pressure, as Linux 6.1 does it.
 * New anon memory joins the LRU lists (/proc/meminfo's Active(anon) +
 * Inactive(anon), /proc/kpageflags' LRU bit); mlocked memory sits on the
 * unevictable list (Unevictable:, KPF_UNEVICTABLE, KPF_MLOCKED); and a
 * working set of four times RAM — a parent's THPs and 4 KiB pages, shared
 * with two children by fork and partly written by each, plus memory of
 * their own — survives: kswapd and direct reclaim send the cold pages to
 * swap and faults bring them back, every byte is verified, nobody
 * is OOM-killed, and an mlocked region of the parent never leaves RAM.
 * The working-set check needs swap for three times RAM and skips
 * otherwise (make test boots --mem 128M --swap 640M for it); it prints
 * pages scanned per page reclaimed, from /proc/vmstat.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts).
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include "swap_util.h"

#define KPF_LRU         5
#define KPF_UNEVICTABLE 18
#define KPF_MLOCKED     33
#define LOCKED_LEN      (4UL << 20)

static long meminfo(const char *key)
{
	return proc_value("/proc/meminfo", key);
}

/* Pages of [p, p + len) whose /proc/kpageflags has bit set. */
static unsigned long pages_with_kpf(const char *p, unsigned long len, int bit)
{
	unsigned long n = 0;

	for (unsigned long off = 0; off < len; off += PAGE) {
		unsigned long long e = pagemap_entry(p + off);

		if ((e & PM_PRESENT) && (kpageflags(e & ((1ULL << 55) - 1)) >> bit & 1))
			n++;
	}
	return n;
}

/* New anon memory is on the LRU: the anon lists grow by it, its pages say LRU. */
static void test_anon_on_lru(void)
{
	unsigned long len = 8UL << 20;
	unsigned long lru;
	long before, after;
	char *p;

	split_deferred();               /* foliOS: the per-CPU batches drained too */
	before = meminfo("Active(anon):") + meminfo("Inactive(anon):");
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	madvise(p, len, MADV_NOHUGEPAGE);
	memset(p, 1, len);
	split_deferred();
	after = meminfo("Active(anon):") + meminfo("Inactive(anon):");
	lru = pages_with_kpf(p, len, KPF_LRU);
	if (after - before < (long)(len >> 10) * 15 / 16)
		fail("the anon lists grew by %ld kB, not %lu", after - before, len >> 10);
	if (lru < (len / PAGE) * 15 / 16)       /* Linux may still hold some in a per-CPU batch */
		fail("%lu of %lu pages say LRU", lru, len / PAGE);
	check_done("8 MiB of new anon memory joins the LRU: Active(anon) + Inactive(anon) and KPF_LRU");
	munmap(p, len);
}

/* mlocked memory is unevictable: Unevictable:, KPF_UNEVICTABLE and KPF_MLOCKED. */
static void test_mlocked_unevictable(void)
{
	long before = meminfo("Unevictable:"), after;
	char *p = mmap(NULL, LOCKED_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long n = LOCKED_LEN / PAGE, unev, mlocked;

	madvise(p, LOCKED_LEN, MADV_NOHUGEPAGE);
	if (mlock(p, LOCKED_LEN))
		fail("mlock: %s", strerror(errno));
	split_deferred();
	after = meminfo("Unevictable:");
	unev = pages_with_kpf(p, LOCKED_LEN, KPF_UNEVICTABLE);
	mlocked = pages_with_kpf(p, LOCKED_LEN, KPF_MLOCKED);
	if (after - before < (long)(LOCKED_LEN >> 10) * 15 / 16)
		fail("Unevictable: grew by %ld kB, not %lu", after - before, LOCKED_LEN >> 10);
	if (unev < n * 15 / 16 || mlocked != n)
		fail("%lu pages unevictable, %lu mlocked, of %lu", unev, mlocked, n);
	check_done("4 MiB mlocked: on the unevictable list (Unevictable:, KPF_UNEVICTABLE, KPF_MLOCKED)");
	munmap(p, LOCKED_LEN);
}

/* The byte at offset off of a region, in generation gen of writer who. */
static inline unsigned char byte_at(unsigned long off, int who, int gen)
{
	return (unsigned char)((off >> 12) * 7 + (off & 0xfff) * 13 + who * 31 + gen * 101);
}

static void fill_region(unsigned char *p, unsigned long len, int who, int gen)
{
	for (unsigned long off = 0; off < len; off++)
		p[off] = byte_at(off, who, gen);
}

/*
 * Bytes of the region that do not hold their value, base being the
 * region's offset in what was filled; page by page, in a stride order.
 */
static unsigned long verify_region(const unsigned char *p, unsigned long base, unsigned long len,
				   int who, int gen, unsigned long stride)
{
	unsigned long pages = len / PAGE, bad = 0;

	for (unsigned long k = 0; k < pages; k++) {
		unsigned long page = (k * stride) % pages;

		for (unsigned long off = page * PAGE; off < (page + 1) * PAGE; off++)
			bad += p[off] != byte_at(base + off, who, gen);
	}
	return bad;
}

/*
 * A child's share: it writes generation 1 over its quarter of the
 * parent's region (copy-on-write: new memory), fills a private region of
 * its own, verifies both and the rest of the parent's region (still
 * generation 0), then its own region again in a scattered order (stride
 * 7919 pages: every access a fault on a page long gone to swap).  Exit 0
 * if every byte held.
 */
static int child_work(unsigned char *shared, unsigned long shared_len, unsigned long own_len, int who)
{
	unsigned long quarter = shared_len / 4, bad = 0;
	unsigned char *own = mmap(NULL, own_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (own == MAP_FAILED)
		return 2;
	fill_region(shared + (who - 1) * quarter, quarter, who, 1);
	fill_region(own, own_len, who, 2);
	bad += verify_region(own, 0, own_len, who, 2, 1);
	for (int q = 0; q < 4; q++)
		bad += q == who - 1 ? verify_region(shared + q * quarter, 0, quarter, who, 1, 1)
				    : verify_region(shared + q * quarter, q * quarter, quarter, 0, 0, 1);
	bad += verify_region(own, 0, own_len, who, 2, 7919);
	return bad ? 1 : 0;
}

static long vmstat_sum(const char *a, const char *b)
{
	return vmstat(a) + vmstat(b);
}

/*
 * Four times RAM: the parent's region (half of it; THPs in its first
 * half, 4 KiB pages in its second) and, per child, a quarter of it
 * written over plus a region of its own of the same size.  Everything is
 * verified; nobody may be killed; the parent's mlocked region stays
 * resident.
 */
static void test_working_set(void)
{
	long ram = meminfo("MemTotal:"), swap = meminfo("SwapTotal:");
	unsigned long total = (unsigned long)ram * 1024 * 4, half = total / 2 & ~(PMD_SIZE - 1);
	long scan0 = vmstat_sum("pgscan_kswapd", "pgscan_direct");
	long steal0 = vmstat_sum("pgsteal_kswapd", "pgsteal_direct"), out0 = vmstat("pswpout");
	long kswapd0 = vmstat("pgscan_kswapd"), scanned, stolen;
	unsigned char *region, *locked;
	struct timespec t0, t1;
	unsigned long bad;
	int status[2];
	pid_t kid[2];

	if (swap < ram * 3 + ram / 4) {
		snprintf(why, sizeof(why), "a working set of 4x RAM: %ld kB of swap for %ld kB of RAM "
			 "(needs 3.25x)", swap, ram);
		skip(why);
		why[0] = '\0';
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	locked = mmap(NULL, LOCKED_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(locked, 0x5a, LOCKED_LEN);
	mlock(locked, LOCKED_LEN);
	region = (unsigned char *)map_aligned(half, PMD_SIZE);
	if (!region) {
		ok(0, "mmap of %lu MiB: %s", half >> 20, strerror(errno));
		return;
	}
	madvise(region, half / 2, MADV_HUGEPAGE);
	madvise(region + half / 2, half / 2, MADV_NOHUGEPAGE);
	fill_region(region, half, 0, 0);
	for (int i = 0; i < 2; i++) {
		kid[i] = fork();
		if (!kid[i])
			_exit(child_work(region, half, half / 4, i + 1));
	}
	for (int i = 0; i < 2; i++)
		waitpid(kid[i], &status[i], 0);
	bad = verify_region(region, 0, half, 0, 0, 1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	scanned = vmstat_sum("pgscan_kswapd", "pgscan_direct") - scan0;
	stolen = vmstat_sum("pgsteal_kswapd", "pgsteal_direct") - steal0;
	printf("# %lu MiB over 3 processes, %ld MiB of RAM: %.1f s; scanned %ld pages, reclaimed %ld "
	       "(%.2f scanned per reclaimed), %ld written to swap\n", total >> 20, ram >> 10,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, scanned, stolen,
	       stolen ? (double)scanned / stolen : 0.0, vmstat("pswpout") - out0);
	for (int i = 0; i < 2; i++)
		if (!WIFEXITED(status[i]) || WEXITSTATUS(status[i]))
			fail("child %d: status %#x%s", i + 1, status[i],
			     WIFSIGNALED(status[i]) && WTERMSIG(status[i]) == SIGKILL ? " (killed)" : "");
	if (bad)
		fail("%lu bytes of the parent's region changed", bad);
	if (vmstat("pswpout") - out0 < (long)(total >> 12) / 2)
		fail("only %ld pages went to swap", vmstat("pswpout") - out0);
	if (vmstat("pgscan_kswapd") == kswapd0)
		fail("kswapd scanned nothing");
	check_done("a working set of 4x RAM (THPs, 4 KiB pages, fork COW, three processes): every "
		   "byte verified, nobody killed, kswapd reclaimed");
	bad = 0;
	for (unsigned long off = 0; off < LOCKED_LEN; off += PAGE)
		bad += !(pagemap_entry(locked + off) & PM_PRESENT) || locked[off] != 0x5a;
	ok(!bad, "the mlocked 4 MiB never left RAM (%lu pages not present)", bad);
	munmap(region, half);
	munmap(locked, LOCKED_LEN);
}

int main(void)
{
	mount_proc_sys();
	printf("# test_reclaim: the LRU lists, mlock, a working set of 4x RAM\n");     /* not on a boot line */
	test_anon_on_lru();
	test_mlocked_unevictable();
	test_working_set();
	return tap_done();
}
