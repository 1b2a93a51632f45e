/*
 * Reclaim's second half (Linux's mm/vmscan.c, shrink_folio_list and
 * reclaim_pages): what becomes of each folio taken off the LRU, by the
 * scan of mm/vmscan_lru.c (kswapd, direct reclaim) or by MADV_PAGEOUT
 * (mm/madvise_pageout.c).  A folio used since the last look goes back,
 * to the active list if used twice (folio_check_references; MADV_PAGEOUT
 * skips that question); an unevictable one goes to its list; the others:
 *
 *   anon  ──add_to_swap──> in swap cache, dirty     (no slots: large
 *         ──try_to_unmap─> PTEs are swap entries     folios split, small
 *         ──swap_writepage_batch> clean on disk      ones stay)
 *         ──__remove_mapping> out of the cache, freed
 *
 *   shmem ──split to order 0, try_to_unmap──> PTEs none
 *         ──writepage──> swap cache; its page-cache slot holds the swap
 *                        entry (mm/shmem_swap.c); then written and freed
 *                        as an anon folio is
 *   a clean page-cache folio (a file that reads it back) is dropped.
 *
 * The writes of a batch of folios go to the disk together and are waited
 * for once (mm/page_io.c, struct swap_iocb); each folio stays locked
 * from its unmap to its end.
 *
 * Any step that fails keeps the folio (in the swap cache if it got that
 * far, which a later pageout or swapoff finishes): a pinned page stays
 * mapped (and goes to the active list), a write error leaves it dirty, a
 * reference someone else holds (a GUP, a fault between lookup and lock)
 * keeps it in memory.  Every folio comes isolated (off the LRU, the
 * isolation's reference held) and leaves either freed or back on the LRU.
 *
 * Locks: the folio lock across the whole of it (trylock: a folio busy
 * elsewhere is skipped, as Linux's); no page-table lock held by the
 * caller (folio_referenced and try_to_unmap take the anon_vma lock or the
 * i_mmap_rwsem, and each PTL).
 */
#include "linux/errno.h"
#include "linux/huge_mm.h"
#include "linux/pagemap.h"
#include "linux/page-flags.h"
#include "linux/rmap.h"
#include "linux/swap.h"
#include "linux/vmstat.h"
#include "linux/mm_inline.h"
#include "mm/deferred_split.h"
#include "mm/vmscan.h"

/*
 * The locked, unmapped, clean folio leaves its cache and memory (Linux's
 * __remove_mapping): the swap cache (anon and shmem, once written), or
 * the page cache of a file that can read it back.  Only if the cache's
 * references and the caller's are the only ones — frozen at that count,
 * so no lookup can take it meanwhile.  True if done (the caller's
 * reference is the last).
 */
static bool __remove_mapping(struct folio *folio)
{
	long nr = folio_nr_pages(folio);
	swp_entry_t entry = folio->swap;

	if (!folio_test_swapcache(folio))
		return folio->mapping && filemap_remove_folio_frozen(folio, NULL, 1);
	if (!folio_ref_freeze(folio, 1 + nr))
		return false;
	if (folio_test_dirty(folio) || folio_mapped(folio)) {    /* dirtied or mapped again meanwhile */
		folio_ref_unfreeze(folio, 1 + nr);
		return false;
	}
	__delete_from_swap_cache(folio, entry);
	folio_ref_unfreeze(folio, 1);
	put_swap_folio(folio, entry);
	return true;
}

/*
 * Swap-out statistics of a folio pageout gave up on whole (Linux's
 * thp_swpout_fallback events): /proc/vmstat and the mTHP stats.
 */
static void count_swpout_fallback(struct folio *folio)
{
	if (folio_test_pmd_mappable(folio))
		count_vm_event(THP_SWPOUT_FALLBACK);
	count_mthp_stat(folio_order(folio), MTHP_STAT_SWPOUT_FALLBACK);
}

