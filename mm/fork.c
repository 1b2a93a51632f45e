/*
 * Copying an address space for fork (Linux's dup_mmap() and
 * copy_page_range()): the child gets the same VMAs and maps the same
 * pages; private writable pages become copy-on-write in both — the parent's
 * PTE or PMD is write-protected and the child's is mapped read-only — and
 * each run of PTEs of one folio is accounted with one
 * folio_try_dup_anon_rmap_ptes() (a PMD leaf with ..._pmd()), which also
 * ends the pages' AnonExclusive state.  Each child VMA is linked to its
 * parent VMA's anon_vmas and gets one of its own (anon_vma_fork), so the
 * rmap walk of a shared folio finds the child's mapping.
 *
 * Locks: dup_mm() holds the parent's mmap_lock for write, then the
 * child's (Linux's dup_mmap): the child is not running, but swapoff may
 * find it on swap_mmlist once a swap entry is copied, and waits.  Each
 * table is copied under the child's, then the parent's page-table lock;
 * between tables the copy may give the CPU away (cond_resched), holding
 * only the mmap_lock.  The parent's other threads' CPUs set A/D bits in
 * its PTEs meanwhile (__copy_ptes keeps them).  Order: mm/rmap.c.
 */
#include "linux/errno.h"
#include "mm/internal.h"
#include "linux/sched/mm.h"
#include "linux/rmap.h"
#include "linux/pgtable.h"
#include "linux/swap.h"
#include "linux/swapops.h"
#include "linux/mmap_lock.h"
#include "linux/printk.h"
#include "linux/string.h"

/*
 * Are writes to this mapping copied on write (Linux's is_cow_mapping)?  A
 * private writable one: its writable PTEs become read-only in both mms.
 */
static bool is_cow_mapping(unsigned long vm_flags)
{
	return (vm_flags & (VM_SHARED | VM_WRITE)) == VM_WRITE;
}

/*
 * Must fork copy src_vma's page tables (Linux's vma_needs_copy)?  Only if
 * it may hold anon pages (an anon_vma): everything else — a shared mapping,
 * a private file mapping never written — the child's faults fill in from
 * the file as well as a copy would.
 */
static bool vma_needs_copy(const struct vm_area_struct *src_vma)
{
	return src_vma->anon_vma;
}

/*
 * The child maps nr PTEs of a page-cache folio its parent maps in a
 * private mapping that has anon pages too: one more reference and mapping
 * each (folio_dup_file_rmap_ptes), write-protected in both if writable.
 * Returns nr.
 */
static int copy_file_ptes(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma,
			  pte_t *dst_pte, pte_t *src_pte, struct folio *folio, struct page *page,
			  int nr)
{
	folio_ref_add(folio, nr);
	folio_dup_file_rmap_ptes(folio, page, nr, dst_vma);
	__copy_ptes(dst_pte, src_pte, nr, is_cow_mapping(src_vma->vm_flags) && pte_write(*src_pte));
	add_mm_counter_file(dst_vma->vm_mm, folio, nr);
	return nr;
}

/*
 * The child gets its own copy of the anon page mapped at addr, because the
 * parent's may be pinned (Linux's copy_present_page): a new exclusive
 * folio, mapped writable if the VMA is, while the parent's PTE and the
 * page's exclusivity stay as they are — the pin and the parent's mapping
 * remain the same page.  1 (one PTE done) or -ENOMEM.
 */
static int copy_present_page(struct vm_area_struct *dst_vma, pte_t *dst_pte, unsigned long addr,
			     struct page *page)
{
	struct folio *new = folio_alloc(0, 0);

	if (!new)
		return -ENOMEM;
	memcpy(page_address(&new->page), page_address(page), PAGE_SIZE);
	folio_add_new_anon_rmap(new, dst_vma, addr, RMAP_EXCLUSIVE);
	folio_add_lru(new);
	*dst_pte = pfn_pte(folio_pfn(new), vm_get_page_prot(dst_vma));
	return 1;
}

/*
 * The dup of a batch failed because the folio may be pinned: retry it one
 * PTE at a time, copying each exclusive page for the child (Linux goes
 * back to a single PTE the same way).  Returns the PTEs done (1) or
 * -ENOMEM.  Out of line: fork's common path stays short.
 */
static noinline_fn int copy_maybe_pinned_pte(struct vm_area_struct *dst_vma,
					  struct vm_area_struct *src_vma, pte_t *dst_pte,
					  pte_t *src_pte, unsigned long addr, struct folio *folio,
					  struct page *page)
{
	folio_ref_add(folio, 1);
	if (folio_try_dup_anon_rmap_ptes(folio, page, 1, dst_vma, src_vma)) {
		folio_put_refs(folio, 1);
		return copy_present_page(dst_vma, dst_pte, addr, page);
	}
	__copy_ptes(dst_pte, src_pte, 1, is_cow_mapping(src_vma->vm_flags) && pte_write(*src_pte));
	return 1;
}

