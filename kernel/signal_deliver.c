/*
 * Taking a signal, after Linux's kernel/signal.c: the next pending signal
 * that is not blocked (get_signal, default actions), the blocked mask and
 * its temporary replacement by sigsuspend/ppoll, the alternate signal
 * stack, the return to user mode, and the system calls over them
 * (rt_sigaction, rt_sigprocmask, rt_sigpending, rt_sigsuspend, pause,
 * rt_sigtimedwait, sigaltstack).  The handler's frame is built by arch/x86_64/signal.c.
 *
 * Lock order: see kernel/signal.c (tasklist_lock stands in for Linux's siglock).
 */
#include "linux/errno.h"
#include "linux/signal.h"
#include "linux/sched.h"
#include "linux/rseq.h"
#include "linux/entry-common.h"
#include "linux/printk.h"
#include "linux/posix-timers.h"
#include "linux/rcupdate.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/time64.h"
#include "linux/uaccess.h"
#include <asm/irqflags.h>
#include <asm/syscall.h>

/* Faults the task caused itself: delivered before any other (Linux's SYNCHRONOUS_MASK). */
#define SYNCHRONOUS_MASK (sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) | \
			  sigmask(SIGTRAP) | sigmask(SIGFPE) | sigmask(SIGSYS))

/*
 * Take the first queued sig's siginfo off pending into info (Linux's
 * collect_signal); *nr counts pending's queued entries.
 */
static void collect_signal(int sig, struct sigpending *pending, int *nr, siginfo_t *info)
{
	struct sigqueue *q, *first = NULL;
	bool still_pending = false;

	list_for_each_entry(q, &pending->list, list)
		if (q->info.si_signo == sig) {
			if (first) {
				still_pending = true;
				break;
			}
			first = q;
		}
	if (!still_pending)
		pending->signal &= ~sigmask(sig);
	if (first) {
		list_del(&first->list);
		(*nr)--;
		*info = first->info;
		if ((first->flags & SIGQUEUE_PREALLOC) && first->timer)
			posixtimer_collect(first, info);        /* si_overrun */
		__sigqueue_free(first);
	} else {                /* queued without memory: as Linux, a kill()'s siginfo */
		*info = (siginfo_t){ .si_signo = sig, .si_code = SI_USER };
	}
}

/* The signal to take from pending (a synchronous fault first, then the lowest), or 0. */
static int next_signal(const struct sigpending *pending, sigset_t blocked)
{
	sigset_t ready = pending->signal & ~blocked;

	if (ready & SYNCHRONOUS_MASK)
		ready &= SYNCHRONOUS_MASK;
	return ready ? __builtin_ctzl(ready) + 1 : 0;
}

/*
 * The next signal current should take and its siginfo (Linux's
 * dequeue_signal): the thread's own pending ones first, then the
 * process's shared ones.  0 if nothing outside mask is pending.
 * tasklist_lock held.
 */
static int dequeue_signal(sigset_t mask, siginfo_t *info)
{
	struct signal_struct *signal = current->signal;
	int sig = next_signal(&current->pending, mask);

	if (sig) {
		collect_signal(sig, &current->pending, &current->nr_sigqueued, info);
	} else if ((sig = next_signal(&signal->shared_pending, mask))) {
		collect_signal(sig, &signal->shared_pending, &signal->nr_shared_queued, info);
	}
	return sig;
}

/*
 * Dequeue the next signal into ksig with the disposition it had then
 * (ksig->ka), resetting a SA_RESETHAND handler, all in one hold of
 * tasklist_lock (another thread's sigaction may change it).  0 if none.
 */
