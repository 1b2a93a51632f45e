/*
 * TEMPORARY: replaced by mm/swap.c (the LRU lists, issue 35).  Until the
 * lists exist no folio is ever on one, so isolation always fails and
 * mlock's list moves (mm/mlock.c) do nothing.
 *
 * Locks: none.
 */
#include "linux/swap.h"
#include "linux/page-flags.h"

bool folio_isolate_lru(struct folio *folio)
{
	return false;
}

void folio_putback_lru(struct folio *folio)
{
	folio_put(folio);
}
