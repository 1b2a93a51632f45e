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
 * Splitting needs each page's own mapcount.  With CONFIG_NO_PAGE_MAPCOUNT
 * nobody keeps it, so it is counted by the anon rmap walk over the VMAs
 * of the folio's anon_vma (rmap_walk_anon, mm/anon_vma.c); with
 * CONFIG_PAGE_MAPCOUNT the walk must agree with the per-page counts.  The
 * order-0 folios keep the anon_vma and their pages' indexes.  The
 * PTEs stay as they are: they map the same pages, now of small folios.
 *
 * A split holds the folio lock, every mapping mm's mmap_lock (held off by
 * folio_lock_mms(), mm/folio_mms.c: foliOS's stand-in for Linux's unmap
 * to migration entries), the anon_vma's lock for write and the refcount
 * frozen, so the counts it takes and the struct pages it rewrites change
 * under nobody.
 *
 * Lock order: see mm/rmap.c; split_folio() takes split_lock, and under it
 * rmap_trace_lock and (freeing pages) zone.lock.
 */
#include "linux/errno.h"
#include "mm/deferred_split.h"
#include "mm/rmap.h"
#include "mm/pgtable.h"
#include "mm/vmstat.h"
#include "mm/mm_id.h"
#include "mm/rmap_trace.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "mm/internal.h"
#include "mm/folio_mms.h"

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
 * Per-page mapping counts of the folio being split; split_lock guards
 * them.  Not irqsave: a split may wait for a PTE lock, whose holder may be
 * waiting for this CPU to answer a TLB flush.
 */
static spinlock_t split_lock = SPINLOCK_INIT("split");
static int split_counts[HPAGE_PMD_NR];

/* What folio_count_mappings() gathers; the walk stops at a PMD mapping. */
struct count_mappings {
	int *counts;
	long total;
	bool pmd_mapped;
};

/*
 * rmap_one of folio_count_mappings(): count the PTEs of vma that map
 * pages of folio.  address is where the folio's first page (or vma's start)
 * would be; an mremap may have left the folio's pages under two PMDs, so
 * each page is looked up on its own.  No PTL: the split holds vma's mm
 * off (folio_lock_mms), so no entry that maps the folio changes.
 */
static bool count_mappings_one(struct folio *folio, struct vm_area_struct *vma,
			       unsigned long address, void *arg)
{
	unsigned long nr = folio_nr_pages(folio), pfn = folio_pfn(folio);
	struct count_mappings *cm = arg;

	for (unsigned long i = 0; i < nr; i++) {
		unsigned long addr = vma_address(vma, folio->index + i, 1);
		pmd_t *pmd;
		pte_t *pte;

		if (addr == (unsigned long)-EFAULT)
			continue;
		pmd = pgtable_entry(vma->vm_mm->pgd, addr, PT_PMD, false);
		if (!pmd || !pgent_present(*pmd))
			continue;
		if (pgent_huge(*pmd)) {
			cm->pmd_mapped |= pgent_pfn(*pmd) == pfn;
			if (cm->pmd_mapped)
				return false;
			continue;
		}
		pte = pte_offset(pmd, addr);
		if (pgent_present(*pte) && pgent_pfn(*pte) == pfn + i) {
			cm->counts[i]++;
			cm->total++;
		}
	}
	return true;
}

/*
 * Count into counts[i] the PTEs that map page i of folio, in every VMA
 * the anon rmap walk finds (rmap_walk_anon; the caller holds the
 * anon_vma's lock).  Returns the total, or -EBUSY if some PMD maps the
 * folio.
 */
static long folio_count_mappings(struct folio *folio, int *counts)
{
	struct count_mappings cm = { .counts = counts };
	struct rmap_walk_control rwc = { .arg = &cm, .rmap_one = count_mappings_one };

	memset(counts, 0, folio_nr_pages(folio) * sizeof(*counts));
	rmap_walk_anon(folio, &rwc, true);
	return cm.pmd_mapped ? -EBUSY : cm.total;
}

/* The head's flags a split keeps on page 0: the caller's folio lock and its waiters. */
#define SPLIT_KEEP_FLAGS        (BIT(PG_locked) | BIT(PG_waiters))

/*
 * Turn every page of folio into an order-0 folio with counts[i] mappings
 * and as many references; page 0 also keeps the caller's reference and
 * lock.  AnonExclusive stays per page.  AnonPages moves from what it
 * counted for the folio to the pages still mapped.  Returns the number of
 * pages that were not mapped (the caller frees them).
 */
