/*
 * The CPU's random number instructions (Linux's asm/archrandom.h):
 * RDSEED (an entropy source's output) and RDRAND (a DRBG seeded from it),
 * where CPUID says the CPU has them (arch/x86_64/cpu.c).  Each tries a
 * few times, as Intel advises, and may still fail: false.
 */
#ifndef _ASM_ARCHRANDOM_H
#define _ASM_ARCHRANDOM_H

#include "linux/types.h"

extern bool cpu_has_rdrand, cpu_has_rdseed;

static inline bool rdrand_long(unsigned long *v)
{
	bool ok = false;

	for (int i = 0; cpu_has_rdrand && i < 10 && !ok; i++)
		asm volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok));
	return ok;
}

static inline bool rdseed_long(unsigned long *v)
{
	bool ok = false;

	for (int i = 0; cpu_has_rdseed && i < 10 && !ok; i++)
		asm volatile("rdseed %0; setc %1" : "=r"(*v), "=qm"(ok));
	return ok;
}

#endif