/*
 * Copy nr present PTEs of one folio, from src_pte (mapping page at addr)
 * on, into dst_pte (Linux's copy_present_ptes): the child maps the same
 * pages, write-protected in both if the mapping is copy-on-write.  One
 * rmap call and one reference update for the whole batch; the parent's
 * stale TLB entries go in one flush at the end of dup_mm().  When the dup
 * fails because the folio may be pinned (-EBUSY), the first PTE is done
 * on its own (copy_maybe_pinned_pte).  A page-cache folio's PTEs are dups
 * of the file rmap (copy_file_ptes).  Returns the number of PTEs done, or
 * -ENOMEM.  References before mappings, as Linux: the COW reuse check
 * relies on the refcount never being below the mapcount.
 */
static int copy_present_ptes(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma,
			     pte_t *dst_pte, pte_t *src_pte, unsigned long addr,
			     struct folio *folio, struct page *page, int nr)
{
	if (unlikely(!folio_test_anon(folio)))
		return copy_file_ptes(dst_vma, src_vma, dst_pte, src_pte, folio, page, nr);
	folio_ref_add(folio, nr);
	if (unlikely(folio_try_dup_anon_rmap_ptes(folio, page, nr, dst_vma, src_vma))) {
		folio_put_refs(folio, nr);
		return copy_maybe_pinned_pte(dst_vma, src_vma, dst_pte, src_pte, addr, folio, page);
	}
	__copy_ptes(dst_pte, src_pte, nr, is_cow_mapping(src_vma->vm_flags) && pte_write(*src_pte));
	return nr;
}

/*
 * Copy the non-present, non-PROT_NONE PTE src_pte at addr into dst_pte
 * (Linux's copy_nonpresent_pte).  A swap entry: its slot gets one more
 * count, the child's mm goes on swapoff's list, and the entry is shared
 * from now on — SWP_EXCLUSIVE cleared in the parent too, so neither
 * swap-in maps the page writable without checking.  A migration entry,
 * whose page a split or migration on another CPU holds unmapped: the
 * child gets the entry, and remove_migration_ptes() maps the page in
 * both; in a copy-on-write mapping the entry turns read-only and shared
 * in both first, as a present PTE would.  Returns the child's anon pages
 * (1 for a migration entry: its RSS counts the page; 0 for a swap entry,
 * counted in its VmSwap), or -ENOMEM (a swap count with no room).
 */
static noinline_fn int copy_nonpresent_pte(struct vm_area_struct *dst_vma,
					   struct vm_area_struct *src_vma, pte_t *dst_pte,
					   pte_t *src_pte, unsigned long addr)
{
	pte_t pte = *src_pte;
	swp_entry_t entry = pte_to_swp_entry(pte);

	if (!non_swap_entry(entry)) {
		if (swap_duplicate_nr(entry, 1))
			return -ENOMEM;
		swap_mmlist_add(dst_vma->vm_mm);
		if (pte_swp_exclusive(pte)) {
			pte = pte_swp_clear_exclusive(pte);
			set_pte_at(src_vma->vm_mm, addr, src_pte, pte);
		}
		set_pte_at(dst_vma->vm_mm, addr, dst_pte, pte);
		add_mm_counter_swap(dst_vma->vm_mm, 1);
		return 0;
	}
	VM_WARN_ON_ONCE(!is_migration_entry(entry),
			"copy_nonpresent_pte: a swap entry of a kind foliOS never makes");
	if (is_cow_mapping(src_vma->vm_flags)) {
		pte = migration_pte_wrprotect(pte, false);
		set_pte_at(src_vma->vm_mm, addr, src_pte, pte);
	}
	set_pte_at(dst_vma->vm_mm, addr, dst_pte, pte);
	return 1;
}

/*
 * Duplicate the present PTEs of [addr, end) under one PMD of src_vma into
 * dst_vma (Linux's copy_pte_range), in batches of consecutive PTEs of one
 * folio (folio_pte_batch); a zero-page PTE is copied as it is (special,
 * read-only, no reference, no RSS).  Under the child's PTE table lock,
 * then the parent's (Linux's order).  0 or -ENOMEM.
 */
