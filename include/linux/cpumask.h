/*
 * CPU masks (Linux's include/linux/cpumask.h): one bit per CPU, at most
 * NR_CPUS.  cpu_online_mask says which CPUs run; the arch sets a CPU's bit
 * when it has come up (arch/x86_64/smpboot.c).
 */
#ifndef _LINUX_CPUMASK_H
#define _LINUX_CPUMASK_H

#include "linux/types.h"

#define NR_CPUS 8

struct cpumask {
	unsigned long bits;
};

/*
 * possible = present: the CPUs the ACPI MADT lists (at most NR_CPUS);
 * online: those that came up and run.
 */
extern struct cpumask __cpu_online_mask, __cpu_possible_mask, __cpu_present_mask;
extern unsigned int nr_cpu_ids;         /* CPUs found (ACPI MADT); 1 until then */
#define cpu_online_mask (&__cpu_online_mask)
#define cpu_possible_mask (&__cpu_possible_mask)
#define cpu_present_mask (&__cpu_present_mask)

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	__atomic_fetch_or(&m->bits, 1UL << cpu, __ATOMIC_SEQ_CST);
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	__atomic_fetch_and(&m->bits, ~(1UL << cpu), __ATOMIC_SEQ_CST);
}

static inline bool cpumask_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return __atomic_load_n(&m->bits, __ATOMIC_RELAXED) & (1UL << cpu);
}

static inline bool cpumask_empty(const struct cpumask *m)
{
	return !__atomic_load_n(&m->bits, __ATOMIC_RELAXED);
}

/* (A loop: the kernel is built without libgcc, which __builtin_popcountl calls.) */
static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned long bits = __atomic_load_n(&m->bits, __ATOMIC_RELAXED);
	unsigned int n = 0;

	for (; bits; bits &= bits - 1)
		n++;
	return n;
}

static inline void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	dst->bits = __atomic_load_n(&src->bits, __ATOMIC_RELAXED);
}

/* dst = a & b; whether any bit is left. */
static inline bool cpumask_and(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	dst->bits = __atomic_load_n(&a->bits, __ATOMIC_RELAXED) & __atomic_load_n(&b->bits, __ATOMIC_RELAXED);
	return dst->bits;
}

static inline bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b)
{
	return __atomic_load_n(&a->bits, __ATOMIC_RELAXED) & __atomic_load_n(&b->bits, __ATOMIC_RELAXED);
}

/* Every CPU there can be (Linux's cpu_possible_mask as a task's default affinity). */
static inline void cpumask_setall(struct cpumask *m)
{
	m->bits = NR_CPUS >= 64 ? ~0UL : (1UL << NR_CPUS) - 1;
}

/* The lowest CPU in m at or after cpu, or NR_CPUS. */
static inline unsigned int cpumask_next_from(unsigned int cpu, const struct cpumask *m)
{
	unsigned long rest = cpu < NR_CPUS ? m->bits >> cpu : 0;

	return rest ? cpu + __builtin_ctzl(rest) : NR_CPUS;
}

#define for_each_cpu(cpu, mask) \
	for ((cpu) = cpumask_next_from(0, (mask)); (cpu) < NR_CPUS; \
	     (cpu) = cpumask_next_from((cpu) + 1, (mask)))
#define for_each_online_cpu(cpu) for_each_cpu(cpu, cpu_online_mask)
#define for_each_present_cpu(cpu) for_each_cpu(cpu, cpu_present_mask)

static inline unsigned int num_online_cpus(void)
{
	return cpumask_weight(cpu_online_mask);
}

/* Print m as a CPU list, "0-3,6" (Linux's cpumap_print_list); returns the length. */
int cpumap_print_list(char *buf, size_t size, const struct cpumask *m);

#endif
