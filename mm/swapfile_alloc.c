/*
 * Swap slots and their counts (the allocating and counting half of
 * Linux's mm/swapfile.c; swapon and swapoff are mm/swapfile.c).
 *
 * Each slot of a device has a byte in swap_map (linux/swap.h): the swap
 * entries naming it, and SWAP_HAS_CACHE while the swap cache holds its
 * page.  A slot leaves the free pool when pageout takes it for the swap
 * cache (folio_alloc_swap) and comes back when its byte falls to 0: the
 * last entry gone (swap-in, zap) and the cache's folio gone
 * (put_swap_folio).
 *
 * A large folio gets 2^order consecutive slots, aligned as the folio is
 * (Linux's cluster allocator gives a THP a whole 512-slot cluster and an
 * mTHP a slice of a cluster kept for its order; foliOS searches the map
 * for an aligned free run, from where the last search ended).  When no
 * run is free, pageout splits the folio (thp_swpout_fallback).
 *
 * Devices are tried from the highest priority down (Linux's also rotate
 * among devices of equal priority; foliOS takes the first).
 *
 * Locks: si->lock guards swap_map, swap_cont and inuse_pages; swap_lock
 * (mm/swapfile.c) is taken around it to pick a device; a PTE lock may be
 * held around both.  swap_mmlist_lock guards swap_mmlist.  Order: see
 * linux/swap.h and mm/rmap.c.
 */
#include "linux/errno.h"
#include "linux/mm.h"
#include "linux/page-flags.h"
#include "linux/pagemap.h"
#include "linux/rmap.h"
#include "linux/swap.h"
#include "linux/xarray.h"
#include "linux/string.h"
#include "linux/wait.h"

spinlock_t swap_lock = SPINLOCK_INIT("swap_lock");
struct swap_info_struct swap_info[MAX_SWAPFILES];
long total_swap_pages;
atomic_long_t nr_swap_pages;

/* The mms that had swap entries (Linux's init_mm.mmlist): swapoff's walk. */
LIST_HEAD(swap_mmlist);
spinlock_t swap_mmlist_lock = SPINLOCK_INIT("swap_mmlist_lock");

/*
 * Take a reference on entry's device against swapoff (Linux's
 * get_swap_device): the device, or NULL if entry names none that is
 * swapped on (a stale entry read without the PTE lock; the caller
 * retries).  put_swap_device() gives it back.
 */
struct swap_info_struct *get_swap_device(swp_entry_t entry)
{
	struct swap_info_struct *si;

	if (swp_type(entry) >= MAX_SWAPFILES)
		return NULL;
	si = swp_swap_info(entry);
	atomic_inc(&si->users);
	smp_mb();       /* users up before flags read: swapoff clears SWP_VALID, then reads users */
	if (!(READ_ONCE(si->flags) & SWP_VALID) || swp_offset(entry) >= READ_ONCE(si->max)) {
		put_swap_device(si);
		return NULL;
	}
	return si;
}

void put_swap_device(struct swap_info_struct *si)
{
	if (atomic_dec_and_test(&si->users) && !(READ_ONCE(si->flags) & SWP_VALID))
		wake_up_var(&si->users);        /* swapoff waits for the last */
}

/* The count of swap entries naming slot off: its byte's and swap_cont's.  si->lock held. */
static unsigned long swap_count(struct swap_info_struct *si, unsigned long off)
{
	unsigned char c = si->swap_map[off];
	unsigned long n = c & ~(SWAP_HAS_CACHE | COUNT_CONTINUED);

	lockdep_assert_held(&si->lock);
	if (c & COUNT_CONTINUED)
		n += (unsigned long)xa_load(&si->swap_cont, off) >> 2;
	return n;
}

/* Slot off became free (its byte 0): back to the pool.  si->lock held. */
static void swap_slot_free(struct swap_info_struct *si, unsigned long off)
{
	si->inuse_pages--;
	atomic_long_add(1, &nr_swap_pages);
}

/*
 * Add delta (+1 or -1) to slot off's count: in its byte up to
 * SWAP_MAP_MAX, beyond that in swap_cont.  0, or -ENOMEM (no xarray node
 * for a count past SWAP_MAP_MAX: nothing changed).  si->lock held.
 */
static int swap_count_add(struct swap_info_struct *si, unsigned long off, int delta)
{
	unsigned char *c = &si->swap_map[off];
	unsigned long rest = 0;
	int err = 0;

	if (*c & COUNT_CONTINUED)
		rest = (unsigned long)xa_load(&si->swap_cont, off) >> 2;
	if (delta > 0 && (*c & SWAP_MAP_BAD) < SWAP_MAP_MAX) {
		(*c)++;
		return 0;
	}
	if (delta < 0 && !rest) {
		if (WARN_ON_ONCE(!(*c & SWAP_MAP_BAD), "swap_count_add: a swap count below 0"))
			return 0;
		(*c)--;
		if (!*c)
			swap_slot_free(si, off);
		return 0;
	}
	rest += delta;
	xa_lock(&si->swap_cont);
	if (rest)
		err = xa_store(&si->swap_cont, off, (void *)(rest << 2));
	else
		xa_erase(&si->swap_cont, off);
	xa_unlock(&si->swap_cont);
	if (!err)
		*c = rest ? *c | COUNT_CONTINUED : *c & ~COUNT_CONTINUED;
	return err;
}

