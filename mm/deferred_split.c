/*
 * The deferred split queue and folio split (Linux's deferred_split_folio,
 * deferred_split_scan and split_huge_page in mm/huge_memory.c).
 *
 * Anon large folios that rmap found partially mapped wait on the queue,
 * linked through folio->_deferred_list (page[2]).  A folio is queued once:
 * partially_mapped (in page[1]) says it is on the queue.  Freeing a folio
 * takes it off.  Memory pressure (an order-0 allocation failing in a fault)
 * and the split_deferred knob split the queued folios:
 *
 *   order-4 folio, pages 0-9 unmapped      16 order-0 folios
 *   [..........######]          ==>        10 to the buddy (MemFree grows),
 *   LM = 6, one slot (mm, 6)               6 mapped, each _mapcount 0
 *
 * A split is Linux's protocol (__folio_split): under the folio lock and
 * the anon_vma's lock for write, try_to_migrate() (mm/rmap_migrate.c)
 * replaces every PTE of the folio by a migration entry, so the folio has
 * no mapping left and a fault that meets an entry waits; the refcount is
 * frozen at the caller's one reference; the struct pages are rewritten as
 * new folios, each locked; remove_migration_ptes() (mm/migrate.c) puts
 * each new folio's PTEs back, the rmap counting them afresh, which also
 * works without per-page mapcounts (CONFIG_NO_PAGE_MAPCOUNT); the pages no
 * entry named any more are freed.  The PTEs map the same pages as before,
 * now of small folios; the new folios keep the anon_vma and the indexes.
 *
 *   PTE-mapped order-4 folio  -> 16 migration entries, LM 0, ref 1 (ours)
 *   rewrite: 16 order-0 folios, locked, ref 1 each
 *   remap: each entry back to its PTE (add_rmap, ref +1); unmapped ones freed
 *
 * Lock order: see mm/rmap.c (folio lock, anon_vma lock, then each PTE
 * table's lock in turn; freeing pages takes zone.lock).
 */
#include "linux/errno.h"
#include "mm/deferred_split.h"
#include "linux/rmap.h"
#include "linux/pgtable.h"
#include "linux/vmstat.h"
#include "linux/sched/mm.h"
#include "mm/rmap_observe.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "mm/internal.h"
#include "mm/migrate.h"
#include "linux/swap.h"
#include "linux/mm_inline.h"
#include "linux/swapops.h"
#include "linux/wait.h"

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
 * Put a folio on the queue unless it is on it; true if it was not.  Who
 * splits a queued folio outside deferred_split_scan takes it off first
 * and puts it back with this if the split fails.
 */
bool deferred_split_queue(struct folio *folio)
{
	unsigned long flags;
	bool queued;

	spin_lock_irqsave(&split_queue_lock, flags);
	queued = !folio_test_partially_mapped(folio);
	if (queued) {
		folio_set_partially_mapped(folio);
		mod_mthp_stat(folio_order(folio), MTHP_STAT_NR_ANON_PARTIALLY_MAPPED, 1);
		list_add_tail(&folio->_deferred_list, &split_queue);
		split_queue_len++;
	}
	spin_unlock_irqrestore(&split_queue_lock, flags);
	return queued;
}

/*
 * Queue a folio for splitting because it is partially mapped.  Only large
 * rmappable folios of order > 1 have a _deferred_list; others are ignored.
 */
void deferred_split_folio(struct folio *folio, bool partially_mapped)
{
	if (!partially_mapped || folio_order(folio) <= 1 || !folio_test_large_rmappable(folio))
		return;
	if (deferred_split_queue(folio))
		count_mthp_stat(folio_order(folio), MTHP_STAT_SPLIT_DEFERRED);
}

