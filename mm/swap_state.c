/*
 * The swap cache (Linux's mm/swap_state.c): an address_space per swap
 * device whose index is the slot offset, holding the anon folios on their
 * way to or from the disk, or both in memory and on it.
 *
 *   swapper_spaces[type].i_pages:  offset -> folio (a large folio in each
 *                                  of its slots, as the page cache does)
 *   folio: PG_swapcache, folio->swap = its first page's entry,
 *          one reference per page held by the cache
 *
 * A folio enters by pageout (add_to_swap: new slots) or swap-in
 * (swapin_folio: the slot of the faulting entry), and leaves when its
 * data is safe on disk and nothing maps it (pageout), or when no swap
 * entry names its slots any more (folio_free_swap: swap-in, zap).  While
 * in it, a fault on any entry of its slots finds it here instead of
 * reading the disk, so a folio two processes share stays one folio.
 *
 * Locks: a folio enters and leaves under its folio lock and the cache's
 * xa_lock (lookups: RCU, filemap_get_folio).  Order: linux/swap.h.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/gfp.h"
#include "linux/page-flags.h"
#include "linux/pagemap.h"
#include "linux/rmap.h"
#include "linux/swap.h"
#include "linux/swapops.h"
#include "linux/vmstat.h"
#include "linux/printk.h"

static struct address_space swapper_spaces[MAX_SWAPFILES];

/* The swap cache of entry's device (Linux's swap_address_space). */
struct address_space *swap_address_space(swp_entry_t entry)
{
	return &swapper_spaces[swp_type(entry)];
}

/* An empty swap cache for a device being swapped on. */
void swap_cache_init(unsigned int type)
{
	address_space_init_once(&swapper_spaces[type], NULL);
	xa_init(&swapper_spaces[type].i_pages, "swapper_space->i_pages");
}

/* Pages in every device's swap cache (SwapCached). */
unsigned long total_swapcache_pages(void)
{
	return global_node_page_state(NR_SWAPCACHE);
}

/* The folio the swap cache holds for entry, with a reference; NULL if none. */
struct folio *swap_cache_get_folio(swp_entry_t entry)
{
	return filemap_get_folio(swap_address_space(entry), swp_offset(entry));
}

/*
 * The folio in memory for page index of mapping, with a reference, NULL
 * if none (Linux's filemap_get_incore_folio, mincore's question): from
 * the page cache, or for a shmem page in swap from the swap cache.
 */
struct folio *filemap_get_incore_folio(struct address_space *mapping, pgoff_t index)
{
	void *entry = filemap_get_entry(mapping, index);
	struct swap_info_struct *si;
	struct folio *folio;

	if (!xa_is_value(entry))
		return entry;
	si = get_swap_device(radix_to_swp_entry(entry));   /* swapoff waits for us */
	if (!si)
		return NULL;
	folio = swap_cache_get_folio(radix_to_swp_entry(entry));
	put_swap_device(si);
	return folio;
}

/*
 * Put the locked folio in the swap cache at entry's slots, whose
 * SWAP_HAS_CACHE the caller set (Linux's add_to_swap_cache): a reference
 * per page, PG_swapcache, folio->swap.  0 or -ENOMEM.
 */
static int add_to_swap_cache(struct folio *folio, swp_entry_t entry)
{
	struct address_space *as = swap_address_space(entry);
	unsigned long nr = folio_nr_pages(folio), off = swp_offset(entry);
	int err;

	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	VM_WARN_ON_ONCE_FOLIO(folio_test_swapcache(folio), folio);
	folio_ref_add(folio, nr);
	folio->swap = entry;
	folio_set_swapcache(folio);
	xa_lock(&as->i_pages);
	err = xa_store_range(&as->i_pages, off, off + nr - 1, folio);
	if (!err)
		as->nrpages += nr;
	xa_unlock(&as->i_pages);
	if (err) {
		folio_clear_swapcache(folio);
		folio->swap.val = 0;
		folio_put_refs(folio, nr);
		return err;
	}
	mod_node_page_state(NR_SWAPCACHE, nr);
	return 0;
}

