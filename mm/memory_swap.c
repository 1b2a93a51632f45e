/*
 * A fault on a swap-format PTE (Linux's do_swap_page, mm/memory.c): a
 * migration entry waits for its split or migration; a swap entry brings
 * its page back — from the swap cache, or read from the device into a new
 * folio there (swapin_folio) — and maps it:
 *
 *   swap PTE  [type|offset|EX|SD]          folio in swap cache, locked
 *        \__ recheck under the PTL ___/
 *   PTE -> page, writable only when EX says the page was AnonExclusive
 *   (or nothing else holds the folio); the slot's count goes down, and
 *   the slot is freed at once when swap is filling up or the fault writes.
 *
 * A large folio found in the swap cache is mapped whole when every PTE of
 * its range holds its entries in order (Linux 6.10's rule), else only the
 * faulting page.  A folio read in new is large when the mTHP policy allows
 * an order whose aligned range holds consecutive entries of one device
 * (Linux 6.10's mTHP swap-in: swapin_order), else order 0.
 *
 * A swap-in read that fails leaves the folio in the cache, not uptodate:
 * the fault gets VM_FAULT_SIGBUS (the process owning the PTE gets the
 * signal, as in Linux; the page is not mapped, so nobody sees its bytes).
 *
 * Locks: the mmap_lock for read (the caller's), the folio lock, then the
 * PTL; a get_swap_device() reference keeps swapoff from freeing the
 * device's map meanwhile.  Order: mm/rmap.c, linux/swap.h.
 */
#include "linux/errno.h"
#include "linux/huge_mm.h"
#include "linux/vmstat.h"
#include "linux/page-flags.h"
#include "linux/rmap.h"
#include "linux/swap.h"
#include "linux/swapops.h"
#include "mm/internal.h"
#include "mm/migrate.h"

/*
 * Do the nr PTEs from ptep hold the swap entries from first on, in order,
 * all with the exclusive and soft-dirty bits of orig (Linux's
 * swap_pte_batch)?  Under the PTL, or as a hint without it.
 */
static bool swap_ptes_match(const pte_t *ptep, unsigned long nr, swp_entry_t first, pte_t orig)
{
	for (unsigned long i = 0; i < nr; i++) {
		pte_t want = swp_entry_to_pte(swp_entry_add(first, i));

		if (pte_swp_exclusive(orig))
			want = pte_swp_mkexclusive(want);
		if (pte_swp_soft_dirty(orig))
			want = pte_swp_mksoft_dirty(want);
		if (!pte_same(ptep_get(ptep + i), want))
			return false;
	}
	return true;
}

/*
 * How many pages of the locked folio in the swap cache to map, from
 * *page at vmf->address: the whole folio if its range lies in the VMA and
 * one PTE table and holds its entries (then *page and *addr move to its
 * start), else 1.  Under the PTL.
 */
static unsigned long swapin_batch(struct vm_fault *vmf, struct folio *folio, struct page **page,
				  unsigned long *addr)
{
	unsigned long nr = folio_nr_pages(folio), idx = *page - &folio->page;
	unsigned long start = vmf->address - idx * PAGE_SIZE, end = start + nr * PAGE_SIZE;

	if (nr == 1 || start < vmf->vma->vm_start || end > vmf->vma->vm_end ||
	    ALIGN_DOWN(start, PMD_SIZE) != ALIGN_DOWN(end - 1, PMD_SIZE) ||
	    !swap_ptes_match(vmf->pte - idx, nr, folio->swap, vmf->orig_pte))
		return 1;
	*page = &folio->page;
	*addr = start;
	return nr;
}

/*
 * Should the swap slots go now that the folio is mapped again (Linux's
 * should_try_to_free_swap)?  When swap is more than half full, or the
 * fault writes and nothing but the swap cache and the caller hold the
 * folio (the disk copy will be stale anyway).
 */
static bool should_try_to_free_swap(struct folio *folio, struct vm_fault *vmf)
{
	if (vm_swap_full())
		return true;
	return (vmf->flags & FAULT_FLAG_WRITE) && folio_ref_count(folio) == 1 + folio_nr_pages(folio);
}

