/*
 * The scheduler (Linux's kernel/sched/core.c, written simply): a run queue
 * per CPU (kernel/sched/sched.h), round robin on each, tasks placed on a
 * CPU when they wake and pulled between CPUs by the balancer
 * (kernel/sched/fair.c).
 *
 * A task is preempted only on its way back to user mode, or at a
 * cond_resched() in a long kernel loop: the tick — every tick, wherever
 * it lands — or a reschedule IPI sets need_resched, exit_to_user_mode()
 * calls schedule().  A task that slept across a tick is queued at the
 * front when it wakes (the latency CFS's sleeper credit gives it), and
 * takes the CPU at once if it is well behind the task running there
 * (check_preempt_wakeup_fair: need_resched, an IPI for another CPU).
 * A task that sleeps sets its state, then calls schedule(); its waker calls
 * try_to_wake_up(), which puts it on a run queue (Linux's protocol: the
 * sleeper's state store and the waker's condition store are each ordered
 * before the other side's load, so one of them sees the other).
 *
 * task->on_rq: runnable (queued, or curr of its CPU); task->on_cpu: a CPU
 * is running it or still switching away from it; try_to_wake_up() waits
 * for on_cpu to clear before queueing a task elsewhere, and a zombie is
 * freed only once it is off its CPU (sched_wait_off_cpu).
 *
 * Locks: rq->lock (irq-safe) guards a run queue, its tasks' queue state
 * and sleep_start; p->pi_lock serialises p's wake-ups.  Order: linux/sched.h.
 */
#include "kernel/sched/sched.h"
#include "linux/rseq.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "linux/rcupdate.h"
#include "linux/uaccess.h"
#include <asm/arch.h>
#include <asm/irqflags.h>

struct rq runqueues[NR_CPUS];
static struct task_struct idle_tasks[NR_CPUS];  /* [0]: the boot context */

extern char boot_stack[];

/*
 * Set up this CPU's run queue and make the running context its idle task
 * (pid 0), current from now on.  Each CPU does its own, the APs as they
 * come up (before any task exists that could be sent to them).
 */
static void init_idle(unsigned int cpu, void *stack)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *idle = &idle_tasks[cpu];

	spin_lock_init(&rq->lock, "rq->lock");
	INIT_LIST_HEAD(&rq->queue);
	rq->cpu = cpu;

	strlcpy(idle->comm, "idle", sizeof(idle->comm));
	idle->kstack = stack;
	INIT_LIST_HEAD(&idle->children);
	spin_lock_init(&idle->pi_lock, "pi_lock");
	idle->cpu = rq->cpu;
	idle->on_cpu = 1;
	cpumask_set_cpu(rq->cpu, &idle->cpus_mask);
	rq->idle = rq->curr = idle;
	arch_set_current(idle);
}

/* The boot CPU's scheduler, before the first task is created. */
void sched_init(void)
{
	init_idle(smp_processor_id(), boot_stack);
}

/* A new task's scheduling state: not runnable yet, the parent's affinity and CPU. */
void sched_fork(struct task_struct *p, const struct task_struct *parent)
{
	p->state = TASK_NEW;
	spin_lock_init(&p->pi_lock, "pi_lock");
	if (parent && parent->pid) {
		unsigned long flags = arch_local_irq_save();    /* current (the parent) stays on rq */
		struct rq *rq = this_rq();

		p->cpus_mask = parent->cpus_mask;
		p->cpu = task_cpu(parent);
		p->nice = parent->nice;
		spin_lock(&rq->lock);
		task_fork_fair(rq, p);          /* relative, placed when it first wakes */
		spin_unlock(&rq->lock);
		arch_local_irq_restore(flags);
	} else {
		cpumask_setall(&p->cpus_mask);
		p->cpu = smp_processor_id();
	}
}

/*
 * Lock the run queue p is on (its pi_lock held, so only a balancer moving
 * it can change task_cpu(p): look again under the lock).
 */
struct rq *task_rq_lock(struct task_struct *p)
{
	for (;;) {
		struct rq *rq = cpu_rq(task_cpu(p));

		spin_lock(&rq->lock);
		if (rq == cpu_rq(task_cpu(p)))
			return rq;
		spin_unlock(&rq->lock);
	}
}

/*
 * p joins rq's queue, its vruntime placed on rq's clock; one that wakes
 * from a sleep keeps the place it had, within a sleeper's credit
 * (place_entity).
 */
