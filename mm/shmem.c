/*
 * shmem's data (Linux's mm/shmem.c): a shmem file's bytes live in its
 * page cache, or in swap (mm/shmem_swap.c).  shmem_get_folio() finds the
 * folio at an index — swapping it in if need be — or allocates one, as
 * large as Linux's huge policy allows (shmem_allowable_huge_orders,
 * mm/thp_policy.c), naturally aligned in the file, and not over a folio
 * already cached.  The file operations (mm/shmem_file.c: read(), write(),
 * lseek SEEK_DATA/SEEK_HOLE, truncation, fallocate) and faults of
 * MAP_SHARED mappings all go through it.
 *
 *   i_pages: [0] [1] ... [512 .. 1023: one 2 MiB folio] ...  (pgoff -> folio)
 *   info->alloced   pages this file allocated; i_blocks = alloced * 8
 *   sbinfo->used_blocks  pages the whole mount allocated (size= limit)
 *
 * Truncation removes folios from the cache (mm/truncate.c), then
 * shmem_recalc_inode() gives back what went: alloced - nrpages.
 *
 * Locking (Linux's; order in mm/rmap.c):
 *   inode_lock        writes, truncation (do_truncate), fallocate and the
 *                     seals: i_size changes only under it, so O_APPEND
 *                     writes never overlap and a write never races a
 *                     truncation.  Faults and reads do not take it.
 *   info->lock        alloced and i_blocks, taken around each insertion
 *                     into the cache and by shmem_recalc_inode, so the
 *                     pages counted and the pages cached never drift.
 *   used_blocks       the mount's budget, by compare-and-swap.
 *   the page cache    a fault that finds no folio allocates one; of two
 *                     tasks inserting at once one wins, the other takes
 *                     the winner's (filemap_add_folio's -EEXIST).
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/pagemap.h"
#include "linux/shmem_fs.h"
#include "linux/uaccess.h"
#include "uapi/linux/falloc.h"
#include "uapi/linux/fs.h"
#include "linux/page-flags.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include "linux/huge_mm.h"
#include "linux/vmstat.h"
#include "linux/rmap.h"
#include "linux/string.h"

#define BLOCKS_PER_PAGE (PAGE_SIZE / 512)

/*
 * Take nr pages from the mount's size= budget: 0 or -ENOSPC (Linux's
 * shmem_inode_acct_blocks).  A compare-and-swap, as Linux's
 * percpu_counter_limited_add: two faults at once never both take the
 * last pages.
 */
