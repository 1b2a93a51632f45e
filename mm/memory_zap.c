/*
 * Unmapping (the zap half of Linux's mm/memory.c): munmap, exit,
 * MADV_DONTNEED and truncation clear PTEs and PMD leaves, take the folios'
 * rmap down and gather their references in an mmu_gather (mm/tlb.h), to
 * drop once every CPU flushed its TLB; a table left empty goes too where
 * the gather may free tables (linux/pgtable.h says when).
 *
 * Locks: the caller holds the mmap_lock (for write, or for read as
 * MADV_DONTNEED does) or, truncating another process, the file's
 * i_mmap_rwsem; PTEs are cleared under their table's lock, a PMD leaf
 * under pmd_lock.  Only sleeping locks are held between PMDs, where the
 * walk may give the CPU away (cond_resched).  Order: mm/rmap.c.
 */
#include "linux/pagemap.h"
#include "mm/internal.h"
#include "linux/rmap.h"
#include "mm/tlb.h"
#include "linux/swap.h"
#include "linux/swapops.h"

/*
 * nr PTEs of one page-cache folio were cleared, ptent their A/D bits
 * merged (Linux's zap_present_folio_ptes for !anon): a write through any
 * of them made the folio dirty; RssFile or RssShmem falls.  True if one
 * was dirty: then the TLB is flushed before the PTE lock goes (Linux's
 * force_flush), so no CPU writes through a stale entry once the mapping
 * is gone — after which a memfd may be sealed against writes.
 */
static bool zap_file_ptes(struct vm_area_struct *vma, struct folio *folio, pte_t ptent, int nr)
{
	add_mm_counter_file(vma->vm_mm, folio, -nr);
	if (!pte_dirty(ptent))
		return false;
	folio_mark_dirty(folio);
	return true;
}

/*
 * One batch of zap_pte_range: clear nr PTEs from pte (at addr) that map
 * folio's pages from page on.  A page-cache folio's are cleared by atomic
 * exchanges, so a dirty bit a CPU sets up to the clear reaches the folio;
 * an anon folio's A/D bits do not outlive the mapping (plain stores).
 * True if the TLB must be flushed before the PTE lock goes (zap_file_ptes).
 */
static __always_inline bool zap_present_folio_ptes(struct mmu_gather *tlb, struct vm_area_struct *vma,
					  struct folio *folio, struct page *page, pte_t *pte,
					  unsigned long addr, int nr)
{
	bool force_flush = false;

	if (likely(folio_test_anon(folio)))
		__clear_ptes(pte, nr);
	else
		force_flush = zap_file_ptes(vma, folio, __get_and_clear_ptes(pte, nr), nr);
	tlb_flush_pte_range(tlb, addr, (unsigned long)nr << PAGE_SHIFT);
	folio_remove_rmap_ptes(folio, page, nr, vma);
	if (__tlb_remove_folio_pages(tlb, page, nr))
		tlb_flush_mmu(tlb);
	return force_flush;
}

/*
 * Clear the non-present, non-PROT_NONE PTE at addr (Linux's
 * zap_nonpresent_ptes).  A swap entry: its slot loses the count
 * (free_swap_and_cache_nr), the mm a VmSwap page; returns 0.  A
 * migration entry, whose page a split or migration holds and will not
 * map here again (remove_migration_ptes finds no entry): returns 1, its
 * anon page counted in RSS.  No flush: the CPU never cached either.
 */
static noinline_fn int zap_nonpresent_pte(struct vm_area_struct *vma, unsigned long addr,
					  pte_t *pte)
{
	swp_entry_t entry = pte_to_swp_entry(ptep_get_and_clear(vma->vm_mm, addr, pte));

	if (!non_swap_entry(entry)) {
		free_swap_and_cache_nr(entry, 1);
		add_mm_counter_swap(vma->vm_mm, -1);
		return 0;
	}
	VM_WARN_ON_ONCE(!is_migration_entry(entry),
			"zap_nonpresent_pte: a swap entry of a kind foliOS never makes");
	return 1;
}

