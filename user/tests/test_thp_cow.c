/*
 * Guest test (TAP): fork, copy-on-write and COW reuse of large folios, for
 * a 64 KiB mTHP, a PTE-mapped 2 MiB folio and a PMD-mapped THP: a child's
 * write copies one page; the parent's write after the child exited reuses
 * in place (the MM owner slots prove exclusivity); a child's write after
 * the parent unmapped reuses too; three processes leave the folio
 * "maybe shared" with no false "exclusive"; exec releases the slot; fork
 * of a partially mapped folio; kpagecount and pagemap as each mode shows.
 */
#include "thp_util.h"
#include <signal.h>

enum kind { MTHP_64K, PTE_2M, PMD_2M };
static const char *const kind_name[] = { "64K mTHP", "PTE-mapped 2M", "PMD-mapped 2M" };
static const unsigned long kind_pages[] = { 16, 512, 512 };

/* A folio of this kind, every page's first int set to seed + i. */
static char *make_folio(enum kind k, int seed)
{
	unsigned long n = kind_pages[k];
	char *p = map_aligned(n * PAGE, n * PAGE);

	thp_only(k == MTHP_64K ? 64 : 2048);
	fill_pattern(p, n, seed);
	thp_only(0);
	if (k == PTE_2M) {              /* the cover letter's way: split the PMD, merge the VMAs */
		mprotect(p, PAGE, PROT_READ);
		mprotect(p, PAGE, PROT_READ | PROT_WRITE);
	}
	return p;
}

static void record_pfns(const char *p, unsigned long n, unsigned long *pfns)
{
	for (unsigned long i = 0; i < n; i++)
		pfns[i] = pfn_of(p + i * PAGE);
}

/* How many of the n pages still have the recorded PFN. */
static unsigned long same_pfns(const char *p, unsigned long n, const unsigned long *pfns)
{
	unsigned long same = 0;

	for (unsigned long i = 0; i < n; i++)
		same += pfn_of(p + i * PAGE) == pfns[i];
	return same;
}

static int both_slots(const struct folio_view *v, pid_t a, pid_t b)
{
	return (v->mm_id_pid[0] == a && v->mm_id_pid[1] == b) ||
	       (v->mm_id_pid[0] == b && v->mm_id_pid[1] == a);
}

/* A child writes one page while alive: it gets a copy of that page only. */
static void test_child_write(enum kind k)
{
	unsigned long n = kind_pages[k], pfns[512] = { 0 };
	char *p = make_folio(k, 1000);
	int rep[2], go[2], res = 0;
	struct folio_view v;
	pid_t child;

	record_pfns(p, n, pfns);
	xpipe(rep, 0);
	xpipe(go, 0);
	child = fork();
	if (!child) {
		close(rep[0]), close(go[1]);    /* a dead partner reads as EOF, not a hang */
		p[3 * PAGE] = 'c';
		folio_at(p + 3 * PAGE, &v);
		res = p[3 * PAGE] == 'c' && check_pattern(p, n, 1000, 3) && pfn_of(p + 3 * PAGE) != pfns[3] &&
		      same_pfns(p, n, pfns) == n - 1 && v.order == 0 && v.anon_exclusive == 1;
		write(rep[1], &res, sizeof(res));
		read(go[0], &res, sizeof(res));
		_exit(0);
	}
	close(rep[1]), close(go[0]);
	read(rep[0], &res, sizeof(res));
	ok(res, "%s: child's write copies just that page (new PFN), the rest still shared",
	   kind_name[k]);
	folio_at(p, &v);
	ok(check_pattern(p, n, 1000, n) && same_pfns(p, n, pfns) == n && v.shared == 1 &&
	   both_slots(&v, getpid(), child), "%s: parent's data and PFNs intact; both mms in the slots, shared",
	   kind_name[k]);
	write(go[1], &res, sizeof(res));
	ok(wait_exit(child) == 0, "%s: child exits", kind_name[k]);
	close(rep[0]), close(go[1]);
	munmap(p, n * PAGE);
}

/* After the child exited, the parent's writes reuse the folio in place. */
static void test_parent_reuse(enum kind k)
{
	unsigned long n = kind_pages[k], pfns[512] = { 0 };
	char *p = make_folio(k, 2000);
	struct folio_view v, v1;
	pid_t child;

	record_pfns(p, n, pfns);
	child = fork();
	if (!child)
		_exit(0);
	wait_exit(child);
	folio_at(p, &v);
	ok(v.shared == 0 && my_slot(&v) >= 0 && v.mm_id[!my_slot(&v)] == 0 &&
	   v.large_mapcount == (k == PMD_2M ? 1 : (long)n) && v.anon_exclusive == 0,
	   "%s: child exited: one slot (this mm) holds every mapping, not shared", kind_name[k]);
	p[0] = 'x';
	folio_at(p, &v);
	folio_at(p + PAGE, &v1);
	ok(pfn_of(p) == pfns[0] && v.anon_exclusive == 1 &&
	   (k == PMD_2M ? v.entire_mapcount == 1 : v1.anon_exclusive == 0),
	   "%s: write reuses in place; %s", kind_name[k],
	   k == PMD_2M ? "the whole PMD (still one PMD leaf)" : "only the faulting page became exclusive");
	for (unsigned long i = 1; i < n; i++)
		p[i * PAGE + 100] = 'y';
	ok(same_pfns(p, n, pfns) == n && check_pattern(p, n, 2000, 0) && p[0] == 'x',
	   "%s: writing every page after the child exited copies nothing", kind_name[k]);
	munmap(p, n * PAGE);
}

