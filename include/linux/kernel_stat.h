/*
 * Each CPU's time by what it went to, and its context switches (Linux's
 * include/linux/kernel_stat.h): counted by the tick and the switch
 * (kernel/sched/cputime.c), read by /proc/stat and /proc/uptime.
 */
#ifndef _LINUX_KERNEL_STAT_H
#define _LINUX_KERNEL_STAT_H

#include "linux/types.h"

/* What a tick of a CPU's time went to (Linux's enum cpu_usage_stat, the part kept). */
enum cpu_usage_stat { CPUTIME_USER, CPUTIME_SYSTEM, CPUTIME_IDLE, NR_CPUSTATS };

u64 kcpustat_cpu(unsigned int cpu, enum cpu_usage_stat what);  /* ns */
u64 nr_context_switches(void);

#endif
