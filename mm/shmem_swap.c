/*
 * shmem to swap and back (Linux's shmem_writepage, shmem_swapin_folio and
 * shmem_unuse in mm/shmem.c): how a tmpfs file, a memfd or MAP_SHARED
 * anonymous memory can be larger than RAM.
 *
 *   a shmem file's page cache              the swap device
 *   [0] folio   [1] value (swap 0:0x12) ---> slot 0x12, count 1: the value's
 *
 * Reclaim (mm/vmscan.c) splits a large shmem folio first (Linux 6.1's
 * rule for shmem, so every value entry names one page), unmaps it from
 * every mm, then calls shmem_writepage: the folio gets a slot and enters
 * the swap cache, then leaves the page cache, whose slot keeps the swap
 * entry instead (a value entry: xa_mk_value, bit 0 set); reclaim writes
 * it out and frees it.  A lookup that finds the value — a fault, read(2),
 * write(2), all through shmem_get_folio — swaps the page in: the folio,
 * from the swap cache or read from disk, goes back into the page cache in
 * the value's place and the slot is freed.  Truncation frees the slots of
 * the values it removes (shmem_free_swap); swapoff brings every
 * value back (shmem_unuse).
 *
 *   info->alloced   pages the file allocated, cached or swapped
 *   info->swapped   of them, in swap        nrpages = alloced - swapped
 *
 * Locks: the folio lock across each move; info->lock, then the page
 * cache's xa_lock, around the slot's change together with swapped, so
 * shmem_recalc_inode never takes a page moving between the two for one
 * truncated; shmem_swaplist_lock (a spinlock, innermost) for the list of
 * inodes that swapped, which swapoff walks holding a reference on each
 * inode (igrab).  A value entry holds its slot's count of 1: whoever takes
 * the value out of the page cache (swap-in, truncation) drops it.
 */
#include "linux/errno.h"
#include "linux/pagemap.h"
#include "linux/shmem_fs.h"
#include "linux/swap.h"
#include "linux/swapops.h"
#include "linux/page-flags.h"
#include "linux/sched.h"
#include "linux/mm.h"
#include "linux/rmap.h"

static LIST_HEAD(shmem_swaplist);
static spinlock_t shmem_swaplist_lock = SPINLOCK_INIT("shmem_swaplist_lock");

/* inode has swapped: swapoff must look at it (Linux's shmem_swaplist). */
static void shmem_swaplist_add(struct inode *inode)
{
	struct shmem_inode_info *info = SHMEM_I(inode);

	if (!list_empty(&info->swaplist))       /* once on it, it stays until evicted */
		return;
	spin_lock(&shmem_swaplist_lock);
	if (list_empty(&info->swaplist))
		list_add_tail(&info->swaplist, &shmem_swaplist);
	spin_unlock(&shmem_swaplist_lock);
}

/* The inode is being freed (its swap already freed by its truncation). */
void shmem_swaplist_del(struct inode *inode)
{
	struct shmem_inode_info *info = SHMEM_I(inode);

	spin_lock(&shmem_swaplist_lock);
	list_del_init(&info->swaplist);
	spin_unlock(&shmem_swaplist_lock);
}

/*
 * The locked, unmapped order-0 shmem folio, which the caller holds a
 * reference to, goes to swap (Linux's shmem_writepage): a slot, the swap
 * cache, and its page-cache slot holds the swap entry from now on.  0, and
 * the caller writes it out; -ENOMEM (no slot) or -EAGAIN (someone else
 * holds a reference: a read(2), write(2) or GUP at work), and it stays.
 */
static int shmem_writepage(struct folio *folio)
{
	struct inode *inode = ((struct address_space *)folio->mapping)->host;
	struct shmem_inode_info *info = SHMEM_I(inode);
	swp_entry_t entry;
	bool moved;

	VM_WARN_ON_ONCE_FOLIO(folio_test_large(folio) || folio_mapped(folio), folio);
	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	/*
	 * add_to_swap marks it uptodate: a folio fallocate reserved, never
	 * written, holds zeros (allocated so) and goes as a page of zeros,
	 * as Linux's, so the reservation survives.
	 */
	if (!add_to_swap(folio))
		return -ENOMEM;
	entry = folio->swap;
	swap_duplicate_nr(entry, 1);            /* the value entry's count: 0 -> 1 */
	shmem_swaplist_add(inode);
	spin_lock(&info->lock);
	/* the caller's reference and the swap cache's stay; the page cache's go */
	moved = filemap_remove_folio_frozen(folio, swp_to_radix_entry(entry), 2);
	if (moved)
		info->swapped++;
	spin_unlock(&info->lock);
	if (moved)
		return 0;
	swap_free_nr(entry, 1);
	delete_from_swap_cache(folio);
	return -EAGAIN;
}

