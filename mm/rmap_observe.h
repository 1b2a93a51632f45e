/*
 * Watching the rmap (mm/rmap_observe.c): the one observation hook of every
 * rmap operation, Linux's tracepoint idea (one static key, one site per
 * event, several probes behind it) with a return probe.  Two observers sit
 * behind it, each in its own file:
 *
 *   the mapcount trace        mm/rmap_trace.c       the folio's state before
 *                                                   and after (linux/rmap_trace.h)
 *   the shadow exact counter  mm/mapcount_shadow.c  the change counted exactly,
 *                                                   the scheme's answers checked
 *                                                   (linux/mapcount_shadow.h)
 *
 * The hook is the first statement of the (noinline) function that performs
 * the operation:
 *
 *	noinline_fn void folio_add_anon_rmap_ptes(struct folio *folio, struct page *page,
 *			int nr_pages, struct vm_area_struct *vma, ...)
 *	{
 *		rmap_observe(folio, page, nr_pages, vma, RMAP_TRACE_ADD_PTES);
 *		...the operation, unchanged...
 *	}
 *
 * If an observer wants the folio, the hook lets the trace snapshot it and
 * makes the function return through a trampoline (<asm/return_hook.h>,
 * Linux's kretprobe idea), which hands both observers the end of the
 * operation: the shadow counts it (a try_dup only if it returned 0) and
 * checks, the trace snapshots again and records.  That end comes where the
 * shadow counted before it had this hook: after the whole rmap change,
 * under the page-table lock the caller holds.
 *
 * While both observers are off the hook is one 5-byte NOP and nothing else:
 * no second hook at the end, no value kept live across the operation, and
 * the arguments are the rmap function's own, in the same registers (folio,
 * page, nr_pages, vma: the order of the _ptes functions).  The key is on
 * while the trace selects folios or the shadow counts (rmap_observe_update()).
 * `make RMAP_TRACE=0` (CONFIG_RMAP_TRACE) compiles the hook out, and with
 * it both observers.
 *
 * Lock order: see mm/rmap.c; the hook takes only the observers' locks.
 */
#ifndef MM_RMAP_OBSERVE_H
#define MM_RMAP_OBSERVE_H

#include "linux/rmap_trace.h"
#include <asm/jump_label.h>

extern struct static_key rmap_observe_key;      /* on while an observer is */

void __rmap_observe(struct folio *folio, struct page *page, int nr_pages,
		    struct vm_area_struct *vma, enum rmap_trace_op op);
/* Turn the key on or off as the observers now are (not under a spinlock). */
void rmap_observe_update(void);

/* Is an observer on?  While none is, a 5-byte NOP (a static key) is all it costs. */
static inline bool rmap_observe_on(void)
{
	return IS_ENABLED(CONFIG_RMAP_TRACE) && static_branch_unlikely(&rmap_observe_key);
}

/*
 * The hook of an rmap operation: op on folio, nr_pages pages from page (a
 * PMD operation: HPAGE_PMD_NR; a new folio or a split: all of it), by
 * vma's mm (NULL: none).
 */
static __always_inline void rmap_observe(struct folio *folio, struct page *page, int nr_pages,
					 struct vm_area_struct *vma, enum rmap_trace_op op)
{
	if (rmap_observe_on())
		__rmap_observe(folio, page, nr_pages, vma, op);
}

#endif
