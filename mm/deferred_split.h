/*
 * The deferred split queue and folio split (mm/deferred_split.c): rmap puts
 * partially mapped anon large folios on the queue; memory pressure or the
 * split_deferred knob splits them into order-0 folios, and the pages no
 * longer mapped go back to the buddy.
 *
 * Lock order: see mm/rmap.c.
 */
#ifndef MM_DEFERRED_SPLIT_H
#define MM_DEFERRED_SPLIT_H

#include "linux/page-flags.h"
#include "linux/mm_types.h"

void deferred_split_init(void);
void deferred_split_folio(struct folio *folio, bool partially_mapped);
bool folio_unqueue_deferred_split(struct folio *folio);
bool deferred_split_queue(struct folio *folio);
unsigned long deferred_split_count(void);
unsigned long deferred_split_scan(unsigned long nr_to_scan);
int split_folio_to_list(struct folio *folio, unsigned int new_order, struct folio **list);
int split_queued_folio_to_list(struct folio *folio, unsigned int new_order, struct folio **list);

static inline int split_folio_to_order(struct folio *folio, unsigned int new_order)
{
	return split_folio_to_list(folio, new_order, NULL);
}

/* The locked folio (a reference held) to order 0; the caller holds no page-table lock. */
static inline int split_folio(struct folio *folio)
{
	return split_folio_to_order(folio, 0);
}

#endif
