/*
 * The LRU lists' ways in and out (Linux's mm/swap.c): a new folio joins
 * through a per-CPU batch, reclaim isolates folios and puts them back,
 * folio_mark_accessed promotes, the free path and splits keep the lists
 * true.  The lists themselves: linux/mmzone.h; what a folio's flags say
 * about them: linux/mm_inline.h; the scans: mm/vmscan_lru.c.
 *
 *   folio_add_lru ─> cpu_fbatches[cpu] ─(15 folios, or a large one)─> lru_lock:
 *                    (holds a reference)   PG_lru set, on its list, reference dropped
 *   folio_isolate_lru: off the list, PG_lru clear, a reference held
 *   folio_putback_lru: back through folio_add_lru
 *   last folio_put:    off the list (__folio_put -> lru_del_freed_folio)
 *
 * Invariant: PG_lru is set and cleared only under lru_lock, and while it
 * is set the flags that name the list (PG_active, PG_unevictable,
 * PG_swapbacked) change only under lru_lock too — so lruvec_del_folio
 * always finds the list the folio is on and the counts stay exact.  A
 * folio off the lists (isolated, in a batch, new) may have its flags
 * changed by whoever holds it.
 *
 * Locks: cpu_fbatches[].lock (Linux's local_lock; a spinlock here so that
 * lru_add_drain_all can empty another CPU's batch) is a leaf: a batch is
 * copied out and moved after it is dropped.  lruvec->lru_lock (irqs off)
 * may be taken under a PTL, a folio lock or a page cache's xa_lock
 * (mm/rmap.c's table); nothing is taken under it.
 */
#include "linux/mm_inline.h"
#include "linux/swap.h"
#include "linux/smp.h"
#include "linux/cpumask.h"

struct pglist_data contig_page_data = {
	.__lruvec = { .lru_lock = SPINLOCK_INIT("lru_lock") },
	.kswapd_wait = __WAIT_QUEUE_HEAD_INITIALIZER(contig_page_data.kswapd_wait),
};

#define FOLIO_BATCH_SIZE 15             /* Linux 6.1's PAGEVEC_SIZE */

/*
 * Folios a batch holds before it goes on the lists: FOLIO_BATCH_SIZE.
 * The host tests, which check exact refcounts after each fault, set 1.
 */
unsigned int lru_add_batch_size = FOLIO_BATCH_SIZE;

struct folio_batch {
	unsigned int nr;
	struct folio *folios[FOLIO_BATCH_SIZE];
};

static struct cpu_fbatches {
	spinlock_t lock;
	struct folio_batch lru_add;
} cpu_fbatches[NR_CPUS] = {
	[0 ... NR_CPUS - 1] = { .lock = SPINLOCK_INIT("cpu_fbatches.lock") },
};

/* Empty lists and batches (boot; the host tests boot many times). */
void lru_init(void)
{
	struct lruvec *lruvec = &NODE_DATA(0)->__lruvec;

	for (int lru = 0; lru < NR_LRU_LISTS; lru++) {
		INIT_LIST_HEAD(&lruvec->lists[lru]);
		lruvec->nr_pages[lru] = 0;
	}
	lruvec->anon_cost = lruvec->file_cost = 0;
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		cpu_fbatches[cpu].lru_add.nr = 0;
}

/*
 * Put the batch's folios on their lists under one lru_lock, each on the
 * unevictable list if reclaim may not take it (Linux's lru_add_fn), then
 * drop the batch's references — after the lock: a last one frees.
 */
static void folio_batch_move_lru(struct folio_batch *fbatch)
{
	struct lruvec *lruvec = &NODE_DATA(0)->__lruvec;
	unsigned long flags;

	spin_lock_irqsave(&lruvec->lru_lock, flags);
	for (unsigned int i = 0; i < fbatch->nr; i++) {
		struct folio *folio = fbatch->folios[i];

		if (WARN_ON_ONCE(folio_test_lru(folio), "folio_add_lru: already on a list"))
			continue;
		if (folio_evictable(folio)) {
			folio_clear_unevictable(folio);
		} else {
			folio_clear_active(folio);
			folio_set_unevictable(folio);
		}
		folio_set_lru(folio);
		lruvec_add_folio(lruvec, folio);
	}
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
	for (unsigned int i = 0; i < fbatch->nr; i++)
		folio_put(fbatch->folios[i]);
	fbatch->nr = 0;
}

