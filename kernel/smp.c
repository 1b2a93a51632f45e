/*
 * Cross-CPU function calls (Linux's kernel/smp.c), the generic half.
 *
 * Until the application processors are started (arch/x86_64/smpboot.c),
 * only the boot CPU is online, so a call "on the other CPUs" has nobody to
 * run on.  The IPI delivery that reaches them is the arch's.
 */
#include "linux/smp.h"
#include "linux/printk.h"
#include <asm/irqflags.h>

struct cpumask __cpu_online_mask = { 1 };
unsigned int nr_cpu_ids = 1;

unsigned int smp_processor_id(void)
{
	return 0;
}

void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait)
{
	unsigned int cpu;

	for_each_cpu(cpu, mask)
		if (cpu != smp_processor_id() && cpumask_test_cpu(cpu, cpu_online_mask))
			panic("smp_call_function_many: CPU %u is online but has no IPI", cpu);
}

void on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func,
		      void *info, bool wait)
{
	unsigned long flags;

	smp_call_function_many(mask, func, info, wait);
	if (cpumask_test_cpu(smp_processor_id(), mask)) {
		flags = arch_local_irq_save();
		func(info);
		arch_local_irq_restore(flags);
	}
}

void smp_send_reschedule(unsigned int cpu)
{
}
