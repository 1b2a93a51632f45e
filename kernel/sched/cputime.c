/*
 * The CPU time of tasks (Linux's kernel/sched/cputime.c, with the runtime
 * part of update_curr), two ways, as Linux's default (tick-based)
 * accounting keeps it:
 *
 *   exactly   sum_exec_runtime: at each switch the monotonic clock's
 *             advance since the task got the CPU (exec_start) is added.
 *             CLOCK_THREAD_CPUTIME_ID and CLOCK_PROCESS_CPUTIME_ID read it.
 *   by tick   utime, stime: each tick charges a whole tick to the user or
 *             system time of the task it interrupted (account_process_tick).
 *             times(2), getrusage(2) and wait4's rusage report these.
 *
 * A thread's times go into its signal_struct when it is unhashed; a
 * process's, with its own reaped children's, into its parent's cutime and
 * cstime when the parent reaps it (kernel/exit.c).
 *
 * Each CPU also counts its ticks of user, system and idle time and its
 * switches in its rq (/proc/stat, /proc/uptime).
 *
 * Locks: a task's fields are written by the CPU running it (the switch
 * with interrupts off, the tick); cputime_seq lets readers on other CPUs
 * take sum_exec_runtime and exec_start as a pair.  The signal_struct
 * sums and the walk of a group's threads are under tasklist_lock.
 */
#include "kernel/sched/sched.h"
#include "linux/time64.h"
#include <asm/arch.h>

/* schedule(), interrupts off: prev leaves this CPU, next gets it. */
void account_switch(struct task_struct *prev, struct task_struct *next)
{
	u64 now;

	write_seqcount_begin(&prev->cputime_seq);
	now = ktime_get_ns();           /* inside: a reader's clock read is before or after it all */
	if (prev->exec_start && now > prev->exec_start)
		WRITE_ONCE(prev->sum_exec_runtime, prev->sum_exec_runtime + now - prev->exec_start);
	WRITE_ONCE(prev->exec_start, 0);
	write_seqcount_end(&prev->cputime_seq);
	WRITE_ONCE(this_rq()->nr_switches, this_rq()->nr_switches + 1);
	if (READ_ONCE(prev->state) == TASK_RUNNING)
		WRITE_ONCE(prev->nivcsw, prev->nivcsw + 1);
	else
		WRITE_ONCE(prev->nvcsw, prev->nvcsw + 1);
	write_seqcount_begin(&next->cputime_seq);
	WRITE_ONCE(next->exec_start, now);
	write_seqcount_end(&next->cputime_seq);
}

/*
 * The tick, on p's CPU: a tick of user or system time for p (the boot
 * context before there are tasks, and idle tasks, count none), and the
 * same tick in this CPU's user, system or idle time (/proc/stat).
 */
void account_process_tick(struct task_struct *p, int user_tick)
{
	u64 *cpustat = this_rq()->cpustat;
	enum cpu_usage_stat what = !p || is_idle_task(p) ? CPUTIME_IDLE :
				   user_tick ? CPUTIME_USER : CPUTIME_SYSTEM;

	WRITE_ONCE(cpustat[what], cpustat[what] + TICK_NSEC);
	if (what == CPUTIME_USER)
		WRITE_ONCE(p->utime, p->utime + TICK_NSEC);
	else if (what == CPUTIME_SYSTEM)
		WRITE_ONCE(p->stime, p->stime + TICK_NSEC);
}

/* CPU cpu's time spent as what says, in ns (Linux's kcpustat_cpu), read from any CPU. */
u64 kcpustat_cpu(unsigned int cpu, enum cpu_usage_stat what)
{
	return READ_ONCE(cpu_rq(cpu)->cpustat[what]);
}

/* Context switches on every CPU since boot (Linux's nr_context_switches). */
u64 nr_context_switches(void)
{
	u64 sum = 0;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		sum += READ_ONCE(cpu_rq(cpu)->nr_switches);
	return sum;
}

