/*
 * The write-protect fault (the do_wp_page half of Linux's mm/memory.c):
 * a write to a read-only PTE of a private writable mapping is
 * copy-on-write (MISSING.md §Patch 13): reuse the page when this mm is its
 * only user — for a large folio, proved through the MM owner slots under
 * the mapcount lock — else copy one 4 KiB page.  A write to the zero page
 * gets a new zeroed 4 KiB page (Linux's wp_page_copy: no large folio for
 * it, as Linux).
 *
 * Locks: entered with the PTE table's lock held (handle_pte_fault), under
 * the mmap_lock for read; order in mm/rmap.c.
 */
#include "mm/internal.h"
#include "mm/rmap.h"
#include "mm/rmap_trace.h"
#include "linux/string.h"

/*
 * May this mm reuse a page of a PTE-mapped large anon folio for writing
 * (Linux's __wp_can_reuse_large_anon_folio)?  Only when the MM owner slots
 * prove that all mappings are this mm's and nothing else holds a
 * reference: not maybe-shared, and refcount == large mapcount, checked
 * again under the mapcount lock.  A single mapping is not reused: copying
 * the one page lets the folio go.
 */
static bool __wp_can_reuse_large_anon_folio(struct folio *folio, struct vm_area_struct *vma)
{
	bool exclusive = false;

	if (folio_large_mapcount(folio) <= 1)
		return false;
	if (folio_test_large_maybe_mapped_shared(folio))
		return false;
	if (folio_large_mapcount(folio) != folio_ref_count(folio))
		return false;
	folio_lock_large_mapcount(folio);
	if (folio_test_large_maybe_mapped_shared(folio))
		goto unlock;
	VM_WARN_ON_ONCE(folio_large_mapcount(folio) > folio_ref_count(folio),
			"large mapcount above refcount: a mapping without its reference");
	if (folio_large_mapcount(folio) != folio_ref_count(folio))
		goto unlock;
	VM_WARN_ON_ONCE(folio_large_mapcount(folio) > folio_nr_pages(folio),
			"reuse: more PTE mappings than pages in one mm");
	VM_WARN_ON_ONCE(folio_entire_mapcount(folio), "reuse: PTE fault on a PMD-mapped folio");
	VM_WARN_ON_ONCE(folio_mm_id(folio, 0) != vma->vm_mm->mm_id &&
			folio_mm_id(folio, 1) != vma->vm_mm->mm_id,
			"reuse: exclusive folio without this mm in a slot");
	exclusive = true;
unlock:
	folio_unlock_large_mapcount(folio);
	return exclusive;
}

/*
 * May this mm reuse the page for writing?  A small folio it holds the only
 * reference to is ours alone from now on: it moves to vma's anon_vma
 * (Linux's wp_can_reuse_anon_folio; a large one stays where it is, as in
 * Linux: other pages of it may be mapped elsewhere).  Under the PTL; the
 * small folio's refcount is checked again under the folio lock, which
 * folio_move_anon_rmap() needs (a folio locked elsewhere is copied).
 */
static bool wp_can_reuse_anon_folio(struct folio *folio, struct vm_area_struct *vma)
{
	if (folio_test_large(folio))
		return __wp_can_reuse_large_anon_folio(folio, vma);
	if (folio_ref_count(folio) != 1 || !folio_trylock(folio))
		return false;
	if (folio_ref_count(folio) != 1) {
		folio_unlock(folio);
		return false;
	}
	folio_move_anon_rmap(folio, vma);
	folio_unlock(folio);
	return true;
}

/*
 * Copy-on-write of one 4 KiB page (Linux's wp_page_copy): a new exclusive
 * order-0 anon folio replaces the page in this PTE; the old folio — anon,
 * or a page-cache folio of a private file mapping — loses one mapping
 * (which may free this mm's slot and clear the shared bit).
 * page NULL: the PTE maps the zero page, the new page is zeroed and there
 * is no old folio to let go.  Called with the PTL held and the PTE seen
 * as orig_pte; allocates with it dropped, the old folio pinned (an
 * allocation that fails drains the deferred split queue, and a split must
 * not take the folio from under us), then retakes it: a PTE no longer
 * orig_pte means another CPU resolved the fault, the copy goes back and
 * the access is retried.  Break before make: the old PTE is cleared and
 * flushed from every TLB before the new one is set, then the old mapping
 * leaves the rmap.  Returns unlocked: 0 or -ENOMEM.
 */
