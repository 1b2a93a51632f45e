/*
 * /proc/uptime (Linux's fs/proc/uptime.c): seconds since boot, then the
 * idle time of all CPUs together, each with two decimals.
 */
#include "fs/proc/internal.h"
#include "linux/cpumask.h"
#include "linux/kernel_stat.h"
#include "linux/time64.h"

static int uptime_proc_show(struct seq_file *m, void *v)
{
	u64 up = ktime_get_ns(), idle = 0;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		idle += kcpustat_cpu(cpu, CPUTIME_IDLE);
	seq_printf(m, "%lu.%02lu %lu.%02lu\n", (unsigned long)(up / NSEC_PER_SEC),
		   (unsigned long)(up % NSEC_PER_SEC / (NSEC_PER_SEC / 100)),
		   (unsigned long)(idle / NSEC_PER_SEC),
		   (unsigned long)(idle % NSEC_PER_SEC / (NSEC_PER_SEC / 100)));
	return 0;
}

const struct proc_dir_entry proc_uptime = { "uptime", uptime_proc_show };
