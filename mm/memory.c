/*
 * Page faults and unmapping of anonymous memory (Linux's mm/memory.c).
 *
 * A fault on a not-present page of an anon VMA allocates a zeroed order-0
 * folio, accounts it with folio_add_new_anon_rmap() (exclusive) and maps
 * it with the VMA's protection.  Unmapping removes the rmap and drops the
 * page table's reference.  (mTHP and PMD faults, fork and COW: later.)
 *
 * Locking: the caller owns the mm (see mm/mm_api.h); the page-table and
 * rmap updates happen in that context.  Lock order: mm -> folio mapcount
 * bit lock -> split_queue_lock; zone.lock innermost.
 */
#include "mm/mm_api.h"
#include "mm/rmap.h"
#include "mm/pgtable.h"
#include "kernel/printk.h"
#include "kernel/string.h"

static pgprot_t vma_pgprot(const struct vm_area_struct *vma)
{
	return user_pgprot(vma->vm_flags & VM_WRITE, vma->vm_flags & VM_EXEC);
}

/*
 * Map a new zeroed anon page at addr in vma; it is returned in *pagep if
 * pagep is not NULL (exec copies file data into it).  0 or -ENOMEM.
 */
int install_anon_page(struct vm_area_struct *vma, unsigned long addr, struct page **pagep)
{
	struct folio *folio = folio_alloc(__GFP_ZERO, 0);
	int ret;

	if (!folio)
		return -ENOMEM;
	addr &= PAGE_MASK;
	ret = pgtable_map((pgd_t *)vma->vm_mm->pgd, addr, folio_pfn(folio), vma_pgprot(vma), PT_PTE);
	if (ret) {
		folio_put(folio);
		return ret;
	}
	folio_add_new_anon_rmap(folio, vma, addr, RMAP_EXCLUSIVE);
	if (pagep)
		*pagep = &folio->page;
	return 0;
}

/*
 * A write to a present, write-protected PTE of a private writable mapping
 * (Linux's do_wp_page for order-0 anon folios): reuse the page if it is
 * ours alone — PageAnonExclusive, or refcount 1 (then it becomes
 * exclusive) — otherwise copy it into a new exclusive folio.
 */
static int do_wp_page(struct vm_area_struct *vma, unsigned long address, pte_t *ptep)
{
	pgd_t *pgd = (pgd_t *)vma->vm_mm->pgd;
	struct page *page = pfn_to_page(pgent_pfn(*ptep));
	struct folio *folio = page_folio(page), *new;

	address &= PAGE_MASK;
	if (PageAnonExclusive(page) ||
	    (!folio_test_large(folio) && folio_ref_count(folio) == 1)) {
		SetPageAnonExclusive(page);
		*ptep = pgent_mkwrite(*ptep);
		flush_tlb_addr(pgd, address);
		return 0;
	}
	new = folio_alloc(0, 0);
	if (!new)
		return -ENOMEM;
	memcpy(page_address(&new->page), page_address(page), PAGE_SIZE);
	folio_add_new_anon_rmap(new, vma, address, RMAP_EXCLUSIVE);
	*ptep = mk_pte_entry(folio_pfn(new), vma_pgprot(vma));
	flush_tlb_addr(pgd, address);
	folio_remove_rmap_pte(folio, page, vma);
	folio_put(folio);
	return 0;
}

/*
 * Resolve a fault at address in vma.  Returns 0 (retry the access),
 * -EFAULT (the access is not allowed: SIGSEGV) or -ENOMEM (OOM).
 */
int handle_mm_fault(struct vm_area_struct *vma, unsigned long address, unsigned int flags)
{
	struct pgwalk w;

	if ((flags & FAULT_FLAG_WRITE) && !(vma->vm_flags & VM_WRITE))
		return -EFAULT;
	if ((flags & FAULT_FLAG_EXEC) && !(vma->vm_flags & VM_EXEC))
		return -EFAULT;
	if (!(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return -EFAULT;
	if (pgtable_lookup((pgd_t *)vma->vm_mm->pgd, address, &w)) {
		pte_t *pte = pgtable_entry((pgd_t *)vma->vm_mm->pgd, address, PT_PTE, false);

		if (!pte)
			return -EFAULT;
		if ((flags & FAULT_FLAG_WRITE) && !pgent_write(*pte))
			return do_wp_page(vma, address, pte);
		return 0;               /* the PTE allows it now: a stale TLB entry */
	}
	return install_anon_page(vma, address, NULL);
}

/*
 * Unmap every present page of [start, end) in vma and drop its folio, one
 * PTE table at a time: the entries are cleared in place, then accounted at
 * once (which frees tables left empty).  Linux's zap_pte_range().
 */
void zap_page_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	pgd_t *pgd = (pgd_t *)vma->vm_mm->pgd;
	unsigned long addr = start, next;
	pte_t *pte;

	while ((pte = pte_table_next(pgd, &addr, end, &next))) {
		unsigned long table_addr = addr;
		int cleared = 0;

		for (; addr < next; addr += PAGE_SIZE, pte++) {
			struct page *page;

			if (!pgent_present(*pte))
				continue;
			page = pfn_to_page(pgent_pfn(*pte));
			*pte = 0;
			flush_tlb_addr(pgd, addr);
			folio_remove_rmap_pte(page_folio(page), page, vma);
			folio_put(page_folio(page));
			cleared++;
		}
		if (cleared)
			pgtable_account_ptes(pgd, table_addr, -cleared);
	}
}

/*
 * Rewrite the present PTEs of [start, end) for vma's (new) permissions.
 * Write permission goes only to pages exclusive to this mm; the others
 * stay read-only so that a write still takes the copy-on-write fault.
 */
void change_protection(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	pgd_t *pgd = (pgd_t *)vma->vm_mm->pgd;
	unsigned long addr = start, next;
	pte_t *pte;

	while ((pte = pte_table_next(pgd, &addr, end, &next))) {
		for (; addr < next; addr += PAGE_SIZE, pte++) {
			struct page *page;
			bool write;

			if (!pgent_present(*pte))
				continue;
			page = pfn_to_page(pgent_pfn(*pte));
			write = (vma->vm_flags & VM_WRITE) && PageAnonExclusive(page);
			*pte = pgent_modify(*pte, user_pgprot(write, vma->vm_flags & VM_EXEC));
			flush_tlb_addr(pgd, addr);
		}
	}
}