static noinline_fn unsigned long __split_folio_to_order0(struct folio *folio,
							 const int *counts)
{
	unsigned long nr = folio_nr_pages(folio), index = folio->index, unmapped = 0;
	unsigned long keep = folio->flags & SPLIT_KEEP_FLAGS;
	void *mapping = folio->mapping;
	long counted = IS_ENABLED(CONFIG_PAGE_MAPCOUNT) ? folio_nr_pages_mapped(folio) : (long)nr;

	rmap_trace_begin(folio, RMAP_TRACE_SPLIT, nr, NULL);
	for (unsigned long i = nr; i-- > 0;) {
		struct page *page = folio_page(folio, i);
		bool exclusive = PageAnonExclusive(page);

		memset(page, 0, sizeof(*page));
		page->flags = (exclusive ? BIT(PG_anon_exclusive) : 0) | (i ? 0 : keep);
		page->mapping = mapping;
		page->index = index + i;
		atomic_set(&page->_mapcount, counts[i] - 1);
		set_page_count(page, counts[i] + !i);
		unmapped += !counts[i];
	}
	mod_node_page_state(NR_ANON_MAPPED, (long)(nr - unmapped) - counted);
	return unmapped;
}

/*
 * Free the pages after first that an order-0 split left unmapped
 * (counts[i] == 0); first itself goes with the caller's reference.
 */
static void free_unmapped_pages(struct page *first, unsigned long nr, const int *counts)
{
	for (unsigned long i = 1; i < nr; i++) {
		if (counts[i])
			continue;
		set_page_count(first + i, 1);
		folio_put(page_folio(first + i));
	}
}

/*
 * Make the 2^order pages at head, of a folio being split, a new anon
 * folio of the anon_vma mapping, at index: page i mapped counts[i] times, all by the one mm
 * mm_id, a reference per mapping; AnonExclusive stays per page.  keep:
 * the old head's flags this folio takes over with the caller's reference
 * (0 for all but the first).  Returns how many pages of it are mapped.
 */
static unsigned long split_new_folio(struct page *head, unsigned int order, void *mapping,
				     unsigned long index, const int *counts, mm_id_t mm_id,
				     unsigned long keep)
{
	struct folio *folio = (struct folio *)head;
	unsigned long nr = 1UL << order, mapped = 0;
	long total = 0;

	for (unsigned long i = 0; i < nr; i++) {
		bool exclusive = PageAnonExclusive(head + i);

		memset(head + i, 0, sizeof(*head));
		head[i].flags = exclusive ? BIT(PG_anon_exclusive) : 0;
		atomic_set(&head[i]._mapcount, -1);
		total += counts[i];
		mapped += counts[i] > 0;
	}
	prep_compound_page(head, order);
	for (unsigned long i = 0; IS_ENABLED(CONFIG_PAGE_MAPCOUNT) && i < nr; i++)
		atomic_set(&head[i]._mapcount, counts[i] - 1);
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		atomic_set(&folio->_nr_pages_mapped, mapped);
	head->mapping = mapping;
	head->index = index;
	head->flags |= keep;
	set_page_count(head, total + !!keep);
	if (total) {
		atomic_set(&folio->_large_mapcount, total - 1);
		folio->_mm_id_mapcount[0] = total - 1;
		folio_set_mm_id(folio, 0, mm_id);
	}
	if (order > 1)
		folio_set_large_rmappable(folio);
	mod_mthp_stat(order, MTHP_STAT_NR_ANON, 1);
	return mapped;
}

/*
 * Split a folio mapped by one mm only into folios of new_order (> 0):
 * the unmapped ones are freed, the partially mapped ones queued for
 * deferred split.  AnonPages moves as the new folios count.
 */
static void __split_folio_to_order(struct folio *folio, const int *counts, unsigned int new_order)
{
	unsigned long nr = folio_nr_pages(folio), index = folio->index, step = 1UL << new_order;
	unsigned long keep = folio->flags & SPLIT_KEEP_FLAGS;       /* PG_locked: never 0 */
	void *mapping = folio->mapping;
	long counted = IS_ENABLED(CONFIG_PAGE_MAPCOUNT) ? folio_nr_pages_mapped(folio) : (long)nr;
	mm_id_t mm_id = folio_mm_id(folio, folio_mm_id(folio, 0) == MM_ID_DUMMY);
	long now = 0;

	rmap_trace_begin(folio, RMAP_TRACE_SPLIT, nr, NULL);
	for (unsigned long i = 0; i < nr; i += step) {
		struct folio *new = (struct folio *)folio_page(folio, i);
		unsigned long mapped = split_new_folio(&new->page, new_order, mapping, index + i,
						       counts + i, mm_id, i ? 0 : keep);

		now += IS_ENABLED(CONFIG_PAGE_MAPCOUNT) || !mapped ? mapped : step;
		if (!mapped && i) {             /* the first goes with the caller's reference */
			set_page_count(&new->page, 1);
			folio_put(new);
		} else if (mapped && mapped < step) {
			deferred_split_folio(new, true);
		}
	}
	mod_node_page_state(NR_ANON_MAPPED, now - counted);
}

