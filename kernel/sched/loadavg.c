/*
 * The load average (Linux's kernel/sched/loadavg.c): every LOAD_FREQ
 * (5 s) the boot CPU's tick folds the number of runnable tasks (running
 * or queued, on every CPU) into three averages that decay over 1, 5 and
 * 15 minutes, in Linux's fixed point (FSHIFT bits of fraction):
 *
 *   load = load * e + active * (1 - e),   e = exp(-5 s / 1, 5, 15 min)
 *
 * Linux also counts tasks in uninterruptible sleep; foliOS counts the
 * runnable ones only.  /proc/loadavg prints them (fs/proc/loadavg.c).
 *
 * Locks: written by the boot CPU's tick alone; read racily, word by
 * word, as Linux's avenrun.
 */
#include "kernel/sched/sched.h"
#include <asm/arch.h>

#define EXP_1   1884                    /* FIXED_1 / exp(5 s / 1 min) */
#define EXP_5   2014                    /* FIXED_1 / exp(5 s / 5 min) */
#define EXP_15  2037                    /* FIXED_1 / exp(5 s / 15 min) */
#define LOAD_FREQ (5 * HZ + 1)          /* 5 s and a tick, as Linux's */

unsigned long avenrun[3];
static unsigned long calc_load_update = LOAD_FREQ;

/* Tasks running or queued on every CPU (Linux's nr_running()). */
unsigned int nr_running(void)
{
	unsigned int n = 0, cpu;

	for_each_online_cpu(cpu)
		n += READ_ONCE(cpu_rq(cpu)->nr_running);
	return n;
}

/* One average's step (Linux's calc_load), rounding up while the load grows. */
static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

/* The boot CPU's tick: every LOAD_FREQ, a step of the three averages (Linux's calc_global_load). */
void calc_global_load(void)
{
	unsigned long active;

	if ((long)(jiffies - calc_load_update) < 0)
		return;
	active = (unsigned long)nr_running() * FIXED_1;
	WRITE_ONCE(avenrun[0], calc_load(avenrun[0], EXP_1, active));
	WRITE_ONCE(avenrun[1], calc_load(avenrun[1], EXP_5, active));
	WRITE_ONCE(avenrun[2], calc_load(avenrun[2], EXP_15, active));
	calc_load_update += LOAD_FREQ;
}