static int copy_pte_range(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma,
			  pmd_t *src_pmd, unsigned long addr, unsigned long end)
{
	spinlock_t *dst_ptl, *src_ptl;
	pte_t *src, *dst = pte_alloc_map_lock(dst_vma->vm_mm, addr, &dst_ptl), *dst_start = dst;
	int copied = 0, anon = 0, ret = 0, nr;

	if (!dst)
		return -ENOMEM;
	src = pte_offset_map_lock_nested(src_vma->vm_mm, src_pmd, addr, &src_ptl,
					 SINGLE_DEPTH_NESTING);
	if (!src)
		goto unlock;    /* the parent's PMD is no PTE table (any more): nothing to copy */
	for (; addr < end; addr += (unsigned long)nr << PAGE_SHIFT, src += nr, dst += nr) {
		struct page *page;
		struct folio *folio;

		nr = 1;
		if (!pte_present(*src)) {
			if (unlikely(!pte_none(*src))) {
				if ((ret = copy_nonpresent_pte(dst_vma, src_vma, dst, src, addr)) < 0)
					break;
				anon += ret;
				ret = 0;
			}
			continue;
		}
		page = vm_normal_page(src_vma, addr, *src);
		if (unlikely(!page)) {  /* the zero page */
			__copy_ptes(dst, src, 1, false);
			pte_table_add_used(dst, 1);
			continue;
		}
		folio = page_folio(page);
		nr = folio_pte_batch(folio, src, (end - addr) >> PAGE_SHIFT);
		nr = copy_present_ptes(dst_vma, src_vma, dst, src, addr, folio, page, nr);
		if ((ret = MIN(nr, 0)))
			break;
		copied += nr;
		if (likely(folio_test_anon(folio)))
			anon += nr;
	}
	pte_table_add_used(dst_start, copied);
	add_mm_counter(dst_vma->vm_mm, anon);
	pte_unmap_unlock(src, src_ptl);
unlock:
	pte_unmap_unlock(dst_start, dst_ptl);
	return ret;
}

/*
 * Duplicate every mapping of src_vma into dst_vma, a PMD entry at a time
 * (Linux's copy_page_range): a PMD leaf as a PMD leaf — unless its THP may
 * be pinned: then copy_huge_pmd() split it (-EAGAIN) — a PTE table batch by
 * batch, a scheduling point after each.  0 or -ENOMEM.
 */
static int copy_page_range(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma)
{
	pgd_t *src_pgd = src_vma->vm_mm->pgd;
	unsigned long addr = src_vma->vm_start, next;
	pmd_t *pmd;

	mmap_assert_write_locked(src_vma->vm_mm);       /* no fault or munmap of the parent's meanwhile */
	for (; (pmd = pmd_entry_next(src_pgd, &addr, src_vma->vm_end, &next)); addr = next) {
		int ret = -EAGAIN;

		if (pmd_trans_huge(*pmd))
			ret = copy_huge_pmd(dst_vma, src_vma, pmd, addr);
		else if (unlikely(is_swap_pmd(*pmd)))   /* a PMD migration entry: copy its PTE ones */
			__split_huge_pmd(src_vma, pmd, addr);

		if (ret == -EAGAIN)
			ret = copy_pte_range(dst_vma, src_vma, pmd, addr, next);

		if (ret)
			return ret;
		cond_resched();         /* a big fork: let the others on this CPU run */
	}
	return 0;
}

/*
 * A copy of oldmm for a child process (copy-on-write); NULL on failure.
 * MADV_DONTFORK VMAs are left out; MADV_WIPEONFORK ones start empty; a
 * VMA of a file maps the same file (vma_dup_file), its page tables copied
 * only where vma_needs_copy() says.
 */
struct mm_struct *dup_mm(struct mm_struct *oldmm)
{
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *src;

	if (!mm)
		return NULL;
	mmap_write_lock(oldmm);
	/* Swapoff reaches the child through swap_mmlist from its first swap entry on. */
	mmap_write_lock_nested(mm, SINGLE_DEPTH_NESTING);
	mm->start_brk = oldmm->start_brk;
	mm->brk = oldmm->brk;
	mm->start_stack = oldmm->start_stack;
	mm->mmap_base = oldmm->mmap_base;
	mm->flags = oldmm->flags & MMF_INIT_MASK;
	mm->membarrier_state = oldmm->membarrier_state;   /* registrations last across fork */
	list_for_each_entry(src, &oldmm->mmap, vm_list) {
		struct vm_area_struct *dst;

		if (src->vm_flags & VM_DONTCOPY)
			continue;
		/* locks are the parent's own: the child's VMAs start unlocked (Linux's dup_mmap) */
		dst = vma_create(mm, src->vm_start, src->vm_end, src->vm_flags & ~VM_LOCKED_MASK);
		if (!dst)
			goto fail;
		dst->vm_pgoff = src->vm_pgoff;
		vma_dup_file(dst, src);
		/* A wiped VMA starts without anon folios, so without an anon_vma (Linux's dup_mmap). */
		if (src->vm_flags & VM_WIPEONFORK)
			continue;
		if (anon_vma_fork(dst, src))
			goto fail;
		if (vma_needs_copy(src) && copy_page_range(dst, src))
			goto fail;
	}
	flush_tlb_mm(oldmm);
	mmap_write_unlock(mm);
	mmap_write_unlock(oldmm);
	return mm;
fail:
	flush_tlb_mm(oldmm);            /* some parent PTEs may be write-protected */
	mmap_write_unlock(mm);
	mmap_write_unlock(oldmm);
	mmput_new(mm);                  /* off swap_mmlist too; swapoff may hold it a moment longer */
	return NULL;
}
