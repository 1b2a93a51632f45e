/*
 * The preemption count (Linux's arch/x86/include/asm/preempt.h): one int per
 * CPU in struct percpu at %gs:PERCPU_PREEMPT_COUNT, so preempt_disable() is
 * one instruction.  schedule() keeps each task's count across its switch
 * (kernel/sched/core.c); include/linux/preempt.h says what the bits mean.
 */
#ifndef ASM_PREEMPT_H
#define ASM_PREEMPT_H

/* The offset of struct percpu's preempt_count (process.c static-asserts it). */
#define PERCPU_PREEMPT_COUNT 28

static inline int preempt_count(void)
{
	int pc;

	asm volatile("movl %%gs:%c1, %0" : "=r"(pc) : "i"(PERCPU_PREEMPT_COUNT));
	return pc;
}

static inline void preempt_count_set(int pc)
{
	asm volatile("movl %0, %%gs:%c1" : : "r"(pc), "i"(PERCPU_PREEMPT_COUNT) : "memory");
}

static inline void __preempt_count_add(int val)
{
	asm volatile("addl %0, %%gs:%c1" : : "ir"(val), "i"(PERCPU_PREEMPT_COUNT) : "memory");
}

static inline void __preempt_count_sub(int val)
{
	asm volatile("subl %0, %%gs:%c1" : : "ir"(val), "i"(PERCPU_PREEMPT_COUNT) : "memory");
}

#endif
