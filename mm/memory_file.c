/*
 * Faults on VMAs with vm_ops — mappings of files, shmem and
 * MAP_SHARED|MAP_ANONYMOUS (the file half of Linux's mm/memory.c):
 *
 *   PTE none, read            do_read_fault    the page-cache page, mapped
 *                                              read-only in a private mapping
 *   PTE none, write, private  do_cow_fault     a copy in a new anon folio
 *                                              (the VMA's anon_vma); the
 *                                              page-cache folio is untouched
 *   PTE none, write, shared   do_shared_fault  the page-cache page, writable,
 *                                              the folio marked dirty
 *   PTE present, read-only,   wp_page_shared   made writable, folio dirty
 *   write, shared                              (a private one: do_wp_page's
 *                                              copy, memory.c)
 *
 * The page comes from vm_ops->fault (filemap_fault, shmem_fault) with a
 * folio reference; finish_fault maps it: one PMD leaf where the whole
 * PMD-sized folio fits the VMA at its aligned place and the PMD is none
 * (do_set_pmd), all of a large shmem folio's pages by PTEs where they fit
 * the VMA and the page table, else the one page.  Each PTE or PMD holds a
 * folio reference and a mapping in the file rmap (MM owner slots as for
 * anon).  ->fault's VM_FAULT_SIGBUS (beyond EOF) is the access's SIGBUS.
 *
 * A shared mapping's PTEs are writable from the start where the VMA is:
 * nothing needs to hear of the first write (Linux's !vma_wants_writenotify
 * for shmem) but soft-dirty tracking, which clear_refs turns on by clearing
 * VM_SOFTDIRTY: then a write faults into wp_page_shared.
 *
 * Locks: the caller holds the mmap_lock for read.  The folio lock is held
 * from ->fault's return to the PTE's (__do_fault .. finish_fault), as in
 * Linux: truncation locks each folio before it takes it out of the cache,
 * so a fault that still sees folio->mapping under the lock maps a folio
 * truncation has not removed, and truncation's unmap then finds the PTE.
 * finish_fault maps under pmd_lock or the PTE table's lock, rechecking
 * that the entries are still none (else another CPU mapped them first:
 * the access is retried).  Order: mm/rmap.c.
 */
#include "linux/swap.h"
#include "linux/errno.h"
#include "linux/pagemap.h"
#include "mm/internal.h"
#include "linux/rmap.h"
#include "linux/huge_mm.h"
#include "linux/string.h"

/*
 * Must a write to a shared mapping fault first (Linux's
 * vma_wants_writenotify)?  Only for soft-dirty tracking.
 */
static bool vma_wants_writenotify(const struct vm_area_struct *vma)
{
	return (vma->vm_flags & (VM_SHARED | VM_WRITE)) == (VM_SHARED | VM_WRITE) &&
	       !(vma->vm_flags & VM_SOFTDIRTY);
}

/* The protection a file page is mapped with before any write (Linux's vma->vm_page_prot). */
static pgprot_t vma_file_pgprot(const struct vm_area_struct *vma)
{
	return vma_pgprot(vma, (vma->vm_flags & VM_SHARED) && !vma_wants_writenotify(vma));
}

/*
 * Map the whole PMD-sized folio by one PMD leaf at the PMD-aligned block
 * of address (Linux's do_set_pmd), if the block lies inside the VMA and
 * holds the folio's pages at their file offsets, the VMA allows huge pages
 * and *pmd is none.  The fault's folio reference becomes the PMD's.  No PTE
 * table is deposited: splitting a file PMD zaps it (__split_huge_pmd).
 * 0, or VM_FAULT_FALLBACK (map PTEs).
 */