/*
 * Take the locked folio out of the swap cache's tree and counters, its
 * PG_swapcache and folio->swap cleared (Linux's __delete_from_swap_cache):
 * the cache's references and the slots' SWAP_HAS_CACHE are the caller's
 * to drop.
 */
void __delete_from_swap_cache(struct folio *folio, swp_entry_t entry)
{
	struct address_space *as = swap_address_space(entry);
	unsigned long nr = folio_nr_pages(folio), off = swp_offset(entry);

	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	VM_WARN_ON_ONCE_FOLIO(!folio_test_swapcache(folio), folio);
	xa_lock(&as->i_pages);
	for (unsigned long i = off; i < off + nr; i++)
		xa_erase(&as->i_pages, i);
	as->nrpages -= nr;
	xa_unlock(&as->i_pages);
	folio_clear_swapcache(folio);
	folio->swap.val = 0;
	mod_node_page_state(NR_SWAPCACHE, -(long)nr);
}

/*
 * Take the locked folio out of the swap cache (Linux's
 * delete_from_swap_cache): its slots lose SWAP_HAS_CACHE (freed if no
 * entry names them), the cache its references.  The caller holds one.
 */
void delete_from_swap_cache(struct folio *folio)
{
	swp_entry_t entry = folio->swap;

	__delete_from_swap_cache(folio, entry);
	put_swap_folio(folio, entry);
	folio_put_refs(folio, folio_nr_pages(folio));
}

/*
 * Give the locked anon folio swap slots and put it in the swap cache,
 * dirty, so pageout writes it (Linux's add_to_swap).  False if no device
 * has the slots (a large folio: the caller splits it and tries again) or
 * memory ran out.
 */
bool add_to_swap(struct folio *folio)
{
	swp_entry_t entry = folio_alloc_swap(folio);

	if (!entry.val)
		return false;
	if (add_to_swap_cache(folio, entry)) {
		put_swap_folio(folio, entry);
		return false;
	}
	folio_set_uptodate(folio);      /* memory holds its data: a fault may map it from the cache */
	folio_set_dirty(folio);
	return true;
}

/*
 * A folio's last mapping went (the mmu_gather's release, Linux's
 * free_swap_cache): if it is in the swap cache and no swap entry needs
 * it, out it goes, so the page is freed with the mapping's reference.
 * Only a trylock: a holder of the lock decides.
 */
void free_swap_cache(struct folio *folio)
{
	if (folio_test_swapcache(folio) && !folio_mapped(folio) && folio_trylock(folio)) {
		folio_free_swap(folio);
		folio_unlock(folio);
	}
}

/*
 * A new folio of 2^order pages in the swap cache for the slots from
 * entry, locked, its data still to be read (Linux's
 * __read_swap_cache_async's allocation): NULL with *err -EEXIST (the
 * cache has, or is getting, a folio for one), -ENOENT (no entry names
 * one) or -ENOMEM.
 */
static struct folio *new_swapcache_folio(swp_entry_t entry, unsigned int order, int *err)
{
	struct folio *folio = folio_alloc(order ? GFP_TRANSHUGE_LIGHT : GFP_HIGHUSER_MOVABLE, order);

	*err = -ENOMEM;
	if (!folio)
		return NULL;
	__folio_set_locked(folio);
	__folio_set_swapbacked(folio);
	*err = swapcache_prepare(entry, 1 << order);
	if (!*err && add_to_swap_cache(folio, entry)) {
		put_swap_folio(folio, entry);
		*err = -ENOMEM;
	}
	if (!*err) {
		folio_add_lru(folio);
		return folio;
	}
	folio_unlock(folio);
	folio_put(folio);
	return NULL;
}