/*
 * The isolated large page-cache folio, locked, split to order 0 (Linux
 * 6.1 splits a large shmem folio before it goes to swap): into all[] the
 * pieces, a reference each — isolated too, as their head was — looked up
 * while the lock on the first keeps the file from being freed.  A piece
 * truncated meanwhile is gone: what the cache holds at its index then is
 * another folio, not ours to reclaim.  The number of pieces, 0 if the
 * split failed.
 */
static unsigned long split_file_folio_pieces(struct folio *folio, struct folio **all)
{
	struct address_space *mapping = folio->mapping;
	unsigned long nr = folio_nr_pages(folio), n = 1;
	pgoff_t index = folio->index;

	if (split_file_folio_to_order(folio, 0))
		return 0;
	all[0] = folio;
	for (unsigned long i = 1; i < nr; i++) {
		struct folio *piece = filemap_get_folio(mapping, index + i);

		if (piece == (struct folio *)folio_page(folio, i) && !folio_test_lru(piece))
			all[n++] = piece;
		else if (piece)
			folio_put(piece);
	}
	return n;
}

/*
 * A large folio to be split before it can go (locked, isolated): an anon
 * one mapped only in part (queued for deferred split: its unmapped pages
 * are freed by the split, Linux's rule since 6.10) or with no room in
 * swap for it whole, or a shmem one.  Split to order 0 and every piece
 * reclaimed (Linux puts them on the folio list); if the split fails it
 * goes back to the active list.  Unlocks it; the pages reclaimed.
 */
static unsigned long shrink_split_folio(struct folio *folio, struct scan_control *sc)
{
	unsigned long nr = folio_nr_pages(folio), n = 0, reclaimed = 0;
	struct folio **all = kzalloc(nr * sizeof(*all));

	if (folio_test_anon(folio) && !folio_test_partially_mapped(folio))
		count_swpout_fallback(folio);
	if (all && folio_test_anon(folio) && !split_queued_folio_to_list(folio, 0, all + 1)) {
		all[0] = folio;
		n = nr;
	} else if (all && !folio_test_anon(folio)) {
		n = split_file_folio_pieces(folio, all);
	}
	folio_unlock(folio);
	if (n) {
		unsigned long m = 0;

		for (unsigned long i = 0; i < n; i++) {
			if (folio_test_anon(all[i]) && !folio_mapped(all[i]) && !folio_test_swapcache(all[i]))
				folio_put(all[i]);      /* a piece nothing maps: ours was its last reference */
			else
				all[m++] = all[i];
		}
		reclaimed = n - m + shrink_folio_list(all, m, sc);
	} else {
		folio_set_active(folio);
		folio_putback_lru(folio);
	}
	kfree(all);
	return reclaimed;
}

enum pageout_step {
	PAGEOUT_KEEP,           /* it stays in memory */
	PAGEOUT_ACTIVATE,       /* ... and on the active list: it cannot go now */
	PAGEOUT_SPLIT,          /* large, and no slots for it whole */
	PAGEOUT_WRITE,          /* unmapped, dirty: to the disk */
	PAGEOUT_FREE,           /* unmapped, clean: its data is on the disk */
};

/*
 * The first steps of Linux's shrink_folio_list for one locked page-cache
 * folio: a shmem one split to order 0 first; out of every page table
 * (try_to_unmap); a shmem or dirty one handed to its file's writepage
 * (shmem's moves it into the swap cache), a clean one of a file dropped.
 * Linux drops a clean shmem folio too (a page only ever read: zeros, a
 * hole again) and gives its block back later; foliOS writes it, so the
 * file's blocks never change behind its back.
 */
static enum pageout_step shrink_file_folio_unmap(struct folio *folio)
{
	struct address_space *mapping = folio->mapping;

