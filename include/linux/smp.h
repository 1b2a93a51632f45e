/*
 * Cross-CPU calls (Linux's include/linux/smp.h and kernel/smp.c).
 *
 * smp_call_function_many() runs func(info) on every online CPU of mask
 * except the caller's, from an IPI; with wait it returns only when every
 * one of them has finished.  on_each_cpu_mask() also runs it on the
 * calling CPU, with interrupts off, as an IPI would.
 *
 * The rules (kernel/smp.c): func runs in interrupt context, interrupts
 * off: it must not sleep, and may take only locks that nobody holds with
 * interrupts enabled.  The caller must hold no lock that a target may spin
 * on with interrupts off (it could not take the IPI), nor call from func.
 * The caller may have interrupts off: a waiting sender runs the calls
 * queued for its own CPU while it spins, so two CPUs calling each other
 * at once both make progress.
 */
#ifndef _LINUX_SMP_H
#define _LINUX_SMP_H

#include "linux/cpumask.h"
#include <asm/smp.h>

typedef void (*smp_call_func_t)(void *info);

/* This CPU's number, 0 .. nr_cpu_ids - 1 (0: the boot CPU). */
#define smp_processor_id() raw_smp_processor_id()

void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait);
void on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func,
		      void *info, bool wait);
void smp_send_reschedule(unsigned int cpu);

/* The call-function IPI's handler: run this CPU's queued calls. */
void generic_smp_call_function_interrupt(void);
/* Start the other CPUs at boot and say how many run (kernel/smp.c). */
void smp_init(void);

/* The arch's half (arch/x86_64/smp.c, smpboot.c). */
void arch_send_call_function_ipi(unsigned int cpu);
void smp_prepare_cpus(void);
int __cpu_up(unsigned int cpu);

#endif
