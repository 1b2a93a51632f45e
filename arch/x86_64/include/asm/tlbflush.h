/*
 * TLB maintenance (Linux's asm/tlbflush.h): invlpg one address, reload CR3
 * for an address space, or drop every entry, global ones included.
 */
#ifndef ASM_TLBFLUSH_H
#define ASM_TLBFLUSH_H

struct vm_area_struct;

/* Above this many pages, one flush of the address space beats invlpg each (Linux's ceiling). */
#define TLB_SINGLE_PAGE_FLUSH_CEILING   33

/* Flush addr / everything of the address space rooted at pgd (if it is live). */
void flush_tlb_addr(void *pgd, unsigned long addr);
void flush_tlb_mm(void *pgd);
void flush_tlb_all(void);

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
