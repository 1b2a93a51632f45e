/* Host stand-in for asm/tlbflush.h: the soft MMU's TLB (tests/host/softmmu.c). */
#ifndef ASM_TLBFLUSH_H
#define ASM_TLBFLUSH_H

struct vm_area_struct;

#define TLB_SINGLE_PAGE_FLUSH_CEILING   33

void flush_tlb_addr(void *pgd, unsigned long addr);
void flush_tlb_mm(void *pgd);
void flush_tlb_all(void);

/* Like x86, the soft MMU walks the tables again when a cached translation faults. */
static inline void flush_tlb_fix_spurious_fault(struct vm_area_struct *vma,
						unsigned long address, void *ptep)
{
}

#endif