static int dequeue_signal_action(struct ksignal *ksig)
{
	struct k_sigaction *ka;
	unsigned long flags;
	int sig;

	spin_lock_irqsave(&tasklist_lock, flags);
	sig = dequeue_signal(current->blocked, &ksig->info);
	if (sig) {
		ka = &current->sighand->action[sig - 1];
		ksig->ka = *ka;
		if (sig_kernel_stop(sig))
			current->stop_dequeued = true;  /* a SIGCONT sent from now on cancels it */
		if (ka->handler != SIG_IGN && ka->handler != SIG_DFL && (ka->flags & SA_RESETHAND))
			ka->handler = SIG_DFL;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return sig;
}

/*
 * Dequeue signals until one has a handler (true: ksig says which, and a
 * SA_RESETHAND disposition is reset) or none is left (false).  Ignored
 * ones are dropped; a default action of stop stops the process here
 * (kernel/signal_stop.c), one of terminate ends it.
 */
bool get_signal(struct ksignal *ksig)
{
	for (;;) {
		int sig;

		if (current->signal->flags & SIGNAL_GROUP_EXIT)
			do_group_exit(0);               /* another thread ended the group */
		if (READ_ONCE(current->stop_pending)) {
			do_signal_stop(0);              /* another thread began a group stop */
			continue;
		}
		sig = dequeue_signal_action(ksig);
		if (!sig)
			return false;
		if (ksig->ka.handler == SIG_IGN)
			continue;
		if (ksig->ka.handler != SIG_DFL) {
			ksig->sig = sig;
			return true;
		}
		if (sig_kernel_ignore(sig) || current == init_task)
			continue;
		if (sig_kernel_stop(sig)) {
			do_signal_stop(sig);
			continue;
		}
		if (ksig->info.si_code > 0 && ksig->info.si_code != SI_KERNEL)
			pr_info("%s[%d]: killed by signal %d at %#lx\n", current->comm,
				current->pid, sig, ksig->info.si_addr);
		do_group_exit(sig);
	}
}

/*
 * Set current's blocked mask, SIGKILL and SIGSTOP kept unblockable, under
 * tasklist_lock: a sender on another CPU picks the thread to wake by it.
 */
void set_current_blocked(sigset_t newset)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	current->blocked = newset & ~SIG_KERNEL_ONLY_MASK;
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/*
 * A handler's frame is built (Linux's signal_delivered): while it runs,
 * its sa_mask and (unless SA_NODEFER) the signal itself are blocked too.
 * The mask a sigsuspend replaced is now in the frame, not to be restored.
 */
void signal_delivered(struct ksignal *ksig)
{
	sigset_t blocked = current->blocked | ksig->ka.mask;

	current->restore_sigmask = false;
	if (!(ksig->ka.flags & SA_NODEFER))
		blocked |= sigmask(ksig->sig);
	set_current_blocked(blocked);
}

/*
 * On the way back to user mode (a system call's end, or an interrupt or
 * exception taken in user mode): run the RCU callbacks whose grace period
 * ended (no lock is held here), give the CPU away if the tick or an IPI
 * asked (need_resched), run handlers, die of a fatal signal, or restart
 * an interrupted call; bring the rseq area up to date (kernel/rseq.c);
 * again while any of it is left (Linux's exit_to_user_mode_loop).
 * Returns with interrupts off, so no new signal is left behind between
 * the last check and the return.
 */
void exit_to_user_mode(struct pt_regs *regs)
{
	struct task_struct *t = current;

	do {    /* each piece of work may sleep (and so make more): until none is left */
		if (rcu_core_pending()) {
			local_irq_enable();
			rcu_core();
		}
		local_irq_disable();
		if (need_resched())
			schedule();
		if (signal_pending(t) || t->restore_sigmask || syscall_needs_restart(regs)) {
			local_irq_enable();
			arch_do_signal_or_restart(regs);
			local_irq_disable();
		}
		if (unlikely(t->rseq_pending)) {
			local_irq_enable();
			rseq_handle_notify_resume(regs);
			local_irq_disable();
		}
	} while (exit_to_user_mode_work(t, regs));
}

/*
 * sigsuspend and ppoll run with a temporary mask (Linux's
 * set_restore_sigmask): the old one comes back at the return to user
 * mode, or, if a handler runs, at its rt_sigreturn (it is in the frame).
 */
void set_restore_sigmask(sigset_t saved)
{
	current->saved_sigmask = saved;
	current->restore_sigmask = true;
}

/* The mask a handler's frame saves: the one before a sigsuspend, if any. */
sigset_t sigmask_to_save(void)
{
	return current->restore_sigmask ? current->saved_sigmask : current->blocked;
}

/* No handler ran: put back the mask that sigsuspend/ppoll replaced. */
void restore_saved_sigmask(void)
{
	if (current->restore_sigmask) {
		current->restore_sigmask = false;
		set_current_blocked(current->saved_sigmask);
	}
}

/*
 * ppoll's sigmask argument (Linux's set_user_sigmask): NULL keeps the
 * mask; else it replaces it until the call returns.  0, -EINVAL or -EFAULT.
 */
int set_user_sigmask(const sigset_t *umask, unsigned long sigsetsize)
{
	sigset_t kmask;

	if (!umask)
		return 0;
	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&kmask, umask, sizeof(kmask)))
		return -EFAULT;
	set_restore_sigmask(current->blocked);
	set_current_blocked(kmask);
	return 0;
}

/* ppoll's end: the old mask comes back now unless a signal interrupted it. */
void restore_saved_sigmask_unless(bool interrupted)
{
	if (!interrupted)
		restore_saved_sigmask();
}

/*
 * rt_sigaction: the disposition of sig, old one to oact.  SIGKILL and
 * SIGSTOP keep theirs.  Setting SIG_IGN (or SIG_DFL where the default is
 * to ignore) discards what is pending of sig (Linux's do_sigaction).
 */
