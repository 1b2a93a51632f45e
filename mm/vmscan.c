/*
 * Reclaim of anon folios to swap (Linux's mm/vmscan.c, shrink_folio_list
 * and reclaim_pages): what MADV_PAGEOUT asks for.  foliOS has no LRU lists
 * yet, so nothing reclaims on its own under memory pressure; the folios
 * come from madvise's walk (mm/madvise_pageout.c), each with a reference.
 *
 *   folio ──add_to_swap──> in swap cache, dirty     (no slots: large
 *         ──try_to_unmap─> PTEs are swap entries     folios split, small
 *         ──swap_writepage> clean on disk            ones stay)
 *         ──__remove_mapping> out of the cache, freed
 *
 * Any step that fails keeps the folio (in the swap cache if it got that
 * far, which a later pageout or swapoff finishes): a pinned page stays
 * mapped, a write error leaves it dirty, a reference someone else holds
 * (a GUP, a fault between lookup and lock) keeps it in memory.
 *
 * Locks: the folio lock across the whole of it (trylock: a folio busy
 * elsewhere is skipped, as Linux's); no page-table lock held by the
 * caller (try_to_unmap takes the anon_vma lock and each PTL).
 */
#include "linux/errno.h"
#include "linux/huge_mm.h"
#include "linux/page-flags.h"
#include "linux/rmap.h"
#include "linux/swap.h"
#include "linux/vmstat.h"
#include "mm/deferred_split.h"

/*
 * The locked, unmapped, clean folio in the swap cache leaves it and
 * memory (Linux's __remove_mapping): only if the cache's references and
 * the caller's are the only ones — frozen at that count, so no lookup can
 * take it meanwhile.  True if done (the caller's reference is the last).
 */
static bool __remove_mapping(struct folio *folio)
{
	long nr = folio_nr_pages(folio);
	swp_entry_t entry = folio->swap;

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

static unsigned long shrink_folio(struct folio *folio);

/*
 * A large folio with no room in swap: split it to order 0 and page each
 * piece out (Linux puts them on the folio list).  The pages reclaimed.
 */
static unsigned long shrink_split_folio(struct folio *folio)
{
	unsigned long nr = folio_nr_pages(folio), reclaimed = 0;
	struct folio **rest = kmalloc((nr - 1) * sizeof(*rest));

	count_swpout_fallback(folio);
	if (!rest)
		return 0;
	for (unsigned long i = 0; i < nr - 1; i++)
		rest[i] = NULL;
	if (!split_queued_folio_to_list(folio, 0, rest)) {
		folio_unlock(folio);
		reclaimed += shrink_folio(folio);
		for (unsigned long i = 0; i < nr - 1 && rest[i]; i++) {
			reclaimed += shrink_folio(rest[i]);
			folio_put(rest[i]);
		}
		folio_lock(folio);      /* the caller unlocks it */
	}
	kfree(rest);
	return reclaimed;
}

/*
 * Page out one anon folio the caller holds a reference to (one step of
 * Linux's shrink_folio_list): the pages freed, 0 if it stays.
 */
static unsigned long shrink_folio(struct folio *folio)
{
	unsigned long nr = folio_nr_pages(folio), reclaimed = 0;

	if (!folio_trylock(folio))
		return 0;
	if (!folio_test_anon(folio))
		goto keep;
	if (!folio_test_swapcache(folio) && !add_to_swap(folio)) {
		if (folio_test_large(folio))
			reclaimed = shrink_split_folio(folio);
		goto keep;
	}
	if (folio_mapped(folio)) {
		try_to_unmap(folio);
		if (folio_mapped(folio))
			goto keep;
	}
	if (folio_test_dirty(folio)) {
		if (swap_writepage(folio))
			goto keep;
		if (folio_test_pmd_mappable(folio))
			count_vm_event(THP_SWPOUT);
		count_mthp_stat(folio_order(folio), MTHP_STAT_SWPOUT);
	}
	if (__remove_mapping(folio))
		reclaimed = nr;
	else
		folio_free_swap(folio);         /* zapped meanwhile: no cache without entries */
keep:
	folio_unlock(folio);
	return reclaimed;
}

/*
 * Page out the nr folios of folios, each of which the caller holds a
 * reference to (and keeps: it drops them after).  The pages freed.
 * Process context: may sleep for the disk.
 */
unsigned long reclaim_pages(struct folio **folios, unsigned int nr)
{
	unsigned long reclaimed = 0;

	for (unsigned int i = 0; i < nr; i++)
		reclaimed += shrink_folio(folios[i]);
	return reclaimed;
}