static vm_fault_t do_set_pmd(struct vm_fault *vmf, struct folio *folio)
{
	pmd_t *pmd = vmf->pmd;
	struct vm_area_struct *vma = vmf->vma;
	unsigned long haddr = vmf->address & PMD_MASK;
	pmd_t entry;
	spinlock_t *ptl;

	if (vma_thp_disabled(vma) || folio_order(folio) != HPAGE_PMD_ORDER ||
	    haddr < vma->vm_start || haddr + PMD_SIZE > vma->vm_end ||
	    linear_page_index(vma, haddr) != folio->index)
		return VM_FAULT_FALLBACK;
	entry = pfn_pmd_huge(folio_pfn(folio), vma_file_pgprot(vma));
	if ((vmf->flags & FAULT_FLAG_WRITE) && (vma->vm_flags & VM_WRITE))
		entry = pmd_mkdirty(pmd_mkwrite(entry));
	ptl = pmd_lock(vma->vm_mm, pmd);
	if (!pmd_none(*pmd)) {
		spin_unlock(ptl);
		return VM_FAULT_FALLBACK;
	}
	add_mm_counter_file(vma->vm_mm, folio, HPAGE_PMD_NR);
	folio_add_file_rmap_pmd(folio, &folio->page, vma);
	set_pmd_at(vma->vm_mm, haddr, pmd, entry);
	spin_unlock(ptl);
	return 0;
}

/*
 * How many pages of the large shmem folio holding *page to map at once,
 * *pte being the fault's PTE: all of them if they lie inside the VMA and
 * one page table and their PTEs are all none (Linux's finish_fault), else
 * the one page.  *addr, *page and *pte then say where the first goes.
 */
static unsigned int finish_fault_nr(struct vm_fault *vmf, struct folio *folio,
				    unsigned long *addr, struct page **page, pte_t **pte)
{
	unsigned long idx = *page - &folio->page, nr = folio_nr_pages(folio);
	unsigned long vma_off = vmf->pgoff - vmf->vma->vm_pgoff;
	unsigned long pte_off = pt_index(vmf->address, PT_PTE);
	unsigned long vma_pages = (vmf->vma->vm_end - vmf->vma->vm_start) >> PAGE_SHIFT;

	if (nr == 1 || !folio_test_swapbacked(folio) || vma_off < idx ||
	    vma_off + (nr - idx) > vma_pages || pte_off < idx || pte_off + (nr - idx) > PTRS_PER_TABLE ||
	    !pte_range_none(*pte - idx, nr))
		return 1;
	*addr = vmf->address - idx * PAGE_SIZE;
	*page = &folio->page;
	*pte -= idx;
	return nr;
}

/*
 * Map nr pages of folio from page on at addr, from pte on (Linux's
 * set_pte_range): a new anon folio (a private write's copy) exclusive to
 * this mm, writable; page-cache pages in the file rmap, writable and dirty
 * for a shared write, else with the VMA's file protection.
 */
static void set_pte_range(struct vm_fault *vmf, struct folio *folio, struct page *page,
			  unsigned int nr, unsigned long addr, pte_t *pte)
{
	struct vm_area_struct *vma = vmf->vma;
	const bool write = vmf->flags & FAULT_FLAG_WRITE;
	pte_t entry = pfn_pte(page_to_pfn(page), vma_file_pgprot(vma));

	if (write && !(vma->vm_flags & VM_SHARED)) {
		entry = pte_mksoft_dirty(pfn_pte(page_to_pfn(page), vm_get_page_prot(vma)));
		folio_add_new_anon_rmap(folio, vma, addr, RMAP_EXCLUSIVE);
		folio_add_lru(folio);
		add_mm_counter(vma->vm_mm, nr);
	} else {
		if (write && (vma->vm_flags & VM_WRITE))
			entry = pte_mkdirty(pte_mkwrite(entry));
		folio_add_file_rmap_ptes(folio, page, nr, vma);
		add_mm_counter_file(vma->vm_mm, folio, nr);
	}
	set_ptes(vma->vm_mm, addr, pte, entry, nr);
}

/*
 * Map page, which holds a folio reference the caller passes on (Linux's
 * finish_fault): one PMD if it can be, else PTEs — several only for a
 * large shmem folio whose PTEs are all none.  0 (the reference is the
 * mapping's), VM_FAULT_OOM (no page table) or VM_FAULT_NOPAGE (another
 * CPU filled the PTE, or put a PMD leaf there, meanwhile: nothing
 * mapped); but for 0 the reference is still the caller's.
 */
