/*
 * The mmu_gather (Linux's include/asm-generic/tlb.h): how an unmap frees
 * pages only after no CPU can reach them through a stale TLB entry.
 *
 *   tlb_gather_mmu(&tlb, mm)          start (tlb_gather_mmu_fullmm: the mm dies)
 *   clear PTEs, tlb_flush_pte_range() grow the range to flush
 *   tlb_remove_page()/_folio()        queue a reference to drop; a full
 *                                     batch flushes and frees (tlb_flush_mmu)
 *   tlb_remove_table()                queue an unhooked page-table page
 *   tlb_finish_mmu(&tlb)              flush the range on every CPU, then free
 *
 * Locking: a gather lives on its caller's stack for one mm; the caller
 * holds that mm's mmap_lock (for write, or for read as madvise does).  A
 * flush waits for other CPUs' IPIs: no spinlock their handler takes may be
 * held (flush_tlb_mm_range()).
 */
#ifndef MM_TLB_H
#define MM_TLB_H

#include "linux/pgtable.h"
#include "linux/page-flags.h"

#define MMU_GATHER_BATCH        64      /* page references before a forced flush */
#define MMU_GATHER_TABLES       16      /* page-table pages before a forced flush */

struct mmu_gather {
	struct mm_struct *mm;
	unsigned long start, end;       /* the range to flush; end 0: nothing */
	bool fullmm;                    /* the whole mm goes (exit): flush it all */
	/*
	 * Empty page tables may be freed: the caller holds the mmap_lock for
	 * write and the zapped VMA's rmap locks (munmap, exit).  Not for
	 * zap_page_range() (madvise, truncation of another process's
	 * mapping): its tables stay, as after Linux's zap_page_range_single.
	 */
	bool free_tables;
	bool freed_tables;              /* tables[] not empty: paging-structure caches too */
	bool cleared_ptes, cleared_pmds;        /* which leaves went: the flush's stride */
	unsigned int nr_pages, nr_tables;
	struct {
		struct folio *folio;
		unsigned int nr_refs;   /* references to drop: one per PTE, one for a PMD */
	} pages[MMU_GATHER_BATCH];
	void *tables[MMU_GATHER_TABLES];
};

void tlb_gather_mmu(struct mmu_gather *tlb, struct mm_struct *mm);
void tlb_gather_mmu_fullmm(struct mmu_gather *tlb, struct mm_struct *mm);
void tlb_flush_mmu_tlbonly(struct mmu_gather *tlb);
void tlb_flush_mmu(struct mmu_gather *tlb);
void tlb_finish_mmu(struct mmu_gather *tlb);
void tlb_remove_table(struct mmu_gather *tlb, void *table);
void tlb_free_empty_tables(struct mmu_gather *tlb, struct vm_area_struct *vma, unsigned long addr,
			   enum pt_level level);

static inline void __tlb_adjust_range(struct mmu_gather *tlb, unsigned long address,
				      unsigned long range_size)
{
	tlb->start = MIN(tlb->start, address);
	tlb->end = MAX(tlb->end, address + range_size);
}

/* PTEs of [address, address + size) were cleared: flush them before the pages go. */
static inline void tlb_flush_pte_range(struct mmu_gather *tlb, unsigned long address,
				       unsigned long size)
{
	__tlb_adjust_range(tlb, address, size);
	tlb->cleared_ptes = true;
}

/* A PMD leaf (or the PTE table below a PMD) of the range was cleared. */
static inline void tlb_flush_pmd_range(struct mmu_gather *tlb, unsigned long address,
				       unsigned long size)
{
	__tlb_adjust_range(tlb, address, size);
	tlb->cleared_pmds = true;
}

/*
 * Queue nr_pages references to page's folio (one per PTE cleared, or one
 * for a PMD), dropped after the flush.  Returns true when the batch is
 * full: the caller must tlb_flush_mmu() before queueing more.
 */
static inline bool __tlb_remove_folio_pages(struct mmu_gather *tlb, struct page *page,
					    unsigned int nr_pages)
{
	tlb->pages[tlb->nr_pages].folio = page_folio(page);
	tlb->pages[tlb->nr_pages].nr_refs = nr_pages;
	return ++tlb->nr_pages == MMU_GATHER_BATCH;
}

/* Drop one reference to page's folio after the flush. */
static inline void tlb_remove_page(struct mmu_gather *tlb, struct page *page)
{
	if (__tlb_remove_folio_pages(tlb, page, 1))
		tlb_flush_mmu(tlb);
}

/* Drop one reference to folio, whatever its size (a PMD leaf's), after the flush. */
static inline void tlb_remove_folio(struct mmu_gather *tlb, struct folio *folio)
{
	tlb_remove_page(tlb, &folio->page);
}

#endif
