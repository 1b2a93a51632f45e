/*
 * Read-copy update (Linux's include/linux/rcupdate.h, the non-preemptible
 * flavour Linux builds with CONFIG_PREEMPT_NONE): readers that take no
 * lock and write nothing shared, and writers that unlink an object now
 * and free it only once every reader that could still see it is done.
 *
 *   writer:  unlink X (under its own lock)   call_rcu(&X->rcu, free_X)
 *                |                               |
 *   CPU 0  --[reader sees X]----QS-------------------------------------
 *   CPU 1  ---------QS----------------[reader: X is gone]---QS--------
 *                                    |<-- grace period -->|  free_X(X)
 *
 * A reader is the code between rcu_read_lock() and rcu_read_unlock(); it
 * must not sleep (the preempt count it raises makes might_sleep() say so).
 * A CPU passes a quiescent state (QS) whenever it is certainly outside
 * every reader: at a context switch, in the idle loop, and at a timer tick
 * that interrupted user mode or kernel code holding no spinlock and no
 * reader (preempt count 0).  A grace period ends when every CPU online at
 * its start has passed one; the callbacks queued before it started then run
 * (kernel/rcu/tree.c).  Readers of a pointer use rcu_dereference(); the
 * writer that publishes a new object fills it first, then
 * rcu_assign_pointer()s it, so a reader never sees it half made.
 *
 * Callbacks run in process context with interrupts on, outside every lock
 * (the idle loop, the return to user mode): they must not sleep.
 *
 * Lock order (the kernel's tree: mm/rmap.c): rcu_state.lock (irq: always
 * irqsave, kernel/rcu/tree.c) guards the grace periods and the callback
 * lists; call_rcu() takes it under any lock, and nothing is taken under
 * it (the tick reports quiescent states).
 */
#ifndef _LINUX_RCUPDATE_H
#define _LINUX_RCUPDATE_H

#include "linux/compiler.h"
#include "linux/preempt.h"
#include <asm/irqflags.h>

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

typedef void (*rcu_callback_t)(struct rcu_head *head);

#define __rcu                           /* a pointer readers load under rcu_read_lock() */

static inline void rcu_read_lock(void)
{
	preempt_disable();
}

static inline void rcu_read_unlock(void)
{
	preempt_enable();
}

/*
 * Inside a reader, or holding a spinlock or with interrupts off (which
 * also hold off this CPU's quiescent states): what lockless walks assert.
 */
static inline bool rcu_read_lock_held(void)
{
	return preempt_count() || irqs_disabled();
}

/*
 * Linux's rcu_dereference is a plain load that relies on the address
 * dependency to order what is read through the pointer; an acquire load
 * is the same instruction on x86 and says so to the compiler and to
 * ThreadSanitizer.
 */
#define rcu_dereference(p)              __atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define rcu_assign_pointer(p, v)        smp_store_release(&(p), (v))
#define RCU_INIT_POINTER(p, v)          WRITE_ONCE(p, v)

/*
 * Call func(head) once every reader running now has finished (after a
 * grace period).  Any context, any lock; func runs later, on some CPU,
 * in process context, and must not sleep.
 */
void call_rcu(struct rcu_head *head, rcu_callback_t func);

/* Wait until every callback queued before this call has run.  Sleeps. */
void rcu_barrier(void);

/*
 * Wait until every CPU has passed a quiescent state (Linux's
 * synchronize_rcu).  foliOS's callbacks run in queue order, each after a
 * grace period that began after it was queued, so rcu_barrier's callback
 * waits exactly that long.
 */
static inline void synchronize_rcu(void)
{
	rcu_barrier();
}

/* The hooks a CPU's life calls (kernel/sched/core.c, arch/x86_64/traps.c). */
void rcu_note_context_switch(void);
void rcu_sched_clock_irq(int user);
void rcu_idle_qs(void);
void rcu_core(void);

/*
 * Callbacks whose grace period has ended wait to run and no CPU is
 * running them: rcu_core() has work here.
 */
extern struct rcu_head *rcu_done_list;
extern bool rcu_invoking;
static inline bool rcu_core_pending(void)
{
	return READ_ONCE(rcu_done_list) && !READ_ONCE(rcu_invoking);
}

#endif
