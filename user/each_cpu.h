/*
 * Pin the calling thread to each CPU it may run on, in turn, and ask a
 * question there (a guest test's check of per-CPU state: the vDSO's
 * getcpu, rseq's cpu_id).  Header-only.
 */
#ifndef USER_EACH_CPU_H
#define USER_EACH_CPU_H

#define _GNU_SOURCE
#include <sched.h>

/*
 * check(cpu, arg) pinned to each CPU of the affinity mask in turn, which
 * is restored after; how many said yes, and in *tried on how many CPUs
 * it ran.
 */
static inline int on_each_allowed_cpu(int (*check)(int cpu, void *arg), void *arg, int *tried)
{
	cpu_set_t all, one;
	int right = 0;

	*tried = 0;
	sched_getaffinity(0, sizeof(all), &all);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &all))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		++*tried;
		right += check(cpu, arg);
	}
	sched_setaffinity(0, sizeof(all), &all);
	return right;
}

#endif
