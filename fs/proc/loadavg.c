/*
 * /proc/loadavg (Linux's fs/proc/loadavg.c): the three load averages
 * (kernel/sched/loadavg.c), the runnable tasks over all tasks, and the
 * last PID given out:  "0.12 0.05 0.01 1/42 1234".
 */
#include "fs/proc/internal.h"
#include "linux/sched.h"

static int loadavg_proc_show(struct seq_file *m, void *v)
{
	unsigned long avnrun[3];

	for (int i = 0; i < 3; i++)
		avnrun[i] = READ_ONCE(avenrun[i]) + FIXED_1 / 200;     /* Linux's rounding */
	seq_printf(m, "%lu.%02lu %lu.%02lu %lu.%02lu %u/%d %d\n",
		   LOAD_INT(avnrun[0]), LOAD_FRAC(avnrun[0]), LOAD_INT(avnrun[1]),
		   LOAD_FRAC(avnrun[1]), LOAD_INT(avnrun[2]), LOAD_FRAC(avnrun[2]),
		   nr_running(), atomic_read(&nr_tasks), last_pid());
	return 0;
}

const struct proc_dir_entry proc_loadavg = { "loadavg", loadavg_proc_show };
