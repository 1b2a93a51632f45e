/*
 * Read-copy update's grace periods and callbacks (Linux's kernel/rcu/tree.c,
 * reduced to its idea: one global state instead of Linux's tree of nodes,
 * which only matters with hundreds of CPUs).  The contract is in
 * include/linux/rcupdate.h.
 *
 *   call_rcu(A)      call_rcu(B)                    call_rcu(C)
 *       |  GP 1 starts   |  (B waits on "next")         |
 *   CPU0 ---QS-----------------------------------QS------------------
 *   CPU1 ----------QS------ GP 1 ends: A done; GP 2 starts (B) -------
 *                                                      ... GP 2 ends: B done
 *
 * A callback waits on one of three lists, in queue order:
 *   next   queued while a grace period (GP) runs: waits for the one after
 *   wait   queued before the running GP started: done when it ends
 *   done   its GP has ended: rcu_core() runs it
 * A GP starts when a callback is queued and none runs; it marks every
 * online CPU as owing a quiescent state (rcu_data[cpu].qs_needed, qsmask).
 * Each CPU pays at its next QS: a context switch, an idle-loop turn, or a
 * tick that interrupted user mode or kernel code with preempt count 0 (no
 * reader, no spinlock: rcu_read_lock() raises the count).  The last one
 * ends the GP.  A CPU brought up during a GP was in no reader when the GP
 * started, so it owes nothing.
 *
 * Why a QS proves the readers done: a reader cannot sleep or be switched
 * out, so at a QS every reader that CPU was running has finished, and its
 * loads completed before the QS's locked instruction (x86 orders them);
 * the writer unlinked the object before call_rcu's lock, so any reader
 * that starts after a CPU reported its QS (after that lock) misses it.
 *
 * Callbacks run in process context with interrupts on and no lock held:
 * in the idle loop and on the way back to user mode (Linux runs them from
 * a softirq or a kthread, which foliOS does not have), one CPU at a time,
 * in queue order, which rcu_barrier() relies on.
 *
 * Locks: rcu_state.lock, irq-safe (the tick reports QSs), a leaf: call_rcu()
 * may be called under any lock.  Order: linux/rcupdate.h.
 */
#include "linux/rcupdate.h"
#include "linux/cpumask.h"
#include "linux/sched.h"
#include "linux/smp.h"
#include "linux/spinlock.h"
#include "linux/wait.h"
#include <asm/processor.h>

struct rcu_cblist {
	struct rcu_head *head;
	struct rcu_head **tail;
};

static struct rcu_state {
	spinlock_t lock;                /* all below, and rcu_done_list */
	bool gp_in_progress;
	struct cpumask qsmask;          /* CPUs that owe the running GP a QS */
	struct rcu_cblist next;         /* wait for the GP after the running one */
	struct rcu_cblist wait;         /* wait for the running GP */
} rcu_state = {
	.lock = SPINLOCK_INIT("rcu_state.lock"),
	.next = { NULL, &rcu_state.next.head },
	.wait = { NULL, &rcu_state.wait.head },
};

struct rcu_head *rcu_done_list;         /* GP over; read unlocked by rcu_core_pending() */
static struct rcu_head **rcu_done_tail = &rcu_done_list;

/* One CPU's debt to the running GP, on its own cache line: read at every QS. */
static struct rcu_data {
	bool qs_needed;
} __attribute__((aligned(64))) rcu_data[NR_CPUS];

bool rcu_invoking;                      /* a CPU is running callbacks */

/* Move list's callbacks to the end of *tail's list; list becomes empty. */
static void rcu_cblist_splice(struct rcu_cblist *list, struct rcu_head ***tail)
{
	if (!list->head)
		return;
	**tail = list->head;
	*tail = list->tail;
	list->head = NULL;
	list->tail = &list->head;
}

/* Start a GP for the callbacks on next: every online CPU owes it a QS. */
static void rcu_start_gp(void)
{
	unsigned int cpu;

	lockdep_assert_held(&rcu_state.lock);
	rcu_cblist_splice(&rcu_state.next, &rcu_state.wait.tail);
	cpumask_copy(&rcu_state.qsmask, cpu_online_mask);
	for_each_cpu(cpu, &rcu_state.qsmask)
		WRITE_ONCE(rcu_data[cpu].qs_needed, true);
	rcu_state.gp_in_progress = true;
}

