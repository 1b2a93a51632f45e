/*
 * kswapd (Linux's, in mm/vmscan.c): the node's reclaim thread.  An
 * allocation that leaves free memory below the low watermark wakes it;
 * it reclaims until free memory is above the high watermark again, then
 * sleeps.  Allocations rarely have to reclaim themselves (direct
 * reclaim, below min) as long as it keeps up:
 *
 *   free ─┬─ high ── kswapd goes back to sleep
 *         ├─ low  ── an allocation wakes kswapd
 *         ├─ min  ── user allocations reclaim directly (mm/page_alloc.c)
 *         └─ 0    ── only the kernel's own allocations get here
 *
 * A run that frees nothing counts as a failure; after
 * MAX_RECLAIM_RETRIES in a row kswapd is not woken any more until
 * someone's reclaim frees something (Linux's "hopeless node"): the OOM
 * killer's case, not kswapd's.
 *
 * Locks: pgdat->kswapd_wait's lock (wakers may hold spinlocks, even
 * zone.lock's neighbours: the wake-up takes only the wait queue's and the
 * scheduler's locks).  kswapd itself holds nothing while it reclaims.
 */
#include "linux/mm_inline.h"
#include "linux/swap.h"
#include "linux/sched.h"
#include "linux/wait.h"
#include "mm/vmscan.h"

/* Is free memory above the high watermark, with room for a block of order (Linux's pgdat_balanced)? */
static bool pgdat_balanced(unsigned int order)
{
	return READ_ONCE(zone.free_pages) >= high_wmark_pages(&zone) + (1UL << order) - 1;
}

/*
 * Reclaim until the node is balanced (Linux's balance_pgdat): passes of
 * shrink_node aiming at the high watermark's worth of pages, the priority
 * rising whenever a pass freed less than it aimed at.
 */
static void balance_pgdat(pg_data_t *pgdat, unsigned int order)
{
	struct scan_control sc = { .kswapd = true, .priority = DEF_PRIORITY };
	unsigned long total = 0;

	count_vm_event(PAGEOUTRUN);
	while (!pgdat_balanced(order) && sc.priority >= 0) {
		sc.nr_reclaimed = 0;
		sc.nr_to_reclaim = MAX(SWAP_CLUSTER_MAX, high_wmark_pages(&zone));
		lru_add_drain();
		shrink_node(&sc);
		total += sc.nr_reclaimed;
		if (sc.nr_reclaimed < sc.nr_to_reclaim)
			sc.priority--;
		cond_resched();
	}
	if (!total && !pgdat_balanced(order))
		WRITE_ONCE(pgdat->kswapd_failures, pgdat->kswapd_failures + 1);
}

/* The thread: sleep until woken, balance, again (Linux's kswapd). */
static int kswapd(void *arg)
{
	pg_data_t *pgdat = arg;

	for (;;) {
		int order;

		wait_event(pgdat->kswapd_wait, atomic_read(&pgdat->kswapd_order) >= 0);  /* no signals: not interruptible */
		order = atomic_xchg(&pgdat->kswapd_order, -1);
		if (order >= 0)
			balance_pgdat(pgdat, order);
	}
	return 0;
}

/*
 * Free memory is low: wake kswapd for an allocation of 2^order pages
 * (Linux's wakeup_kswapd), unless it is awake already, not there yet
 * (boot) or hopeless.  Any context.
 */
void wakeup_kswapd(unsigned int order)
{
	pg_data_t *pgdat = NODE_DATA(0);
	int old;

	if (!READ_ONCE(pgdat->kswapd) || READ_ONCE(pgdat->kswapd_failures) >= MAX_RECLAIM_RETRIES)
		return;
	old = atomic_read(&pgdat->kswapd_order);
	while (old < (int)order) {
		int seen = atomic_cmpxchg(&pgdat->kswapd_order, old, (int)order);

		if (seen == old) {
			if (old < 0)
				wake_up(&pgdat->kswapd_wait);
			return;
		}
		old = seen;
	}
}

/* Start the node's kswapd (Linux's kswapd_run), at boot: panics if it cannot. */
void kswapd_run(void)
{
	pg_data_t *pgdat = NODE_DATA(0);
	struct task_struct *t;

	atomic_set(&pgdat->kswapd_order, -1);
	t = kthread_run(kswapd, pgdat, "kswapd0");
	if (!t)
		panic("kswapd_run: no memory for kswapd0");
	WRITE_ONCE(pgdat->kswapd, t);
}
