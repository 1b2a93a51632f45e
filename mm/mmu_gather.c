/*
 * The mmu_gather (Linux's mm/mmu_gather.c): batches the pages and page
 * tables an unmap releases so they are freed only after every CPU that
 * may cache the range flushed it (mm/tlb.h).  One flush per batch instead
 * of one per page, and no page reused while a stale entry could reach it.
 */
#include "mm/tlb.h"
#include "linux/page-flags.h"
#include "mm/internal.h"
#include "linux/swap.h"

static void __tlb_reset_range(struct mmu_gather *tlb)
{
	tlb->start = ~0UL;
	tlb->end = 0;
	tlb->freed_tables = tlb->cleared_ptes = tlb->cleared_pmds = false;
}

/* Start gathering what an unmap of part of mm releases. */
void tlb_gather_mmu(struct mmu_gather *tlb, struct mm_struct *mm)
{
	tlb->mm = mm;
	tlb->fullmm = false;
	tlb->free_tables = false;
	tlb->nr_pages = tlb->nr_tables = 0;
	__tlb_reset_range(tlb);
}

/* The same for an mm being torn down whole (exit_mmap): flushes are full ones. */
void tlb_gather_mmu_fullmm(struct mmu_gather *tlb, struct mm_struct *mm)
{
	tlb_gather_mmu(tlb, mm);
	tlb->fullmm = true;
	tlb->free_tables = true;
}

/* Flush the gathered range from every CPU's TLB (Linux's x86 tlb_flush). */
void tlb_flush_mmu_tlbonly(struct mmu_gather *tlb)
{
	unsigned long start = tlb->start, end = tlb->end;

	if (!end)
		return;
	if (tlb->fullmm) {
		start = 0;
		end = TLB_FLUSH_ALL;
	}
	flush_tlb_mm_range(tlb->mm, start, end,
			   tlb->cleared_ptes || !tlb->cleared_pmds ? PAGE_SHIFT : PMD_SHIFT,
			   tlb->freed_tables);
	__tlb_reset_range(tlb);
}

/*
 * After the flush: free the gathered tables, drop the gathered references
 * (Linux's free_pages_and_swap_cache: a folio the swap cache holds that
 * nothing maps any more leaves the cache first, if no swap entry needs it).
 */
static void tlb_flush_mmu_free(struct mmu_gather *tlb)
{
	for (unsigned int i = 0; i < tlb->nr_tables; i++)
		pt_free_table(tlb->tables[i]);
	for (unsigned int i = 0; i < tlb->nr_pages; i++) {
		free_swap_cache(tlb->pages[i].folio);
		folio_put_refs(tlb->pages[i].folio, tlb->pages[i].nr_refs);
	}
	tlb->nr_tables = tlb->nr_pages = 0;
}

/* Flush, then free what was gathered so far; the gather goes on. */
void tlb_flush_mmu(struct mmu_gather *tlb)
{
	tlb_flush_mmu_tlbonly(tlb);
	tlb_flush_mmu_free(tlb);
}

/* End the gather: flush and free the rest. */
void tlb_finish_mmu(struct mmu_gather *tlb)
{
	tlb_flush_mmu(tlb);
}

/* Queue a page-table page its walker unhooked; it is freed after the flush. */
void tlb_remove_table(struct mmu_gather *tlb, void *table)
{
	tlb->tables[tlb->nr_tables++] = table;
	tlb->freed_tables = true;
	if (tlb->nr_tables == MMU_GATHER_TABLES)
		tlb_flush_mmu(tlb);
}

/*
 * The zap of vma is done with its table at "level" serving addr: unhook
 * it if empty, and the tables above that this empties, and queue them
 * (free_empty_tables() with the gather's deferred free), if the gather
 * may free tables.
 */
void tlb_free_empty_tables(struct mmu_gather *tlb, struct vm_area_struct *vma, unsigned long addr,
			   enum pt_level level)
{
	void *to_free[PT_PGD];
	int n;

	if (!tlb->free_tables)
		return;
	rmap_locks_assert_held(vma);
	n = detach_empty_tables(tlb->mm, addr, level, vma_table_ceiling(vma, addr), to_free);
	if (!n)
		return;
	tlb_flush_pmd_range(tlb, addr, PAGE_SIZE);
	for (int i = n; i; i--)
		tlb_remove_table(tlb, to_free[i - 1]);
}