static void activate_task(struct rq *rq, struct task_struct *p)
{
	update_curr_fair(rq);           /* min_vruntime as of now */
	place_entity(rq, p, p->sleep_start != 0);
	list_add_tail(&p->run_list, &rq->queue);
	p->sleep_start = 0;
	rq->nr_running++;
	WRITE_ONCE(p->on_rq, 1);
}

/*
 * p leaves rq: not queued (the caller took it off queue, or it was curr).
 * Its vruntime becomes relative to rq's min_vruntime, for whatever queue
 * it joins next (Linux's dequeue for a migration).
 */
void deactivate_task(struct rq *rq, struct task_struct *p)
{
	update_curr_fair(rq);           /* min_vruntime as of now (Linux's dequeue_entity) */
	rq->nr_running--;
	p->vruntime -= rq->min_vruntime;
	WRITE_ONCE(p->on_rq, 0);
}

/*
 * The CPU for p to run on (Linux's select_task_rq, simply): its last CPU if
 * allowed and idle, else an idle allowed CPU, else the allowed CPU with the
 * fewest runnable tasks (its last one on a tie).  If no allowed CPU is
 * online, any online CPU (Linux's select_fallback_rq); if one is, that
 * one (as Linux for a task with nr_cpus_allowed 1; every task while only
 * one CPU runs).  Reads other run queues without their locks: a hint.
 */
unsigned int select_task_rq(struct task_struct *p)
{
	unsigned int prev = task_cpu(p), best = prev, cpu;
	struct cpumask allowed;

	if (!cpumask_and(&allowed, &p->cpus_mask, cpu_online_mask))
		cpumask_copy(&allowed, cpu_online_mask);
	if (!(allowed.bits & (allowed.bits - 1)))
		return __builtin_ctzl(allowed.bits);
	if (cpumask_test_cpu(prev, &allowed) && idle_cpu(prev))
		return prev;
	if (!cpumask_test_cpu(prev, &allowed))
		best = cpumask_next_from(0, &allowed);
	for_each_cpu(cpu, &allowed) {
		if (idle_cpu(cpu))
			return cpu;
		if (READ_ONCE(cpu_rq(cpu)->nr_running) < READ_ONCE(cpu_rq(best)->nr_running))
			best = cpu;
	}
	return best;
}

/*
 * Put p (runnable, on no run queue, off every CPU; its pi_lock held) on
 * cpu's queue, and wake that CPU if it idles there.
 */
void ttwu_queue(struct task_struct *p, unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	bool kick;

	spin_lock(&rq->lock);
	WRITE_ONCE(p->cpu, cpu);
	activate_task(rq, p);
	WRITE_ONCE(p->state, TASK_RUNNING);
	kick = rq->curr == rq->idle;
	if (check_preempt_wakeup_fair(rq, p)) {
		set_tsk_need_resched(rq->curr);         /* it runs at once (Linux's resched_curr) */
		kick = true;
	}
	kick = kick && cpu != smp_processor_id();
	spin_unlock(&rq->lock);
	if (kick)
		smp_send_reschedule(cpu);
}

/*
 * p runs nowhere and is queued nowhere, yet is runnable: its affinity took
 * it off a CPU (put_prev_task, sched_setaffinity).  Queue it on an allowed
 * CPU.  p->pi_lock held, so exactly one of those callers does it.
 */
void requeue_migrated_task(struct task_struct *p)
{
	if (p->state == TASK_RUNNING && !p->on_rq && !smp_load_acquire(&p->on_cpu))
		ttwu_queue(p, select_task_rq(p));
}

/* p is still on a run queue (running, or about to sleep): making it running is enough. */
static int ttwu_runnable(struct task_struct *p)
{
	struct rq *rq = task_rq_lock(p);
	int ret = 0;

	if (p->on_rq) {
		WRITE_ONCE(p->state, TASK_RUNNING);
		ret = 1;
	}
	spin_unlock(&rq->lock);
	return ret;
}

/*
 * Wake p if its state is one of state's bits: make it runnable on a CPU
 * select_task_rq() chooses.  1 if it was woken, 0 if it was not asleep so.
 * Any context; takes p->pi_lock, then a run queue lock.
 */
