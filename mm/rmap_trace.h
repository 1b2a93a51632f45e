/*
 * The mapcount trace, mm's side (mm/rmap_trace.c; what kernel/ and fs/ use
 * is linux/rmap_trace.h).  The rmap operations reach it through their one
 * observation hook (mm/rmap_observe.h), which calls rmap_trace_before() and,
 * when the operation returns, rmap_trace_after(); an event that changes no
 * count (a COW reuse) is recorded by rmap_trace_event() where it happens.
 *
 * Lock order: see mm/rmap.c; a record holds rmap_trace_op_lock from
 * rmap_trace_before() to rmap_trace_after() and takes rmap_trace_lock.
 */
#ifndef MM_RMAP_TRACE_H
#define MM_RMAP_TRACE_H

#include "linux/rmap_trace.h"
#include "mm/rmap_observe.h"

enum rmap_trace_mode { RMAP_TRACE_OFF, RMAP_TRACE_ALL, RMAP_TRACE_ORDER, RMAP_TRACE_PFN };
extern enum rmap_trace_mode rmap_trace_mode;

/* Boot-time setup (and between host tests): off and empty. */
void rmap_trace_init(void);

/*
 * The observation hook's calls: if folio is traced, take its "before" for
 * op on nr_pages pages by vma's mm and return true; then, once the
 * operation is done, rmap_trace_after() records it, caller being where
 * the rmap function returns to.
 */
bool rmap_trace_before(const struct folio *folio, enum rmap_trace_op op, int nr_pages,
		       const struct vm_area_struct *vma);
void rmap_trace_after(const struct folio *folio, unsigned long caller);

void __rmap_trace_event(const struct folio *folio, enum rmap_trace_op op, int nr,
			const struct vm_area_struct *vma);

/*
 * An event that changes no count (a reused page): one record, before ==
 * after, behind the observation hook's key.
 */
static __always_inline void rmap_trace_event(const struct folio *folio, enum rmap_trace_op op,
					     int nr, const struct vm_area_struct *vma)
{
	if (rmap_observe_on())
		__rmap_trace_event(folio, op, nr, vma);
}

#endif