/*
 * Map nr pages of the locked folio from page at addr in place of their
 * swap entries (the PTL held, the entries checked): slot counts down, RSS
 * from swap to anon, rmap added — a folio read in new becomes anon here.
 * Writable, and the pages AnonExclusive, if the entry said exclusive or
 * the folio has no other user; a write fault then dirties it.
 */
static void map_swapped_pages(struct vm_fault *vmf, struct folio *folio, struct page *page,
			      unsigned long addr, unsigned long nr, pte_t *ptep)
{
	struct vm_area_struct *vma = vmf->vma;
	pte_t pte = pfn_pte(page_to_pfn(page), vma_pgprot(vma, false));
	rmap_t rmap_flags = RMAP_NONE;

	swap_free_nr(folio_swap_entry(folio, page - &folio->page), nr);
	add_mm_counter(vma->vm_mm, nr);
	add_mm_counter_swap(vma->vm_mm, -(long)nr);
	if (should_try_to_free_swap(folio, vmf))
		folio_free_swap(folio);
	if (pte_swp_soft_dirty(vmf->orig_pte))
		pte = pte_mksoft_dirty(pte);
	if (pte_swp_exclusive(vmf->orig_pte) || folio_ref_count(folio) == 1) {
		if ((vma->vm_flags & VM_WRITE) &&
		    ((vma->vm_flags & VM_SOFTDIRTY) || pte_soft_dirty(pte))) {
			pte = pte_mkwrite(pte);
			if (vmf->flags & FAULT_FLAG_WRITE)
				pte = pte_mkdirty(pte);
		}
		rmap_flags = RMAP_EXCLUSIVE;
	}
	folio_ref_add(folio, nr - 1);   /* the caller's reference is the first mapping's */
	if (!folio_test_anon(folio)) {
		VM_WARN_ON_ONCE_FOLIO(nr != (unsigned long)folio_nr_pages(folio), folio);
		folio_add_new_anon_rmap(folio, vma, addr, rmap_flags);
	} else {
		folio_add_anon_rmap_ptes(folio, page, nr, vma, addr, rmap_flags);
	}
	for (unsigned long i = 0; i < nr; i++, pte = pte_next_pfn(pte))
		set_pte_at(vma->vm_mm, addr + i * PAGE_SIZE, ptep + i, pte);   /* in place of entries: no count change */
}

/*
 * The order to read entry's page in at, if not from the swap cache
 * (Linux's alloc_swap_folio): the highest the VMA's mTHP policy allows
 * whose aligned range fits the VMA and whose PTEs hold consecutive
 * entries of one device, from an offset aligned as the range is, with
 * orig's bits; 0 if none.  The PTEs are read without their lock: the
 * slots' claim (swapcache_prepare) and the recheck under the lock decide.
 */
static unsigned int swapin_order(struct vm_fault *vmf, swp_entry_t entry)
{
	unsigned long orders;
	int order;

	if (!vma_is_anonymous(vmf->vma))
		return 0;               /* a private file mapping's anon pages stay small, as Linux's */
	orders = thp_vma_allowable_orders(vmf->vma, BIT(HPAGE_PMD_ORDER) - 1);
	for (order = orders ? highest_order(orders) : 0; order > 0; order = next_order(&orders, order)) {
		unsigned long nr = 1UL << order, idx = (vmf->address >> PAGE_SHIFT) & (nr - 1);

		if (thp_vma_suitable_order(vmf->vma, vmf->address, order) &&
		    swp_offset(entry) >= idx && !((swp_offset(entry) - idx) & (nr - 1)) &&
		    swap_ptes_match(vmf->pte - idx, nr, swp_entry(swp_type(entry), swp_offset(entry) - idx),
				    vmf->orig_pte))
			return order;
	}
	return 0;
}

/*
 * The folio to swap entry's page in from: a large one read new if
 * swapin_order() finds room for it (MTHP_STAT_SWPIN; a failure to get one
 * counts SWPIN_FALLBACK), else the swap cache's or a new order-0 one
 * (swapin_folio).  As swapin_folio() returns it.
 */
static struct folio *do_swapin(struct vm_fault *vmf, swp_entry_t entry, int *err)
{
	struct folio *folio = swap_cache_get_folio(entry);
	unsigned int order;