long sys_rt_sigaction(int sig, const void *act, void *oact, unsigned long sigsetsize)
{
	struct k_sigaction old, new;
	unsigned long flags;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	if (sig < 1 || !valid_signal(sig) || (sig_kernel_only(sig) && act))
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);       /* Linux's siglock: the group shares sighand */
	old = current->sighand->action[sig - 1];
	if (act) {
		new.mask &= ~SIG_KERNEL_ONLY_MASK;
		new.flags &= UAPI_SA_FLAGS;     /* unknown flags read back as 0 (Linux 5.11+) */
		current->sighand->action[sig - 1] = new;
		if (new.handler == SIG_IGN || (new.handler == SIG_DFL && sig_kernel_ignore(sig)))
			__flush_sigqueue_mask(sigmask(sig), current);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return oact && copy_to_user(oact, &old, sizeof(old)) ? -EFAULT : 0;
}

/* rt_sigprocmask: block, unblock or set; SIGKILL and SIGSTOP stay unblocked. */
long sys_rt_sigprocmask(int how, const sigset_t *nset, sigset_t *oset, unsigned long sigsetsize)
{
	sigset_t old = current->blocked, new;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (nset) {
		if (copy_from_user(&new, nset, sizeof(new)))
			return -EFAULT;
		if (how == SIG_BLOCK)
			new |= old;
		else if (how == SIG_UNBLOCK)
			new = old & ~new;
		else if (how != SIG_SETMASK)
			return -EINVAL;
		set_current_blocked(new);
	}
	return oset && copy_to_user(oset, &old, sizeof(old)) ? -EFAULT : 0;
}

/* rt_sigpending: what is pending and blocked. */
long sys_rt_sigpending(sigset_t *uset, unsigned long sigsetsize)
{
	unsigned long flags;
	sigset_t set;

	spin_lock_irqsave(&tasklist_lock, flags);
	set = (current->pending.signal | current->signal->shared_pending.signal) & current->blocked;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (sigsetsize > sizeof(sigset_t))
		return -EINVAL;
	return copy_to_user(uset, &set, sigsetsize) ? -EFAULT : 0;
}

/*
 * Sleep until a signal that is not blocked is pending (the sender wakes
 * TASK_INTERRUPTIBLE tasks; schedule() does not sleep with one pending).
 */
static void sleep_until_signal(void)
{
	while (!signal_pending(current)) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
	}
}

/* pause: sleep until a handler has run (or the task dies). */
long sys_pause(void)
{
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

/* rt_sigsuspend: pause with a temporary mask; -EINTR once a handler ran. */
long sys_rt_sigsuspend(const sigset_t *unewset, unsigned long sigsetsize)
{
	sigset_t newset;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&newset, unewset, sizeof(newset)))
		return -EFAULT;
	set_restore_sigmask(current->blocked);
	set_current_blocked(newset);
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

/*
 * rt_sigtimedwait(set, info, timeout, sigsetsize) (sigwaitinfo,
 * sigtimedwait, sigwait; Linux's do_sigtimedwait): take a pending signal
 * of set — blocked, as a rule, so no handler gets it first — without
 * running its handler; its number, and its siginfo to info if given.
 * Nothing pending: sleep with set unblocked (the blocked mask kept in
 * real_blocked, so a signal whose default is to be ignored is not
 * dropped meanwhile) until one comes; -EAGAIN once the timeout passes
 * (a zero timeout only polls), -EINTR if another signal came first (not
 * restarted, as Linux's).  -EINVAL (sigsetsize, a bad timespec), -EFAULT.
 * SIGKILL and SIGSTOP are never taken.
 */
long sys_rt_sigtimedwait(const sigset_t *uthese, siginfo_t *uinfo,
			 const struct __kernel_timespec *uts, unsigned long sigsetsize)
{
	u64 timeout = 0, end = 0;
	unsigned long flags;
	sigset_t these;
	siginfo_t info;
	long ret = -EAGAIN;
	int sig, err;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&these, uthese, sizeof(these)))
		return -EFAULT;
	these &= ~SIG_KERNEL_ONLY_MASK;
	if (uts) {
		err = get_timespec_ns(uts, &timeout, NANOSLEEP_MAX_SECS);
		if (err)
			return err;
		end = ktime_get_ns() + timeout;
	}
	spin_lock_irqsave(&tasklist_lock, flags);
	sig = dequeue_signal(~these, &info);
	if (!sig && (!uts || timeout)) {
		current->real_blocked = current->blocked;
		current->blocked &= ~these;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		do {
			unsigned long j = jiffies;

			ret = schedule_tick_timeout(j, uts, end);
		} while (ret == 1);
		ret = ret ? ret : -EAGAIN;
		spin_lock_irqsave(&tasklist_lock, flags);
		current->blocked = current->real_blocked;
		current->real_blocked = 0;
		sig = dequeue_signal(~these, &info);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!sig)
		return ret;
	return uinfo && copy_to_user(uinfo, &info, sizeof(info)) ? -EFAULT : sig;
}