/* Take cpu's batch out under its lock, and move it. */
static void lru_add_drain_cpu(unsigned int cpu)
{
	struct cpu_fbatches *fbatches = &cpu_fbatches[cpu];
	struct folio_batch batch;
	unsigned long flags;

	spin_lock_irqsave(&fbatches->lock, flags);
	batch = fbatches->lru_add;
	fbatches->lru_add.nr = 0;
	spin_unlock_irqrestore(&fbatches->lock, flags);
	if (batch.nr)
		folio_batch_move_lru(&batch);
}

/*
 * A folio user space may map, new to memory, joins the LRU (Linux's
 * folio_add_lru): into this CPU's batch with a reference; a full batch,
 * or a large folio (so that a split never waits for a batch's reference),
 * goes on the lists at once.  Its PG_swapbacked must be set before: it
 * picks the list.  Any context that may take a spinlock.
 */
void folio_add_lru(struct folio *folio)
{
	struct cpu_fbatches *fbatches;
	struct folio_batch batch;
	unsigned long flags;

	VM_WARN_ON_ONCE_FOLIO(folio_test_lru(folio), folio);
	folio_get(folio);
	fbatches = &cpu_fbatches[smp_processor_id()];  /* any CPU's will do: it is locked */
	spin_lock_irqsave(&fbatches->lock, flags);
	fbatches->lru_add.folios[fbatches->lru_add.nr++] = folio;
	batch.nr = 0;
	if (fbatches->lru_add.nr >= lru_add_batch_size || folio_test_large(folio)) {
		batch = fbatches->lru_add;
		fbatches->lru_add.nr = 0;
	}
	spin_unlock_irqrestore(&fbatches->lock, flags);
	if (batch.nr)
		folio_batch_move_lru(&batch);
}

/* This CPU's batch onto the lists (Linux's lru_add_drain). */
void lru_add_drain(void)
{
	lru_add_drain_cpu(smp_processor_id());
}

/*
 * Every CPU's batch onto the lists (Linux's lru_add_drain_all, which
 * queues work on each CPU): before a leak check or a count must be exact,
 * and before reclaim gives up.
 */
void lru_add_drain_all(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		lru_add_drain_cpu(cpu);
}

/*
 * Take a folio off its list for the caller (Linux's folio_isolate_lru),
 * who holds a reference and gets one more, dropped by folio_putback_lru.
 * False if it is on no list: in a batch, or isolated by someone else.
 */
bool folio_isolate_lru(struct folio *folio)
{
	struct lruvec *lruvec = folio_lruvec(folio);
	unsigned long flags;
	bool ret = false;

	VM_WARN_ON_ONCE_FOLIO(!folio_ref_count(folio), folio);
	spin_lock_irqsave(&lruvec->lru_lock, flags);
	if (folio_test_clear_lru(folio)) {
		folio_get(folio);
		lruvec_del_folio(lruvec, folio);
		ret = true;
	}
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
	return ret;
}

/* An isolated folio back to the list its flags name, and the isolation's reference dropped. */
void folio_putback_lru(struct folio *folio)
{
	folio_add_lru(folio);
	folio_put(folio);
}

/*
 * The free path: a folio whose last reference went leaves its list
 * (Linux's __page_cache_release).  Nobody can isolate it any more (that
 * needs a reference), so PG_lru is stable; the lock orders the removal
 * after any scan that is looking at its neighbours.
 */
void lru_del_freed_folio(struct folio *folio)
{
	struct lruvec *lruvec = folio_lruvec(folio);
	unsigned long flags;

	spin_lock_irqsave(&lruvec->lru_lock, flags);
	if (folio_test_clear_lru(folio))
		lruvec_del_folio(lruvec, folio);
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
}

/*
 * Move an evictable folio that is on an inactive list to the active one
 * (Linux's folio_activate); one in a batch or isolated just gets
 * PG_active, which its way onto a list reads.  Takes lru_lock.
 */
