/*
 * Concurrent COW of one PTE-mapped 2 MiB folio: the parent fills it (page i
 * holds orig(i) in its first and last word), forks 4 children pinned to
 * different CPUs where sched_setaffinity exists, and all five write their
 * own tags to random pages at once.  Each checks every page against its
 * own model (what it last wrote, else the parent's original), and through
 * pagemap that a page it never wrote is still the folio's page and a page
 * it wrote is exclusively its own (a copy, or the folio reused in place
 * once no other process maps it).  Once the children are gone the
 * parent checks the folio's mapcounts in foliOS's /proc/folio (skipped
 * where absent, as on Linux).
 */
#include "smp_util.h"

#define NR_CHILDREN     4
#define NR_PAGES        512UL
#define WRITES          1000

static uint64_t orig(unsigned long i)
{
	return 0x5eed000000000000ULL | i;
}

static uint64_t *word(char *p, unsigned long i, int last)
{
	return (uint64_t *)(p + i * PAGE + (last ? PAGE - 8 : 0));
}

/*
 * Process id (0 parent, 1..4 children) writes WRITES random pages of p,
 * then checks data and pagemap against its model; a failure bitmask.
 */
static int write_and_check(char *p, int id, unsigned long head_pfn)
{
	static uint64_t model[NR_PAGES];
	uint64_t s = 0x9e3779b97f4a7c15ULL * (id + 1);
	int bad = 0;

	for (unsigned long i = 0; i < NR_PAGES; i++)
		model[i] = orig(i);
	for (int n = 0; n < WRITES; n++) {
		unsigned long i = rnd(&s) % NR_PAGES;

		model[i] = (uint64_t)id << 56 | (uint64_t)n << 16 | i;
		*word(p, i, 0) = model[i];
		*word(p, i, 1) = model[i];
	}
	for (unsigned long i = 0; i < NR_PAGES; i++) {
		unsigned long pfn = pfn_of(p + i * PAGE);

		if (*word(p, i, 0) != model[i] || *word(p, i, 1) != model[i])
			bad |= 1;
		if (head_pfn && model[i] == orig(i) && pfn != head_pfn + i)
			bad |= 2;
		if (head_pfn && model[i] != orig(i) && !pm_exclusive(p + i * PAGE))
			bad |= 4;
	}
	return bad;
}

static void report(int bad, const char *who)
{
	ok(!(bad & 1), "%s: every page holds its own last write or the parent's original", who);
	ok(!(bad & 2), "%s: pages never written still map the shared folio (pagemap)", who);
	ok(!(bad & 4), "%s: written pages are exclusively mapped (pagemap)", who);
}

/* After the children exited: the folio is mapped by the parent's unwritten pages only. */
static void check_folio(char *p, unsigned long head_pfn)
{
	struct folio_view v;
	long unwritten = 0;
	int slot;

	for (unsigned long i = 0; i < NR_PAGES; i++)
		unwritten += pfn_of(p + i * PAGE) == head_pfn + i;
	if (folio_view_pfn(head_pfn, &v)) {
		skip("no /proc/folio (not foliOS)");
		return;
	}
	slot = my_slot(&v);
	ok(v.large_mapcount == unwritten, "folio: large_mapcount %ld == parent's unwritten pages %ld",
	   v.large_mapcount, unwritten);
	ok(slot >= 0 && v.mm_id_mapcount[slot] == unwritten,
	   "folio: the parent's MM ID slot holds all %ld mappings", unwritten);
}

/* Fork the children: each waits on go, then writes and checks; their pids in pid[]. */
static void fork_children(char *p, unsigned long head_pfn, int go[2], pid_t *pid)
{
	char c;

	for (int k = 0; k < NR_CHILDREN; k++) {
		if ((pid[k] = fork()) == 0) {
			pin_cpu(k + 1);
			close(go[1]);
			read(go[0], &c, 1);
			_exit(write_and_check(p, k + 1, head_pfn));
		}
	}
}

static void report_children(const int *status)
{
	for (int k = 0; k < NR_CHILDREN; k++) {
		char who[32];

		snprintf(who, sizeof(who), "child %d", k + 1);
		if (status[k] < 0 || status[k] > 7)
			ok(0, "%s exited normally (status %d)", who, status[k]);
		else
			report(status[k], who);
	}
}

int main(void)
{
	int go[2], status[NR_CHILDREN], bad;
	pid_t pid[NR_CHILDREN];
	unsigned long head_pfn;
	char *p;

	mount_proc_sys();
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("# test_smp_cow: %d CPUs, %d children, %d random writes each\n", nr_cpus(),
	       NR_CHILDREN, WRITES);
	p = map_2m_pte(NR_PAGES * PAGE, orig);
	if (!p) {
		ok(0, "map 2 MiB");
		return tap_done();
	}
	for (unsigned long i = 0; i < NR_PAGES; i++)
		*word(p, i, 1) = orig(i);
	head_pfn = is_2m_pte(p) ? pfn_of(p) : 0;
	if (head_pfn)
		ok(1, "the region is one PTE-mapped 2 MiB folio");
	else
		skip("not a PTE-mapped 2M folio here: data checks only");
	xpipe(go, 0);
	fork_children(p, head_pfn, go, pid);
	pin_cpu(0);
	close(go[0]);
	close(go[1]);                   /* every child's read returns: go */
	bad = write_and_check(p, 0, head_pfn);
	for (int k = 0; k < NR_CHILDREN; k++)
		status[k] = wait_exit(pid[k]);
	report(bad, "parent");
	report_children(status);
	if (head_pfn)
		check_folio(p, head_pfn);
	munmap(p, NR_PAGES * PAGE);
	return tap_done();
}