/*
 * The folio for a swap-in of entry, whose device the caller holds
 * (Linux's __read_swap_cache_async and swap_read_folio; Linux reads the
 * neighbouring slots too, swap_cluster_readahead, which foliOS leaves for
 * reclaim: without LRU lists nothing would drop pages read ahead and never
 * used): from the swap cache, or a new order-0 folio added to it and read
 * from disk.
 * Returned with a reference, locked, uptodate unless the read failed
 * (*err = -EIO; the folio stays in the cache, and the next swap-in of it
 * reads again — Linux's stays failed until reclaim drops it); NULL with
 * *err = -ENOMEM, or -ENOENT if the slot is free (the entry was stale).
 * *err is 1 when the disk was read (a major fault).
 */
struct folio *swapin_folio(swp_entry_t entry, int *err)
{
	struct folio *folio;

	for (;;) {
		folio = swap_cache_get_folio(entry);
		if (folio) {
			*err = 0;
			folio_lock(folio);
			if (folio_test_swapcache(folio) &&
			    entry.val - folio->swap.val < (unsigned long)folio_nr_pages(folio)) {
				if (!folio_test_uptodate(folio))        /* an earlier read failed: again */
					*err = swap_read_folio(folio) ? -EIO : 1;
				return folio;
			}
			folio_unlock(folio);            /* it left the cache meanwhile */
			folio_put(folio);
			continue;
		}
		folio = new_swapcache_folio(entry, 0, err);
		if (folio)
			break;
		if (*err != -EEXIST)
			return NULL;
		cond_resched();         /* another swap-in is adding it: look again */
	}
	*err = swap_read_folio(folio) ? -EIO : 1;
	return folio;
}

/*
 * A new large folio of 2^order pages for the slots from entry (aligned to
 * the order), read from disk into the swap cache (Linux 6.10's mTHP
 * swap-in, alloc_swap_folio): returned locked, with a reference; *err 1,
 * or -EIO (not uptodate).  NULL with *err as new_swapcache_folio() says:
 * the caller falls back to order 0.
 */
struct folio *swapin_new_folio(swp_entry_t entry, unsigned int order, int *err)
{
	struct folio *folio = new_swapcache_folio(entry, order, err);

	if (!folio)
		return NULL;
	*err = swap_read_folio(folio) ? -EIO : 1;
	if (*err == 1)
		count_mthp_stat(order, MTHP_STAT_SWPIN);
	return folio;
}

/*
 * A swap write or read of folio is over, err its result (mm/page_io.c's
 * batches, and the host tests' disk): a written folio stays clean, a
 * failed write dirties it again; a read one turns uptodate; the counters.
 */
void swap_folio_io_done(struct folio *folio, int err, bool write)
{
	static atomic_t reported;

	if (err) {
		if (write)
			folio_set_dirty(folio);
		if (atomic_add_return(1, &reported) <= 10)     /* Linux's are ratelimited too */
			pr_warn("%s-error on swap-device (%d:%lu)\n", write ? "Write" : "Read",
				swp_type(folio->swap), swp_offset(folio->swap));
		return;
	}
	if (write) {
		count_vm_events(PSWPOUT, folio_nr_pages(folio));
		if (folio_test_pmd_mappable(folio))
			count_vm_event(THP_SWPOUT);
		count_mthp_stat(folio_order(folio), MTHP_STAT_SWPOUT);
	} else {
		folio_set_uptodate(folio);
		count_vm_events(PSWPIN, folio_nr_pages(folio));
	}
}

/* Read one folio and wait: 0 or -EIO (the folio not uptodate). */
int swap_read_folio(struct folio *folio)
{
	struct swap_iocb sio;

	swap_iocb_init(&sio);
	swap_read_folio_batch(folio, &sio);
	swap_iocb_wait(&sio);
	return folio_test_uptodate(folio) ? 0 : -EIO;
}
