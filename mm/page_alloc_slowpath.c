/*
 * The allocator's slow path (Linux's __alloc_pages_slowpath in
 * mm/page_alloc.c): what an allocation that may sleep does when free
 * memory is at the min watermark.  Apart from mm/page_alloc.c because it
 * is where allocation meets tasks (a killed task gives up; the OOM killer
 * picks one), which the host build of mm/ has not.
 *
 *   reclaim ─(freed some)─> try again ─(no page)─> reclaim ...
 *      └─(MAX_RECLAIM_RETRIES passes freed nothing)─> out_of_memory():
 *           a victim killed or dying: wait a tick, start over;
 *           nothing killable, or current is the victim: NULL
 *
 * Locks: none held on entry (might_sleep): reclaim and the OOM killer
 * take what they need; the caller may hold its mmap_lock for read.
 */
#include "linux/gfp.h"
#include "linux/oom.h"
#include "linux/sched.h"
#include "linux/wait.h"
#include <asm/arch.h>
#include "linux/swap.h"
#include "mm/internal.h"
#include "linux/mmzone.h"

#define PAGE_ALLOC_COSTLY_ORDER 3      /* larger allocations fail rather than kill (Linux's) */

/* Let an OOM victim run its exit: a tick, or less if current is killed meanwhile. */
static void oom_victim_wait(void)
{
	unsigned long j = jiffies;

	wait_var_event_killable((void *)&jiffies, jiffies != j);
}

/*
 * Reclaim directly, and try again, as long as reclaim frees something —
 * up to MAX_RECLAIM_RETRIES passes in a row that free nothing (Linux's
 * should_reclaim_retry); then, for a small allocation, the OOM killer
 * (Linux's __alloc_pages_may_oom) and, once it has a victim, all of it
 * again.  A task already killed gets no page, so that it can exit.  NULL
 * if nothing came free.
 */
struct page *__alloc_pages_slowpath(gfp_t gfp, unsigned int order)
{
	unsigned int no_progress = 0;
	struct page *page;

	might_sleep();
	while (!fatal_signal_pending(current)) {
		unsigned long progress = try_to_free_pages(order);
		struct oom_control oc = { .gfp_mask = gfp, .order = order };

		page = get_page_from_freelist(gfp, order, min_wmark_pages(&zone));
		if (page)
			return page;
		no_progress = progress ? 0 : no_progress + 1;
		if (no_progress <= MAX_RECLAIM_RETRIES)
			continue;
		if (order > PAGE_ALLOC_COSTLY_ORDER || !out_of_memory(&oc))
			break;
		no_progress = 0;
		oom_victim_wait();
	}
	return NULL;
}
