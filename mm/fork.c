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

/*
 * Copy one present PTE of src_vma at addr into *dst_pte (Linux's
 * copy_present_pte): the child maps the same page, write-protected in both
 * if the mapping is copy-on-write.  0, or -EBUSY for a maybe-pinned page.
 */
static int copy_present_pte(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma,
			    pte_t *dst_pte, pte_t *src_pte, unsigned long addr)
{
	pte_t pte = *src_pte;
	struct page *page = pfn_to_page(pgent_pfn(pte));
	struct folio *folio = page_folio(page);

	if (folio_try_dup_anon_rmap_pte(folio, page, dst_vma, src_vma))
		return -EBUSY;
	folio_get(folio);
	if (is_cow_mapping(src_vma->vm_flags) && pgent_write(pte)) {
		pte = pgent_wrprotect(pte);
		*src_pte = pte;
		flush_tlb_addr(src_vma->vm_mm->pgd, addr);
	}
	*dst_pte = pte;
	return 0;
}

/*
 * Duplicate every present PTE of src_vma into dst_vma, a PTE table at a
 * time (Linux's copy_pte_range()).  0 or -ENOMEM / -EBUSY.
 */
static int copy_page_range(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma)
{
	pgd_t *src_pgd = (pgd_t *)src_vma->vm_mm->pgd, *dst_pgd = (pgd_t *)dst_vma->vm_mm->pgd;
	unsigned long addr = src_vma->vm_start, next;
	pte_t *src;

	while ((src = pte_table_next(src_pgd, &addr, src_vma->vm_end, &next))) {
		pte_t *dst = pgtable_entry(dst_pgd, addr, PT_PTE, true);
		unsigned long table_addr = addr;
		int copied = 0, ret = 0;

		if (!dst)
			return -ENOMEM;
		for (; addr < next; addr += PAGE_SIZE, src++, dst++) {
			if (!pgent_present(*src))
				continue;
			ret = copy_present_pte(dst_vma, src_vma, dst, src, addr);
			if (ret)
				break;
			copied++;
		}
		if (copied)
			pgtable_account_ptes(dst_pgd, table_addr, copied);
		if (ret)
			return ret;
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
