/*
 * current: the task running on this CPU (Linux's asm/current.h).  The GS
 * base points at this CPU's struct percpu (arch/x86_64/process.c) while
 * the kernel runs, so current is one load, as Linux's pcpu_hot read.
 */
#ifndef ASM_CURRENT_H
#define ASM_CURRENT_H

struct task_struct;

/* The offset of struct percpu's curr (process.c static-asserts it). */
#define PERCPU_CURR 16

static inline struct task_struct *get_current(void)
{
	struct task_struct *t;

	asm volatile("mov %%gs:%c1, %0" : "=r"(t) : "i"(PERCPU_CURR));
	return t;
}

#endif