/* Take a queued folio off the queue; split_queue_lock held. */
static void __deferred_split_dequeue(struct folio *folio)
{
	lockdep_assert_held(&split_queue_lock);
	list_del(&folio->_deferred_list);
	INIT_LIST_HEAD(&folio->_deferred_list);
	folio_clear_partially_mapped(folio);
	mod_mthp_stat(folio_order(folio), MTHP_STAT_NR_ANON_PARTIALLY_MAPPED, -1);
	split_queue_len--;
}

/* Take a folio off the queue if it is on it; true if it was. */
bool folio_unqueue_deferred_split(struct folio *folio)
{
	unsigned long flags;
	bool queued = false;

	if (folio_order(folio) <= 1 || list_empty(&folio->_deferred_list))
		return false;
	spin_lock_irqsave(&split_queue_lock, flags);
	if (!list_empty(&folio->_deferred_list)) {
		__deferred_split_dequeue(folio);
		queued = true;
	}
	spin_unlock_irqrestore(&split_queue_lock, flags);
	return queued;
}

unsigned long deferred_split_count(void)
{
	return READ_ONCE(split_queue_len);
}

/*
 * Is folio, just remapped, mapped only in part (what its scheme can tell:
 * with PAGE_MAPCOUNT the pages mapped, without it the large mapcount
 * against the pages, with MAPCOUNT_PAGES the total of mapped pages, as
 * __folio_remove_rmap decides)?
 */
static bool folio_partially_mapped_now(const struct folio *folio)
{
	long mapped = IS_ENABLED(CONFIG_PAGE_MAPCOUNT) ? folio_nr_pages_mapped(folio) :
		      IS_ENABLED(CONFIG_MAPCOUNT_PAGES) ? (long)folio_total_mapped_pages(folio) :
							  folio_large_mapcount(folio);

	return mapped && mapped < (long)folio_nr_pages(folio);
}

/*
 * Make the 2^order pages at head, of a frozen and unmapped folio being
 * split, a new anon folio of mapping at index: no mapping yet, one
 * reference (the split's), the flags given (PG_locked at least: it stays
 * locked until its PTEs are back); AnonExclusive stays per page.
 */
static void split_new_folio(struct page *head, unsigned int order, void *mapping,
			    unsigned long index, unsigned long flags)
{
	unsigned long nr = 1UL << order;

	for (unsigned long i = 0; i < nr; i++) {
		bool exclusive = PageAnonExclusive(head + i);

		memset(head + i, 0, sizeof(*head));
		head[i].flags = exclusive ? BIT(PG_anon_exclusive) : 0;
		atomic_set(&head[i]._mapcount, -1);
	}
	if (order)
		prep_compound_page(head, order);
	head->mapping = mapping;
	head->index = index;
	head->flags |= flags;
	set_page_count(head, 1);
	if (order > 1)
		folio_set_large_rmappable((struct folio *)head);
	if (order)
		mod_mthp_stat(order, MTHP_STAT_NR_ANON, 1);
}

/* The head's flags the first new folio keeps: the caller's folio lock and its waiters. */
#define SPLIT_KEEP_FLAGS        (BIT(PG_locked) | BIT(PG_waiters))

/*
 * Rewrite the struct pages of the frozen, unmapped folio as folios of
 * new_order (Linux's __split_unmapped_folio), from the last so that the
 * head, whose mapping and index they copy, goes last.  Every new folio is
 * locked; the first keeps the caller's lock and reference.  Each takes
 * the head's place on the LRU, under lru_lock: a scan never meets the
 * struct pages half rewritten.  True if they are on the LRU (the head was).
 */