static vm_fault_t finish_fault(struct vm_fault *vmf, struct page *page)
{
	struct mm_struct *mm = vmf->vma->vm_mm;
	struct folio *folio = page_folio(page);
	unsigned long addr = vmf->address;
	unsigned int nr;
	pte_t *pte;

	if (pmd_none(pmdp_get(vmf->pmd)) && folio_test_pmd_mappable(folio) &&
	    !do_set_pmd(vmf, folio))
		return 0;
	if (pmd_none(pmdp_get(vmf->pmd)) && __pte_alloc(mm, vmf->pmd))
		return VM_FAULT_OOM;
	vmf->pte = pte_offset_map_lock(mm, vmf->pmd, addr, &vmf->ptl);
	if (!vmf->pte)
		return VM_FAULT_NOPAGE;
	if (!pte_none(*vmf->pte)) {
		pte_unmap_unlock(vmf->pte, vmf->ptl);
		return VM_FAULT_NOPAGE;
	}
	pte = vmf->pte;
	nr = finish_fault_nr(vmf, folio, &addr, &page, &pte);
	folio_ref_add(folio, nr - 1);
	set_pte_range(vmf, folio, page, nr, addr, pte);
	pte_unmap_unlock(vmf->pte, vmf->ptl);
	return 0;
}

/*
 * Ask vm_ops->fault for the page and lock its folio (Linux's __do_fault,
 * with filemap_fault's checks after folio_lock): 0 with vmf->page
 * referenced and its folio locked, still in the file's cache and inside
 * i_size; VM_FAULT_RETRY if truncation took the folio out meanwhile
 * (nothing held); VM_FAULT_NOPAGE if ->fault mapped a frame itself (a
 * special mapping: no page, nothing held); or VM_FAULT_OOM or
 * VM_FAULT_SIGBUS (the page is past EOF now).
 * The lock may sleep: the caller holds no spinlock.
 */
static vm_fault_t __do_fault(struct vm_fault *vmf)
{
	struct address_space *mapping;
	struct folio *folio;
	vm_fault_t ret;

	if (!vmf->vma->vm_ops->fault)
		return VM_FAULT_SIGBUS;
	ret = vmf->vma->vm_ops->fault(vmf);
	if (ret)
		return ret;     /* VM_FAULT_NOPAGE: ->fault mapped it itself (a special mapping) */
	mapping = vmf->vma->vm_file->f_mapping;
	folio = page_folio(vmf->page);
	folio_lock(folio);
	if (folio->mapping != mapping)
		ret = VM_FAULT_RETRY;
	else if (vmf->pgoff >= DIV_ROUND_UP(i_size_read(mapping->host), PAGE_SIZE))
		ret = VM_FAULT_SIGBUS;
	if (ret) {
		folio_unlock(folio);
		folio_put(folio);
	}
	return ret;
}

/*
 * Map the locked page-cache page __do_fault returned, then unlock its
 * folio; if it was not mapped, its reference goes too.  A shared write
 * marks the folio dirty.  finish_fault's result.
 */
static vm_fault_t finish_file_fault(struct vm_fault *vmf, bool dirty)
{
	struct folio *folio = page_folio(vmf->page);
	vm_fault_t ret = finish_fault(vmf, vmf->page);

	if (!ret && dirty)
		folio_mark_dirty(folio);
	folio_unlock(folio);
	if (ret)
		folio_put(folio);
	return ret;
}

/*
 * Map frame pfn, which has no struct page the mm may use, at addr of
 * vma by a special PTE with the VMA's protection (Linux's
 * vmf_insert_pfn): a ->fault of a VM_PFNMAP mapping calls it.  A PTE
 * another CPU filled meanwhile stays.  VM_FAULT_NOPAGE, or VM_FAULT_OOM.
 */
