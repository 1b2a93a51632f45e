/*
 * Signals, after Linux's kernel/signal.c: kill() of a process, of a
 * process group or of everyone, the dispositions set by rt_sigaction (the
 * mask of rt_sigprocmask stays empty), pause, and the default actions.  Until user handlers exist a signal that is not
 * ignored either terminates its target (the wait status is the signal; no
 * core is dumped, as on Linux with RLIMIT_CORE 0, so no 0x80 bit) or, for
 * the stop signals that job control would use, is discarded.  The signal
 * is taken at the target's next return to user mode; a sleeper is woken
 * and its sleep ends with -EINTR.
 *
 * Lock order: see mm/rmap.c; none taken: one CPU, a kernel that is not
 * preempted, and the task list is read as kernel/sched.c does.
 */
#include "linux/errno.h"
#include "linux/signal.h"
#include "linux/sched.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"

#define INT_MIN (-2147483647 - 1)

/* Linux's SIG_KERNEL_IGNORE_MASK and SIG_KERNEL_STOP_MASK. */
#define SIG_KERNEL_IGNORE_MASK (BIT(SIGCONT) | BIT(SIGCHLD) | BIT(SIGWINCH) | BIT(SIGURG))
#define SIG_KERNEL_STOP_MASK (BIT(SIGSTOP) | BIT(SIGTSTP) | BIT(SIGTTIN) | BIT(SIGTTOU))

static bool sig_kernel_ignore(int sig)
{
	return sig < 32 && (SIG_KERNEL_IGNORE_MASK & BIT(sig));
}

static bool sig_kernel_stop(int sig)
{
	return sig < 32 && (SIG_KERNEL_STOP_MASK & BIT(sig));
}

__noreturn void force_sig_fault(int sig, unsigned long addr)
{
	pr_info("%s[%d]: killed by signal %d at %#lx\n", current->comm, current->pid, sig, addr);
	do_exit(sig);
}

/*
 * Would sig be discarded on arrival at t (Linux's sig_task_ignored)?  Its
 * handler is SIG_IGN, or SIG_DFL with a default action of ignore; PID 1
 * gets no signal it has not asked for (SIGNAL_UNKILLABLE) — and as no
 * handler can run yet, none at all.
 */
static bool sig_ignored(struct task_struct *t, int sig)
{
	unsigned long handler = t->action[sig - 1].handler;

	if (t == init_task)
		return true;
	return handler == SIG_IGN || (handler == SIG_DFL && sig_kernel_ignore(sig));
}

/*
 * Send sig (1.._NSIG) to t.  A zombie takes nothing (it is dying already);
 * an ignored or stop signal is discarded; any other becomes t's fatal
 * signal unless one is pending already.  Returns 0.
 */
int do_send_sig_info(int sig, struct task_struct *t)
{
	if (t->state == TASK_ZOMBIE || sig_ignored(t, sig) || sig_kernel_stop(sig))
		return 0;
	if (!t->pending_kill)
		t->pending_kill = sig;
	wake_up_task(t);                        /* a sleeper dies when it wakes */
	return 0;
}

/* kill's checks on one target (Linux's group_send_sig_info): 0 only probes. */
static int group_send_sig_info(int sig, struct task_struct *t)
{
	if (!valid_signal(sig))
		return -EINVAL;
	return sig ? do_send_sig_info(sig, t) : 0;
}

/*
 * sig to every process (zombies included) of group pgrp.  0 if one took
 * it, -ESRCH if the group is empty, else the last error.
 */
int kill_pgrp(int pgrp, int sig)
{
	struct task_struct *p;
	int ret = -ESRCH;

	for_each_process(p)
		if (p->pgid == pgrp) {
			int err = group_send_sig_info(sig, p);

			if (ret)
				ret = err;
		}
	return ret;
}

/* kill(-1, sig): every process but PID 1 and the caller; -ESRCH if none. */
static int kill_all(int sig)
{
	struct task_struct *p;
	int ret = 0, count = 0;

	for_each_process(p)
		if (p->pid > 1 && p != current) {
			count++;
			ret = group_send_sig_info(sig, p);
		}
	return count ? ret : -ESRCH;
}

/*
 * kill(pid, sig): pid > 0 one process (a zombie too), 0 the caller's
 * group, -1 everyone else, < -1 the group -pid (Linux's
 * kill_something_info).  sig 0 only checks that the target exists.
 */
long sys_kill(int pid, int sig)
{
	struct task_struct *t;

	if (pid > 0) {
		t = find_task_by_vpid(pid);
		return t ? group_send_sig_info(sig, t) : -ESRCH;
	}
	if (pid == INT_MIN)                     /* -INT_MIN is no process group */
		return -ESRCH;
	if (pid != -1)
		return kill_pgrp(pid ? -pid : current->pgid, sig);
	return kill_all(sig);
}

/*
 * Signal dispositions: stored whole and given back as
 * set; SIG_IGN and SIG_DFL are honoured, SA_NOCLDWAIT on SIGCHLD too; a
 * handler is accepted but, until delivery exists, acts as SIG_DFL.
 */
long sys_rt_sigaction(int sig, const void *act, void *oact, unsigned long sigsetsize)
{
	struct k_sigaction old, new;

	if (sigsetsize != 8)
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	if (sig < 1 || !valid_signal(sig) || ((sig == SIGKILL || sig == SIGSTOP) && act))
		return -EINVAL;
	old = current->action[sig - 1];
	if (act)
		current->action[sig - 1] = new;
	return oact && copy_to_user(oact, &old, sizeof(old)) ? -EFAULT : 0;
}

/*
 * No signal is blockable yet (only default actions exist), so the mask
 * stays empty; the arguments are checked as Linux does.
 */
long sys_rt_sigprocmask(int how, const void *set, void *oset, unsigned long sigsetsize)
{
	static const unsigned long empty;
	unsigned long new;

	if (sigsetsize != 8)
		return -EINVAL;
	if (set && copy_from_user(&new, set, sizeof(new)))
		return -EFAULT;
	if (set && (how < SIG_BLOCK || how > SIG_SETMASK))
		return -EINVAL;
	return oset && copy_to_user(oset, &empty, 8) ? -EFAULT : 0;
}

/* Sleep until a signal arrives (only fatal ones exist so far). */
long sys_pause(void)
{
	while (!current->pending_kill)
		sleep_on(&current->pending_kill);
	return -EINTR;
}

/*
 * A child is exiting: must it be reaped now, with no zombie (Linux's
 * do_notify_parent's autoreap)?  Yes when its parent ignores SIGCHLD or
 * set SA_NOCLDWAIT.  The SIGCHLD itself is ignored by default and no
 * handler can run yet, so nothing is sent.
 */
bool do_notify_parent(struct task_struct *tsk)
{
	const struct k_sigaction *ka = &tsk->parent->action[SIGCHLD - 1];

	return ka->handler == SIG_IGN || (ka->flags & SA_NOCLDWAIT);
}

/* exec: handlers go back to SIG_DFL (SIG_IGN stays), flags and masks are cleared. */
void flush_signal_handlers(struct task_struct *t)
{
	for (int i = 0; i < _NSIG; i++) {
		struct k_sigaction *ka = &t->action[i];

		*ka = (struct k_sigaction){ .handler = ka->handler == SIG_IGN ? SIG_IGN : SIG_DFL };
	}
}

/* On the way back to user mode: die of a pending fatal signal. */
void exit_to_user_mode(void)
{
	if (current->pending_kill)
		do_exit(current->pending_kill);
}
