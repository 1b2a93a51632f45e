/*
 * /proc/cpuinfo (Linux's fs/proc/cpuinfo.c): one block per online CPU, in
 * the format the arch gives it (arch/x86_64/cpuinfo.c).
 */
#include "fs/proc/internal.h"
#include "linux/smp.h"
#include <asm/processor.h>

static int cpuinfo_proc_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		show_cpuinfo(m, cpu);
	return 0;
}

const struct proc_dir_entry proc_cpuinfo = { "cpuinfo", cpuinfo_proc_show };