const struct address_space_operations shmem_aops = {
	.writepage = shmem_writepage,
};

/*
 * Does the page cache still hold radswap at index (Linux's
 * shmem_confirm_swap)?  While it does, the value's count keeps the slot
 * from being freed and given to another folio.
 */
static bool shmem_confirm_swap(struct address_space *mapping, pgoff_t index, void *radswap)
{
	bool same;

	rcu_read_lock();
	same = xa_load(&mapping->i_pages, index) == radswap;
	rcu_read_unlock();
	return same;
}

/*
 * The locked folio a swap-in read for radswap goes back into the page
 * cache at index, in the value's place (Linux's shmem_swapin_folio after
 * the read): out of the swap cache, its slot freed.  0, or -EEXIST (the
 * value went meanwhile: truncated, or another swap-in was first) or
 * -ENOMEM.
 */
static int shmem_swapin_add(struct inode *inode, pgoff_t index, void *radswap,
			    struct folio *folio)
{
	struct shmem_inode_info *info = SHMEM_I(inode);
	swp_entry_t entry = radix_to_swp_entry(radswap);
	int err;

	if (!folio_test_swapcache(folio) || folio->swap.val != entry.val ||
	    !shmem_confirm_swap(inode->i_mapping, index, radswap))
		return -EEXIST;                 /* else the slot may be someone else's by now */
	folio_set_swapbacked(folio);            /* a folio read from disk is new */
	spin_lock(&info->lock);
	err = __filemap_add_folio(inode->i_mapping, folio, index, radswap);
	if (!err)
		info->swapped--;
	spin_unlock(&info->lock);
	if (err)
		return err;
	folio_mark_dirty(folio);                /* memory holds the only copy once the slot goes */
	delete_from_swap_cache(folio);
	swap_free_nr(entry, 1);                 /* the value's count: the slot is free */
	return 0;
}

/*
 * Swap in the page whose swap entry radswap the page cache holds at index
 * (Linux's shmem_swapin_folio): *foliop gets the folio, back in the page
 * cache, with a reference, unlocked.  0, -EEXIST (the value changed
 * meanwhile: the caller looks again), -EIO (the read failed: the page
 * stays in swap, and the next swap-in reads again), -EINVAL (no device:
 * swapoff is over) or -ENOMEM.
 */
int shmem_swapin_folio(struct inode *inode, pgoff_t index, void *radswap, struct folio **foliop)
{
	swp_entry_t entry = radix_to_swp_entry(radswap);
	struct swap_info_struct *si = get_swap_device(entry);
	struct folio *folio;
	int err;

	*foliop = NULL;
	if (!si)
		return shmem_confirm_swap(inode->i_mapping, index, radswap) ? -EINVAL : -EEXIST;
	folio = swapin_folio(entry, &err);
	if (!folio) {
		err = err == -ENOENT ? -EEXIST : err;   /* the slot was freed: so was the value */
		goto out;
	}
	if (err >= 0)
		err = shmem_swapin_add(inode, index, radswap, folio);
	if (err) {
		if (folio_test_swapcache(folio))
			folio_free_swap(folio);         /* no value names it now: don't strand it */
		folio_unlock(folio);
		folio_put(folio);
		goto out;
	}
	folio_unlock(folio);
	*foliop = folio;
out:
	put_swap_device(si);
	return err;
}

#define SHMEM_SCAN_BATCH        512     /* slots looked at in one RCU section */

/*
 * The first value entry at an index of [*index, end], *index set to it.
 * NULL if there is none in the part looked at: *index is then where to go
 * on, or *done is set.  At most SHMEM_SCAN_BATCH slots are looked at,
 * under rcu_read_lock(), so the caller may cond_resched() in between; a
 * folio met on the way is passed a page at a time (under RCU its size
 * may change).
 */
static void *shmem_find_swap(struct address_space *mapping, pgoff_t *index, pgoff_t end,
			     bool *done)
{
	void *entry = NULL;

	*done = false;
	rcu_read_lock();
	for (int n = 0; n < SHMEM_SCAN_BATCH; n++) {
		entry = xa_find(&mapping->i_pages, index, end);
		if (!entry || *index == end)
			*done = !entry || !xa_is_value(entry);
		if (!entry || xa_is_value(entry) || *done)
			break;
		++*index;
	}
	rcu_read_unlock();
	return xa_is_value(entry) ? entry : NULL;
}

