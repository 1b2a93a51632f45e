/* The CPU's cycle counter (Linux's get_cycles): the TSC on x86-64. */
#ifndef ASM_TIMEX_H
#define ASM_TIMEX_H

#include <asm/cpu.h>

static inline u64 get_cycles(void)
{
	return rdtsc();
}

/* The same, after every earlier load: for the clocks (rdtsc_ordered). */
static inline u64 get_cycles_ordered(void)
{
	return rdtsc_ordered();
}

#endif