int try_to_wake_up(struct task_struct *p, unsigned int state)
{
	unsigned long flags;

	spin_lock_irqsave(&p->pi_lock, flags);
	int success = 0;

	if (!(READ_ONCE(p->state) & state))
		goto unlock;
	success = 1;
	if (READ_ONCE(p->on_rq) && ttwu_runnable(p))
		goto unlock;
	while (smp_load_acquire(&p->on_cpu))    /* its CPU is still switching away */
		cpu_relax();
	ttwu_queue(p, select_task_rq(p));
unlock:
	spin_unlock_irqrestore(&p->pi_lock, flags);
	return success;
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL);
}

int wake_up_state(struct task_struct *p, unsigned int state)
{
	return try_to_wake_up(p, state);
}

/* Start a task task_create() made: it runs at its CPU's next scheduling point. */
void wake_up_new_task(struct task_struct *p)
{
	unsigned long flags;

	spin_lock_irqsave(&p->pi_lock, flags);

	ttwu_queue(p, select_task_rq(p));
	spin_unlock_irqrestore(&p->pi_lock, flags);
}

/* Spin until p's CPU has switched away from it for good (before freeing it). */
void sched_wait_off_cpu(struct task_struct *p)
{
	while (smp_load_acquire(&p->on_cpu))
		cpu_relax();
}

/*
 * prev stops running, its vruntime brought up to date: back to the queue
 * if it is still runnable here; off the run queue if it sleeps or died, or (still
 * running) if this CPU is no longer in its mask: finish_task_switch()
 * then queues it on an allowed CPU.  A signal cancels an interruptible
 * sleep, SIGKILL a stop or a killable sleep (Linux's signal_pending_state).
 */
static void put_prev_task(struct rq *rq, struct task_struct *prev)
{
	if (prev == rq->idle)
		return;
	update_curr_fair(rq);
	if ((prev->state == TASK_INTERRUPTIBLE && signal_pending(prev)) ||
	    ((prev->state & (TASK_STOPPED | TASK_WAKEKILL)) && fatal_signal_pending(prev)))
		WRITE_ONCE(prev->state, TASK_RUNNING);
	if (prev->state == TASK_RUNNING && cpumask_test_cpu(rq->cpu, &prev->cpus_mask))
		list_add_tail(&prev->run_list, &rq->queue);
	else
		deactivate_task(rq, prev);
	if (prev->state != TASK_RUNNING) {
		prev->sleep_start = jiffies + 1;
		prev->sleep_min_vruntime = rq->min_vruntime;
		prev->sleep_cpu = rq->cpu;
	}
}

static struct task_struct *pick_next_task(struct rq *rq)
{
	struct task_struct *next = pick_next_task_fair(rq);

	if (!next)
		return rq->idle;
	list_del(&next->run_list);
	return next;
}

/*
 * On the next task's stack, with this CPU's rq->lock held: prev is off
 * the CPU.  Release the lock the switch was made under, move prev to an
 * allowed CPU if its affinity sent it away, free it if it was reaped at
 * exit (Linux's finish_task_switch dropping a TASK_DEAD task).
 */
static void finish_task_switch(struct task_struct *prev)
{
	struct rq *rq = this_rq();
	unsigned int prev_state = READ_ONCE(prev->state);
	bool migrated = prev_state == TASK_RUNNING && !prev->on_rq && prev != rq->idle;

	smp_store_release(&prev->on_cpu, 0);
	spin_acquire(&rq->lock, 0, false, _THIS_IP_);   /* the validator's half of the hand-over */
	spin_unlock(&rq->lock);
	if (migrated) {
		spin_lock(&prev->pi_lock);
		requeue_migrated_task(prev);
		spin_unlock(&prev->pi_lock);
	}
	if (prev_state == TASK_DEAD)
		free_task(prev);
}

static struct task_struct *context_switch(struct task_struct *prev, struct task_struct *next)
{
	arch_switch_mm_and_stack(next);
	switch_fpu(prev, next);
	return __switch_to(&prev->sp, next->sp, prev);
}

/*
 * Give the CPU to the next runnable task of this CPU (round robin), or its
 * idle task.  A running current goes to the back of the queue; a sleeping
 * one leaves it.  Returns when current runs again, perhaps on another CPU,
 * with the preempt_count it left with (the count is per CPU; the task
 * switched to left with its own).
 */