/*
 * Truncation's step for one value entry (Linux's shmem_free_swap): out of
 * the page cache if it is still radswap at index, then its slot's count
 * dropped.  A folio the swap cache still holds for the slot (a pageout's,
 * or a swap-in's that lost to this truncation) is dropped too, waiting
 * for its lock: with no LRU nothing else would ever free it.  False if
 * the entry changed meanwhile (the caller looks again).  May sleep.
 */
bool shmem_free_swap(struct inode *inode, pgoff_t index, void *radswap)
{
	struct address_space *mapping = inode->i_mapping;
	struct shmem_inode_info *info = SHMEM_I(inode);
	swp_entry_t entry = radix_to_swp_entry(radswap);
	struct swap_info_struct *si;
	struct folio *folio;
	bool erased;

	spin_lock(&info->lock);
	xa_lock(&mapping->i_pages);
	erased = xa_load(&mapping->i_pages, index) == radswap;
	if (erased) {
		xa_erase(&mapping->i_pages, index);
		info->swapped--;
	}
	xa_unlock(&mapping->i_pages);
	spin_unlock(&info->lock);
	if (!erased)
		return false;
	si = get_swap_device(entry);    /* a slot in use: swapoff cannot be over, si is set */
	if (WARN_ON_ONCE(!si, "shmem_free_swap: a value entry of no swap device"))
		return true;
	/* looked up while the count keeps the slot ours: after, it may be another's */
	folio = swap_cache_get_folio(entry);
	swap_free_nr(entry, 1);
	if (folio) {
		folio_lock(folio);
		if (folio_test_swapcache(folio) && folio->swap.val == entry.val)
			folio_free_swap(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
	put_swap_device(si);
	return true;
}

/*
 * The bytes of the shmem file vma maps that are in swap, in vma's range of
 * it (Linux's shmem_swap_usage, for smaps' Swap: line): the file's count
 * if vma maps all of it, else its value entries counted.
 */
unsigned long shmem_swap_usage(struct vm_area_struct *vma)
{
	struct inode *inode = file_inode(vma->vm_file);
	unsigned long swapped = READ_ONCE(SHMEM_I(inode)->swapped), n = 0;
	pgoff_t index = vma->vm_pgoff, end = linear_page_index(vma, vma->vm_end - 1);

	if (!swapped)
		return 0;
	if (!index && (loff_t)(vma->vm_end - vma->vm_start) >= i_size_read(inode))
		return swapped << PAGE_SHIFT;
	for (bool done = false; !done; cond_resched())
		if (shmem_find_swap(inode->i_mapping, &index, end, &done)) {
			n++;
			done = index++ == end;
		}
	return n << PAGE_SHIFT;
}

/* Swap in every page of inode on device type: 0, -EIO, -ENOMEM or -EINTR. */
static int shmem_unuse_inode(struct inode *inode, unsigned int type)
{
	struct address_space *mapping = inode->i_mapping;
	pgoff_t index = 0;
	bool done = false;

	while (!done) {
		struct folio *folio;
		void *entry = shmem_find_swap(mapping, &index, ~0UL, &done);
		int err;

		if (!entry) {
			cond_resched();
			continue;
		}
		if (swp_type(radix_to_swp_entry(entry)) == type) {
			err = shmem_swapin_folio(inode, index, entry, &folio);
			if (err == -EEXIST)
				continue;               /* it changed: look at this index again */
			if (err)
				return err;
			folio_put(folio);
		}
		if (fatal_signal_pending(current))
			return -EINTR;
		done = index++ == ~0UL;
		cond_resched();
	}
	return 0;
}

/*
 * swapoff's shmem part (Linux's shmem_unuse): every page of device type
 * that a shmem file holds in swap comes back into its page cache.  An
 * inode being freed is passed over: its truncation frees its slots.  0,
 * or the first error.
 */
int shmem_unuse(unsigned int type)
{
	struct shmem_inode_info *info, *prev = NULL;
	int err = 0;

	spin_lock(&shmem_swaplist_lock);
	list_for_each_entry(info, &shmem_swaplist, swaplist) {
		if (!igrab(&info->vfs_inode))
			continue;
		spin_unlock(&shmem_swaplist_lock);
		if (prev)
			iput(&prev->vfs_inode); /* not under the lock: the last put takes it */
		prev = info;                    /* our reference keeps it on the list */
		err = shmem_unuse_inode(&info->vfs_inode, type);
		spin_lock(&shmem_swaplist_lock);
		if (err)
			break;
	}
	spin_unlock(&shmem_swaplist_lock);
	if (prev)
		iput(&prev->vfs_inode);
	return err;
}
