/*
 * ktest smp: cross-CPU calls reach every online CPU once (kernel/smp.c
 * over the local APIC's IPIs).  Meaningful with several CPUs:
 * run-qemu.sh --smp 4 --append ktest=smp.
 */
#include "linux/ktest.h"
#include "linux/smp.h"
#include <asm/cpu.h>
#include <asm/arch.h>
#include <asm/irqflags.h>
#include <asm/processor.h>

struct call_record {
	unsigned int ran[NR_CPUS];      /* how often func ran on each CPU */
	unsigned int irqs_on;           /* runs that found interrupts enabled */
};

static void record_call(void *info)
{
	struct call_record *r = info;

	__atomic_fetch_add(&r->ran[smp_processor_id()], 1, __ATOMIC_RELAXED);
	if (!irqs_disabled())
		__atomic_fetch_add(&r->irqs_on, 1, __ATOMIC_RELAXED);
}

/* Each CPU of want ran func exactly once, every other CPU never. */
static void expect_ran_once(struct ktest *t, const struct call_record *r,
			    const struct cpumask *want)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		KTEST_EXPECT_EQ(t, __atomic_load_n(&r->ran[cpu], __ATOMIC_RELAXED),
				cpumask_test_cpu(cpu, want) ? 1 : 0);
	KTEST_EXPECT_EQ(t, r->irqs_on, 0);
}

static void smp_on_each_cpu(struct ktest *t)
{
	struct call_record r = { 0 };

	ktest_diag("%u CPUs online", num_online_cpus());
	on_each_cpu_mask(cpu_online_mask, record_call, &r, true);
	expect_ran_once(t, &r, cpu_online_mask);
}

static void smp_call_others(struct ktest *t)
{
	struct call_record r = { 0 };
	struct cpumask others;

	cpumask_copy(&others, cpu_online_mask);
	cpumask_clear_cpu(smp_processor_id(), &others);
	smp_call_function_many(cpu_online_mask, record_call, &r, true);
	expect_ran_once(t, &r, &others);
}

/* Without wait the calls still all run, once; wait up to a second for them. */
static void smp_call_async(struct ktest *t)
{
	static struct call_record r;
	struct cpumask others;
	u64 deadline = rdtsc() + (u64)tsc_khz * 1000;
	unsigned int done;

	cpumask_copy(&others, cpu_online_mask);
	cpumask_clear_cpu(smp_processor_id(), &others);
	smp_call_function_many(&others, record_call, &r, false);
	do {
		done = 0;
		for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
			done += __atomic_load_n(&r.ran[cpu], __ATOMIC_RELAXED);
		cpu_relax();
	} while (done < cpumask_weight(&others) && rdtsc() < deadline);
	expect_ran_once(t, &r, &others);
}

/* Many calls in a row: each sender's csd is reused only after its target took it. */
static void smp_call_many_times(struct ktest *t)
{
	struct call_record r = { 0 };

	for (int i = 0; i < 1000; i++)
		on_each_cpu_mask(cpu_online_mask, record_call, &r, i % 2);
	on_each_cpu_mask(cpu_online_mask, record_call, &r, true);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		KTEST_EXPECT_EQ(t, r.ran[cpu], cpumask_test_cpu(cpu, cpu_online_mask) ? 1001 : 0);
}

static const struct ktest_case smp_cases[] = {
	KTEST_CASE(smp_on_each_cpu),
	KTEST_CASE(smp_call_others),
	KTEST_CASE(smp_call_async),
	KTEST_CASE(smp_call_many_times),
};
KTEST_SUITE(smp, smp_cases);
