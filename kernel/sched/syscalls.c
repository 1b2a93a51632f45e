/*
 * The scheduler's system calls (Linux's kernel/sched/syscalls.c):
 * sched_yield, sched_setaffinity, sched_getaffinity, getcpu, and the nice
 * value's getpriority/setpriority (Linux's kernel/sys.c).
 *
 * A CPU mask crosses the ABI as Linux's cpumask_size() bytes: one long
 * (foliOS has at most NR_CPUS = 8 CPUs, as a Linux with nr_cpu_ids <= 64).
 */
#include "kernel/sched/sched.h"
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "linux/string.h"

#define CPUMASK_SIZE sizeof(unsigned long)

/* Round robin: current goes to the back of its CPU's queue. */
/*
 * sched_yield: another runnable task of the caller's CPU, if there is
 * one, runs first whatever the vruntimes (Linux's yield_task_fair: the
 * next pick passes the caller over, its skip buddy).
 */
long sys_sched_yield(void)
{
	unsigned long flags = arch_local_irq_save();
	struct rq *rq = this_rq();

	spin_lock(&rq->lock);
	rq->skip = current;
	spin_unlock(&rq->lock);
	arch_local_irq_restore(flags);
	schedule();
	return 0;
}

/* pid 0: the caller; else the task with that pid, or NULL.  tasklist_lock held. */
static struct task_struct *find_process_by_pid(int pid)
{
	return pid ? find_task_by_vpid(pid) : current;
}

/*
 * Give p the CPUs of new_mask (Linux's __set_cpus_allowed_ptr): -EINVAL if
 * none of them is online.  If p's CPU is no longer allowed, p moves: now
 * if it is queued, at its next schedule() if it runs.  Returns 1 when p
 * is current and must move: the caller schedules once it holds no lock,
 * so the call returns on an allowed CPU.  tasklist_lock held (p stays).
 */
static long __sched_setaffinity(struct task_struct *p, const struct cpumask *new_mask)
{
	unsigned long flags;
	bool move_self = false, kick = false;
	struct rq *rq;

	if (!cpumask_intersects(new_mask, cpu_online_mask))
		return -EINVAL;
	spin_lock_irqsave(&p->pi_lock, flags);
	rq = task_rq_lock(p);
	cpumask_copy(&p->cpus_mask, new_mask);
	if (!cpumask_test_cpu(rq->cpu, new_mask)) {
		if (p->on_rq && !p->on_cpu) {           /* queued: move it now */
			list_del(&p->run_list);
			deactivate_task(rq, p);
		} else if (p->on_cpu) {                 /* running: it moves itself */
			set_tsk_need_resched(p);
			move_self = p == current;
			kick = !move_self;
		}
	}
	spin_unlock(&rq->lock);
	requeue_migrated_task(p);
	spin_unlock_irqrestore(&p->pi_lock, flags);
	if (kick)
		smp_send_reschedule(rq->cpu);
	return move_self;
}

/*
 * sched_setaffinity(pid, len, mask): len bytes of mask (zero-extended if
 * short, the rest ignored if long, as Linux's get_user_cpu_mask).  0,
 * -EFAULT, -ESRCH, or -EINVAL when no CPU of the mask is online.
 */
long sys_sched_setaffinity(int pid, unsigned int len, const unsigned long *user_mask_ptr)
{
	struct cpumask new_mask = { 0 }, possible;
	struct task_struct *p;
	unsigned long flags;
	long ret = -ESRCH;

	if (copy_from_user(&new_mask.bits, user_mask_ptr, MIN(len, CPUMASK_SIZE)))
		return -EFAULT;
	cpumask_setall(&possible);
	cpumask_and(&new_mask, &new_mask, &possible);
	spin_lock_irqsave(&tasklist_lock, flags);
	p = find_process_by_pid(pid);
	if (p && p->state != TASK_ZOMBIE && p->state != TASK_DEAD)
		ret = __sched_setaffinity(p, &new_mask);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (ret <= 0)
		return ret;
	schedule();
	return 0;
}

/*
 * sched_getaffinity(pid, len, mask): the task's allowed CPUs that are
 * online, in min(len, CPUMASK_SIZE) bytes; returns that size.  -EINVAL if
 * len is too short for nr_cpu_ids bits or not a multiple of a long (Linux's
 * checks), -ESRCH, -EFAULT.
 */
long sys_sched_getaffinity(int pid, unsigned int len, unsigned long *user_mask_ptr)
{
	struct cpumask mask;
	struct task_struct *p;
	unsigned int retlen = MIN(len, CPUMASK_SIZE);
	unsigned long flags;

	if (len * 8 < nr_cpu_ids || (len & (sizeof(unsigned long) - 1)))
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);
	p = find_process_by_pid(pid);
	if (p)
		cpumask_and(&mask, &p->cpus_mask, cpu_online_mask);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!p)
		return -ESRCH;
	if (copy_to_user(user_mask_ptr, &mask.bits, retlen))
		return -EFAULT;
	return retlen;
}

/* getcpu(cpu, node, unused): the CPU the caller runs on; node 0 (one NUMA node). */
long sys_getcpu(unsigned int *cpup, unsigned int *nodep, void *unused)
{
	unsigned int cpu = smp_processor_id(), node = 0;

	if (cpup && copy_to_user(cpup, &cpu, sizeof(cpu)))
		return -EFAULT;
	if (nodep && copy_to_user(nodep, &node, sizeof(node)))
		return -EFAULT;
	return 0;
}

#define PRIO_PROCESS    0
#define PRIO_PGRP       1
#define PRIO_USER       2
#define MIN_NICE        -20
#define MAX_NICE        19

/* Does task p fall under (which, who) of get/setpriority?  tasklist_lock held. */
static bool prio_match(struct task_struct *p, int which, int who)
{
	switch (which) {
	case PRIO_PROCESS:
		return p->pid == (who ? who : current->pid);
	case PRIO_PGRP:
		return p->pgid == (who ? who : current->pgid);
	default:                /* PRIO_USER: every task is root's, uid 0 */
		return !who || who == 0;
	}
}

/*
 * getpriority(which, who): the highest priority (lowest nice) among the
 * tasks which/who names — a thread (PRIO_PROCESS; 0: the caller), a
 * process group, a user — returned as 20 - nice (1..40, Linux's ABI: no
 * negative value that could read as an error).  -EINVAL for another
 * which, -ESRCH if no task matches.
 */
long sys_getpriority(int which, int who)
{
	struct task_struct *p;
	unsigned long flags;
	long best = -ESRCH;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(p, &all_tasks, task_list)
		if (p->pid && prio_match(p, which, who))
			best = MAX(best, 20L - READ_ONCE(p->nice));
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return best;
}

/*
 * setpriority(which, who, nice): every task it names gets nice (clamped
 * to -20..19; below a task's present nice only with CAP_SYS_NICE: -EACCES).
 * Its share of the CPU follows from its next switch (kernel/sched/fair.c).
 * -EINVAL, -ESRCH as getpriority.
 */
long sys_setpriority(int which, int who, int nice)
{
	struct task_struct *p;
	unsigned long flags;
	long err = -ESRCH;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	nice = MIN(MAX(nice, MIN_NICE), MAX_NICE);
	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(p, &all_tasks, task_list) {
		if (!p->pid || !prio_match(p, which, who))
			continue;
		if (nice < READ_ONCE(p->nice) && !capable(CAP_SYS_NICE)) {
			err = -EACCES;
			continue;
		}
		WRITE_ONCE(p->nice, nice);
		if (err == -ESRCH)
			err = 0;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}