/*
 * Where nr free slots start, aligned to nr, searching from cluster_next
 * round the map once; 0 if nowhere (slot 0, the header, is never free).
 * si->lock held.
 */
static unsigned long scan_swap_map_slots(struct swap_info_struct *si, unsigned long nr)
{
	unsigned long start = ALIGN_DOWN(si->cluster_next, nr), off;

	lockdep_assert_held(&si->lock);
	if (start + nr > si->max)
		start = 0;              /* the last search ended at the end: wrap first */
	off = start;
	do {
		unsigned long i = 0;

		while (i < nr && !si->swap_map[off + i])
			i++;
		if (i == nr)
			return off;
		off += nr;
		if (off + nr > si->max)
			off = 0;
	} while (off != start);
	return 0;
}

/* nr slots from the device of the highest priority that has them: the first's entry, or 0. */
static swp_entry_t get_swap_pages(unsigned long nr)
{
	bool tried[MAX_SWAPFILES] = { false };
	swp_entry_t entry = { 0 };

	spin_lock(&swap_lock);
	for (;;) {
		struct swap_info_struct *si = NULL;
		unsigned long off;

		for (int type = 0; type < MAX_SWAPFILES; type++)
			if ((swap_info[type].flags & SWP_WRITEOK) && !tried[type] &&
			    (!si || swap_info[type].prio > si->prio))
				si = &swap_info[type];
		if (!si)
			break;
		tried[si->type] = true;
		spin_lock(&si->lock);
		off = si->pages - si->inuse_pages >= nr ? scan_swap_map_slots(si, nr) : 0;
		if (off) {
			memset(si->swap_map + off, SWAP_HAS_CACHE, nr);
			si->inuse_pages += nr;
			si->cluster_next = off + nr;
			atomic_long_add(-(long)nr, &nr_swap_pages);
			entry = swp_entry(si->type, off);
		}
		spin_unlock(&si->lock);
		if (off)
			break;
	}
	spin_unlock(&swap_lock);
	return entry;
}

/*
 * Slots for every page of the locked folio, SWAP_HAS_CACHE set (Linux's
 * folio_alloc_swap): the first one's entry, or entry.val 0 when no device
 * has 2^order aligned free slots.
 */
swp_entry_t folio_alloc_swap(struct folio *folio)
{
	unsigned long nr = folio_nr_pages(folio);

	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	if (atomic_long_read(&nr_swap_pages) < (long)nr)
		return (swp_entry_t){ 0 };
	return get_swap_pages(nr);
}

/*
 * Claim the nr slots from entry for a folio about to be read into the
 * swap cache (Linux's swapcache_prepare): all or none.  0, -EEXIST if the
 * cache has (or is getting) a folio for one — look again —, -ENOENT if
 * one is free now (its entry went: a stale PTE).  The caller holds the
 * device (get_swap_device).
 */
int swapcache_prepare(swp_entry_t entry, int nr)
{
	struct swap_info_struct *si = swp_swap_info(entry);
	unsigned long off = swp_offset(entry);
	int err = 0;

	spin_lock(&si->lock);
	for (unsigned long i = off; i < off + nr && !err; i++) {
		if (si->swap_map[i] & SWAP_HAS_CACHE)
			err = -EEXIST;
		else if (!swap_count(si, i) || si->swap_map[i] == SWAP_MAP_BAD)
			err = -ENOENT;  /* free, or never to be used (SWAP_MAP_BAD) */
	}
	for (unsigned long i = off; i < off + nr && !err; i++)
		si->swap_map[i] |= SWAP_HAS_CACHE;
	spin_unlock(&si->lock);
	return err;
}

/*
 * The swap cache let go of folio's slots from entry on (Linux's
 * put_swap_folio): SWAP_HAS_CACHE cleared, slots no entry names freed.
 */
void put_swap_folio(struct folio *folio, swp_entry_t entry)
{
	struct swap_info_struct *si = swp_swap_info(entry);
	unsigned long off = swp_offset(entry), nr = folio_nr_pages(folio);

	spin_lock(&si->lock);
	for (unsigned long i = off; i < off + nr; i++) {
		VM_WARN_ON_ONCE(!(si->swap_map[i] & SWAP_HAS_CACHE), "put_swap_folio: a slot not cached");
		si->swap_map[i] &= ~SWAP_HAS_CACHE;
		if (!si->swap_map[i])
			swap_slot_free(si, i);
	}
	spin_unlock(&si->lock);
}