/* The parent unmaps; the child's writes then reuse (child-reuse-byte). */
static void test_child_reuse(enum kind k)
{
	unsigned long n = kind_pages[k], pfns[512] = { 0 };
	char *p = make_folio(k, 3000);
	int go[2], res;
	pid_t child;

	record_pfns(p, n, pfns);
	xpipe(go, 0);
	child = fork();
	if (!child) {
		close(go[1]);
		read(go[0], &res, sizeof(res));
		for (unsigned long i = 0; i < n; i++)
			p[i * PAGE + 100] = 'z';
		_exit(same_pfns(p, n, pfns) == n && check_pattern(p, n, 3000, n) ? 0 : 1);
	}
	close(go[0]);
	munmap(p, n * PAGE);
	write(go[1], &res, sizeof(res));
	ok(wait_exit(child) == 0, "%s: parent unmapped: the child's writes reuse every page", kind_name[k]);
	close(go[1]);
}

/*
 * Three mms map a folio; two leave.  The third was never in a slot, so the
 * shared bit stays: its write may copy, but nothing may call it exclusive.
 */
static void test_three_processes(void)
{
	char *p = make_folio(MTHP_64K, 4000);
	int go_a[2], go_b[2], rep[2], res[3] = { 0 };
	struct folio_view v;
	pid_t a, b;

	xpipe(go_a, 0), xpipe(go_b, 0), xpipe(rep, 0);
	if (!(a = fork())) {
		close(go_a[1]), close(go_b[0]), close(go_b[1]), close(rep[0]), close(rep[1]);
		read(go_a[0], res, sizeof(int));
		_exit(0);
	}
	if (!(b = fork())) {
		close(go_a[0]), close(go_a[1]), close(go_b[1]), close(rep[0]);
		read(go_b[0], res, sizeof(int));
		folio_at(p, &v);
		res[0] = v.shared == 1 && v.mm_id[0] == 0 && v.mm_id[1] == 0 && v.large_mapcount == 16;
		res[1] = pm_exclusive(p);
		p[0] = 'b';
		res[2] = p[0] == 'b' && check_pattern(p, 16, 4000, 0);
		write(rep[1], res, sizeof(res));
		_exit(0);
	}
	close(go_a[0]), close(go_b[0]), close(rep[1]);
	folio_at(p, &v);
	ok(v.shared == 1 && v.large_mapcount == 48 && both_slots(&v, getpid(), a),
	   "three mms map a 64K folio: slots hold two of them, LM 48, shared");
	munmap(p, 16 * PAGE);
	write(go_a[1], res, sizeof(int));
	wait_exit(a);
	write(go_b[1], res, sizeof(int));
	read(rep[0], res, sizeof(res));
	ok(res[0], "the two slot owners left: no slot names the last mm, the shared bit stays");
	ok(page_mapcount_mode() ? res[1] == 1 : res[1] == 0,
	   "pagemap PM_MMAP_EXCLUSIVE: %s", page_mapcount_mode() ?
	   "1 (page-mapcount: precise page mapcount is 1)" :
	   "0 (no-page-mapcount: folio_maybe_mapped_shared)");
	ok(res[2], "its write gives correct data (copy or reuse: both are allowed)");
	wait_exit(b);
	close(go_a[1]), close(go_b[1]), close(rep[0]);
}

/* A child that execs gives its slot back while it still runs. */
static void test_exec_releases(void)
{
	char *p = make_folio(MTHP_64K, 5000);
	int sync[2], in[2];
	unsigned long pfn0 = pfn_of(p);
	struct folio_view v;
	char c;
	pid_t child;

	xpipe(in, 0);
	xpipe(sync, O_CLOEXEC);
	if (!(child = fork())) {
		dup2(in[0], 0);
		close(in[1]);
		close(sync[0]);
		execl("/bin/cat", "cat", (char *)NULL);
		_exit(127);
	}
	close(sync[1]);
	close(in[0]);
	folio_at(p, &v);
	ok(read(sync[0], &c, 1) == 0, "child exec'd (its close-on-exec pipe end closed)");
	folio_at(p, &v);
	ok(v.shared == 0 && v.large_mapcount == 16 && my_slot(&v) >= 0 && v.mm_id[!my_slot(&v)] == 0,
	   "after the child's exec only this mm holds a slot: not shared");
	p[PAGE] = 'e';
	ok(pfn_of(p) == pfn0 && pfn_of(p + PAGE) == pfn0 + 1 && check_pattern(p, 16, 5000, 1),
	   "so the parent's write reuses the folio while the child runs");
	close(in[1]);
	ok(wait_exit(child) == 0, "the exec'd child ends at EOF");
	close(sync[0]);
	munmap(p, 16 * PAGE);
}

