/*
 * Copying an address space for fork (Linux's dup_mmap() and
 * copy_page_range()): the child gets the same VMAs and maps the same
 * pages; private writable pages become copy-on-write in both — the parent's
 * PTE is write-protected and the child's is mapped read-only — and each
 * duplicated mapping is accounted with folio_try_dup_anon_rmap_pte(), which
 * also ends the page's AnonExclusive state.
 *
 * Locking: the parent runs this on its own mm; the child is not running.
 */
#include "mm/mm_api.h"
#include "mm/mm_id.h"
#include "mm/rmap.h"
#include "mm/pgtable.h"
#include "kernel/printk.h"
#include "kernel/string.h"

static bool is_cow_mapping(unsigned long vm_flags)
{
	return vm_flags & VM_WRITE;     /* all mappings are private for now */
}

/* Copy one present PTE of src_vma at addr into dst_vma. 0 or -ENOMEM. */
static int copy_present_pte(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma,
			    pte_t *src_pte, unsigned long addr)
{
	pte_t pte = *src_pte;
	struct page *page = pfn_to_page(pgent_pfn(pte));
	struct folio *folio = page_folio(page);
	pgprot_t prot;
	int ret;

	if (folio_try_dup_anon_rmap_pte(folio, page, dst_vma, src_vma))
		return -ENOMEM;         /* a maybe-pinned page: needs a copy (no pins yet) */
	folio_get(folio);
	if (is_cow_mapping(src_vma->vm_flags) && pgent_write(pte)) {
		*src_pte = pgent_wrprotect(pte);
		flush_tlb_addr(src_vma->vm_mm->pgd, addr);
	}
	prot = user_pgprot(false, src_vma->vm_flags & VM_EXEC);
	if (!is_cow_mapping(src_vma->vm_flags))
		prot = user_pgprot(pgent_write(pte), src_vma->vm_flags & VM_EXEC);
	ret = pgtable_map((pgd_t *)dst_vma->vm_mm->pgd, addr, pgent_pfn(pte), prot, PT_PTE);
	if (ret) {
		folio_remove_rmap_pte(folio, page, dst_vma);
		folio_put(folio);
	}
	return ret;
}

/* Duplicate every present PTE of src_vma into dst_vma. */
static int copy_page_range(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma)
{
	pgd_t *pgd = (pgd_t *)src_vma->vm_mm->pgd;

	for (unsigned long addr = src_vma->vm_start; addr < src_vma->vm_end; ) {
		pmd_t *pmd = pgtable_entry(pgd, addr, PT_PMD, false);
		pte_t *pte;
		int ret;

		if (!pmd || pgent_none(*pmd)) {
			addr = (addr & PMD_MASK) + PMD_SIZE;
			continue;
		}
		pte = pgtable_entry(pgd, addr, PT_PTE, false);
		if (pte && pgent_present(*pte)) {
			ret = copy_present_pte(dst_vma, src_vma, pte, addr);
			if (ret)
				return ret;
		}
		addr += PAGE_SIZE;
	}
	return 0;
}

/* A copy of oldmm for a child process (copy-on-write); NULL on failure. */
struct mm_struct *dup_mm(struct mm_struct *oldmm)
{
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *src;

	if (!mm)
		return NULL;
	mm->start_brk = oldmm->start_brk;
	mm->brk = oldmm->brk;
	mm->start_stack = oldmm->start_stack;
	mm->mmap_base = oldmm->mmap_base;
	list_for_each_entry(src, &oldmm->mmap, vm_list) {
		struct vm_area_struct *dst = vma_create(mm, src->vm_start, src->vm_end,
							src->vm_flags);

		if (!dst || copy_page_range(dst, src))
			goto fail;
	}
	return mm;
fail:
	exit_mmap(mm);
	mmdrop(mm);
	return NULL;
}
