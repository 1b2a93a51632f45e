/*
 * ktest rcu: a grace period waits for every reader and every CPU, and
 * callbacks run in the order they were queued.  Runs on one CPU in the
 * full ktest run and on four with run-qemu.sh --smp 4 --append ktest=smp,rcu.
 *
 * The cases run in the boot CPU's idle context, which is where that CPU
 * runs callbacks: they call rcu_core() while they wait, as the idle loop
 * would (other CPUs run it from their idle loops too).
 */
#include "linux/ktest.h"
#include "linux/rcupdate.h"
#include "linux/smp.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/processor.h>

#define TICK_CYCLES     ((u64)tsc_khz * 1000 / HZ)

struct rcu_probe {
	struct rcu_head head;
	int ran;                        /* times the callback ran */
	int order;                      /* its place among the callbacks run */
};

static int probes_run;

static void probe_callback(struct rcu_head *head)
{
	struct rcu_probe *p = container_of(head, struct rcu_probe, head);

	p->order = __atomic_fetch_add(&probes_run, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&p->ran, p->ran + 1, __ATOMIC_RELEASE);
}

/* Spin about ticks ticks with interrupts on (the timer's QSs come meanwhile). */
static void spin_ticks(unsigned int ticks)
{
	u64 end = rdtsc() + ticks * TICK_CYCLES;

	while (rdtsc() < end)
		cpu_relax();
}

/* Run callbacks as the idle loop would until p's has run, for at most a second. */
static bool wait_for_probe(struct rcu_probe *p)
{
	u64 deadline = rdtsc() + (u64)tsc_khz * 1000;

	while (!__atomic_load_n(&p->ran, __ATOMIC_ACQUIRE) && rdtsc() < deadline) {
		rcu_core();
		cpu_relax();
	}
	return __atomic_load_n(&p->ran, __ATOMIC_ACQUIRE);
}

/* Ticks inside a reader are no QS: the GP cannot end before rcu_read_unlock(). */
static void rcu_reader_holds_grace_period(struct ktest *t)
{
	struct rcu_probe p = { 0 };

	rcu_read_lock();
	call_rcu(&p.head, probe_callback);
	spin_ticks(5);
	KTEST_EXPECT(t, !rcu_core_pending());
	KTEST_EXPECT_EQ(t, __atomic_load_n(&p.ran, __ATOMIC_ACQUIRE), 0);
	rcu_read_unlock();
	KTEST_EXPECT(t, wait_for_probe(&p));
	KTEST_EXPECT_EQ(t, p.ran, 1);
}

/* Callbacks queued across several GPs run once each, in queue order. */
static void rcu_callbacks_in_order(struct ktest *t)
{
	static struct rcu_probe p[64];

	probes_run = 0;
	for (int i = 0; i < 64; i++) {
		p[i] = (struct rcu_probe){ .ran = 0 };
		call_rcu(&p[i].head, probe_callback);
		if (i % 16 == 15)
			spin_ticks(1);
	}
	KTEST_ASSERT(t, wait_for_probe(&p[63]));
	for (int i = 0; i < 64; i++) {
		KTEST_EXPECT_EQ(t, p[i].ran, 1);
		KTEST_EXPECT_EQ(t, p[i].order, i);
	}
}

static bool hold_cpu;

/* On the other CPU, interrupts off: no QS there until released. */
static void hold_cpu_func(void *info)
{
	while (__atomic_load_n(&hold_cpu, __ATOMIC_ACQUIRE))
		cpu_relax();
}

/* A CPU that has not passed a QS holds the GP, however many the others pass. */
static void rcu_grace_period_waits_for_every_cpu(struct ktest *t)
{
	struct rcu_probe p = { 0 };
	struct cpumask other = { 0 };
	unsigned int cpu = smp_processor_id() ? 0 : 1;

	if (num_online_cpus() < 2) {
		ktest_diag("no second CPU to hold");
		return;
	}
	cpumask_set_cpu(cpu, &other);
	__atomic_store_n(&hold_cpu, true, __ATOMIC_RELEASE);
	smp_call_function_many(&other, hold_cpu_func, NULL, false);
	spin_ticks(2);                  /* the held CPU is in the handler by now */
	call_rcu(&p.head, probe_callback);
	for (int i = 0; i < 5; i++) {
		spin_ticks(1);
		rcu_core();
	}
	KTEST_EXPECT_EQ(t, __atomic_load_n(&p.ran, __ATOMIC_ACQUIRE), 0);
	__atomic_store_n(&hold_cpu, false, __ATOMIC_RELEASE);
	KTEST_EXPECT(t, wait_for_probe(&p));
}

static const struct ktest_case rcu_cases[] = {
	KTEST_CASE(rcu_reader_holds_grace_period),
	KTEST_CASE(rcu_callbacks_in_order),
	KTEST_CASE(rcu_grace_period_waits_for_every_cpu),
};
KTEST_SUITE(rcu, rcu_cases);
