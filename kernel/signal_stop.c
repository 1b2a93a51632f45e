/*
 * Job control: stopping and continuing a process (Linux's group stop in
 * kernel/signal.c: prepare_signal, do_signal_stop,
 * do_notify_parent_cldstop).
 *
 *   SIGSTOP, or SIGTSTP/SIGTTIN/SIGTTOU with the default action, taken by
 *   one thread (get_signal) starts a group stop: every live thread owes
 *   it (stop_pending, which signal_pending() reports, so a sleeper wakes
 *   with -ERESTARTSYS) and stops in get_signal in turn, TASK_STOPPED.
 *   The last one to stop makes the group SIGNAL_STOP_STOPPED and tells
 *   the parent: SIGCHLD with CLD_STOPPED (unless SA_NOCLDSTOP) and a
 *   wake-up of its wait4 (WUNTRACED reports the stop once).
 *
 *   SIGCONT, whatever its disposition, ends it as it is sent: pending
 *   stop signals are dropped, every thread woken, and a stopped group is
 *   SIGNAL_STOP_CONTINUED (WCONTINUED reports it once; the parent gets
 *   CLD_CONTINUED).  A stop signal sent drops a pending SIGCONT.
 *
 *   SIGKILL (and an exec's or exit_group's kill of the other threads)
 *   forgets a stop and wakes a stopped thread, which dies.  A thread that
 *   exits alone while it owes a stop pays it as it goes.  TSTP, TTIN and
 *   TTOU to an orphaned process group are discarded (nobody could
 *   continue it).
 *
 * Locking: all of it under tasklist_lock, which stands in for Linux's
 * siglock (kernel/signal.c).  Lock order: see linux/sched.h.
 */
#include "linux/signal.h"
#include "linux/sched.h"
#include "linux/wait.h"

/*
 * Tell tsk's parent that its process stopped or continued (why:
 * CLD_STOPPED, CLD_CONTINUED): SIGCHLD unless the parent set
 * SA_NOCLDSTOP or ignores it, and in any case a wake-up of its wait4.
 * tasklist_lock held.
 */
static void do_notify_parent_cldstop(struct task_struct *tsk, int why)
{
	struct task_struct *leader = tsk->group_leader, *parent = leader->parent;
	const struct k_sigaction *ka;
	siginfo_t info = { .si_signo = SIGCHLD, .si_code = why };

	lockdep_assert_held(&tasklist_lock);
	if (!parent)
		return;
	ka = &parent->sighand->action[SIGCHLD - 1];
	info.si_pid = leader->tgid;
	info.si_status = why == CLD_CONTINUED ? SIGCONT : tsk->signal->group_stop_sig;
	if (ka->handler != SIG_IGN && !(ka->flags & SA_NOCLDSTOP))
		send_signal_locked(SIGCHLD, &info, parent, true);
	wake_up_interruptible_all(&parent->signal->wait_chldexit);
}

/*
 * t pays its part of the group stop in progress (Linux's
 * task_participate_group_stop); the last one completes it.
 * tasklist_lock held.
 */
static void task_participate_group_stop(struct task_struct *t)
{
	struct signal_struct *sig = t->signal;

	t->stop_pending = false;
	if (--sig->group_stop_count)
		return;
	sig->flags = (sig->flags & ~SIGNAL_STOP_CONTINUED) | SIGNAL_STOP_STOPPED;
	do_notify_parent_cldstop(t, CLD_STOPPED);
}

/*
 * The group of p dies or execs: a stop in progress or done is forgotten,
 * no thread owes one (Linux's complete_signal and zap_other_threads clear
 * JOBCTL_PENDING_MASK).  The caller wakes the threads.  tasklist_lock held.
 */
void signal_stop_cancel(struct task_struct *p)
{
	struct signal_struct *sig = p->signal;
	struct task_struct *t;

	lockdep_assert_held(&tasklist_lock);
	for_each_thread(p, t)
		t->stop_pending = t->stop_dequeued = false;
	sig->group_stop_count = 0;
	sig->group_stop_sig = 0;
	sig->flags &= ~(SIGNAL_STOP_STOPPED | SIGNAL_STOP_CONTINUED);
}

/*
 * What sending sig to p does before it is queued (Linux's
 * prepare_signal): a stop signal drops a pending SIGCONT; SIGCONT drops
 * pending stop signals and wakes the threads; a stopped process is
 * continued (CLD_CONTINUED), one stopping reports its stop now
 * (CLD_STOPPED, as Linux's), either way WCONTINUED sees it.
 * tasklist_lock held.
 */
void prepare_signal(int sig, struct task_struct *p)
{
	struct signal_struct *signal = p->signal;
	struct task_struct *t;

	lockdep_assert_held(&tasklist_lock);
	if (signal->flags & SIGNAL_GROUP_EXIT)
		return;
	if (sig_kernel_stop(sig)) {
		__flush_sigqueue_mask(sigmask(SIGCONT), p);
		return;
	}
	if (sig != SIGCONT)
		return;
	__flush_sigqueue_mask(SIG_KERNEL_STOP_MASK, p);
	for_each_thread(p, t) {
		t->stop_pending = t->stop_dequeued = false;
		wake_up_state(t, TASK_STOPPED);
	}
	if (signal->flags & SIGNAL_STOP_STOPPED || signal->group_stop_count) {
		int why = signal->flags & SIGNAL_STOP_STOPPED ? CLD_CONTINUED : CLD_STOPPED;

		signal->flags = (signal->flags & ~SIGNAL_STOP_STOPPED) | SIGNAL_STOP_CONTINUED;
		signal->group_stop_count = 0;
		signal->group_stop_sig = 0;
		do_notify_parent_cldstop(p, why);
	}
}