/* The last QS came: wait's callbacks are done; start the next GP if any waits. */
static void rcu_end_gp(void)
{
	lockdep_assert_held(&rcu_state.lock);
	rcu_cblist_splice(&rcu_state.wait, &rcu_done_tail);
	rcu_state.gp_in_progress = false;
	if (rcu_state.next.head)
		rcu_start_gp();
}

/* This CPU is outside every reader: pay its debt to the running GP, if any. */
static void rcu_qs(void)
{
	unsigned int cpu = smp_processor_id();
	unsigned long flags;

	if (!READ_ONCE(rcu_data[cpu].qs_needed))
		return;
	spin_lock_irqsave(&rcu_state.lock, flags);
	if (rcu_data[cpu].qs_needed) {
		WRITE_ONCE(rcu_data[cpu].qs_needed, false);
		cpumask_clear_cpu(cpu, &rcu_state.qsmask);
		if (cpumask_empty(&rcu_state.qsmask))
			rcu_end_gp();
	}
	spin_unlock_irqrestore(&rcu_state.lock, flags);
}

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	unsigned long flags;

	head->func = func;
	head->next = NULL;
	spin_lock_irqsave(&rcu_state.lock, flags);
	*rcu_state.next.tail = head;
	rcu_state.next.tail = &head->next;
	if (!rcu_state.gp_in_progress)
		rcu_start_gp();
	spin_unlock_irqrestore(&rcu_state.lock, flags);
}

/*
 * schedule() is switching tasks: a QS unless the caller sleeps holding a
 * spinlock or inside a reader (a bug might_sleep() reports).
 */
void rcu_note_context_switch(void)
{
	if (!preempt_count())
		rcu_qs();
}

/*
 * The tick, after the interrupt's handler (preempt count back to the
 * interrupted code's): user mode or a count of 0 is outside every reader.
 */
void rcu_sched_clock_irq(int user)
{
	if (user || !preempt_count())
		rcu_qs();
}

/* An idle-loop turn: the idle task holds no reader. */
void rcu_idle_qs(void)
{
	rcu_qs();
}

/*
 * Run the callbacks whose GP has ended (Linux's rcu_core/rcu_do_batch).
 * Process context, interrupts on, no lock held.  One CPU at a time, so
 * they run in queue order; a CPU that finds another at it leaves the work
 * to it, and what it cannot see waits for the next call.  Batches that
 * ended meanwhile run too, unless the CPU is wanted elsewhere.
 */
void rcu_core(void)
{
	unsigned long flags;
	struct rcu_head *list, *next;

	if (__atomic_exchange_n(&rcu_invoking, true, __ATOMIC_ACQUIRE))
		return;
	for (;;) {
		spin_lock_irqsave(&rcu_state.lock, flags);
		list = rcu_done_list;
		rcu_done_list = NULL;
		rcu_done_tail = &rcu_done_list;
		spin_unlock_irqrestore(&rcu_state.lock, flags);
		if (!list)
			break;
		for (; list; list = next) {
			next = list->next;
			list->func(list);
		}
		if (current && need_resched())
			break;
	}
	__atomic_store_n(&rcu_invoking, false, __ATOMIC_RELEASE);
}

struct rcu_barrier_waiter {
	struct rcu_head head;
	bool done;
};

static void rcu_barrier_callback(struct rcu_head *head)
{
	struct rcu_barrier_waiter *w = container_of(head, struct rcu_barrier_waiter, head);

	smp_store_release(&w->done, true);
	wake_up_var(&w->done);
}

/*
 * Queue one more callback and sleep until it has run: callbacks run in
 * queue order, so all earlier ones have run by then.  The boot context
 * (the ktests run there before there are tasks) and an idle task cannot
 * sleep: they run callbacks themselves while they wait, as an idle loop
 * would.
 */
void rcu_barrier(void)
{
	struct rcu_barrier_waiter w = { .done = false };

	might_sleep();
	call_rcu(&w.head, rcu_barrier_callback);
	if (!current || is_idle_task(current)) {
		while (!smp_load_acquire(&w.done)) {
			rcu_core();
			cpu_relax();
		}
		return;
	}
	wait_var_event(&w.done, smp_load_acquire(&w.done));
}