static int shmem_inode_acct_blocks(struct inode *inode, long nr)
{
	struct shmem_sb_info *sbinfo = SHMEM_SB(inode->i_sb);
	unsigned long used = __atomic_load_n(&sbinfo->used_blocks, __ATOMIC_RELAXED);

	do {
		if (sbinfo->max_blocks && used + nr > sbinfo->max_blocks)
			return -ENOSPC;
	} while (!__atomic_compare_exchange_n(&sbinfo->used_blocks, &used, used + nr, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return 0;
}

static void shmem_inode_unacct_blocks(struct inode *inode, long nr)
{
	__atomic_sub_fetch(&SHMEM_SB(inode->i_sb)->used_blocks, nr, __ATOMIC_RELAXED);
}

/*
 * Give back the pages truncation took out of the page cache: those
 * alloced counts that neither the cache nor swap holds any more (Linux's
 * shmem_recalc_inode).  Under info->lock, which every insertion and every
 * move to or from swap holds: nrpages can only have dropped (a removal)
 * since alloced last moved.
 */
static void shmem_recalc_inode(struct inode *inode)
{
	struct shmem_inode_info *info = SHMEM_I(inode);
	long freed;

	spin_lock(&info->lock);
	freed = info->alloced - info->swapped - READ_ONCE(inode->i_mapping->nrpages);
	if (freed > 0) {
		info->alloced -= freed;
		inode->i_blocks -= freed * BLOCKS_PER_PAGE;
	}
	spin_unlock(&info->lock);
	if (freed > 0)
		shmem_inode_unacct_blocks(inode, freed);
}

/*
 * The orders out of "orders" whose naturally aligned range around index
 * holds no folio yet and, for a fault, fits the VMA at the same alignment
 * (Linux's shmem_suitable_orders).
 */
static unsigned long shmem_suitable_orders(struct inode *inode, struct vm_fault *vmf,
					   pgoff_t index, unsigned long orders)
{
	int order = orders ? highest_order(orders) : -1;

	while (order > 0) {
		unsigned long nr = 1UL << order, first = ALIGN_DOWN(index, nr);

		if ((!vmf || thp_vma_suitable_order(vmf->vma, vmf->address, order)) &&
		    !filemap_range_has_folio(inode->i_mapping, first, first + nr - 1))
			return orders;
		order = next_order(&orders, order);
	}
	return 0;
}

/*
 * Cache folio at index and count it in alloced and i_blocks, one step
 * under info->lock (Linux's shmem_add_to_page_cache + shmem_recalc_inode).
 * 0, -EEXIST (another task cached a folio there first) or -ENOMEM.
 */
static int shmem_add_to_page_cache(struct inode *inode, struct folio *folio, pgoff_t index)
{
	struct shmem_inode_info *info = SHMEM_I(inode);
	long nr = folio_nr_pages(folio);
	int err;

	spin_lock(&info->lock);
	err = filemap_add_folio(inode->i_mapping, folio, index);
	if (!err) {
		info->alloced += nr;
		inode->i_blocks += nr * BLOCKS_PER_PAGE;
	}
	spin_unlock(&info->lock);
	return err;
}

/*
 * Allocate a zeroed, swap-backed folio of 2^order pages for index and add
 * it to the page cache at its aligned index.  The folio (our reference),
 * or an ERR_PTR: -ENOSPC over size=, -ENOMEM, -EEXIST (a folio got there
 * first).
 */
static struct folio *shmem_alloc_folio(struct inode *inode, pgoff_t index, int order)
{
	long nr = 1L << order;
	struct folio *folio;
	int err = shmem_inode_acct_blocks(inode, nr);

	if (err)
		return ERR_PTR(err);
	folio = folio_alloc(__GFP_ZERO | (order ? GFP_TRANSHUGE_LIGHT : GFP_HIGHUSER_MOVABLE), order);
	err = folio ? 0 : -ENOMEM;
	if (folio) {
		__folio_set_swapbacked(folio);
		err = shmem_add_to_page_cache(inode, folio, ALIGN_DOWN(index, nr));
		if (err)
			folio_put(folio);
	}
	if (err) {
		shmem_inode_unacct_blocks(inode, nr);
		return ERR_PTR(err);
	}
	if (order)
		count_mthp_stat(order, MTHP_STAT_SHMEM_ALLOC);
	return folio;
}

/*
 * Try each allowed order from the largest down, then a single page
 * (Linux's shmem_alloc_and_add_folio): the folio or an ERR_PTR; -EEXIST
 * at once if a folio appeared in the range (the caller looks again).
 */
static struct folio *shmem_alloc_and_add_folio(struct inode *inode, pgoff_t index,
					       struct vm_fault *vmf, unsigned long orders)
{
	unsigned long suitable = shmem_suitable_orders(inode, vmf, index, orders);
	int order = suitable ? highest_order(suitable) : -1;

	while (order > 0) {
		struct folio *folio = shmem_alloc_folio(inode, index, order);

		if (!IS_ERR(folio) || PTR_ERR(folio) == -EEXIST)
			return folio;
		count_mthp_stat(order, MTHP_STAT_SHMEM_FALLBACK);
		order = next_order(&suitable, order);
	}
	return shmem_alloc_folio(inode, index, 0);
}

/*
 * A truncation shrank the file below index while a fault allocated the
 * folio for it: take the folio out again if all of it lies past EOF, so
 * nothing stays cached (and counted against size=) there (Linux's
 * shmem_get_folio_gfp, its i_size check after the insertion).  Linux's
 * folio is locked from its allocation, and its writes lock it too; here a
 * write(2) may already have filled the folio, and writes hold only
 * inode_lock — so the removal needs inode_lock, which a fault (holding the
 * mmap_lock, below it) may only try: if that fails, a write or truncation
 * is at work, and the next truncation takes what is past EOF.  Drops the
 * caller's reference; returns -EINVAL, as the check before the
 * allocation would have.
 */
static int shmem_undo_add_past_eof(struct inode *inode, struct folio *folio)
{
	if (inode_trylock(inode)) {
		folio_lock(folio);
		if (folio->mapping == inode->i_mapping && !folio_mapped(folio) &&
		    ((loff_t)folio->index << PAGE_SHIFT) >= i_size_read(inode))
			filemap_remove_folio(folio);
		folio_unlock(folio);
		inode_unlock(inode);
	}
	folio_put(folio);
	shmem_recalc_inode(inode);
	return -EINVAL;
}

/*
 * Find or allocate the folio holding file page index, swapping it in if
 * it is in swap (Linux's shmem_get_folio_gfp): *foliop gets a reference,
 * or NULL where sgp says a hole stays a hole.  write_end (a write's end,
 * 0 if none) and vmf (a fault's, or NULL) steer the huge policy.  0,
 * -EINVAL (SGP_READ or SGP_CACHE at or past EOF), -ENOENT (SGP_NOALLOC at
 * a hole), -EFBIG, -ENOSPC, -ENOMEM or -EIO (the swap-in's read failed).
 * A folio another task cached first is taken (the lookup is repeated on
 * -EEXIST, as Linux's).
 */
static int shmem_get_folio_gfp(struct inode *inode, pgoff_t index, loff_t write_end,
			       struct folio **foliop, enum sgp_type sgp, struct vm_fault *vmf)
{
	struct folio *folio;
	unsigned long orders;

	*foliop = NULL;
	if (index > (MAX_LFS_FILESIZE >> PAGE_SHIFT))
		return -EFBIG;
	if (sgp <= SGP_CACHE && ((loff_t)index << PAGE_SHIFT) >= i_size_read(inode))
		return -EINVAL;
repeat:
	folio = filemap_get_entry(inode->i_mapping, index);
	if (xa_is_value(folio)) {
		int err = shmem_swapin_folio(inode, index, folio, &folio);

		if (err == -EEXIST)
			goto repeat;
		if (err)
			return err;
		if (sgp <= SGP_CACHE && ((loff_t)index << PAGE_SHIFT) >= i_size_read(inode))
			return shmem_undo_add_past_eof(inode, folio);
	}
	if (folio && !folio_test_uptodate(folio) && sgp == SGP_READ) {
		folio_put(folio);               /* reserved by fallocate: still a hole */
		return 0;
	}
	if (!folio && (sgp == SGP_READ || sgp == SGP_NOALLOC))
		return sgp == SGP_READ ? 0 : -ENOENT;
	if (!folio) {
		orders = shmem_allowable_huge_orders(inode, vmf ? vmf->vma : NULL, index,
						     write_end, false);
		folio = shmem_alloc_and_add_folio(inode, index, vmf, orders);
		if (IS_ERR(folio) && PTR_ERR(folio) == -EEXIST)
			goto repeat;
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		if (sgp <= SGP_CACHE && ((loff_t)index << PAGE_SHIFT) >= i_size_read(inode))
			return shmem_undo_add_past_eof(inode, folio);
	}
	if (sgp != SGP_FALLOC)
		folio_set_uptodate(folio);      /* zeroed at allocation */
	*foliop = folio;
	return 0;
}

int shmem_get_folio(struct inode *inode, pgoff_t index, loff_t write_end, struct folio **foliop,
		    enum sgp_type sgp)
{
	return shmem_get_folio_gfp(inode, index, write_end, foliop, sgp, NULL);
}

/* Is page index only partly inside the bytes [lstart, lend] (lend -1: to the end)? */
static bool shmem_partial_page(pgoff_t index, loff_t lstart, loff_t lend)
{
	loff_t first = (loff_t)index << PAGE_SHIFT, last = first + PAGE_SIZE - 1;

	return lstart > first || (lend >= 0 && lend < last);
}

/*
 * Free the page cache and swap of [lstart, lend] (lend inclusive, -1: to
 * the end) and give the pages back (Linux's shmem_undo_range): one walk
 * over the range's entries, each acted on at its index — a value's slot
 * freed, a folio removed under its lock, or cut and split where the range
 * covers it in part; a page in swap that the range cuts in part is
 * swapped in first, to be cut under its lock.  Where the entry changed
 * between the look and the act (a folio reclaim moved to swap, a value a
 * swap-in brought back), the same index is looked at again, so nothing
 * slips past the walk.  A swap-in that fails (a read error, no memory)
 * leaves a partly cut page in swap, uncut, as Linux's.  The caller holds
 * inode_lock, or holds the last reference to the inode (its eviction).
 */
void shmem_truncate_range(struct inode *inode, loff_t lstart, loff_t lend)
{
	struct address_space *mapping = inode->i_mapping;
	pgoff_t index = lstart >> PAGE_SHIFT, last = lend < 0 ? ~0UL : (pgoff_t)lend >> PAGE_SHIFT;
	void *entry;

	while ((entry = filemap_get_next_entry(mapping, &index, last))) {
		struct folio *folio = entry;
		pgoff_t next = index + 1;
		bool again = false;

		if (xa_is_value(entry) && shmem_partial_page(index, lstart, lend)) {
			int err = shmem_swapin_folio(inode, index, entry, &folio);

			again = err == -EEXIST;
			entry = err ? NULL : folio;             /* to be cut below */
		} else if (xa_is_value(entry)) {
			again = !shmem_free_swap(inode, index, entry);
			entry = NULL;
		}
		if (entry) {
			folio_lock(folio);
			again = folio->mapping != mapping;      /* truncated by another meanwhile */
			if (!again) {
				next = folio->index + folio_nr_pages(folio);
				again = truncate_folio(folio, lstart, lend < 0 ? MAX_LFS_FILESIZE : lend);
			}
			folio_unlock(folio);
			folio_put(folio);
		}
		cond_resched();
		if (again)
			continue;                               /* this index again (split: its pieces) */
		if (!next || next > last)
			break;
		index = next;
	}
	shmem_recalc_inode(inode);
}

bool shmem_mapping(const struct address_space *mapping)
{
	return mapping && mapping->host && mapping->host->i_fop == &shmem_file_operations;
}

/*
 * A fault in a shmem mapping (Linux's shmem_fault): the folio at
 * vmf->pgoff, allocated as the huge policy allows for this VMA and
 * address; vmf->page gets its page, with a reference for the caller.
 * 0, VM_FAULT_SIGBUS (at or past EOF, or out of space) or VM_FAULT_OOM.
 */
static vm_fault_t shmem_fault(struct vm_fault *vmf)
{
	struct inode *inode = file_inode(vmf->vma->vm_file);
	struct folio *folio;
	int err = shmem_get_folio_gfp(inode, vmf->pgoff, 0, &folio, SGP_CACHE, vmf);

	if (err)
		return err == -ENOMEM ? VM_FAULT_OOM : VM_FAULT_SIGBUS;
	vmf->page = folio_file_page(folio, vmf->pgoff);
	return 0;
}

const struct vm_operations_struct shmem_vm_ops = {
	.fault = shmem_fault,
};

/*
 * f_op->mmap of a shmem file (Linux's shmem_mmap with the memfd seal
 * check): a file sealed against writes cannot be mapped shared and
 * writable (-EPERM), and its shared mappings cannot become writable.
 */
int shmem_mmap(struct file *file, struct vm_area_struct *vma)
{
	unsigned int seals = SHMEM_I(file_inode(file))->seals;

	if ((seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)) && (vma->vm_flags & VM_SHARED)) {
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;
		vma->vm_flags &= ~VM_MAYWRITE;
	}
	vma->vm_ops = &shmem_vm_ops;
	return 0;
}

/*
 * Back a MAP_SHARED|MAP_ANONYMOUS VMA with a new unlinked shmem file of
 * its size (Linux's shmem_zero_setup): vm_file (the VMA's reference) and
 * vm_ops are set.  0 or -ENOMEM / -EINVAL.
 */
int shmem_zero_setup(struct vm_area_struct *vma)
{
	struct file *file = shmem_file_setup("dev/zero", vma->vm_end - vma->vm_start, 0);

	if (IS_ERR(file))
		return PTR_ERR(file);
	SHMEM_I(file_inode(file))->flags |= SHMEM_F_ANON;
	if (vma->vm_file)
		fput(vma->vm_file);
	vma->vm_file = file;
	vma->vm_ops = &shmem_vm_ops;
	return 0;
}