static __always_inline int wp_page_copy(struct vm_area_struct *vma, unsigned long address,
					pmd_t *pmd, pte_t *pte, spinlock_t *ptl, struct page *page)
{
	struct folio *folio = page ? page_folio(page) : NULL, *new;
	struct mm_struct *mm = vma->vm_mm;
	pte_t orig_pte = *pte;

	if (page)
		folio_get(folio);
	pte_unmap_unlock(pte, ptl);
	new = anon_vma_prepare(vma) ? NULL : folio_alloc_reclaim(vma->vm_mm, page ? 0 : __GFP_ZERO);
	if (!new)
		goto out;
	if (page)
		memcpy(page_address(&new->page), page_address(page), PAGE_SIZE);
	pte = pte_offset_map_lock(mm, pmd, address, &ptl);
	if (unlikely(!pte || *pte != orig_pte)) {
		if (pte)
			pte_unmap_unlock(pte, ptl);
		folio_put(new);
		goto out;
	}
	ptep_clear_flush(vma, address, pte);
	folio_add_new_anon_rmap(new, vma, address, RMAP_EXCLUSIVE);
	set_pte_at(mm, address, pte,
		   pgent_mksoft_dirty(mk_pte_entry(folio_pfn(new), vm_get_page_prot(vma))));
	if (!page || !folio_test_anon(folio))
		add_mm_counter(mm, 1);
	if (page && !folio_test_anon(folio))
		add_mm_counter_file(mm, folio, -1);
	if (page)
		folio_remove_rmap_pte(folio, page, vma);
	pte_unmap_unlock(pte, ptl);
	if (page)
		folio_put_refs(folio, 2);       /* the old PTE's reference and ours */
	return 0;
out:
	if (page)
		folio_put(folio);
	return new ? 0 : -ENOMEM;
}

/*
 * A write to a present, write-protected PTE (Linux's do_wp_page), or an
 * unshare request (FAULT_FLAG_UNSHARE: a R/O pin wants the page
 * exclusive), with the PTL held; returns with it dropped.  A shared
 * mapping makes the page writable in place (wp_page_shared).  A private
 * one reuses an anon page if it is already PageAnonExclusive or
 * wp_can_reuse_anon_folio() says this mm is its only user — then only
 * this page becomes exclusive — else copies it; the zero page and a
 * page-cache page are always replaced.  Only a write to a VM_WRITE mapping
 * makes the PTE writable (Linux's maybe_mkwrite): an unshare leaves it
 * read-only, and so does a FOLL_FORCE write to a R/O mapping.
 */
int do_wp_page(struct vm_area_struct *vma, unsigned long address, pmd_t *pmd, pte_t *pte,
		      spinlock_t *ptl, unsigned int flags)
{
	struct page *page = vm_normal_page(vma, address, *pte);
	struct folio *folio;

	address &= PAGE_MASK;
	if (unlikely(vma->vm_flags & (VM_SHARED | VM_MAYSHARE))) {
		wp_page_shared(vma, address, pte, flags);
		pte_unmap_unlock(pte, ptl);
		return 0;
	}
	if (unlikely(!page))
		return wp_page_copy(vma, address, pmd, pte, ptl, NULL);  /* the zero page */
	folio = page_folio(page);
	if (unlikely(!folio_test_anon(folio)))
		return wp_page_copy(vma, address, pmd, pte, ptl, page);  /* a private file page */
	if (!PageAnonExclusive(page)) {
		if (!wp_can_reuse_anon_folio(folio, vma))
			return wp_page_copy(vma, address, pmd, pte, ptl, page);
		SetPageAnonExclusive(page);
		rmap_trace_event(folio, RMAP_TRACE_REUSE, 1, vma);
	}
	if (!(flags & FAULT_FLAG_UNSHARE) && (vma->vm_flags & VM_WRITE))
		ptep_set_access_flags(vma, address, pte, pgent_mkwrite(*pte));
	pte_unmap_unlock(pte, ptl);
	return 0;
}

