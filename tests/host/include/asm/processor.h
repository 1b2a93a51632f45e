/* Host stand-in for asm/processor.h: only what shared headers use. */
#ifndef ASM_PROCESSOR_H
#define ASM_PROCESSOR_H

static inline void cpu_relax(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

#endif
