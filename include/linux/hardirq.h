/*
 * Per-CPU interrupt counts (Linux's irq_cpustat_t of asm/hardirq.h), the
 * numbers /proc/interrupts prints (fs/proc/interrupts.c) one line each.
 * Only a CPU's own handlers write its slot, so plain increments do.  To
 * add a kind of interrupt: a member here, a row in fs/proc/interrupts.c.
 */
#ifndef _LINUX_HARDIRQ_H
#define _LINUX_HARDIRQ_H

#include "linux/smp.h"

typedef struct {
	unsigned int irq_tlb_count;     /* TLB shootdown IPIs this CPU answered */
} irq_cpustat_t;

extern irq_cpustat_t irq_stat[NR_CPUS];

#define inc_irq_stat(member)    (irq_stat[smp_processor_id()].member++)

#endif
