/* Host stand-in: no interrupts in a test process. */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include <stdbool.h>

static inline unsigned long arch_local_irq_save(void) { return 0; }
static inline void arch_local_irq_restore(unsigned long flags) { (void)flags; }
static inline void local_irq_enable(void) { }
static inline void local_irq_disable(void) { }
static inline bool irqs_disabled(void) { return false; }

#endif
