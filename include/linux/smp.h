/*
 * Cross-CPU calls (Linux's include/linux/smp.h and kernel/smp.c).
 *
 * smp_call_function_many() runs func(info) on every online CPU of mask
 * except the caller's, from an IPI; with wait it returns only when every
 * one of them has finished.  The caller must have interrupts enabled (a
 * CPU spinning with interrupts off could be the one it waits for) and no
 * spinlock held that the function takes.  on_each_cpu_mask() also runs it
 * on the calling CPU, with interrupts off, as an IPI would.
 */
#ifndef _LINUX_SMP_H
#define _LINUX_SMP_H

#include "linux/cpumask.h"

typedef void (*smp_call_func_t)(void *info);

unsigned int smp_processor_id(void);
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait);
void on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func,
		      void *info, bool wait);
void smp_send_reschedule(unsigned int cpu);

#endif
