/*
 * The allocator's slow path (Linux's __alloc_pages_slowpath in
 * mm/page_alloc.c): what an allocation that may sleep does when free
 * memory is at the min watermark.  Apart from mm/page_alloc.c because it
 * is where allocation meets tasks (a killed task gives up; the OOM killer
 * picks one), which the host build of mm/ has not.
 *
 * Locks: none held on entry or taken here (might_sleep): reclaim takes
 * what it needs.
 */
#include "linux/gfp.h"
#include "linux/sched.h"
#include "linux/swap.h"
#include "mm/internal.h"
#include "linux/mmzone.h"

/*
 * Reclaim directly, and try again, as long as reclaim frees something —
 * up to MAX_RECLAIM_RETRIES passes in a row that free nothing (Linux's
 * should_reclaim_retry).  A task already killed gets no page, so that it
 * can exit.  NULL if nothing came free.
 */
struct page *__alloc_pages_slowpath(gfp_t gfp, unsigned int order)
{
	unsigned int no_progress = 0;
	struct page *page;

	might_sleep();
	while (no_progress <= MAX_RECLAIM_RETRIES && !fatal_signal_pending(current)) {
		unsigned long progress = try_to_free_pages(order);

		page = get_page_from_freelist(order, min_wmark_pages(&zone));
		if (page)
			return page;
		no_progress = progress ? 0 : no_progress + 1;
	}
	return NULL;
}