static void folio_activate(struct folio *folio)
{
	struct lruvec *lruvec = folio_lruvec(folio);
	unsigned long flags;

	spin_lock_irqsave(&lruvec->lru_lock, flags);
	if (!folio_test_active(folio) && !folio_test_unevictable(folio)) {
		if (folio_test_lru(folio)) {
			lruvec_del_folio(lruvec, folio);
			folio_set_active(folio);
			lruvec_add_folio(lruvec, folio);
			count_vm_events(PGACTIVATE, folio_nr_pages(folio));
		} else {
			folio_set_active(folio);
		}
	}
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
}

/*
 * Move an active evictable folio on the LRU to the head of its inactive
 * list (Linux's folio_deactivate, for MADV_COLD); a folio on no list is
 * left as it is.  Takes lru_lock.
 */
void folio_deactivate(struct folio *folio)
{
	struct lruvec *lruvec = folio_lruvec(folio);
	unsigned long flags;

	spin_lock_irqsave(&lruvec->lru_lock, flags);
	if (folio_test_lru(folio) && folio_test_active(folio) && !folio_test_unevictable(folio)) {
		lruvec_del_folio(lruvec, folio);
		folio_clear_active(folio);
		lruvec_add_folio(lruvec, folio);
		count_vm_events(PGDEACTIVATE, folio_nr_pages(folio));
	}
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
}

/*
 * A use of the folio that no page table's young bit records (read(2),
 * write(2) of a file; Linux's folio_mark_accessed): the first marks it
 * referenced, the second, if it is still inactive, activates it.
 */
void folio_mark_accessed(struct folio *folio)
{
	if (!folio_test_referenced(folio)) {
		folio_set_referenced(folio);
	} else if (!folio_test_active(folio) && !folio_test_unevictable(folio)) {
		folio_activate(folio);
		folio_clear_referenced(folio);
	}
}

/*
 * What reclaiming a kind cost (Linux's lru_note_cost): nr_io pages written
 * or read for it weigh SWAP_CLUSTER_MAX each, nr_rotated pages it had to
 * keep one each.  Both costs halve once they outgrow a quarter of the
 * lists, so old history fades.
 */
void lru_note_cost(struct lruvec *lruvec, bool file, unsigned long nr_io, unsigned long nr_rotated)
{
	unsigned long cost = nr_io * SWAP_CLUSTER_MAX + nr_rotated, lrusize, flags;

	spin_lock_irqsave(&lruvec->lru_lock, flags);
	if (file)
		lruvec->file_cost += cost;
	else
		lruvec->anon_cost += cost;
	lrusize = lruvec->nr_pages[LRU_INACTIVE_ANON] + lruvec->nr_pages[LRU_ACTIVE_ANON] +
		  lruvec->nr_pages[LRU_INACTIVE_FILE] + lruvec->nr_pages[LRU_ACTIVE_FILE];
	if (lruvec->file_cost + lruvec->anon_cost > lrusize / 4) {
		lruvec->file_cost /= 2;
		lruvec->anon_cost /= 2;
	}
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
}

/*
 * The LRU side of a split (Linux's lru_add_split_folio), under lru_lock
 * from before the folio's struct pages are rewritten to after: the head
 * leaves its list here (its lru field is about to be rewritten); returns
 * the list entry it followed, or NULL if it was on no list.
 */
struct list_head *lru_split_begin(struct lruvec *lruvec, struct folio *folio)
{
	struct list_head *prev = folio->lru.prev;

	lockdep_assert_held(&lruvec->lru_lock);
	if (!folio_test_lru(folio))
		return NULL;
	lruvec_del_folio(lruvec, folio);
	return prev;
}

/*
 * After the rewrite: each new folio of order new_order, first to last,
 * takes the head's place on its list (they kept its PG_lru and list
 * flags).  pos: lru_split_begin's answer.
 */
void lru_split_end(struct lruvec *lruvec, struct folio *folio, unsigned long nr,
		   unsigned int new_order, struct list_head *pos)
{
	lockdep_assert_held(&lruvec->lru_lock);
	for (unsigned long i = 0; pos && i < nr; i += 1UL << new_order) {
		struct folio *new = (struct folio *)folio_page(folio, i);

		update_lru_size(lruvec, folio_lru_list(new), folio_nr_pages(new));
		list_add(&new->lru, pos);
		pos = &new->lru;
	}
}
