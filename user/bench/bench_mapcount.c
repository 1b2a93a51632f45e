/*
 * The operations where the three mapcount schemes differ (issue 20's
 * measures), for foliOS's three variants and Linux alike (run under
 * --icount: rdtsc counts guest work).
 *
 *   bench_mapcount [-m MiB] [-r REPS]
 *
 * A region (default 64 MiB) of private anon memory is faulted in as
 *
 *   2M-pmd   2 MiB folios, one PMD each
 *   2M-pte   2 MiB folios, 512 PTEs each (one page of each PMD mprotected
 *            read-only and back, as the cover letter does)
 *   4M-pmd   4 MiB folios, two PMDs each (only the mapcount-pages variant
 *            has them: elsewhere "unbacked")
 *
 * and then timed:
 *
 *   remap    2M-pmd only: mprotect one page of each PMD read-only — the
 *            PMD→PTE remap the cover letter predicts gets faster
 *   fork     the parent's fork() while the child stays alive
 *   reuse    one byte per 4 KiB page written after the child exited
 *   munmap   unmapping the region
 *
 * The backing is checked through Linux's ABI (pagemap, kpageflags: a 4 MiB
 * folio's page at +2 MiB is a compound tail) before every repetition.
 * Output, one line each: "bench_mapcount SIZE BENCH MEDIAN_CYCLES REPS".
 */
#include "../tap.h"
#include "../thp_util.h"
#include <sys/wait.h>
#include <x86intrin.h>

#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define MAX_REPS 15

enum { S_2M_PMD, S_2M_PTE, S_4M_PMD, NR_SIZES };
enum { B_REMAP, B_FORK, B_REUSE, B_MUNMAP, NR_BENCH };
static const char *const size_name[NR_SIZES] = { "2M-pmd", "2M-pte", "4M-pmd" };
static const char *const bench_name[NR_BENCH] = { "remap", "fork", "reuse", "munmap" };
static size_t len = 64UL << 20;

static int kpf(unsigned long pfn, int bit)
{
	return (kpageflags(pfn) >> bit) & 1;
}

/* Is the region backed as size s says: folios of 512 or 1024 pages, PMD-mapped or not? */
static int backed(const char *p, int s)
{
	const unsigned long nr = s == S_4M_PMD ? 1024 : 512;
	long thp_kb = -1;
	char buf[4096], *q;

	for (size_t off = 0; off < len; off += nr * PAGE) {
		unsigned long pfn = pfn_of(p + off);

		if (!pfn || !kpf(pfn, KPF_COMPOUND_HEAD) || pfn_of(p + off + (nr - 1) * PAGE) != pfn + nr - 1 ||
		    !kpf(pfn + nr - 1, KPF_COMPOUND_TAIL) || kpf(pfn + nr, KPF_COMPOUND_TAIL))
			return 0;
	}
	if (!read_text("/proc/self/smaps_rollup", buf, sizeof(buf)) &&
	    (q = strstr(buf, "AnonHugePages:")))
		thp_kb = strtol(q + 14, NULL, 10);
	return s == S_2M_PTE ? thp_kb == 0 : thp_kb >= (long)(len >> 10);
}

/* Only the size s needs: 2 MiB by MADV_HUGEPAGE, 4 MiB by its knob (foliOS's third variant). */
static char *setup(int s)
{
	char *p;

	thp_set(4096, s == S_4M_PMD ? "always" : "never");
	p = map_aligned(len, 4UL << 20);
	if (!p)
		return NULL;
	madvise(p, len, MADV_HUGEPAGE);
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	for (size_t off = 0; s == S_2M_PTE && off < len; off += PMD_SIZE) {
		mprotect(p + off, PAGE, PROT_READ);
		mprotect(p + off, PAGE, PROT_READ | PROT_WRITE);
	}
	return p;
}

static unsigned long long remap(char *p)
{
	unsigned long long t0 = __rdtsc();

	for (size_t off = 0; off < len; off += PMD_SIZE)
		mprotect(p + off, PAGE, PROT_READ);
	return __rdtsc() - t0;
}

/* fork with the child kept alive (in *pid, waiting on go[0]): the parent's cycles. */
static unsigned long long timed_fork(int go[2], pid_t *pid)
{
	unsigned long long t0 = __rdtsc(), t;
	char c;

	*pid = fork();
	if (*pid == 0) {
		read(go[0], &c, 1);
		_exit(0);
	}
	t = __rdtsc() - t0;
	return t;
}

/* One repetition of bench b for size s: cycles, or 0 when not backed as intended. */
static unsigned long long run_once(int s, int b)
{
	char *p = setup(s);
	unsigned long long t = 0;
	int go[2];
	pid_t pid;

	if (!p || !backed(p, s))
		goto out;
	if (b == B_REMAP) {
		t = remap(p);
	} else if (b == B_MUNMAP) {
		unsigned long long t0 = __rdtsc();

		munmap(p, len);
		return __rdtsc() - t0;
	} else {
		xpipe(go, 0);
		t = timed_fork(go, &pid);
		write(go[1], "g", 1);
		waitpid(pid, NULL, 0);
		close(go[0]);
		close(go[1]);
		if (b == B_REUSE) {
			unsigned long long t0 = __rdtsc();

			for (size_t off = 0; off < len; off += PAGE)
				p[off + 1] = 2;
			t = __rdtsc() - t0;
		}
	}
out:
	if (p)
		munmap(p, len);
	return t;
}

static int cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int reps = 5;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-m") && i + 1 < argc)
			len = strtoul(argv[++i], NULL, 0) << 20;
		else if (!strcmp(argv[i], "-r") && i + 1 < argc)
			reps = atoi(argv[++i]);
	}
	reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
	if (access("/proc/meminfo", R_OK))
		mount_proc_sys();
	thp_set(0, "madvise");
	for (int s = 0; s < NR_SIZES; s++) {
		for (int b = 0; b < NR_BENCH; b++) {
			unsigned long long t[MAX_REPS];
			int n = 0;

			if (b == B_REMAP && s != S_2M_PMD)
				continue;
			for (int r = 0; r < reps; r++)
				if ((t[n] = run_once(s, b)))
					n++;
			qsort(t, n, sizeof(t[0]), cmp);
			if (n < reps)
				printf("bench_mapcount %s %s unbacked\n", size_name[s], bench_name[b]);
			else
				printf("bench_mapcount %s %s %llu %d\n", size_name[s], bench_name[b],
				       t[n / 2], n);
		}
	}
	thp_set(4096, "never");
	thp_set(0, "always");
	return 0;
}