vm_fault_t vmf_insert_pfn(struct vm_area_struct *vma, unsigned long addr, unsigned long pfn)
{
	spinlock_t *ptl;
	pte_t *pte = pte_alloc_map_lock(vma->vm_mm, addr, &ptl);

	if (!pte)
		return VM_FAULT_OOM;
	if (pte_none(*pte)) {
		set_pte_at(vma->vm_mm, addr, pte,
			   pte_mkspecial(pfn_pte(pfn, vma_pgprot(vma, false))));
	}
	pte_unmap_unlock(pte, ptl);
	return VM_FAULT_NOPAGE;
}

/* A read (or unshare) fault: map the page-cache page (Linux's do_read_fault). */
static vm_fault_t do_read_fault(struct vm_fault *vmf)
{
	vm_fault_t ret = __do_fault(vmf);

	return ret ? ret : finish_file_fault(vmf, false);
}

/*
 * A write fault on a private mapping (Linux's do_cow_fault): the page's
 * data is copied into a new order-0 anon folio, which is mapped writable;
 * the page-cache folio stays as it was, and stays locked until the copy
 * is mapped, so a truncation either finds the copy's PTE when it unmaps
 * again (truncate_pagecache's second unmap) or made __do_fault fail.
 */
static vm_fault_t do_cow_fault(struct vm_fault *vmf)
{
	struct folio *new, *folio;
	vm_fault_t ret;

	if (anon_vma_prepare(vmf->vma))
		return VM_FAULT_OOM;
	new = folio_alloc(GFP_HIGHUSER_MOVABLE, 0);
	if (!new)
		return VM_FAULT_OOM;
	ret = __do_fault(vmf);
	if (ret) {
		folio_put(new);
		return ret;
	}
	folio = page_folio(vmf->page);
	memcpy(page_address(&new->page), page_address(vmf->page), PAGE_SIZE);
	ret = finish_fault(vmf, &new->page);
	folio_unlock(folio);
	folio_put(folio);
	if (ret)
		folio_put(new);
	return ret;
}

/*
 * A write fault on a shared mapping (Linux's do_shared_fault): map the
 * page-cache page writable and dirty, and mark its folio dirty (Linux's
 * fault_dirty_shared_page).
 */
static vm_fault_t do_shared_fault(struct vm_fault *vmf)
{
	vm_fault_t ret = __do_fault(vmf);

	return ret ? ret : finish_file_fault(vmf, true);
}

/*
 * A fault of a VMA with vm_ops whose PTE (or PMD) is none (Linux's
 * do_fault).  0, VM_FAULT_OOM or VM_FAULT_SIGBUS (no page there, e.g.
 * beyond the end of the file).  A fault that mapped nothing because
 * another CPU won (NOPAGE) or truncation did (RETRY) retries the access.
 */
vm_fault_t do_fault(struct vm_fault *vmf)
{
	vm_fault_t ret;

	vmf->pgoff = linear_page_index(vmf->vma, vmf->address);
	if (!(vmf->flags & FAULT_FLAG_WRITE))
		ret = do_read_fault(vmf);
	else if (!(vmf->vma->vm_flags & VM_SHARED))
		ret = do_cow_fault(vmf);
	else
		ret = do_shared_fault(vmf);
	return ret & VM_FAULT_ERROR;
}

/*
 * A write to a present read-only PTE of a shared mapping (Linux's
 * wp_page_shared, wp_page_reuse): the page becomes writable and dirty in
 * place, and its folio dirty.  An unshare request has nothing to do: the
 * page is the file's, shared by design.
 */
vm_fault_t wp_page_shared(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;

	if ((vmf->flags & FAULT_FLAG_UNSHARE) || !(vma->vm_flags & VM_WRITE))
		return 0;
	ptep_set_access_flags(vma, vmf->address, vmf->pte, pte_mkdirty(pte_mkwrite(*vmf->pte)));
	if (vmf->page)
		folio_mark_dirty(page_folio(vmf->page));
	return 0;
}