/*
 * nr more swap entries name the slots from entry on, one each (fork's
 * copy, unmap's new entries; Linux's swap_duplicate): 0, or -ENOMEM (a
 * count past SWAP_MAP_MAX got no room; the slots before it were counted:
 * the caller undoes them with swap_free_nr).  The slots are in use.
 */
int swap_duplicate_nr(swp_entry_t entry, int nr)
{
	struct swap_info_struct *si = swp_swap_info(entry);
	unsigned long off = swp_offset(entry);
	int i, err = 0;

	spin_lock(&si->lock);
	for (i = 0; i < nr && !err; i++) {
		VM_WARN_ON_ONCE(!si->swap_map[off + i], "swap_duplicate: a free slot");
		err = swap_count_add(si, off + i, 1);
	}
	spin_unlock(&si->lock);
	if (err && i > 1)
		swap_free_nr(entry, i - 1);
	return err;
}

/* One swap entry fewer names each of the nr slots from entry (Linux's swap_free_nr). */
void swap_free_nr(swp_entry_t entry, int nr)
{
	struct swap_info_struct *si = swp_swap_info(entry);
	unsigned long off = swp_offset(entry);

	spin_lock(&si->lock);
	for (int i = 0; i < nr; i++)
		swap_count_add(si, off + i, -1);
	spin_unlock(&si->lock);
}

/*
 * nr swap entries from entry left a page table (zap; Linux's
 * free_swap_and_cache_nr): their counts fall, and a slot only the swap
 * cache still holds gets its folio dropped from the cache if nothing
 * maps it and nobody holds its lock (else reclaim or swapoff drops it
 * later).  May be called under a PTE lock.
 */
void free_swap_and_cache_nr(swp_entry_t entry, int nr)
{
	struct swap_info_struct *si = get_swap_device(entry);
	unsigned long off = swp_offset(entry);
	bool cached = false;

	if (WARN_ON_ONCE(!si, "free_swap_and_cache: an entry of no swap device"))
		return;
	spin_lock(&si->lock);
	for (int i = 0; i < nr; i++) {
		swap_count_add(si, off + i, -1);
		cached |= si->swap_map[off + i] == SWAP_HAS_CACHE;
	}
	spin_unlock(&si->lock);
	for (int i = 0; cached && i < nr; i++) {
		struct folio *folio = swap_cache_get_folio(swp_entry_add(entry, i));

		if (!folio)
			continue;
		if (!folio_mapped(folio) && folio_trylock(folio)) {
			folio_free_swap(folio);
			folio_unlock(folio);
		}
		folio_put(folio);
	}
	put_swap_device(si);
}

/* How many swap entries name entry's slot (Linux's swp_swapcount); 0 if none. */
int swp_swapcount(swp_entry_t entry)
{
	struct swap_info_struct *si = get_swap_device(entry);
	int n;

	if (!si)
		return 0;
	spin_lock(&si->lock);
	n = swap_count(si, swp_offset(entry));
	spin_unlock(&si->lock);
	put_swap_device(si);
	return n;
}

/* Does a swap entry still name one of the slots of the folio in the swap cache? */
bool folio_swapped(struct folio *folio)
{
	struct swap_info_struct *si = swp_swap_info(folio->swap);
	unsigned long off = swp_offset(folio->swap), nr = folio_nr_pages(folio);
	bool swapped = false;

	spin_lock(&si->lock);
	for (unsigned long i = off; i < off + nr && !swapped; i++)
		swapped = si->swap_map[i] & ~SWAP_HAS_CACHE;
	spin_unlock(&si->lock);
	return swapped;
}

/*
 * Drop the locked folio from the swap cache if no swap entry names its
 * slots any more (Linux's folio_free_swap): the slots go back, the folio
 * turns dirty (memory is its only copy now).  True if it was dropped.
 */
bool folio_free_swap(struct folio *folio)
{
	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	if (!folio_test_swapcache(folio) || folio_swapped(folio))
		return false;
	delete_from_swap_cache(folio);
	folio_set_dirty(folio);
	return true;
}

/* More than half the swap space in use (Linux's vm_swap_full): swap-in frees slots eagerly. */
bool vm_swap_full(void)
{
	return atomic_long_read(&nr_swap_pages) * 2 < READ_ONCE(total_swap_pages);
}

/* mm has swap entries now (the first unmap or fork that gives it one): on swapoff's list. */
void swap_mmlist_add(struct mm_struct *mm)
{
	if (!list_empty(&mm->mmlist))
		return;
	spin_lock(&swap_mmlist_lock);
	if (list_empty(&mm->mmlist))
		list_add_tail(&mm->mmlist, &swap_mmlist);
	spin_unlock(&swap_mmlist_lock);
}

/* mm's mappings are gone (mmput): off the list. */
void swap_mmlist_del(struct mm_struct *mm)
{
	if (list_empty(&mm->mmlist))
		return;
	spin_lock(&swap_mmlist_lock);
	list_del_init(&mm->mmlist);
	spin_unlock(&swap_mmlist_lock);
}