/*
 * Is sp on the alternate signal stack (which grows down from sas_ss_sp +
 * size)?  Never with SS_AUTODISARM, as Linux: a handler on that stack
 * disarmed it, so a stack pointer gone wild near it still gets a frame.
 */
bool on_sig_stack(unsigned long sp)
{
	if (current->sas_ss_flags & SS_AUTODISARM)
		return false;
	return sp > current->sas_ss_sp && sp - current->sas_ss_sp <= current->sas_ss_size;
}

/* sigaltstack's ss_flags for a task at sp: disabled, in use, or 0. */
int sas_ss_flags(unsigned long sp)
{
	if (!current->sas_ss_size)
		return SS_DISABLE;
	return on_sig_stack(sp) ? SS_ONSTACK : 0;
}

/*
 * Where a handler's frame goes below (Linux's sigsp): the top of the
 * alternate stack for an SA_ONSTACK handler not already on it, else sp.
 */
unsigned long sigsp(unsigned long sp, struct ksignal *ksig)
{
	if ((ksig->ka.flags & SA_ONSTACK) && !sas_ss_flags(sp))
		sp = current->sas_ss_sp + current->sas_ss_size;
	return sp;
}

/*
 * current's alternate stack as sp sees it, into st.  The padding after
 * ss_flags is zeroed: st goes to user memory whole (Linux memsets it too).
 */
static void current_altstack(stack_t *st, unsigned long sp)
{
	memset(st, 0, sizeof(*st));
	st->ss_sp = (void *)current->sas_ss_sp;
	st->ss_size = current->sas_ss_size;
	st->ss_flags = sas_ss_flags(sp) | current->sas_ss_flags;
}

/*
 * The alternate stack as sigaltstack's ss, old one to oss (Linux's
 * do_sigaltstack): -EPERM while running on it, -EINVAL for unknown
 * flags, -ENOMEM below MINSIGSTKSZ.  sp is the user's stack pointer.
 */
int do_sigaltstack(const stack_t *ss, stack_t *oss, unsigned long sp)
{
	stack_t old;

	current_altstack(&old, sp);
	if (ss) {
		unsigned int mode = ss->ss_flags & ~SS_FLAG_BITS;

		if (on_sig_stack(sp))
			return -EPERM;
		if (mode != SS_DISABLE && mode != SS_ONSTACK && mode != 0)
			return -EINVAL;
		if (mode != SS_DISABLE && ss->ss_size < MINSIGSTKSZ)
			return -ENOMEM;
		current->sas_ss_sp = mode == SS_DISABLE ? 0 : (unsigned long)ss->ss_sp;
		current->sas_ss_size = mode == SS_DISABLE ? 0 : ss->ss_size;
		current->sas_ss_flags = ss->ss_flags & SS_FLAG_BITS;
	}
	if (oss)
		*oss = old;
	return 0;
}

long sys_sigaltstack(const stack_t *uss, stack_t *uoss)
{
	stack_t new, old;
	int ret;

	if (uss && copy_from_user(&new, uss, sizeof(new)))
		return -EFAULT;
	ret = do_sigaltstack(uss ? &new : NULL, &old, current_user_stack_pointer());
	if (!ret && uoss && copy_to_user(uoss, &old, sizeof(old)))
		return -EFAULT;
	return ret;
}

/* rt_sigreturn: the frame's uc_stack back; only a fault counts (Linux's restore_altstack). */
int restore_altstack(const stack_t *uss)
{
	stack_t new;

	if (copy_from_user(&new, uss, sizeof(new)))
		return -EFAULT;
	do_sigaltstack(&new, NULL, current_user_stack_pointer());
	return 0;
}

/*
 * The frame's uc_stack: the alternate stack as sp sees it (Linux's
 * __save_altstack).  SS_AUTODISARM then disables it while the handler
 * runs; rt_sigreturn puts it back from uc_stack.
 */
int __save_altstack(stack_t *uss, unsigned long sp)
{
	stack_t cur;

	current_altstack(&cur, sp);
	if (copy_to_user(uss, &cur, sizeof(cur)))
		return -EFAULT;
	if (current->sas_ss_flags & SS_AUTODISARM) {
		current->sas_ss_sp = current->sas_ss_size = 0;
		current->sas_ss_flags = 0;
	}
	return 0;
}

/* restart_syscall after a call that cannot be restarted: -EINTR. */
long do_no_restart_syscall(struct restart_block *restart)
{
	return -EINTR;
}

/* restart_syscall: go on with the call a signal interrupted, as restart_block says. */
long sys_restart_syscall(void)
{
	struct restart_block *restart = &current->restart_block;

	return restart->fn ? restart->fn(restart) : -EINTR;
}