	if (!mapping)
		return PAGEOUT_KEEP;            /* truncated meanwhile */
	if (folio_test_swapbacked(folio) && atomic_long_read(&nr_swap_pages) <= 0)
		return PAGEOUT_KEEP;            /* no swap: don't unmap or split it for nothing */
	if (folio_test_swapbacked(folio) && folio_test_large(folio))
		return PAGEOUT_SPLIT;
	if (folio_mapped(folio)) {
		try_to_unmap(folio);
		if (folio_mapped(folio))
			return PAGEOUT_ACTIVATE;
	}
	if (!folio_test_dirty(folio) && !folio_test_swapbacked(folio))
		return PAGEOUT_FREE;
	if (!mapping->a_ops || !mapping->a_ops->writepage || mapping->a_ops->writepage(folio))
		return PAGEOUT_KEEP;
	return PAGEOUT_WRITE;
}

/*
 * The first steps of Linux's shrink_folio_list for one locked anon
 * folio: a large one mapped only in part split first; into the swap
 * cache (add_to_swap), out of every page table (try_to_unmap).  What to
 * do with it next.
 */
static enum pageout_step shrink_folio_unmap(struct folio *folio)
{
	if (!folio_test_anon(folio) && !(folio_test_swapcache(folio) && !folio->mapping))
		return shrink_file_folio_unmap(folio);  /* (a shmem page already moved to swap goes on) */
	if (folio_test_large(folio) && folio_test_partially_mapped(folio))
		return PAGEOUT_SPLIT;
	if (!folio_test_swapcache(folio) && !add_to_swap(folio))
		return folio_test_large(folio) ? PAGEOUT_SPLIT : PAGEOUT_ACTIVATE;
	if (folio_mapped(folio)) {
		try_to_unmap(folio);
		if (folio_mapped(folio))
			return PAGEOUT_ACTIVATE;
	}
	return folio_test_dirty(folio) ? PAGEOUT_WRITE : PAGEOUT_FREE;
}

/*
 * The last step: a clean, unmapped folio leaves the swap cache and
 * memory, if nobody else holds it; one that stays is dropped from the
 * cache if no entry needs it any more (zapped meanwhile) and goes back
 * to the LRU.  Unlocks it; the pages freed.
 */
static unsigned long shrink_folio_finish(struct folio *folio)
{
	long nr = folio_nr_pages(folio);

	if (!folio_test_dirty(folio) && __remove_mapping(folio)) {
		folio_unlock(folio);
		folio_put(folio);               /* the isolation's reference, the last */
		return nr;
	}
	folio_free_swap(folio);
	folio_unlock(folio);
	folio_putback_lru(folio);
	return 0;
}

/* The batch's writes are done: finish each of its folios.  The pages freed. */
static unsigned long shrink_written(struct swap_iocb *sio, struct scan_control *sc)
{
	unsigned long reclaimed = 0;

	swap_iocb_wait(sio);
	for (unsigned int i = 0; i < sio->nr; i++) {
		sc->nr_io += folio_nr_pages(sio->io[i].folio);
		reclaimed += shrink_folio_finish(sio->io[i].folio);
	}
	swap_iocb_init(sio);
	return reclaimed;
}

enum folio_references {
	FOLIOREF_RECLAIM,
	FOLIOREF_KEEP,                  /* used once lately: another round on the inactive list */
	FOLIOREF_ACTIVATE,              /* used twice, by two VMAs, or code: to the active list */
};

/*
 * Was the locked folio used since reclaim last looked (Linux's
 * folio_check_references)?  Every mapped folio starts with a young
 * mapping from its fault, so one use only earns another round on the
 * inactive list (PG_referenced set); the second, or a use through two
 * VMAs, or through an executable mapping of a file, activates it.  A
 * folio in a locked VMA stays.
 */
static enum folio_references folio_check_references(struct folio *folio)
{
	unsigned long vm_flags;
	int referenced_ptes = folio_referenced(folio, true, &vm_flags);
	bool referenced_folio = folio_test_clear_referenced(folio);

