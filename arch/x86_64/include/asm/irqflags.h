/* Interrupt enable flag, saved and restored around critical sections. */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include "linux/types.h"

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	if (flags & (1UL << 9))
		__asm__ __volatile__("sti" ::: "memory");
}

/* Are interrupts off on this CPU (IF clear)? */
static inline bool irqs_disabled(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq; popq %0" : "=r"(flags) : : "memory");
	return !(flags & (1UL << 9));
}

static inline void local_irq_enable(void)
{
	__asm__ __volatile__("sti" ::: "memory");
}

static inline void local_irq_disable(void)
{
	__asm__ __volatile__("cli" ::: "memory");
}

#endif
