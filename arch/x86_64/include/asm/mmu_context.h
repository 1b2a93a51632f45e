/*
 * Switching address spaces (Linux's arch/x86/include/asm/mmu_context.h);
 * arch/x86_64/tlb.c implements them next to the shootdown they serve.
 */
#ifndef ASM_MMU_CONTEXT_H
#define ASM_MMU_CONTEXT_H

struct mm_struct;

/*
 * Make next this CPU's address space, with interrupts off (the context
 * switch).  next NULL: a context with no user mm (idle, an exiting task)
 * keeps the loaded mm lazily, holding an mmgrab reference on it.  unused
 * is the outgoing task's mm, as Linux passes it: while lazy, what really
 * goes is this CPU's loaded mm.
 */
void switch_mm_irqs_off(struct mm_struct *unused, struct mm_struct *next);

/* Leave a lazily kept mm for the kernel's own tables, dropping the reference. */
void leave_mm(void);

#endif
