/*
 * The CPU state a task carries besides its register frame (Linux's
 * struct thread_struct), and the small CPU hooks generic code calls.
 */
#ifndef ASM_PROCESSOR_H
#define ASM_PROCESSOR_H

#include "linux/types.h"

/* Loaded into the CPU when the task is switched in (arch/x86_64/process.c). */
struct thread_struct {
	unsigned long fsbase;           /* TLS (arch_prctl ARCH_SET_FS) */
	unsigned long gsbase;           /* the user's GS base (ARCH_SET_GS) */
	unsigned long cr2, trap_nr, error_code;  /* the last fault's, for sigcontext */
};

struct task_struct;
struct seq_file;

/* One CPU's block of /proc/cpuinfo (arch/x86_64/cpuinfo.c). */
void show_cpuinfo(struct seq_file *m, unsigned int cpu);

/* A spin-wait loop's body: tells the CPU this is a busy wait. */
static inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}

/*
 * Enable interrupts and wait for one.  "sti" takes effect after the next
 * instruction, so no interrupt slips in between: the wake-up is not lost.
 */
static inline void arch_cpu_idle(void)
{
	__asm__ __volatile__("sti; hlt" ::: "memory");
}

/* The child's registers: the caller's, rax 0, sp if not 0, the FS base tls with CLONE_SETTLS. */
void copy_thread(struct task_struct *p, unsigned long clone_flags, unsigned long sp,
		 unsigned long tls);
void flush_thread(void);

#endif
