/*
 * The shadow exact counter, mm's side (mm/mapcount_shadow.c; what kernel/
 * and fs/ use is linux/mapcount_shadow.h).  The rmap operations reach it
 * through their one observation hook (mm/rmap_observe.h): the hook asks
 * mapcount_shadow_wanted() and, when the operation returns,
 * mapcount_shadow_rmap() counts it.  Off: nothing, the hook's NOP.
 *
 * Lock order: see mm/rmap.c.
 */
#ifndef MM_MAPCOUNT_SHADOW_H
#define MM_MAPCOUNT_SHADOW_H

#include "linux/mapcount_shadow.h"
#include "linux/rmap_trace.h"

/* How op moves the mappings it counts: +1 (mapped once more), -1, or 0 (none). */
static inline int mapcount_shadow_delta(enum rmap_trace_op op)
{
	switch (op) {
	case RMAP_TRACE_NEW: case RMAP_TRACE_ADD_PTES: case RMAP_TRACE_ADD_PMD:
	case RMAP_TRACE_DUP_PTES: case RMAP_TRACE_DUP_PMD:
		return 1;
	case RMAP_TRACE_REMOVE_PTES: case RMAP_TRACE_REMOVE_PMD:
		return -1;
	default:
		return 0;
	}
}

/*
 * Will op on folio be counted?  Large anon folios only; a new anon folio
 * is not anon yet when its operation starts.
 */
static inline bool mapcount_shadow_wanted(const struct folio *folio, enum rmap_trace_op op)
{
	return READ_ONCE(mapcount_shadow_on) && folio_test_large(folio) &&
	       mapcount_shadow_delta(op) && (folio_test_anon(folio) || op == RMAP_TRACE_NEW);
}

/*
 * op on nr_pages pages of folio from page, by vma's mm, is done; ret is
 * what it returned (a try_dup's 0 or -EBUSY; nothing else looks at it).
 * After the rmap change, under its page-table lock.
 */
void mapcount_shadow_rmap(struct folio *folio, struct page *page, int nr_pages,
			  struct vm_area_struct *vma, enum rmap_trace_op op, int ret);

#endif
