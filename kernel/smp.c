/*
 * Cross-CPU function calls (Linux's kernel/smp.c), the generic half; the
 * IPIs are the arch's (arch/x86_64/smp.c).
 *
 * Every CPU has a call queue, call_single_queue[cpu]: a lock-free list of
 * call_single_data (csd) that other CPUs push onto.  A sender owns one csd
 * per target, cfd_csd[sender][target]; it is locked (CSD_FLAG_LOCK) from
 * the push until the target has run the call (a waited-for call) or taken
 * it (an asynchronous one), so a sender reuses it only after that.  The
 * first push onto an empty queue sends the call-function IPI; its handler
 * takes the whole queue and runs each call with interrupts off.
 *
 * The rule for senders: a waiting sender runs its own CPU's queue while it
 * spins, so two CPUs waiting on each other's calls (interrupts off in the
 * kernel) both get through.  Never call with a lock held that a target
 * may spin on with interrupts off, nor from a called function.
 */
#include "linux/smp.h"
#include "linux/errno.h"
#include "linux/printk.h"
#include <asm/irqflags.h>
#include <asm/processor.h>

#define CSD_FLAG_LOCK           1       /* queued or running: the sender must not reuse it */
#define CSD_FLAG_SYNCHRONOUS    2       /* unlock after func ran (the sender waits) */

struct call_single_data {
	struct call_single_data *next;
	smp_call_func_t func;
	void *info;
	unsigned int flags;
};

struct cpumask __cpu_online_mask = { 1 };
struct cpumask __cpu_possible_mask = { 1 };
struct cpumask __cpu_present_mask = { 1 };
unsigned int nr_cpu_ids = 1;

static struct call_single_data cfd_csd[NR_CPUS][NR_CPUS];      /* [sender][target] */
static struct call_single_data *call_single_queue[NR_CPUS];

/* Push csd onto a queue (Linux's llist_add); true if the queue was empty. */
static bool llist_add(struct call_single_data *csd, struct call_single_data **head)
{
	struct call_single_data *first = __atomic_load_n(head, __ATOMIC_RELAXED);

	do {
		csd->next = first;
	} while (!__atomic_compare_exchange_n(head, &first, csd, false, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	return !first;
}

static void csd_unlock(struct call_single_data *csd)
{
	__atomic_store_n(&csd->flags, 0, __ATOMIC_RELEASE);
}

/*
 * Run every call queued for this CPU (Linux's __flush_smp_call_function_queue),
 * with interrupts off.  A csd is read before it is unlocked: after that its
 * sender may reuse it.
 */
static void flush_smp_call_function_queue(void)
{
	unsigned long flags = arch_local_irq_save();
	struct call_single_data *csd =
		__atomic_exchange_n(&call_single_queue[smp_processor_id()], NULL, __ATOMIC_ACQUIRE);

	while (csd) {
		struct call_single_data *next = csd->next;
		smp_call_func_t func = csd->func;
		void *info = csd->info;
		bool sync = csd->flags & CSD_FLAG_SYNCHRONOUS;

		if (!sync)
			csd_unlock(csd);
		func(info);
		if (sync)
			csd_unlock(csd);
		csd = next;
	}
	arch_local_irq_restore(flags);
}

void generic_smp_call_function_interrupt(void)
{
	flush_smp_call_function_queue();
}

/* Wait until csd is unlocked, running this CPU's own calls meanwhile. */
static void csd_lock_wait(struct call_single_data *csd)
{
	while (__atomic_load_n(&csd->flags, __ATOMIC_ACQUIRE) & CSD_FLAG_LOCK) {
		flush_smp_call_function_queue();
		cpu_relax();
	}
}

/*
 * Run func(info) on the online CPUs of mask but this one (see
 * linux/smp.h); with wait, return when all have.  Interrupts stay off
 * throughout, so this CPU's csds are its alone and it cannot move.
 */
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait)
{
	unsigned long flags = arch_local_irq_save();
	unsigned int me = smp_processor_id(), cpu;
	struct cpumask targets = { mask->bits & cpu_online_mask->bits & ~(1UL << me) };

	for_each_cpu(cpu, &targets) {
		struct call_single_data *csd = &cfd_csd[me][cpu];

		csd_lock_wait(csd);
		csd->func = func;
		csd->info = info;
		csd->flags = CSD_FLAG_LOCK | (wait ? CSD_FLAG_SYNCHRONOUS : 0);
		if (llist_add(csd, &call_single_queue[cpu]))
			arch_send_call_function_ipi(cpu);
	}
	if (wait)
		for_each_cpu(cpu, &targets)
			csd_lock_wait(&cfd_csd[me][cpu]);
	arch_local_irq_restore(flags);
}

void on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func,
		      void *info, bool wait)
{
	unsigned long flags;

	smp_call_function_many(mask, func, info, wait);
	if (cpumask_test_cpu(smp_processor_id(), mask)) {
		flags = arch_local_irq_save();
		func(info);
		arch_local_irq_restore(flags);
	}
}

/* Bring up every present CPU (Linux's smp_init and bringup_nonboot_cpus). */
void smp_init(void)
{
	unsigned int cpu;
	int ret;

	smp_prepare_cpus();
	for_each_present_cpu(cpu) {
		if (cpumask_test_cpu(cpu, cpu_online_mask))
			continue;
		ret = __cpu_up(cpu);
		if (ret)
			pr_err("smp: CPU %u did not come up (%d)\n", cpu, ret);
	}
	pr_notice("smp: Brought up 1 node, %u CPU%s\n", num_online_cpus(),
		  num_online_cpus() > 1 ? "s" : "");
}
