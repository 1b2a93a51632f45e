/*
 * vm-scalability's anon-cow-seq and anon-cow-rand, foliOS's way (the same
 * static binary runs on Linux): a parent faults in a region of private
 * anon memory backed by 4K folios or PTE-mapped 2M folios, forks N
 * children, releases them at once, and each child writes one word into
 * every page of the whole region — in order (seq) or in a random order
 * (rand) — so every page is copied on write while N processes share the
 * folios.  Wall clock (clock_gettime(CLOCK_MONOTONIC)), not --icount.
 *
 *   usemem [-m MiB] [-n CHILDREN] [-r REPS] [-f 4K|2M-pte|all] [-p seq|rand|all]
 *
 * Defaults: 32 MiB, one child per online CPU, 3 repetitions, all folio
 * kinds and patterns.  2M-pte: MADV_HUGEPAGE (and the 2048kB knob where it
 * exists), then one page of each PMD made read-only and writable again,
 * which splits the PMD and merges the VMAs back (the cover letter's way);
 * 4K: MADV_NOHUGEPAGE.  A region not backed as asked prints "unbacked".
 * One line per repetition:
 *   usemem PATTERN FOLIO cpus=C children=N mib=M pages_per_s=P wall_ms=W child_ms=a,b,...
 * (pages_per_s: pages copied by all children / wall time from the release
 * to the last child's end); after each benchmark's repetitions,
 * /proc/lock_stat if the kernel has it, cleared before them, each line
 * prefixed "lock_stat usemem PATTERN FOLIO | ".
 */
#include "../smp_util.h"
#include <getopt.h>

static size_t len = 32UL << 20;
static int nchildren, reps = 3;

/* Fault in len bytes backed as folio says; NULL if it is not backed so. */
static char *populate_once(const char *folio)
{
	int big = !strcmp(folio, "2M-pte");
	char *p = map_aligned(len, PMD_SIZE);

	if (!p)
		return NULL;
	thp_set(2048, big ? "always" : "inherit");
	madvise(p, len, big ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	for (size_t off = 0; big && off < len; off += PMD_SIZE) {
		mprotect(p + off, PAGE, PROT_READ);
		mprotect(p + off, PAGE, PROT_READ | PROT_WRITE);
	}
	thp_set(2048, "inherit");
	for (size_t off = 0; big && off < len; off += PMD_SIZE)
		if (!is_2m_pte(p + off)) {
			munmap(p, len);
			return NULL;
		}
	return p;
}

/*
 * populate_once, tried again after compacting memory where the kernel can
 * (Linux's /proc/sys/vm/compact_memory: the 4K runs before leave it
 * fragmented, and a THP fault may then fall back to small pages).
 */
static char *populate(const char *folio)
{
	char *p = NULL;

	for (int try = 0; try < 3 && !p; try++) {
		if (try)
			write_text("/proc/sys/vm/compact_memory", "1");
		p = populate_once(folio);
	}
	return p;
}

/* The order a child writes the pages in: 0, 1, 2, ... or shuffled (NULL: in order). */
static unsigned long *page_order(int rand_order, uint64_t seed)
{
	unsigned long n = len / PAGE, *order;

	if (!rand_order || !(order = malloc(n * sizeof(*order))))
		return NULL;
	for (unsigned long i = 0; i < n; i++)
		order[i] = i;
	for (unsigned long i = n - 1; i > 0; i--) {
		unsigned long j = rnd(&seed) % (i + 1), t = order[i];

		order[i] = order[j], order[j] = t;
	}
	return order;
}

/* The child's work: one word of every page written, in the given order; its ns. */
static uint64_t cow_all(char *p, const unsigned long *order)
{
	uint64_t t0 = now_ns();

	for (unsigned long i = 0; i < len / PAGE; i++)
		p[(order ? order[i] : i) * PAGE + 8] = 2;
	return now_ns() - t0;
}

/* Fork the children, release them together; wall ns, and each child's ns in ns[]. */
static uint64_t run_children(char *p, int rand_order, uint64_t *ns)
{
	int go[2], res[2];
	pid_t pid[64];
	char c;
	uint64_t t0;

	xpipe(go, 0);
	xpipe(res, 0);
	for (int k = 0; k < nchildren; k++) {
		if ((pid[k] = fork()) == 0) {
			unsigned long *order = page_order(rand_order, 0x1234567ULL * (k + 1));
			uint64_t t;

			pin_cpu(k);
			close(go[1]);
			read(go[0], &c, 1);
			t = cow_all(p, order);
			write(res[1], &t, sizeof(t));
			_exit(0);
		}
	}
	close(go[0]);
	t0 = now_ns();
	close(go[1]);
	for (int k = 0; k < nchildren; k++)
		if (read(res[0], &ns[k], sizeof(ns[k])) != sizeof(ns[k]))
			ns[k] = 0;
	t0 = now_ns() - t0;
	for (int k = 0; k < nchildren; k++)
		wait_exit(pid[k]);
	close(res[0]);
	close(res[1]);
	return t0;
}

static void one(const char *pattern, const char *folio)
{
	uint64_t ns[64], wall;
	char *p = populate(folio);

	if (!p) {
		printf("usemem %s %s cpus=%d children=%d mib=%zu unbacked\n", pattern, folio,
		       nr_cpus(), nchildren, len >> 20);
		return;
	}
	wall = run_children(p, !strcmp(pattern, "rand"), ns);
	printf("usemem %s %s cpus=%d children=%d mib=%zu pages_per_s=%.0f wall_ms=%.1f child_ms=",
	       pattern, folio, nr_cpus(), nchildren, len >> 20,
	       (double)nchildren * (len / PAGE) * 1e9 / wall, wall / 1e6);
	for (int k = 0; k < nchildren; k++)
		printf("%s%.1f", k ? "," : "", ns[k] / 1e6);
	printf("\n");
	munmap(p, len);
}

/* The repetitions of one benchmark, then its own lock statistics. */
static void bench(const char *pattern, const char *folio)
{
	char name[64];

	lock_stat_clear();
	for (int r = 0; r < reps; r++)
		one(pattern, folio);
	snprintf(name, sizeof(name), "usemem %s %s", pattern, folio);
	print_lock_stat(name);
}

int main(int argc, char **argv)
{
	static const char *const folios[] = { "4K", "2M-pte" }, *const patterns[] = { "seq", "rand" };
	const char *folio = "all", *pattern = "all";
	int opt;

	while ((opt = getopt(argc, argv, "m:n:r:f:p:")) != -1) {
		if (opt == 'm')
			len = strtoul(optarg, NULL, 0) << 20;
		else if (opt == 'n')
			nchildren = atoi(optarg);
		else if (opt == 'r')
			reps = atoi(optarg);
		else if (opt == 'f')
			folio = optarg;
		else if (opt == 'p')
			pattern = optarg;
		else
			return 2;
	}
	mount_proc_sys();
	if (nchildren <= 0 || nchildren > 64)
		nchildren = nr_cpus();
	len = (len + PMD_SIZE - 1) & ~(PMD_SIZE - 1);
	for (int f = 0; f < 2; f++)
		for (int q = 0; q < 2; q++)
			if ((!strcmp(folio, "all") || !strcmp(folio, folios[f])) &&
			    (!strcmp(pattern, "all") || !strcmp(pattern, patterns[q])))
				bench(patterns[q], folios[f]);
	return 0;
}