/* t's exact CPU time so far, running or not, read from any CPU. */
u64 task_sched_runtime(struct task_struct *t)
{
	unsigned int seq;
	u64 sum, start, now;

	do {
		seq = read_seqcount_begin(&t->cputime_seq);
		sum = READ_ONCE(t->sum_exec_runtime);
		start = READ_ONCE(t->exec_start);
		now = ktime_get_ns();   /* inside: never past a switch the loop did not see */
	} while (read_seqcount_retry(&t->cputime_seq, seq));
	return sum + (start && now > start ? now - start : 0);
}

/*
 * The CPU time of t's whole process: its live threads' and its gone
 * threads' (Linux's thread_group_cputime).  tasklist_lock held.
 */
void thread_group_cputime(struct task_struct *t, struct task_cputime *times)
{
	struct signal_struct *sig = t->signal;
	struct task_struct *th;

	lockdep_assert_held(&tasklist_lock);
	times->utime = sig->utime;
	times->stime = sig->stime;
	times->sum_exec_runtime = sig->sum_sched_runtime;
	list_for_each_entry(th, &sig->thread_head, thread_node) {
		times->utime += READ_ONCE(th->utime);
		times->stime += READ_ONCE(th->stime);
		times->sum_exec_runtime += task_sched_runtime(th);
	}
}

/* A thread leaves its group (__unhash_process): its times stay the group's.  tasklist_lock held. */
void account_exit_thread(struct task_struct *t)
{
	struct signal_struct *sig = t->signal;

	lockdep_assert_held(&tasklist_lock);
	sig->utime += READ_ONCE(t->utime);
	sig->stime += READ_ONCE(t->stime);
	sig->sum_sched_runtime += task_sched_runtime(t);
	sig->nvcsw += READ_ONCE(t->nvcsw);
	sig->nivcsw += READ_ONCE(t->nivcsw);
	sig->min_flt += READ_ONCE(t->min_flt);
	sig->maj_flt += READ_ONCE(t->maj_flt);
}

/*
 * The parent reaps zombie z, its process's last thread: z's process's
 * times and its own children's become the parent's children's (Linux's
 * wait_task_zombie).  tasklist_lock held.
 */
void account_reaped_child(struct task_struct *z)
{
	struct signal_struct *psig = current->signal, *sig = z->signal;
	struct task_cputime times;

	lockdep_assert_held(&tasklist_lock);
	thread_group_cputime(z, &times);
	psig->cutime += times.utime + sig->cutime;
	psig->cstime += times.stime + sig->cstime;
	psig->cnvcsw += sig->nvcsw + READ_ONCE(z->nvcsw) + sig->cnvcsw;
	psig->cnivcsw += sig->nivcsw + READ_ONCE(z->nivcsw) + sig->cnivcsw;
	psig->cmin_flt += sig->min_flt + READ_ONCE(z->min_flt) + sig->cmin_flt;
	psig->cmaj_flt += sig->maj_flt + READ_ONCE(z->maj_flt) + sig->cmaj_flt;
}

/*
 * The running task took a page fault (mm/memory.c's mm_account_fault):
 * minor, or major if it waited for I/O.  Only the task writes its
 * counts; readers elsewhere read them racily, as Linux's.
 */
void task_account_fault(bool major)
{
	struct task_struct *t = current;

	if (major)
		WRITE_ONCE(t->maj_flt, t->maj_flt + 1);
	else
		WRITE_ONCE(t->min_flt, t->min_flt + 1);
}

/* The page faults of t's process: its threads' and its gone threads' (Linux's do_task_stat). */
void thread_group_faults(struct task_struct *t, unsigned long *min_flt, unsigned long *maj_flt)
{
	struct signal_struct *sig = t->signal;
	struct task_struct *th;

	lockdep_assert_held(&tasklist_lock);
	*min_flt = sig->min_flt;
	*maj_flt = sig->maj_flt;
	list_for_each_entry(th, &sig->thread_head, thread_node) {
		*min_flt += READ_ONCE(th->min_flt);
		*maj_flt += READ_ONCE(th->maj_flt);
	}
}