	if (folio) {                    /* cached: no new folio of any order (Linux's order) */
		folio_put(folio);
		return swapin_folio(entry, err);
	}
	order = swapin_order(vmf, entry);
	if (order) {
		unsigned long idx = (vmf->address >> PAGE_SHIFT) & ((1UL << order) - 1);

		folio = swapin_new_folio(swp_entry(swp_type(entry), swp_offset(entry) - idx), order, err);
		if (folio)
			return folio;
		if (*err == -ENOMEM)
			count_mthp_stat(order, MTHP_STAT_SWPIN_FALLBACK);
	}
	return swapin_folio(entry, err);
}

/*
 * The swap-in gives up on the locked folio (the PTE changed, the read
 * failed): no folio stays in the cache that no entry needs, and no new
 * large folio stays at all — never mapped, so never anon, it must not be
 * found and mapped a page at a time (Linux frees it; its data is on disk).
 */
void swapin_give_up(struct folio *folio)
{
	if (folio_test_large(folio) && !folio_test_anon(folio) && folio_test_swapcache(folio))
		delete_from_swap_cache(folio);
	else
		folio_free_swap(folio);
}

/* A swap entry's fault: see the header.  0, VM_FAULT_MAJOR, or an error. */
static vm_fault_t do_swap_entry(struct vm_fault *vmf, swp_entry_t entry)
{
	struct mm_struct *mm = vmf->vma->vm_mm;
	struct swap_info_struct *si = get_swap_device(entry);
	unsigned long addr = vmf->address, nr;
	struct folio *folio;
	struct page *page;
	vm_fault_t ret = 0;
	int err;

	if (!si)
		return 0;               /* swapoff took it meanwhile: the PTE changed, retry */
	folio = do_swapin(vmf, entry, &err);
	if (!folio) {
		put_swap_device(si);
		return err == -ENOMEM ? VM_FAULT_OOM : 0;       /* -ENOENT: a stale entry, retry */
	}
	if (err == 1)
		ret = VM_FAULT_MAJOR;
	page = folio_page(folio, swp_offset(entry) - swp_offset(folio->swap));
	vmf->pte = pte_offset_map_lock(mm, vmf->pmd, vmf->address, &vmf->ptl);
	if (!vmf->pte)
		goto out;
	if (!pte_same(ptep_get(vmf->pte), vmf->orig_pte))
		goto out_unlock;        /* another thread got here first */
	if (!folio_test_uptodate(folio)) {
		ret = VM_FAULT_SIGBUS;  /* the read failed */
		goto out_unlock;
	}
	nr = swapin_batch(vmf, folio, &page, &addr);
	if (!folio_test_anon(folio) && nr != (unsigned long)folio_nr_pages(folio))
		goto out_unlock;        /* a new large folio whose PTEs changed: it goes, retry */
	map_swapped_pages(vmf, folio, page, addr, nr, vmf->pte - ((vmf->address - addr) >> PAGE_SHIFT));
	folio_unlock(folio);
	pte_unmap_unlock(vmf->pte, vmf->ptl);
	put_swap_device(si);
	return ret;             /* a write to a page left read-only faults again: COW */
out_unlock:
	pte_unmap_unlock(vmf->pte, vmf->ptl);
out:
	swapin_give_up(folio);
	folio_unlock(folio);
	folio_put(folio);
	put_swap_device(si);
	return ret;
}

/*
 * A fault on a swap-format PTE: a swap entry comes back (above); a
 * migration entry waits until its split or migration is done, then the
 * access is retried (0).  Any other entry is a kernel bug: VM_FAULT_SIGBUS,
 * as Linux's bad PTE.
 */
vm_fault_t do_swap_page(struct vm_fault *vmf)
{
	swp_entry_t entry = pte_to_swp_entry(vmf->orig_pte);

	if (likely(!non_swap_entry(entry)))
		return do_swap_entry(vmf, entry);
	if (!is_migration_entry(entry)) {
		VM_WARN_ON_ONCE(true, "do_swap_page: a swap entry of a kind foliOS never makes");
		return VM_FAULT_SIGBUS;
	}
	migration_entry_wait(vmf->vma->vm_mm, vmf->pmd, vmf->address);
	return 0;
}
