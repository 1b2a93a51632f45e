/*
 * The cover letter's pte-mapped-folio benchmarks, for foliOS and Linux alike
 * (the same static binary; run under --icount, rdtsc counts guest work).
 *
 *   bench_folio [-m MiB] [-r REPS] [-b BENCH,...] [SIZE ...]
 *                                      SIZE: 4K 16K 64K 256K 2M-pte 2M-pmd
 *
 * For each folio size, a region (default 256 MiB) of private anon memory is
 * faulted in with only that size enabled (the sysfs knobs; MADV_HUGEPAGE for
 * 2M; "2M-pte" then mprotects one page of each PMD read-only and back, as the
 * cover letter does, which splits the PMDs and merges the VMAs again).  Then:
 *
 *   fault             first touch of every page (the setup itself)
 *   fork              the parent's fork() while the child stays alive
 *   munmap            unmapping the region
 *   cow-byte          one byte per 4 KiB page written, child alive (copies)
 *   reuse-byte        the same after the child exited (reuse)
 *   child-reuse-byte  the child writes after the parent unmapped (reuse)
 *
 * Before timing, every repetition checks the backing through Linux's ABI:
 * pagemap PFNs and kpageflags (compound head/tail: the folio order; the
 * pages of a folio contiguous) and smaps_rollup's AnonHugePages (PMD or PTE
 * mapping).  A size that is not backed as intended is reported "unbacked",
 * never with a number (Linux 6.1 has no 16K-256K anon folios); a benchmark
 * the machine has no memory for (cow-byte copies the whole region: 1 GiB
 * needs more than --mem 2G) is reported "nomem".
 * On foliOS, fork and munmap also get their floor, from /proc/pgtable_floor:
 * the bare page-table work for the same region measured in the kernel
 * (every PTE/PMD copied write-protected, then cleared; no rmap) — printed
 * as the benchmarks "fork-floor" and "munmap-floor".
 * Output, one line each: "bench_folio SIZE BENCH MEDIAN_CYCLES REPS PAGES".
 */
#include "../thp_util.h"
#include <sys/mount.h>
#include <x86intrin.h>

#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define NR_SIZES   6
#define NR_BENCH   6
#define MAX_REPS   15

static const char *const size_name[NR_SIZES] = { "4K", "16K", "64K", "256K", "2M-pte", "2M-pmd" };
static const unsigned long size_kb[NR_SIZES] = { 4, 16, 64, 256, 2048, 2048 };
static const char *const bench_name[NR_BENCH] = { "fault", "fork", "munmap", "cow-byte",
						  "reuse-byte", "child-reuse-byte" };
enum { B_FAULT, B_FORK, B_MUNMAP, B_COW, B_REUSE, B_CHILD_REUSE };

static size_t len = 256UL << 20;
static const char *only_benches;        /* -b: a comma-separated list, or all */
static int kpageflags_fd = -1, pagemap_fd = -1;

static unsigned long pfn_at(const char *p)
{
	unsigned long long e = 0;

	if (pread(pagemap_fd, &e, 8, (unsigned long)p / PAGE * 8) != 8 || !(e >> 63))
		return 0;
	return e & ((1ULL << 55) - 1);
}

/* kpageflags through the fd opened once (the timed loop reads many). */
static unsigned long long kpageflags_at(unsigned long pfn)
{
	unsigned long long f = 0;

	if (pread(kpageflags_fd, &f, 8, pfn * 8) != 8)
		return ~0ULL;
	return f;
}

/* Past the last PFN kpageflags reads nothing: no page there, so no tail. */
static int is_tail(unsigned long pfn)
{
	unsigned long long f = kpageflags_at(pfn);

	return f != ~0ULL && (f >> KPF_COMPOUND_TAIL & 1);
}

/*
 * Is the folio mapped at p one of nr pages: a compound head (none for
 * nr 1), the PFN of page i is the head's + i, page i a tail, page nr not?
 * every: check each page, else just the second and the last.
 */
static int folio_ok(const char *p, unsigned long nr, int every)
{
	unsigned long pfn = pfn_at(p);
	unsigned long long f = kpageflags_at(pfn);

	if (!pfn || f == ~0ULL)
		return 0;
	if (nr == 1)
		return !(f & (1ULL << KPF_COMPOUND_HEAD)) && !(f & (1ULL << KPF_COMPOUND_TAIL));
	if (!(f & (1ULL << KPF_COMPOUND_HEAD)) || is_tail(pfn + nr))
		return 0;
	for (unsigned long i = 1; i < nr; i = every || i == nr - 1 ? i + 1 : nr - 1)
		if (pfn_at(p + i * PAGE) != pfn + i || !is_tail(pfn + i))
			return 0;
	return 1;
}

