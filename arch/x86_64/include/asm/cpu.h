/* Control registers, MSRs, CPUID and the time-stamp counter. */
#ifndef ASM_CPU_H
#define ASM_CPU_H

#include "linux/types.h"

#define X86_CR0_MP      BIT(1)
#define X86_CR0_EM      BIT(2)
#define X86_CR0_TS      BIT(3)
#define X86_CR0_NE      BIT(5)
#define X86_CR0_WP      BIT(16)
#define X86_CR4_TSD     BIT(2)
#define X86_CR4_PGE     BIT(7)
#define X86_CR4_OSFXSR  BIT(9)
#define X86_CR4_OSXMMEXCPT BIT(10)
#define X86_CR4_OSXSAVE BIT(18)
#define X86_CR4_SMEP    BIT(20)
#define X86_CR4_SMAP    BIT(21)
#define MSR_EFER        0xc0000080
#define EFER_NXE        BIT(11)
#define X86_EFLAGS_IF   BIT(9)
#define X86_EFLAGS_AC   BIT(18)

#define DEFINE_CR(n)                                                          \
static inline unsigned long read_cr##n(void)                                  \
{                                                                             \
	unsigned long v;                                                      \
	__asm__ __volatile__("mov %%cr" #n ", %0" : "=r"(v));                 \
	return v;                                                             \
}                                                                             \
static inline void write_cr##n(unsigned long v)                               \
{                                                                             \
	__asm__ __volatile__("mov %0, %%cr" #n : : "r"(v) : "memory");        \
}
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ __volatile__("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

static inline void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			     : "a"(leaf), "c"(sub));
}

/*
 * The TSC read after every earlier load (Linux's rdtsc_ordered): a clock
 * read that cannot pass a load that saw another thread's later reading.
 */
static inline u64 rdtsc_ordered(void)
{
	u32 lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline void halt(void)
{
	__asm__ __volatile__("hlt");
}

#endif
