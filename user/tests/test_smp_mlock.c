/*
 * Concurrent mlock of shared folios (mm/mlock.c): the parent locks 256
 * pages, forks 4 children (pinned to different CPUs where it can), and
 * all five lock and unlock their view of the same folios at once — the
 * children's copies are COW-shared with the parent's until a child
 * writes, which half of them do between rounds.  Each folio counts the
 * locked VMAs that map it; if a count and its PG_mlocked ever fell out of
 * step, the parent's pages would end up unlocked (kpageflags' MLOCKED
 * clear) or Mlocked would not come back to where it started once
 * everything is unmapped.  Runs unchanged on Linux
 * (../shared/peer/linux-peer.sh --mounts --smp 4).
 */
#include "smp_util.h"
#include "swap_util.h"

#define NR_CHILDREN     4
#define NPAGES          256UL
#define ROUNDS          50
#define KPF_MLOCKED     33
#define SLACK_KB        256     /* Linux's per-CPU vmstat deltas */

static long mlocked_kb(void)
{
	return proc_value("/proc/meminfo", "Mlocked:");
}

/* Process id locks and unlocks p ROUNDS times, a child writing a page now and then; 0 if all went. */
static int churn(char *p, int id)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL * (id + 1);
	int bad = 0;

	for (int r = 0; r < ROUNDS; r++) {
		bad |= mlock(p, NPAGES * PAGE) ? 1 : 0;
		if (id && (rnd(&s) & 1))
			p[(rnd(&s) % NPAGES) * PAGE] = (char)id;
		bad |= munlock(p, NPAGES * PAGE) ? 2 : 0;
	}
	return bad;
}

int main(void)
{
	pid_t pids[NR_CHILDREN];
	unsigned long not_locked = 0;
	long before, after;
	int bad = 0, status;
	char *p;

	mount_proc_sys();
	before = mlocked_kb();
	p = anon_4k(NPAGES);
	fill(p, NPAGES, 3);
	for (int c = 0; c < NR_CHILDREN; c++) {
		pids[c] = xfork();
		if (!pids[c]) {
			pin_cpu(c + 1);
			_exit(churn(p, c + 1));
		}
	}
	pin_cpu(0);
	bad |= churn(p, 0);
	if (mlock(p, NPAGES * PAGE))
		bad |= 4;
	for (int c = 0; c < NR_CHILDREN; c++)
		if (waitpid(pids[c], &status, 0) != pids[c] || !WIFEXITED(status) || WEXITSTATUS(status))
			bad |= 8;
	for (unsigned long i = 0; i < NPAGES; i++)
		not_locked += !((kpageflags(pfn_of(p + i * PAGE)) >> KPF_MLOCKED) & 1);
	ok(!bad && !not_locked && n_intact(p, NPAGES, 3) == NPAGES,
	   "five processes lock and unlock the same folios at once: the parent's %lu pages stay locked (%lu not), intact (status bits %#x)",
	   NPAGES, not_locked, bad);
	after = mlocked_kb();
	ok(after - before >= (long)NPAGES * 4 - SLACK_KB && after - before <= (long)NPAGES * 4 + SLACK_KB,
	   "Mlocked counts the parent's pages once: %ld kB more than before", after - before);
	munmap(p, NPAGES * PAGE);
	after = mlocked_kb();
	ok(after - before >= -SLACK_KB && after - before <= SLACK_KB,
	   "Mlocked back to %ld kB (%ld before) once unmapped", after, before);
	return tap_done();
}