/*
 * Would process group pgrp be orphaned without ignored: no other member
 * has a parent in another group of the same session, which could
 * continue it (Linux's will_become_orphaned_pgrp)?  tasklist_lock held.
 */
static bool will_become_orphaned_pgrp(int pgrp, const struct task_struct *ignored)
{
	struct task_struct *p;

	lockdep_assert_held(&tasklist_lock);
	for_each_process(p) {
		struct task_struct *parent = p->parent;

		if (p->pgid != pgrp || p == ignored || !p->signal->live || !parent ||
		    parent == init_task)
			continue;
		if (parent->pgid != pgrp && parent->sid == p->sid)
			return false;
	}
	return true;
}

/* Is current's process group orphaned (Linux's is_current_pgrp_orphaned)?  tasklist_lock held. */
bool is_current_pgrp_orphaned(void)
{
	return will_become_orphaned_pgrp(current->pgid, NULL);
}

/* Has process group pgrp a stopped member (Linux's has_stopped_jobs)?  tasklist_lock held. */
static bool has_stopped_jobs(int pgrp)
{
	struct task_struct *p;

	for_each_process(p)
		if (p->pgid == pgrp && (p->signal->flags & SIGNAL_STOP_STOPPED))
			return true;
	return false;
}

/*
 * A process is going (Linux's kill_orphaned_pgrp): parent NULL, tsk's own
 * — its group loses tsk's link to the session; else tsk is a child of the
 * exiting parent, whose group loses the parent.  A group that is orphaned
 * by it and has a stopped member gets SIGHUP, then SIGCONT (POSIX: nobody
 * else could continue it).  tasklist_lock held.
 */
void kill_orphaned_pgrp(struct task_struct *tsk, struct task_struct *parent)
{
	siginfo_t hup = { .si_signo = SIGHUP, .si_code = SI_KERNEL };
	siginfo_t cont = { .si_signo = SIGCONT, .si_code = SI_KERNEL };
	const struct task_struct *ignored = parent ? NULL : tsk;
	int pgrp = tsk->pgid;

	if (!parent)
		parent = tsk->parent;
	if (parent && parent->pgid != pgrp && parent->sid == tsk->sid &&
	    will_become_orphaned_pgrp(pgrp, ignored) && has_stopped_jobs(pgrp)) {
		__kill_pgrp_info(SIGHUP, &hup, pgrp);
		__kill_pgrp_info(SIGCONT, &cont, pgrp);
	}
}

/*
 * Begin a group stop for signr: every live thread not stopped already
 * owes it (Linux's do_signal_stop, whose JOBCTL_STOP_PENDING is ours).
 * tasklist_lock held.
 */
static void begin_group_stop(int signr)
{
	struct signal_struct *sig = current->signal;
	struct task_struct *t;

	sig->group_stop_sig = signr;
	sig->group_stop_count = 0;
	for_each_thread(current, t) {
		if (t->exiting || (t != current && READ_ONCE(t->state) == TASK_STOPPED))
			continue;
		t->stop_pending = true;
		sig->group_stop_count++;
		if (t != current)
			signal_wake_up(t);
	}
}

/* Is the group dying or exec'ing, or SIGKILL pending: no stop then.  tasklist_lock held. */
static bool stop_forbidden(void)
{
	struct signal_struct *sig = current->signal;

	return (sig->flags & SIGNAL_GROUP_EXIT) || sig->group_exec_task ||
	       (current->pending.signal & sigmask(SIGKILL));
}

/*
 * Stop current (Linux's do_signal_stop): signr, a stop signal with the
 * default action it dequeued, begins a group stop unless one is in
 * progress for current, a SIGCONT came since, or (TSTP, TTIN, TTOU) its
 * process group is orphaned; 0 joins the one in progress.  Returns when
 * SIGCONT or SIGKILL wakes it.
 */
void do_signal_stop(int signr)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	if (stop_forbidden()) {
		current->stop_pending = current->stop_dequeued = false;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		return;
	}
	if (signr && current->stop_dequeued && !current->stop_pending &&
	    (signr == SIGSTOP || !is_current_pgrp_orphaned()))
		begin_group_stop(signr);
	current->stop_dequeued = false;
	if (!current->stop_pending) {
		spin_unlock_irqrestore(&tasklist_lock, flags);
		return;
	}
	task_participate_group_stop(current);
	set_current_state(TASK_STOPPED);        /* before the unlock: SIGCONT's wake-up is not lost */
	spin_unlock_irqrestore(&tasklist_lock, flags);
	schedule();
}

/*
 * A thread exiting alone owes no stop any more: it pays its part (Linux's
 * exit_signals); a dying group reports no stop.  tasklist_lock held.
 */
void exit_signals_stop(struct task_struct *t)
{
	lockdep_assert_held(&tasklist_lock);
	if (t->stop_pending && !(t->signal->flags & SIGNAL_GROUP_EXIT))
		task_participate_group_stop(t);
	t->stop_pending = false;
}