/* fork of a folio that is only partly mapped (a split PMD, half unmapped). */
static void test_fork_partial(void)
{
	char *p = make_folio(PMD_2M, 6000), *half = p + PMD_SIZE / 2;
	unsigned long pfn = pfn_of(half);
	struct folio_view v;
	pid_t child;

	munmap(p, PMD_SIZE / 2);
	if (!(child = fork())) {
		half[PAGE] = 'k';
		_exit(check_pattern(half, 256, 6256, 1) && half[PAGE] == 'k' && pfn_of(half) == pfn &&
		      pfn_of(half + PAGE) != pfn + 1 ? 0 : 1);
	}
	ok(wait_exit(child) == 0, "fork of a partially mapped THP: the child sees the data, copies one page");
	folio_at(half, &v);
	ok(check_pattern(half, 256, 6256, 256) && v.order == 9 && v.large_mapcount == 256 && v.shared == 0,
	   "the parent's half is intact, its folio exclusive again after the child exit");
	split_deferred();
	ok(check_pattern(half, 256, 6256, 256) && pfn_of(half) == pfn, "deferred split keeps the parent's data and PFNs");
	munmap(half, PMD_SIZE / 2);
}

/* Pss, Private_Dirty and Shared_Dirty (kB) of the VMA at addr in /proc/self/smaps. */
static void smaps_of(const void *addr, long *pss, long *priv, long *shared)
{
	char line[256], key[32];
	unsigned long lo, hi, v;
	int in = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	*pss = *priv = *shared = -1;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = lo <= (unsigned long)addr && (unsigned long)addr < hi;
		else if (!in || sscanf(line, "%31[^:]: %lu kB", key, &v) != 2)
			continue;
		else if (!strcmp(key, "Pss"))
			*pss = v;
		else if (!strcmp(key, "Private_Dirty"))
			*priv = v;
		else if (!strcmp(key, "Shared_Dirty"))
			*shared = v;
	}
	if (f)
		fclose(f);
}

/* A page the child unmapped: kpagecount, pagemap and smaps as each mode defines them. */
static void test_mode_counts(void)
{
	char *p = make_folio(MTHP_64K, 7000);
	int rep[2], go[2], x = 0, pm = page_mapcount_mode();
	unsigned long pfn = pfn_of(p);
	long pss, priv, shared;
	pid_t child;

	xpipe(rep, 0), xpipe(go, 0);
	if (!(child = fork())) {
		munmap(p, 8 * PAGE);
		write(rep[1], &x, sizeof(x));
		read(go[0], &x, sizeof(x));
		_exit(0);
	}
	read(rep[0], &x, sizeof(x));
	ok(kpagecount(pfn) == (pm ? 1 : 2) && kpagecount(pfn + 15) == 2,
	   "kpagecount of a page only the parent maps: %ld (%s)", kpagecount(pfn),
	   pm ? "precise" : "average of the folio: 24 mappings / 16 pages");
	ok(pm_exclusive(p) == pm && pm_exclusive(p + 15 * PAGE) == 0,
	   "pagemap exclusive bit of that page: %d (%s)", pm_exclusive(p),
	   pm ? "its own mapcount is 1" : "the folio is maybe shared");
	smaps_of(p, &pss, &priv, &shared);
	ok(pm ? pss == 48 && priv == 32 && shared == 32 : pss == 32 && priv == 0 && shared == 64,
	   "smaps: Pss %ld kB, Private_Dirty %ld kB, Shared_Dirty %ld kB (%s)", pss, priv, shared,
	   pm ? "per page: 8 pages only ours, 8 shared" : "per folio: average mapcount 2, maybe shared");
	write(go[1], &x, sizeof(x));
	wait_exit(child);
	close(rep[0]), close(rep[1]), close(go[0]), close(go[1]);
	munmap(p, 16 * PAGE);
}

int main(void)
{
	printf("# test_thp_cow (%s)\n", mapcount_mode_name());
	for (enum kind k = MTHP_64K; k <= PMD_2M; k++) {
		test_child_write(k);
		test_parent_reuse(k);
		test_child_reuse(k);
	}
	test_three_processes();
	test_exec_releases();
	test_fork_partial();
	test_mode_counts();
	thp_only(0);
	return tap_done();
}
