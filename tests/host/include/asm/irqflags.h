/* Host stand-in: no interrupts in a test process. */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

static inline unsigned long arch_local_irq_save(void) { return 0; }
static inline void arch_local_irq_restore(unsigned long flags) { (void)flags; }

#endif