/* The first folio of every 2 MiB of the region, and AnonHugePages for PMD vs PTE. */
static int backed(const char *p, int s)
{
	long thp_kb = -1;
	char buf[4096], *q;

	for (size_t off = 0; off < len; off += PMD_SIZE)
		if (!folio_ok(p + off, size_kb[s] / 4, off == 0))
			return 0;
	if (!read_text("/proc/self/smaps_rollup", buf, sizeof(buf)) &&
	    (q = strstr(buf, "AnonHugePages:")))
		thp_kb = strtol(q + 14, NULL, 10);
	return s == 5 ? thp_kb >= (long)(len >> 10) : thp_kb == 0;
}

/* Only size s enabled: mTHP knobs on foliOS and Linux >= 6.8, the top level for 2M. */
static void knobs_for(int s)
{
	for (unsigned long kb = 16; kb <= 2048; kb *= 2)
		thp_set(kb, kb == size_kb[s] ? "always" : kb == 2048 ? "inherit" : "never");
	thp_set(0, size_kb[s] == 2048 ? "madvise" : "never");
}

/* Map and fault in the region for size s; *fault gets the cycles of the touch. */
static char *setup(int s, unsigned long long *fault)
{
	char *p = map_aligned(len, PMD_SIZE);
	unsigned long long t0;

	if (!p)
		return NULL;
	if (size_kb[s] == 2048)
		madvise(p, len, MADV_HUGEPAGE);
	t0 = __rdtsc();
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	*fault = __rdtsc() - t0;
	for (size_t off = 0; s == 4 && off < len; off += PMD_SIZE) {
		mprotect(p + off, PAGE, PROT_READ);
		mprotect(p + off, PAGE, PROT_READ | PROT_WRITE);
	}
	return p;
}

/* The kernel's floor for the region: copy (fork) or clear (munmap) cycles; 0 if none. */
static unsigned long long floor_of(const char *p, int clear)
{
	char cmd[64], buf[128];
	unsigned long long copy = 0, clr = 0;
	int fd = open("/proc/pgtable_floor", O_RDWR);

	if (fd < 0)
		return 0;
	snprintf(cmd, sizeof(cmd), "%#lx %#zx", (unsigned long)p, len);
	if (write(fd, cmd, strlen(cmd)) > 0 && read_text("/proc/pgtable_floor", buf, sizeof(buf)) == 0)
		sscanf(buf, "copy %llu clear %llu", &copy, &clr);
	close(fd);
	return clear ? clr : copy;
}

static unsigned long long touch_bytes(char *p)
{
	unsigned long long t0 = __rdtsc();

	for (size_t off = 0; off < len; off += PAGE)
		p[off + 1] = 2;
	return __rdtsc() - t0;
}

/*
 * Can cow-byte copy the whole region now?  Its copies need as much memory
 * again as the region (plus their page tables): on --mem 2G a 1 GiB region
 * cannot, on any kernel, and would end in the OOM killer.
 */
static int room_for_copies(void)
{
	long avail_kb = meminfo_kb("MemAvailable");

	return avail_kb < 0 || (unsigned long)avail_kb > (len >> 10) + (len >> 19) + (16 << 10);
}

/*
 * One repetition of bench b for size s: its cycles in *t.  0, -1 when the
 * memory is not backed as intended, -2 when there is no memory for it.
 */
