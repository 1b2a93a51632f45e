/*
 * The deferred split queue (Linux's mm/huge_memory.c): anon large folios
 * that rmap found partially mapped wait here, linked through
 * folio->_deferred_list (page[2]), until something splits them.  A folio is
 * queued once: PG partially_mapped (in page[1]) says it is on the queue.
 * Freeing a folio takes it off the queue (folio_unqueue_deferred_split).
 *
 * Lock order: split_queue_lock is innermost (taken under the mapcount
 * bit spinlock's caller, never the other way round).
 */
#include "mm/huge_memory.h"
#include "kernel/printk.h"

static spinlock_t split_queue_lock = SPINLOCK_INIT("split_queue");
static LIST_HEAD(split_queue);
static unsigned long split_queue_len;

/* Boot-time setup: an empty queue. */
void deferred_split_init(void)
{
	INIT_LIST_HEAD(&split_queue);
	split_queue_len = 0;
}

/*
 * Queue a folio for splitting because it is partially mapped.  Only large
 * rmappable folios of order > 1 have a _deferred_list; others are ignored.
 */
void deferred_split_folio(struct folio *folio, bool partially_mapped)
{
	unsigned long flags;

	if (!partially_mapped || folio_order(folio) <= 1 || !folio_test_large_rmappable(folio))
		return;
	flags = spin_lock_irqsave(&split_queue_lock);
	if (!folio_test_partially_mapped(folio)) {
		folio_set_partially_mapped(folio);
		list_add_tail(&folio->_deferred_list, &split_queue);
		split_queue_len++;
	}
	spin_unlock_irqrestore(&split_queue_lock, flags);
}

/* Take a folio off the queue if it is on it; true if it was. */
bool folio_unqueue_deferred_split(struct folio *folio)
{
	unsigned long flags;
	bool queued = false;

	if (folio_order(folio) <= 1 || list_empty(&folio->_deferred_list))
		return false;
	flags = spin_lock_irqsave(&split_queue_lock);
	if (!list_empty(&folio->_deferred_list)) {
		list_del(&folio->_deferred_list);
		INIT_LIST_HEAD(&folio->_deferred_list);
		folio_clear_partially_mapped(folio);
		split_queue_len--;
		queued = true;
	}
	spin_unlock_irqrestore(&split_queue_lock, flags);
	return queued;
}

unsigned long deferred_split_count(void)
{
	return READ_ONCE(split_queue_len);
}
