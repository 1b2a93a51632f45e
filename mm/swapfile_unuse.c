/*
 * swapoff's swap-in of every page on a device (Linux's try_to_unuse and
 * unuse_mm, mm/swapfile.c): each mm on swap_mmlist is walked for swap
 * entries of the device; each entry's page is brought in through the swap
 * cache (swapin_folio) and mapped in its place, read-only, AnonExclusive
 * if the entry said so (a later write reuses it).  Then shmem's pages on
 * the device go back into their files' page caches (shmem_unuse, in
 * mm/shmem_swap.c), and the swap cache is emptied of the device's folios.
 * Repeated until no slot is in use: a fork or a fault may move entries
 * around meanwhile.
 *
 * Locks: swapon_mutex (the caller's); each mm's mmap_lock for read while
 * it is walked, its PTE tables' locks in turn, a folio's lock while it is
 * mapped.  The device's SWP_WRITEOK is clear, so no new entry appears.
 */
#include "linux/errno.h"
#include "linux/mmap_lock.h"
#include "linux/page-flags.h"
#include "linux/rmap.h"
#include "linux/sched.h"
#include "linux/swap.h"
#include "linux/shmem_fs.h"
#include "linux/swapops.h"
#include "mm/internal.h"

extern struct list_head swap_mmlist;
extern spinlock_t swap_mmlist_lock;

/*
 * Map page of the locked, uptodate folio at addr in place of the swap
 * entry pte still holds (Linux's unuse_pte): the entry's count goes, the
 * mm's VmSwap page turns into an anon page.  Under the PTL.
 */
static void unuse_pte(struct vm_area_struct *vma, pte_t *pte, unsigned long addr,
		      struct folio *folio, struct page *page)
{
	pte_t old = ptep_get(pte), new = pfn_pte(page_to_pfn(page), vma_pgprot(vma, false));
	rmap_t flags = pte_swp_exclusive(old) ? RMAP_EXCLUSIVE : RMAP_NONE;

	folio_get(folio);
	if (folio_test_anon(folio))
		folio_add_anon_rmap_pte(folio, page, vma, addr, flags);
	else
		folio_add_new_anon_rmap(folio, vma, addr, flags);
	if (pte_swp_soft_dirty(old))
		new = pte_mksoft_dirty(new);
	set_pte_at(vma->vm_mm, addr, pte, new);
	swap_free_nr(pte_to_swp_entry(old), 1);
	add_mm_counter(vma->vm_mm, 1);
	add_mm_counter_swap(vma->vm_mm, -1);
}

/*
 * Bring in the page of the swap entry that pte (at addr, under pmd) held
 * when looked at, and map it if the PTE still holds it.  0, -ENOMEM, or
 * -EIO (a read error: the entry stays, swapoff fails).
 */
static int unuse_one(struct vm_area_struct *vma, pmd_t *pmd, unsigned long addr, pte_t orig)
{
	swp_entry_t entry = pte_to_swp_entry(orig);
	struct folio *folio;
	spinlock_t *ptl;
	pte_t *pte;
	int err;

	folio = swapin_folio(entry, &err);
	if (!folio)
		return err == -ENOENT ? 0 : err;        /* -ENOENT: the entry went meanwhile */
	err = 0;
	pte = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);
	if (folio_test_large(folio) && !folio_test_anon(folio)) {
		/* a fault's new large folio it gave up on: not to be mapped a page at a time */
	} else if (pte && pte_same(ptep_get(pte), orig)) {
		if (folio_test_uptodate(folio))
			unuse_pte(vma, pte, addr, folio,
				  folio_page(folio, swp_offset(entry) - swp_offset(folio->swap)));
		else
			err = -EIO;
	}
	if (pte)
		pte_unmap_unlock(pte, ptl);
	swapin_give_up(folio);          /* if the entry went meanwhile, so does the cache */
	folio_unlock(folio);
	folio_put(folio);
	return err;
}

/*
 * The first swap entry of device type in the PTE table under pmd, from
 * addr to end: its address (*orig its value), or end if none.
 */
