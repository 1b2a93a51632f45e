/*
 * The CPU number (Linux's asm/smp.h): struct percpu (arch/x86_64/process.c)
 * holds it at PERCPU_CPU_NUMBER from the GS base, so smp_processor_id() is
 * one load, as Linux's this_cpu_read(pcpu_hot.cpu_number).
 */
#ifndef ASM_SMP_H
#define ASM_SMP_H

/* The offset of struct percpu's cpu_number (process.c static-asserts it). */
#define PERCPU_CPU_NUMBER 24

static inline unsigned int raw_smp_processor_id(void)
{
	unsigned int cpu;

	asm volatile("movl %%gs:%c1, %0" : "=r"(cpu) : "i"(PERCPU_CPU_NUMBER));
	return cpu;
}

#endif