static int run_once(int s, int b, unsigned long long *t, unsigned long long *floor)
{
	unsigned long long fault, t0;
	char *p = setup(s, &fault);
	int go[2], res[2];
	char c = 0;
	pid_t pid;

	if (!p)
		return -1;
	if (!backed(p, s)) {
		munmap(p, len);
		return -1;
	}
	if (b == B_COW && !room_for_copies()) {
		munmap(p, len);
		return -2;
	}
	*t = fault;
	*floor = b == B_FORK || b == B_MUNMAP ? floor_of(p, b == B_MUNMAP) : 0;
	if (b == B_MUNMAP) {
		t0 = __rdtsc();
		munmap(p, len);
		*t = __rdtsc() - t0;
		return 0;
	}
	if (b == B_FAULT) {
		munmap(p, len);
		return 0;
	}
	if (pipe(go) || pipe(res)) {
		munmap(p, len);
		return -2;
	}
	t0 = __rdtsc();
	pid = fork();
	if (pid < 0) {
		close(go[0]), close(go[1]), close(res[0]), close(res[1]);
		munmap(p, len);
		return -2;
	}
	if (!pid) {             /* the child: exit now (reuse-byte) or wait, maybe then write */
		close(go[1]);   /* a parent that dies (OOM) must read as EOF, not block us */
		close(res[0]);
		if (b != B_REUSE && read(go[0], &c, 1) == 1 && b == B_CHILD_REUSE) {
			unsigned long long tc = touch_bytes(p);

			write(res[1], &tc, sizeof(tc));
		}
		_exit(0);
	}
	if (b == B_FORK)
		*t = __rdtsc() - t0;
	close(go[0]);           /* the child's ends: a child that dies reads as EOF */
	close(res[1]);
	if (b == B_COW)
		*t = touch_bytes(p);
	if (b == B_REUSE) {
		wait_exit(pid);
		*t = touch_bytes(p);
	}
	if (b == B_CHILD_REUSE)
		munmap(p, len);
	if (b != B_REUSE)               /* that child is gone: no reader, SIGPIPE */
		write(go[1], &c, 1);
	if (b == B_CHILD_REUSE && read(res[0], t, sizeof(*t)) != sizeof(*t))
		*t = 0;
	wait_exit(pid);
	munmap(p, len);
	close(go[1]), close(res[0]);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

static void bench_size(int s, int reps)
{
	knobs_for(s);
	for (int b = 0; b < NR_BENCH; b++) {
		unsigned long long t[MAX_REPS], fl[MAX_REPS];
		char item[32];
		int r, rc = 0;

		snprintf(item, sizeof(item), ",%s,", bench_name[b]);
		if (only_benches && !strstr(only_benches, item))
			continue;
		for (r = 0; r < reps; r++)
			if ((rc = run_once(s, b, &t[r], &fl[r])))
				break;
		if (r < reps) {
			printf("bench_folio %s %s %s\n", size_name[s], bench_name[b],
			       rc == -2 ? "nomem" : "unbacked");
			fflush(stdout);
			continue;
		}
		qsort(t, reps, sizeof(t[0]), cmp);
		qsort(fl, reps, sizeof(fl[0]), cmp);
		printf("bench_folio %s %s %llu %d %zu\n", size_name[s], bench_name[b], t[reps / 2],
		       reps, len / PAGE);
		if (fl[reps / 2])
			printf("bench_folio %s %s-floor %llu %d %zu\n", size_name[s], bench_name[b],
			       fl[reps / 2], reps, len / PAGE);
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	int reps = 5, i = 1, any = 0;

	if (access("/proc/meminfo", R_OK)) {    /* Linux's init: mount them ourselves */
		mount("proc", "/proc", "proc", 0, NULL);
		mount("sysfs", "/sys", "sysfs", 0, NULL);
	}
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-m"))
			len = (size_t)atol(argv[i + 1]) << 20;
		else if (!strcmp(argv[i], "-r"))
			reps = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-b")) {
			static char list[128];

			snprintf(list, sizeof(list), ",%s,", argv[i + 1]);
			only_benches = list;
		}
	}
	reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
	len = len < PMD_SIZE ? PMD_SIZE : len & ~(PMD_SIZE - 1);
	kpageflags_fd = open("/proc/kpageflags", O_RDONLY);
	pagemap_fd = open("/proc/self/pagemap", O_RDONLY);     /* stays ours after fork */
	printf("# bench_folio: %zu MiB, median of %d, on %s\n", len >> 20, reps,
	       access("/proc/folio", F_OK) ? "Linux" :
	       page_mapcount_mode() ? "foliOS page-mapcount" : "foliOS no-page-mapcount");
	for (int s = 0; s < NR_SIZES; s++) {
		int want = i >= argc;

		for (int j = i; j < argc; j++)
			want |= !strcmp(argv[j], size_name[s]);
		if (want)
			bench_size(s, reps), any = 1;
	}
	thp_set(0, "always");
	for (unsigned long kb = 16; kb <= 2048; kb *= 2)
		thp_set(kb, kb == 2048 ? "inherit" : "never");
	return any ? 0 : 2;
}