static unsigned long find_swap_pte(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
				   unsigned long end, unsigned int type, pte_t *orig)
{
	spinlock_t *ptl;
	pte_t *pte = pte_offset_map_lock(mm, pmd, addr, &ptl);

	if (!pte)
		return end;
	for (; addr < end; addr += PAGE_SIZE, pte++) {
		pte_t ptent = ptep_get(pte);

		if (is_swap_pte(ptent) && !non_swap_entry(pte_to_swp_entry(ptent)) &&
		    swp_type(pte_to_swp_entry(ptent)) == type) {
			*orig = ptent;
			break;
		}
	}
	pte_unmap_unlock(pte, ptl);
	return addr;
}

/* Every swap entry of device type in vma's page tables brought in (Linux's unuse_vma). */
static int unuse_vma(struct vm_area_struct *vma, unsigned int type)
{
	unsigned long addr = vma->vm_start;

	while (addr < vma->vm_end) {
		unsigned long next = MIN(ALIGN_DOWN(addr, PMD_SIZE) + PMD_SIZE, vma->vm_end);
		pmd_t *pmd = mm_find_pmd(vma->vm_mm, addr);
		pte_t orig = __pte(0);
		int err;

		if (!pmd || !pmd_present(pmdp_get(pmd)) || pmd_trans_huge(pmdp_get(pmd))) {
			addr = next;
			continue;
		}
		addr = find_swap_pte(vma->vm_mm, pmd, addr, next, type, &orig);
		if (addr == next)
			continue;
		err = unuse_one(vma, pmd, addr, orig);
		if (err)
			return err;
		addr += PAGE_SIZE;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/* Every swap entry of device type in mm brought in (Linux's unuse_mm). */
static int unuse_mm(struct mm_struct *mm, unsigned int type)
{
	struct vm_area_struct *vma;
	int err = 0;

	mmap_read_lock(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (vma->anon_vma && (err = unuse_vma(vma, type)))
			break;
	}
	mmap_read_unlock(mm);
	return err;
}

/* Walk every mm that has had swap entries, bringing in those of device type. */
static int unuse_mms(unsigned int type)
{
	struct mm_struct *prev = NULL;
	struct list_head *p = &swap_mmlist;
	int err = 0;

	spin_lock(&swap_mmlist_lock);
	while (!err && (p = p->next) != &swap_mmlist) {
		struct mm_struct *mm = list_entry(p, struct mm_struct, mmlist);

		if (!mmget_not_zero(mm))
			continue;       /* exiting: its entries go with its page tables */
		spin_unlock(&swap_mmlist_lock);
		if (prev)
			mmput(prev);    /* not under the lock: the last put takes it */
		prev = mm;
		err = unuse_mm(mm, type);
		spin_lock(&swap_mmlist_lock);
	}
	spin_unlock(&swap_mmlist_lock);
	if (prev)
		mmput(prev);
	return err;
}

/* Drop from the swap cache the folios of device type no entry needs (Linux's second loop). */
static void unuse_swap_cache(unsigned int type)
{
	struct swap_info_struct *si = &swap_info[type];

	for (unsigned long off = 1; off < si->max; off++) {
		struct folio *folio;

		if (READ_ONCE(si->swap_map[off]) != SWAP_HAS_CACHE)
			continue;
		folio = swap_cache_get_folio(swp_entry(type, off));
		if (!folio)
			continue;
		folio_lock(folio);
		folio_free_swap(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
}

/*
 * Bring every page on device type back into memory (Linux's
 * try_to_unuse): 0 once no slot is in use; -ENOMEM, -EIO (a page could
 * not be read), -EINTR (a fatal signal) otherwise.
 */
int try_to_unuse(unsigned int type)
{
	struct swap_info_struct *si = &swap_info[type];
	int err;

	while (READ_ONCE(si->inuse_pages)) {
		err = unuse_mms(type);
		if (!err)
			err = shmem_unuse(type);
		if (err)
			return err;
		unuse_swap_cache(type);
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}