void schedule(void)
{
	unsigned long flags = arch_local_irq_save();
	struct rq *rq = this_rq();
	struct task_struct *prev = rq->curr, *next;
	int pc;

	rcu_note_context_switch();
	spin_lock(&rq->lock);
	pc = preempt_count();
	clear_tsk_need_resched(prev);
	put_prev_task(rq, prev);
	next = pick_next_task(rq);
	if (next != prev) {
		rseq_preempt(prev);
		account_switch(prev, next);
		rq->curr = next;
		WRITE_ONCE(next->on_cpu, 1);
		spin_release(&rq->lock, _THIS_IP_);     /* next unlocks it (Linux's lock switch) */
		prev = context_switch(prev, next);
		preempt_count_set(pc);
		finish_task_switch(prev);
	} else {
		spin_unlock(&rq->lock);
	}
	arch_local_irq_restore(flags);
}

/*
 * The end of do_exit (Linux's do_task_dead): schedule away for good.  A
 * TASK_DEAD task (a thread, or its parent ignores SIGCHLD), which
 * exit_notify took off the task list, is freed by the next task to run on
 * its CPU, once off its stack (finish_task_switch); a zombie waits for its
 * parent's wait4.
 */
__noreturn void do_task_dead(void)
{
	struct task_struct *t = current;

	schedule();
	panic("do_task_dead: task %d ran again", t->pid);
}

/*
 * First thing a new task runs (from ret_from_fork): finish the switch from
 * prev with interrupts still off, then turn them on (Linux's
 * finish_task_switch does) and store the TID for CLONE_CHILD_SETTID in its
 * own mm: the word may be on a page fork made COW, whose fault sleeps.
 * The caller turns interrupts off again on its way to user mode
 * (exit_to_user_mode_prepare), taking what came meanwhile.
 */
void schedule_tail(struct task_struct *prev)
{
	preempt_count_set(FORK_PREEMPT_COUNT);
	finish_task_switch(prev);
	local_irq_enable();
	if (current->set_child_tid)
		put_user(current->pid, (int *)current->set_child_tid);
}

/*
 * Timer tick on this CPU, in user mode, kernel mode or idle (Linux's
 * scheduler_tick): if others wait here, current gives way at its return
 * to user mode or its next cond_resched(); and the balancer evens out the
 * run queues.  Interrupts off (the run queue locks are irq-safe).
 */
void sched_tick(void)
{
	struct rq *rq = this_rq();

	if (READ_ONCE(rq->nr_running) > 1)
		set_tsk_need_resched(current);
	load_balance(rq);
}

/*
 * Every tick, on every CPU, after the interrupt's handler (Linux's
 * update_process_times): a tick of CPU time for current and its CPU-time
 * interval timers, a quiescent
 * state for RCU if the tick interrupted none, the scheduler's tick; on
 * the boot CPU, which keeps jiffies, the load average (do_timer's).
 */
void update_process_times(int user_tick)
{
	account_process_tick(current, user_tick);
	run_posix_cpu_timers(current, user_tick);
	if (!smp_processor_id())
		calc_global_load();
	rcu_sched_clock_irq(user_tick);
	sched_tick();
}

void cond_resched(void)
{
	might_sleep();
	if (unlikely(need_resched()))
		schedule();
}

/*
 * The reschedule IPI (smp_send_reschedule): a task was queued here, or
 * current must move.  Interrupting user mode, current schedules on its way
 * back; interrupting the idle loop, the loop looks at the queue again.
 */
void scheduler_ipi(void)
{
	set_tsk_need_resched(current);
}

/*
 * Every CPU's idle loop, entered once it is up (the boot CPU after
 * starting init, each AP from arch/x86_64/smpboot.c): run what is queued,
 * else pull work from a busier CPU, else run the RCU callbacks whose grace
 * period ended (kernel/rcu/tree.c), else halt with interrupts on until an
 * interrupt (tick, IPI, device) may have made something runnable.  The
 * test and the halt happen with interrupts off (sti; hlt), so no wake-up
 * slips between them.
 */
__noreturn void cpu_startup_entry(void)
{
	struct rq *rq = this_rq();
	unsigned long sp = (unsigned long)__builtin_frame_address(0);

	if (!rq->idle)                  /* an AP: its boot stack (only the TSS reads it) */
		init_idle(smp_processor_id(), (void *)(sp & ~(KSTACK_SIZE - 1)));
	for (;;) {
		rcu_idle_qs();
		local_irq_disable();
		if (READ_ONCE(rq->nr_running) || load_balance(rq)) {
			schedule();
		} else if (rcu_core_pending()) {
			local_irq_enable();
			rcu_core();
		} else {
			arch_cpu_idle();
		}
	}
}
