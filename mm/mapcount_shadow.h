/*
 * The shadow exact counter (mm/mapcount_shadow.c): with mapcount_shadow
 * on the command line, every rmap change of a large anon folio is also
 * counted exactly — per page, and per (folio, mm) — and after each one the
 * scheme's answers are compared with the truth (/proc/mapcount_report).
 * Off: one load and a branch per rmap call.
 */
#ifndef MM_MAPCOUNT_SHADOW_H
#define MM_MAPCOUNT_SHADOW_H

#include "linux/page-flags.h"
#include "linux/mm_types.h"

/* What the checks found since boot or the last reset (/proc/mapcount_report). */
struct mapcount_shadow_stats {
	unsigned long changes, shared_answers, false_shared, false_exclusive;
	unsigned long partial_removals, partial_queued, partial_missed;
	unsigned long page_checks, kpagecount_wrong, kpagecount_error, uss_wrong;
	bool overflowed;                /* more (folio, mm) pairs than the hash holds */
};

extern bool mapcount_shadow_on;

void __mapcount_shadow_mod(struct folio *folio, struct page *page, int nr_pages,
			   struct vm_area_struct *vma, int delta);

/*
 * nr_pages pages of folio from page were mapped (delta 1) or unmapped
 * (delta -1) once more by vma's mm: count it, then compare the scheme's
 * answers with the truth.  After the rmap change, under its page-table lock.
 */
static inline void mapcount_shadow_mod(struct folio *folio, struct page *page, int nr_pages,
				       struct vm_area_struct *vma, int delta)
{
	if (unlikely(READ_ONCE(mapcount_shadow_on)) && folio_test_large(folio) &&
	    folio_test_anon(folio))
		__mapcount_shadow_mod(folio, page, nr_pages, vma, delta);
}

int mapcount_shadow_setup(void);
void mapcount_shadow_read(struct mapcount_shadow_stats *s);
void mapcount_shadow_reset(void);

#endif