/*
 * The split proper, with everything held (see split_folio_to_order): the
 * mappings counted, checked against the mapcounts, the refcount frozen at
 * exactly those plus the caller's, the struct pages rewritten.
 */
static int __split_folio_locked(struct folio *folio, unsigned int new_order)
{
	unsigned long nr = folio_nr_pages(folio);
	long total = folio_count_mappings(folio, split_counts);

	if (total < 0)
		return total;
	if (total != folio_large_mapcount(folio)) {
		VM_WARN_ON_ONCE(true, "split_folio: rmap walk disagrees with the large mapcount");
		return -EAGAIN;
	}
	for (unsigned long i = 0; IS_ENABLED(CONFIG_PAGE_MAPCOUNT) && i < nr; i++)
		VM_WARN_ON_ONCE(split_counts[i] != atomic_read(&folio_page(folio, i)->_mapcount) + 1,
				"split_folio: rmap walk disagrees with a page's mapcount");
	/* A reference besides the mappings' and ours (a pin, a pipe, a /proc reader): not now. */
	if (!folio_ref_freeze(folio, total + 1))
		return -EAGAIN;
	/*
	 * An unmap may have queued the folio again since the caller took it
	 * off (before its mm was held off); frozen, no scan takes it now, so
	 * off it goes before page[2], its list link, is rewritten (Linux's
	 * __folio_split does the same).
	 */
	folio_unqueue_deferred_split(folio);
	mod_mthp_stat(folio_order(folio), MTHP_STAT_NR_ANON, -1);
	if (new_order)
		__split_folio_to_order(folio, split_counts, new_order);
	else if (__split_folio_to_order0(folio, split_counts))
		free_unmapped_pages(&folio->page, nr, split_counts);
	return 0;
}

/*
 * Split an anon large folio that only PTEs map into folios of new_order
 * (Linux's split_huge_page_to_list_to_order): to order 0 the pages
 * nobody maps are freed; to a higher order, only a folio one mm maps
 * (no MM-ID slot sharing to divide).  The caller holds a reference and
 * the folio lock, which stay with the new folio of the first page, and
 * has taken the folio off the deferred split queue; held is the mm whose
 * mmap_lock it holds, or NULL (folio_lock_mms).  0, -EINVAL (an order
 * anon folios cannot have, or not below the folio's), -EBUSY (not mapped,
 * a PMD maps it, two mms do for new_order > 0, or too many mms) or
 * -EAGAIN (a lock was busy, or a reference other than its mappings and
 * the caller's exists).
 */
int split_folio_to_order(struct folio *folio, unsigned int new_order, struct mm_struct *held)
{
	int ret, order = folio_order(folio);
	struct anon_vma *anon_vma;
	struct folio_mms fm;

	VM_WARN_ON_ONCE(!folio_test_large(folio) || !folio_test_anon(folio),
			"split_folio: not a large anon folio");
	VM_WARN_ON_ONCE(!folio_test_locked(folio), "split_folio: folio not locked");
	if (new_order == 1 || new_order >= (unsigned int)order)
		return -EINVAL;
	if (new_order && folio_test_large_maybe_mapped_shared(folio))
		return -EBUSY;
	anon_vma = folio_get_anon_vma(folio);
	if (!anon_vma) {
		ret = -EBUSY;
		goto out;
	}
	ret = folio_lock_mms(folio, &fm, held);
	if (ret)
		goto out_put;
	anon_vma_lock_write(anon_vma);
	spin_lock(&split_lock);
	ret = __split_folio_locked(folio, new_order);
	spin_unlock(&split_lock);
	anon_vma_unlock_write(anon_vma);
	folio_unlock_mms(&fm);
out_put:
	put_anon_vma(anon_vma);
out:
	count_mthp_stat(order, ret ? MTHP_STAT_SPLIT_FAILED : MTHP_STAT_SPLIT);
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
 * shrinker's work), each under a reference and its lock; held is the mm
 * whose mmap_lock the caller holds, or NULL.  A folio that cannot be
 * split now goes back on the queue, behind the others.  Returns how many
 * were split.
 */
unsigned long deferred_split_scan(unsigned long nr_to_scan, struct mm_struct *held)
{
	unsigned long split = 0;

	nr_to_scan = MIN(nr_to_scan, deferred_split_count());
	while (nr_to_scan--) {
		struct folio *folio = deferred_split_take();
		int ret = -EAGAIN;

		if (!folio)
			break;
		if (folio_trylock(folio)) {
			ret = split_folio_to_order(folio, 0, held);
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