	if (vm_flags & VM_LOCKED)
		return FOLIOREF_ACTIVATE;
	if (!referenced_ptes)
		return FOLIOREF_RECLAIM;
	folio_set_referenced(folio);
	if (referenced_folio || referenced_ptes > 1)
		return FOLIOREF_ACTIVATE;
	if ((vm_flags & VM_EXEC) && folio_is_file_lru(folio))
		return FOLIOREF_ACTIVATE;
	return FOLIOREF_KEEP;
}

/*
 * Before pageout, for one locked folio: is it to stay (Linux's checks at
 * the head of shrink_folio_list)?  An unevictable one (mlocked, or of a
 * file that keeps its pages) goes to its list, a used one back (KEEP)
 * or to the active list (ACTIVATE).  PAGEOUT_WRITE means go on.
 */
static enum pageout_step shrink_folio_check(struct folio *folio, struct scan_control *sc)
{
	if (!folio_evictable(folio))
		return PAGEOUT_KEEP;
	if (sc->ignore_references)
		return PAGEOUT_WRITE;
	switch (folio_check_references(folio)) {
	case FOLIOREF_ACTIVATE:
		return PAGEOUT_ACTIVATE;
	case FOLIOREF_KEEP:
		return PAGEOUT_KEEP;
	default:
		return PAGEOUT_WRITE;
	}
}

/* The locked folio stays: unlocked, back on its list (the active one if asked). */
static void shrink_keep(struct folio *folio, bool activate, struct scan_control *sc)
{
	if (activate && folio_evictable(folio)) {
		folio_set_active(folio);
		sc->nr_activate[folio_is_file_lru(folio)] += folio_nr_pages(folio);
		count_vm_events(PGACTIVATE, folio_nr_pages(folio));
	}
	folio_unlock(folio);
	folio_putback_lru(folio);
}

/*
 * Reclaim the nr isolated folios of folios (Linux's shrink_folio_list):
 * each is freed or goes back to the LRU — a folio locked elsewhere too,
 * as Linux's trylock leaves it.  The writes go out together (swap_iocb)
 * and are waited for once per batch.  sc gathers what became of them.
 * The pages freed.  Process context: may sleep for the disk.
 */
unsigned long shrink_folio_list(struct folio **folios, unsigned int nr, struct scan_control *sc)
{
	struct swap_iocb *sio = kmalloc(sizeof(*sio));
	unsigned long reclaimed = 0;
	unsigned int i = 0;

	if (!sio)
		goto putback;
	swap_iocb_init(sio);
	for (; i < nr; i++) {
		struct folio *folio = folios[i];
		enum pageout_step step;

		if (!folio_trylock(folio)) {
			folio_putback_lru(folio);
			continue;
		}
		step = shrink_folio_check(folio, sc);
		if (step == PAGEOUT_WRITE)
			step = shrink_folio_unmap(folio);
		switch (step) {
		case PAGEOUT_KEEP:
		case PAGEOUT_ACTIVATE:
			shrink_keep(folio, step == PAGEOUT_ACTIVATE, sc);
			break;
		case PAGEOUT_SPLIT:
			reclaimed += shrink_split_folio(folio, sc);
			break;
		case PAGEOUT_FREE:
			reclaimed += shrink_folio_finish(folio);
			break;
		case PAGEOUT_WRITE:
			if (!swap_writepage_batch(folio, sio)) {
				reclaimed += shrink_written(sio, sc);
				swap_writepage_batch(folio, sio);
			}
			break;
		}
	}
	reclaimed += shrink_written(sio, sc);
	kfree(sio);
putback:
	for (; i < nr; i++)
		folio_putback_lru(folios[i]);
	return reclaimed;
}

/*
 * Page out the nr folios MADV_PAGEOUT isolated, used or not (Linux's
 * reclaim_pages): each is freed or goes back to the LRU.  The pages freed.
 */
unsigned long reclaim_pages(struct folio **folios, unsigned int nr)
{
	struct scan_control sc = { .ignore_references = true };

	return shrink_folio_list(folios, nr, &sc);
}