static noinline_fn bool __split_unmapped_folio(struct folio *folio, unsigned int new_order)
{
	unsigned long nr = folio_nr_pages(folio), index = folio->index, step = 1UL << new_order;
	/* every piece keeps its place on the LRU, and stays mlocked: NR_MLOCK counted pages */
	unsigned long carry = folio->flags & (LRU_SPLIT_FLAGS | BIT(PG_swapbacked) | BIT(PG_mlocked));
	unsigned long keep = (folio->flags & SPLIT_KEEP_FLAGS) | carry;
	struct lruvec *lruvec = folio_lruvec(folio);
	void *mapping = folio->mapping;
	struct list_head *pos;
	unsigned long flags;

	rmap_observe(folio, &folio->page, nr, NULL, RMAP_TRACE_SPLIT);
	spin_lock_irqsave(&lruvec->lru_lock, flags);
	pos = lru_split_begin(lruvec, folio);
	for (unsigned long i = nr; i;) {
		i -= step;
		split_new_folio(folio_page(folio, i), new_order, mapping, index + i,
				i ? BIT(PG_locked) | carry : keep);
	}
	lru_split_end(lruvec, folio, nr, new_order, pos);
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
	return pos;
}

/*
 * Give the new folios of a split their PTEs back (Linux's remap_page) and
 * let them go: each one's migration entries turn into PTEs; a partially
 * mapped one is queued for deferred split; all but the first (the
 * caller's) are unlocked and lose the split's reference, which frees the
 * ones no PTE maps — unless the caller gave a list: then they keep it and
 * go there (list[0], list[1]..., Linux's split_huge_page_to_list_to_order).
 * Pieces of a head that was on no LRU list and that go to no list join
 * the LRU (on_lru: the split put them there already).  Waiters that looked a page up while its struct page was rewritten may
 * sleep on any page's address: those are woken too.
 */
static void remap_new_folios(struct folio *folio, unsigned long nr, unsigned int new_order,
			     bool on_lru, struct folio **list)
{
	unsigned long step = 1UL << new_order;

	for (unsigned long i = 0; i < nr; i += step) {
		struct folio *new = (struct folio *)folio_page(folio, i);

		remove_migration_ptes(new, new);
		if (new_order > 1 && folio_partially_mapped_now(new))
			deferred_split_folio(new, true);
		if (i) {
			folio_unlock(new);
			if (!list && !on_lru)
				folio_add_lru(new);     /* the head was off the lists: not its pieces */
			if (list)
				*list++ = new;
			else
				folio_put(new);
		}
	}
	smp_mb();       /* the unlocks before the look at the waiters' count */
	if (atomic_read(&nr_migration_waiters))
		for (unsigned long i = 0; i < nr; i++)
			wake_up_var(folio_page(folio, i));
}

/*
 * The split proper (Linux's __folio_split), under the folio lock and the
 * anon_vma's lock: unmap every PTE to a migration entry, freeze the
 * refcount at the caller's one reference, rewrite the struct pages,
 * remap.  If a page stays mapped (pinned) or a reference besides ours
 * exists (a pin, a pipe, a /proc reader, a batch not yet freed), the PTEs
 * go back and the queue state is made true again: -EAGAIN.
 */
static int __folio_split(struct folio *folio, unsigned int new_order, struct folio **list)
{
	unsigned long nr = folio_nr_pages(folio);

	if (!folio_mapped(folio))
		return -EBUSY;
	try_to_migrate(folio, TTU_SPLIT_HUGE_PMD);
	if (folio_mapped(folio) || !folio_ref_freeze(folio, 1)) {
		remove_migration_ptes(folio, folio);
		if (folio_partially_mapped_now(folio))
			deferred_split_folio(folio, true);
		else
			folio_unqueue_deferred_split(folio);
		return -EAGAIN;
	}
	/*
	 * The unmap queued the folio as partially mapped on the way, or an
	 * unmap did before; frozen, no scan takes it now, so off it goes
	 * before page[2], its list link, is rewritten (as Linux's).
	 */
	folio_unqueue_deferred_split(folio);
	mod_mthp_stat(folio_order(folio), MTHP_STAT_NR_ANON, -1);
	remap_new_folios(folio, nr, new_order, __split_unmapped_folio(folio, new_order), list);
	return 0;
}

