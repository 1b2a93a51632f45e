/*
 * The preemption count (Linux's include/linux/preempt.h): bits 0-7 count
 * preempt_disable() nesting (one per spinlock held), bits 16-19 the hardirq
 * nesting the interrupt entry adds (irq_enter/irq_exit).  Non-zero: the CPU
 * runs in atomic context and must not sleep (might_sleep() checks).  The
 * kernel is not preemptible (a task switches only where it sleeps, at the
 * return to user mode, or at a cond_resched()), so preempt_enable() never
 * reschedules.
 *
 * Locks: none; the count is per CPU (per task across a switch).
 */
#ifndef _LINUX_PREEMPT_H
#define _LINUX_PREEMPT_H

#include "linux/compiler.h"
#include <asm/preempt.h>

#define PREEMPT_MASK    0x000000ff
#define HARDIRQ_SHIFT   16
#define HARDIRQ_OFFSET  (1 << HARDIRQ_SHIFT)
#define HARDIRQ_MASK    (0xf << HARDIRQ_SHIFT)

#define hardirq_count() (preempt_count() & HARDIRQ_MASK)
#define in_hardirq()    (hardirq_count() != 0)
#define in_interrupt()  (hardirq_count() != 0)  /* no softirqs or NMIs here */
#define in_atomic()     (preempt_count() != 0)

/* A task's first run (schedule_tail): schedule() left tasklist_lock held. */
#define FORK_PREEMPT_COUNT 1

#define preempt_disable() do { __preempt_count_add(1); barrier(); } while (0)
#define preempt_enable()  do { barrier(); __preempt_count_sub(1); } while (0)

/* The interrupt entry and exit around a device interrupt's handler. */
#define irq_enter() __preempt_count_add(HARDIRQ_OFFSET)
#define irq_exit()  __preempt_count_sub(HARDIRQ_OFFSET)

/*
 * A point in a long kernel loop (fork's copy, an unmap) where current
 * gives the CPU away if the tick asked for it (Linux's cond_resched under
 * PREEMPT_NONE): no spinlock held, interrupts on; may sleep.  In
 * kernel/sched/core.c (the host tests': hostenv.c).
 */
void cond_resched(void);

#endif