/*
 * Unmap the present PTEs of [addr, end) under one PMD, a batch of PTEs of
 * one folio at a time (Linux's zap_pte_range + zap_present_ptes): one rmap
 * call per batch, its references gathered in tlb to drop after the flush
 * (a stale TLB entry elsewhere may still reach the pages until then); a
 * zero-page PTE is only cleared.  Under the table's lock: a fault of
 * another thread (MADV_DONTNEED holds the mmap_lock for read) or an rmap
 * walker may be at these PTEs.  Then the table goes to tlb if that left
 * it empty.
 */
static void zap_pte_range(struct mmu_gather *tlb, struct vm_area_struct *vma, pmd_t *pmd,
			  unsigned long addr, unsigned long end)
{
	unsigned long table_addr = addr;
	int cleared = 0, anon = 0, nr;
	bool force_flush = false;
	spinlock_t *ptl;
	pte_t *pte = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);

	if (!pte)
		return;         /* no PTE table here any more */

	for (; addr < end; addr += (unsigned long)nr << PAGE_SHIFT, pte += nr) {
		struct page *page;
		struct folio *folio;

		nr = 1;
		if (!pte_present(*pte)) {
			if (unlikely(!pte_none(*pte)))
				anon += zap_nonpresent_pte(vma, addr, pte);
			continue;
		}
		page = vm_normal_page(vma, addr, *pte);
		if (unlikely(!page)) {
			ptep_get_and_clear(vma->vm_mm, addr, pte);
			tlb_flush_pte_range(tlb, addr, PAGE_SIZE);
			continue;
		}
		folio = page_folio(page);
		nr = folio_pte_batch(folio, pte, (end - addr) >> PAGE_SHIFT);
		if (likely(folio_test_anon(folio)))
			anon += nr;
		force_flush |= zap_present_folio_ptes(tlb, vma, folio, page, pte, addr, nr);
		cleared += nr;
	}
	if (anon)
		add_mm_counter(vma->vm_mm, -anon);
	if (cleared)
		pte_table_add_used(pte_offset_kernel(pmd, table_addr), -cleared);
	if (force_flush)
		tlb_flush_mmu_tlbonly(tlb);
	pte_unmap_unlock(pte, ptl);
	tlb_free_empty_tables(tlb, vma, table_addr, PT_PTE);
}

/*
 * Unmap every present page of [start, end) in vma, the folio references
 * gathered in tlb (Linux's unmap_page_range).  A PMD leaf wholly inside
 * the range goes at once; one only partly inside is split into PTEs first
 * (the folio stays whole until deferred split) — a file PMD's split zaps
 * it all, its other pages refault.
 */
void unmap_page_range(struct mmu_gather *tlb, struct vm_area_struct *vma,
		      unsigned long start, unsigned long end)
{
	pgd_t *pgd = vma->vm_mm->pgd;
	unsigned long addr = start, next;
	pmd_t *pmd;

	for (; (pmd = pmd_entry_next(pgd, &addr, end, &next)); addr = next) {
		if (is_swap_pmd(*pmd))  /* a PMD migration entry: its 512 PTE entries go below */
			__split_huge_pmd(vma, pmd, addr);
		if (pmd_trans_huge(*pmd)) {
			if (IS_ALIGNED(addr, PMD_SIZE) && next - addr == PMD_SIZE) {
				if (zap_huge_pmd(tlb, vma, pmd, addr))
					continue;
			} else {
				__split_huge_pmd(vma, pmd, addr);
			}
			if (pmd_none(*pmd))
				continue;
		}
		zap_pte_range(tlb, vma, pmd, addr, next);
		cond_resched();         /* a big unmap: let the others on this CPU run */
	}
}

/* Unmap [start, end) of vma with a gather of its own (madvise, truncation). */
void zap_page_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct mmu_gather tlb;

	tlb_gather_mmu(&tlb, vma->vm_mm);
	unmap_page_range(&tlb, vma, start, end);
	tlb_finish_mmu(&tlb);
}
