/*
 * /proc/stat (Linux's fs/proc/stat.c), the lines foliOS counts: "cpu" (all
 * CPUs) and "cpuN" with user, nice, system, idle, iowait, irq, softirq,
 * steal, guest, guest_nice in USER_HZ ticks (foliOS keeps user, system
 * and idle; the rest are 0), "intr", "ctxt" (context switches), "btime"
 * (the boot's wall-clock second), "processes" (tasks made since boot),
 * "procs_running", "procs_blocked", "softirq".  top and ps read it.
 */
#include "fs/proc/internal.h"
#include "linux/cpumask.h"
#include "linux/kernel_stat.h"
#include "linux/sched.h"
#include "linux/time64.h"

#define NS_PER_USER_HZ  (NSEC_PER_SEC / USER_HZ)

/* One "cpu" line: user nice system idle and six zeros, in USER_HZ ticks. */
static void show_cpu_line(struct seq_file *m, const char *name, const u64 *t)
{
	seq_printf(m, "%s %llu 0 %llu %llu 0 0 0 0 0 0\n", name,
		   (unsigned long long)(t[CPUTIME_USER] / NS_PER_USER_HZ),
		   (unsigned long long)(t[CPUTIME_SYSTEM] / NS_PER_USER_HZ),
		   (unsigned long long)(t[CPUTIME_IDLE] / NS_PER_USER_HZ));
}

static int stat_proc_show(struct seq_file *m, void *v)
{
	u64 sum[NR_CPUSTATS] = { 0 }, t[NR_CPUSTATS];
	unsigned int cpu;
	char name[16];

	for_each_online_cpu(cpu)
		for (int i = 0; i < NR_CPUSTATS; i++)
			sum[i] += kcpustat_cpu(cpu, i);
	show_cpu_line(m, "cpu ", sum);
	for_each_online_cpu(cpu) {
		for (int i = 0; i < NR_CPUSTATS; i++)
			t[i] = kcpustat_cpu(cpu, i);
		snprintf(name, sizeof(name), "cpu%u", cpu);
		show_cpu_line(m, name, t);
	}
	seq_printf(m, "intr 0\nctxt %llu\nbtime %llu\nprocesses %d\nprocs_running %u\n"
		   "procs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n",
		   (unsigned long long)nr_context_switches(),
		   (unsigned long long)((ktime_get_real_ns() - ktime_get_ns()) / NSEC_PER_SEC),
		   last_pid(), nr_running());
	return 0;
}

const struct proc_dir_entry proc_stat = { "stat", stat_proc_show };
