/*
 * The scheduler's own view (Linux's kernel/sched/sched.h): one run queue
 * per CPU, whose tasks share it by their weights (kernel/sched/fair.c).
 *
 * rq->lock guards queue, nr_running, curr, and the on_rq and cpu of the
 * tasks on it; it is held from schedule()'s pick across the context switch
 * and released by the next task in finish_task_switch().  Two run queues
 * are locked in CPU order (double_rq_lock).  A task's pi_lock is taken
 * before its run queue's lock (try_to_wake_up, sched_setaffinity).
 * Everything here runs with interrupts off.
 */
#ifndef _KERNEL_SCHED_SCHED_H
#define _KERNEL_SCHED_SCHED_H

#include "linux/sched.h"
#include "linux/kernel_stat.h"
#include "linux/smp.h"

struct rq {
	spinlock_t lock;
	struct list_head queue;         /* runnable tasks waiting for this CPU (not curr) */
	unsigned int nr_running;        /* tasks on queue, plus curr unless it is idle */
	struct task_struct *curr;       /* what this CPU runs */
	struct task_struct *idle;       /* runs when nothing else does; never queued */
	unsigned int cpu;
	u64 min_vruntime;               /* never decreases: where queued vruntimes start */
	u64 curr_start;                 /* ktime_get_ns() when curr's vruntime was last updated */
	struct task_struct *skip;       /* sched_yield's caller: the next pick passes it over */
	/* written by this CPU only (the tick, the switch); /proc/stat reads them */
	u64 cpustat[NR_CPUSTATS];       /* ns of user, system, idle time by tick (kernel_cpustat) */
	u64 nr_switches;                /* context switches on this CPU (/proc/stat's ctxt) */
};

extern struct rq runqueues[NR_CPUS];

static inline struct rq *cpu_rq(unsigned int cpu)
{
	return &runqueues[cpu];
}

static inline struct rq *this_rq(void)
{
	return cpu_rq(smp_processor_id());
}

/* Is this CPU running its idle task with nothing queued (a wake-up's best target)? */
static inline bool idle_cpu(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return READ_ONCE(rq->curr) == rq->idle && !READ_ONCE(rq->nr_running);
}

struct rq *task_rq_lock(struct task_struct *p);
unsigned int select_task_rq(struct task_struct *p);
void ttwu_queue(struct task_struct *p, unsigned int cpu);
void requeue_migrated_task(struct task_struct *p);
void deactivate_task(struct rq *rq, struct task_struct *p);
bool load_balance(struct rq *this_rq);
void update_curr_fair(struct rq *rq);
void task_fork_fair(struct rq *rq, struct task_struct *p);
bool check_preempt_wakeup_fair(struct rq *rq, struct task_struct *p);
struct task_struct *pick_next_task_fair(struct rq *rq);
void place_entity(struct rq *rq, struct task_struct *p, bool sleeper);

#endif
