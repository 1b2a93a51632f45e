/*
 * TLB maintenance (Linux's arch/x86/include/asm/tlbflush.h).
 *
 * Every CPU caches translations of the address space whose CR3 it has
 * loaded.  A PTE that loses a permission or goes away must be flushed from
 * every CPU that may cache it before the page can be reused:
 * flush_tlb_mm_range() flushes this CPU and shoots the others down by IPI
 * (arch/x86_64/tlb.c), the CPUs in mm_cpumask(mm) only.  The macros below
 * are Linux's ways of calling it.  The host tests build this header as it
 * is; their soft MMU (tests/host/softmmu.c) implements the functions.
 */
#ifndef ASM_TLBFLUSH_H
#define ASM_TLBFLUSH_H

#include "linux/types.h"

struct mm_struct;
struct vm_area_struct;

#define TLB_FLUSH_ALL   (~0UL)

/* Above this many pages, one flush of the address space beats invlpg each (Linux's ceiling). */
#define TLB_SINGLE_PAGE_FLUSH_CEILING   33

/*
 * Flush [start, end) of mm from every CPU that may cache it, one invlpg
 * per 1 << stride_shift bytes up to the ceiling, else everything of mm;
 * freed_tables says page-table pages of the range are about to be freed.
 * Returns when every CPU has flushed.  The caller must not hold a lock
 * that an IPI handler takes.
 */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			unsigned int stride_shift, bool freed_tables);
/* Flush kernel addresses [start, end) (global entries) on every CPU. */
void flush_tlb_kernel_range(unsigned long start, unsigned long end);
/* Flush everything, global entries too, on every CPU. */
void flush_tlb_all(void);

#define flush_tlb_mm(mm) \
	flush_tlb_mm_range(mm, 0UL, TLB_FLUSH_ALL, 0U, true)
#define flush_tlb_range(vma, start, end) \
	flush_tlb_mm_range((vma)->vm_mm, start, end, PAGE_SHIFT, false)
#define flush_tlb_page(vma, addr) \
	flush_tlb_mm_range((vma)->vm_mm, addr, (addr) + PAGE_SIZE, PAGE_SHIFT, false)
/* A PMD leaf's range: one invlpg per 2 MiB drops the large entry. */
#define flush_pmd_tlb_range(vma, start, end) \
	flush_tlb_mm_range((vma)->vm_mm, start, end, PMD_SHIFT, false)

/*
 * After a PTE gained permission (a write fault made it writable): x86
 * needs no flush.  The CPU drops the entry that faulted, and a stale one
 * elsewhere only costs a spurious fault that handle_mm_fault() returns from.
 */
static inline void flush_tlb_fix_spurious_fault(struct vm_area_struct *vma,
						unsigned long address, void *ptep)
{
}

#endif