/*
 * Split a mapped anon large folio into folios of new_order
 * (Linux's split_huge_page_to_list_to_order), its PMD mappings split into
 * PTEs on the way (TTU_SPLIT_HUGE_PMD): unmapped pages are freed,
 * new folios mapped in part are queued for deferred split.  The caller
 * holds a reference and the folio lock, which stay with the new folio of
 * the first page, and has taken the folio off the deferred split queue;
 * it holds no page-table lock.  With a list (room for every new folio but
 * the first), the others go there with a reference each (pageout's
 * fallback).  A folio in the swap cache is not split (its slots would
 * have to split too): -EAGAIN unless no swap entry needs it any more.
 * 0, -EINVAL (an order anon folios cannot have, or not below the
 * folio's), -EBUSY (not mapped) or -EAGAIN (a pinned page, or a
 * reference other than the mappings' and the caller's).
 */
int split_folio_to_list(struct folio *folio, unsigned int new_order, struct folio **list)
{
	int ret, order = folio_order(folio);
	struct anon_vma *anon_vma;

	VM_WARN_ON_ONCE(!folio_test_large(folio) || !folio_test_anon(folio),
			"split_folio: not a large anon folio");
	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	if (new_order == 1 || new_order >= (unsigned int)order)
		return -EINVAL;
	ret = -EAGAIN;
	if (folio_test_swapcache(folio) && !folio_free_swap(folio))
		goto out;
	anon_vma = folio_get_anon_vma(folio);
	if (!anon_vma) {
		ret = -EBUSY;
		goto out;
	}
	anon_vma_lock_write(anon_vma);
	ret = __folio_split(folio, new_order, list);
	anon_vma_unlock_write(anon_vma);
	put_anon_vma(anon_vma);
out:
	count_mthp_stat(order, ret ? MTHP_STAT_SPLIT_FAILED : MTHP_STAT_SPLIT);
	return ret;
}

/*
 * split_folio_to_list() for a caller that found the locked folio mapped
 * (debugfs, pageout): off the deferred split queue for the split, and back
 * on it if the split fails.  0 or split_folio_to_list()'s error.
 */
int split_queued_folio_to_list(struct folio *folio, unsigned int new_order, struct folio **list)
{
	bool queued = folio_unqueue_deferred_split(folio);
	int ret = split_folio_to_list(folio, new_order, list);

	if (ret && queued)
		deferred_split_queue(folio);
	return ret;
}

/*
 * Take the first queued folio off the queue with a reference (Linux's
 * deferred_split_scan does this under the queue lock); folios being freed
 * (refcount 0) are only taken off.  NULL when the queue is empty.
 */
static struct folio *deferred_split_take(void)
{
	struct folio *folio = NULL;
	unsigned long flags;

	spin_lock_irqsave(&split_queue_lock, flags);
	while (!list_empty(&split_queue)) {
		bool got;

		folio = list_first_entry(&split_queue, struct folio, _deferred_list);
		got = folio_try_get(folio);
		__deferred_split_dequeue(folio);
		if (got)
			break;
		folio = NULL;
	}
	spin_unlock_irqrestore(&split_queue_lock, flags);
	return folio;
}

/*
 * Split up to nr_to_scan queued folios (Linux's deferred_split_scan, the
 * shrinker's work), each under a reference and its lock.  A folio that cannot be
 * split now goes back on the queue, behind the others.  Returns how many
 * were split.
 */
unsigned long deferred_split_scan(unsigned long nr_to_scan)
{
	unsigned long split = 0;

	nr_to_scan = MIN(nr_to_scan, deferred_split_count());
	while (nr_to_scan--) {
		struct folio *folio = deferred_split_take();
		int ret = -EAGAIN;

		if (!folio)
			break;
		if (folio_trylock(folio)) {
			ret = split_folio_to_order(folio, 0);
			folio_unlock(folio);
		}
		if (ret)
			deferred_split_queue(folio);
		else
			split++;
		folio_put(folio);
	}
	return split;
}
