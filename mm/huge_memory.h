/*
 * Transparent huge pages: for now the deferred split queue, onto which
 * rmap puts partially mapped anon large folios (Linux's deferred_split).
 *
 * Lock order: split_queue_lock is innermost.
 */
#ifndef MM_HUGE_MEMORY_H
#define MM_HUGE_MEMORY_H

#include "mm/folio.h"

void deferred_split_init(void);
void deferred_split_folio(struct folio *folio, bool partially_mapped);
bool folio_unqueue_deferred_split(struct folio *folio);
unsigned long deferred_split_count(void);

#endif
