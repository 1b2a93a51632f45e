/*
 * Signals, after Linux's kernel/signal.c: sending (kill, tkill, tgkill,
 * faults) and the pending queue.  Taking a signal (get_signal, the
 * default actions, masks, the alternate stack and their system calls) is
 * in kernel/signal_deliver.c; a handler's frame in arch/x86_64/signal.c.
 *
 * One thread per process, so a task's pending set is its process's.  A
 * standard signal is pending at most once; a real-time one (SIGRTMIN..64)
 * queues each time it is sent.  Default actions: ignore, or (for the stop
 * signals, with no job control) discard, or terminate with the signal as
 * the wait status (no core is dumped, as with RLIMIT_CORE 0): see
 * kernel/signal_deliver.c.
 *
 * Lock order: see mm/rmap.c; none taken: one CPU, a kernel that is not
 * preempted, and the task list is read as kernel/sched.c does.  Queues
 * that an interrupt may change (^C's kill_pgrp) are changed with
 * interrupts off.
 */
#include "linux/errno.h"
#include "linux/signal.h"
#include "linux/sched.h"
#include "linux/printk.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include <asm/irqflags.h>

#define INT_MIN (-2147483647 - 1)
#define SIGQUEUE_MAX    1024    /* per task, whatever RLIMIT_SIGPENDING says */

/* Linux's SIG_KERNEL_*_MASK: default ignore, default stop (never caught: linux/signal.h). */
#define SIG_KERNEL_IGNORE_MASK (sigmask(SIGCONT) | sigmask(SIGCHLD) | sigmask(SIGWINCH) | \
				sigmask(SIGURG))
#define SIG_KERNEL_STOP_MASK (sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | \
			      sigmask(SIGTTOU))

bool sig_kernel_ignore(int sig)
{
	return SIG_KERNEL_IGNORE_MASK & sigmask(sig);
}

bool sig_kernel_stop(int sig)
{
	return SIG_KERNEL_STOP_MASK & sigmask(sig);
}

bool sig_kernel_only(int sig)
{
	return SIG_KERNEL_ONLY_MASK & sigmask(sig);
}

/*
 * Would sig be discarded on arrival at t (Linux's sig_task_ignored)?  Its
 * handler is SIG_IGN, or SIG_DFL with a default action of ignore; PID 1
 * (SIGNAL_UNKILLABLE) takes only the signals it has a handler for.  A
 * blocked signal stays: the handler may change before it is unblocked.
 */
static bool sig_ignored(struct task_struct *t, int sig)
{
	unsigned long handler = t->action[sig - 1].handler;

	if (t == init_task && (sig_kernel_only(sig) || handler == SIG_DFL))
		return true;
	if (t->blocked & sigmask(sig))
		return false;
	return handler == SIG_IGN || (handler == SIG_DFL && sig_kernel_ignore(sig));
}

/* Give back every queued siginfo (exit, or a flush). */
void flush_sigqueue(struct sigpending *queue)
{
	while (!list_empty(&queue->list)) {
		struct sigqueue *q = list_first_entry(&queue->list, struct sigqueue, list);

		list_del(&q->list);
		kfree(q);
	}
	queue->signal = 0;
}

/* Discard what is pending of the signals in mask (Linux's flush_sigqueue_mask). */
void flush_sigqueue_mask(sigset_t mask, struct task_struct *t)
{
	unsigned long flags = arch_local_irq_save();
	struct list_head *pos = t->pending.list.next;

	while (pos != &t->pending.list) {
		struct sigqueue *q = list_entry(pos, struct sigqueue, list);

		pos = pos->next;
		if (sigmask(q->info.si_signo) & mask) {
			list_del(&q->list);
			t->nr_sigqueued--;
			kfree(q);
		}
	}
	t->pending.signal &= ~mask;
	arch_local_irq_restore(flags);
}

/*
 * Queue sig with info on t (Linux's __send_signal_locked).  A zombie takes
 * nothing; an ignored or (no job control) default-stop signal is discarded; a
 * standard signal already pending is not queued again.  Without memory,
 * or over the queue limit, a standard signal or a kill()'s is still
 * pending (with no siginfo of its own); another real-time one is -EAGAIN.
 * Wakes t if it does not block sig.  Interrupts off.
 */
static int __send_signal(int sig, const siginfo_t *info, struct task_struct *t)
{
	unsigned long limit = t->rlim[RLIMIT_SIGPENDING].rlim_cur;
	struct sigqueue *q = NULL;

	if (t->state == TASK_ZOMBIE || t->state == TASK_DEAD || sig_ignored(t, sig) ||
	    (sig_kernel_stop(sig) && t->action[sig - 1].handler == SIG_DFL))
		return 0;
	if (sig < SIGRTMIN && (t->pending.signal & sigmask(sig)))
		return 0;
	if (t->nr_sigqueued < SIGQUEUE_MAX && (unsigned long)t->nr_sigqueued < limit)
		q = kmalloc(sizeof(*q));
	if (q) {
		q->info = *info;
		list_add_tail(&q->list, &t->pending.list);
		t->nr_sigqueued++;
	} else if (sig >= SIGRTMIN && info->si_code != SI_USER) {
		return -EAGAIN;
	}
	t->pending.signal |= sigmask(sig);
	if (!(t->blocked & sigmask(sig)))
		wake_up_state(t, TASK_INTERRUPTIBLE);   /* a sleeper sees signal_pending() */
	return 0;
}

/* Send sig with info to t (Linux's do_send_sig_info): 0, or -EAGAIN. */
int do_send_sig_info(int sig, const siginfo_t *info, struct task_struct *t)
{
	unsigned long flags = arch_local_irq_save();
	int ret = __send_signal(sig, info, t);

	arch_local_irq_restore(flags);
	return ret;
}

/* sig from the kernel (priv: SI_KERNEL) or on the current task's behalf (SI_USER). */
int send_sig(int sig, struct task_struct *t, int priv)
{
	siginfo_t info = { .si_signo = sig, .si_code = priv ? SI_KERNEL : SI_USER };

	if (!priv)
		info.si_pid = current->pid;
	return do_send_sig_info(sig, &info, t);
}

/*
 * A fault of the current task (Linux's force_sig_fault): sig with code
 * and the faulting address.  It cannot be blocked or ignored away: a
 * blocked or ignored sig gets SIG_DFL and is unblocked, so the task dies
 * of it unless a handler runs.  PID 1 dies of a fault it has no handler for.
 */
void force_sig_fault(int sig, int code, unsigned long addr)
{
	struct k_sigaction *ka = &current->action[sig - 1];
	siginfo_t info = { .si_signo = sig, .si_code = code };

	info.si_addr = addr;
	if (ka->handler == SIG_IGN || (current->blocked & sigmask(sig))) {
		ka->handler = SIG_DFL;
		current->blocked &= ~sigmask(sig);
	}
	if (ka->handler == SIG_DFL && (current == init_task || sig == SIGKILL)) {
		pr_info("%s[%d]: killed by signal %d at %#lx\n", current->comm, current->pid,
			sig, addr);
		do_exit(sig);
	}
	do_send_sig_info(sig, &info, current);
}

/*
 * Send sig with info to one target (Linux's group_send_sig_info); sig 0
 * only probes.  The checks of kill(2): a valid number.
 */
static int group_send_sig_info(int sig, const siginfo_t *info, struct task_struct *t)
{
	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	return sig ? do_send_sig_info(sig, info, t) : 0;
}

/* kill()'s siginfo: SI_USER, from the caller. */
static siginfo_t kill_info(int sig, int code)
{
	siginfo_t info = { .si_signo = sig, .si_code = code };

	info.si_pid = current->pid;
	info.si_uid = 0;
	return info;
}

/*
 * sig to every process (zombies included) of group pgrp.  0 if one took
 * it, -ESRCH if the group is empty, else the last error.
 */
int kill_pgrp(int pgrp, int sig)
{
	siginfo_t info = { .si_signo = sig, .si_code = SI_KERNEL };
	struct task_struct *p;
	int ret = -ESRCH;

	for_each_process(p)
		if (p->pgid == pgrp) {
			int err = group_send_sig_info(sig, &info, p);

			if (ret)
				ret = err;
		}
	return ret;
}

/* kill(-1, sig): every process but PID 1 and the caller; -ESRCH if none. */
static int kill_all(const siginfo_t *info, int sig)
{
	struct task_struct *p;
	int ret = 0, count = 0;

	for_each_process(p)
		if (p->pid > 1 && p != current) {
			count++;
			ret = group_send_sig_info(sig, info, p);
		}
	return count ? ret : -ESRCH;
}

/* kill(-pgrp, sig) from user space: as kill_pgrp, with kill()'s siginfo. */
static int kill_pgrp_info(int pgrp, const siginfo_t *info, int sig)
{
	struct task_struct *p;
	int ret = -ESRCH;

	for_each_process(p)
		if (p->pgid == pgrp) {
			int err = group_send_sig_info(sig, info, p);

			if (ret)
				ret = err;
		}
	return ret;
}

/*
 * kill(pid, sig): pid > 0 one process (a zombie too), 0 the caller's
 * group, -1 everyone else, < -1 the group -pid (Linux's
 * kill_something_info).  sig 0 only checks that the target exists.
 */
long sys_kill(int pid, int sig)
{
	siginfo_t info = kill_info(sig, SI_USER);
	struct task_struct *t;

	if (pid > 0) {
		t = find_task_by_vpid(pid);
		return t ? group_send_sig_info(sig, &info, t) : -ESRCH;
	}
	if (pid == INT_MIN)                     /* -INT_MIN is no process group */
		return -ESRCH;
	if (pid != -1)
		return kill_pgrp_info(pid ? -pid : current->pgid, &info, sig);
	return kill_all(&info, sig);
}

/*
 * tgkill(tgid, pid, sig), tkill(pid, sig): one thread, SI_TKILL (Linux's
 * do_tkill).  Each process has one thread, whose id is the pid; tgid < 0
 * means tkill.  A zombie takes nothing, as from kill.
 */
static long do_tkill(int tgid, int pid, int sig)
{
	siginfo_t info = kill_info(sig, SI_TKILL);
	struct task_struct *t;

	if (pid <= 0 || (tgid <= 0 && tgid != -1))
		return -EINVAL;
	t = find_task_by_vpid(pid);
	if (!t || (tgid > 0 && tgid != pid))
		return -ESRCH;
	return group_send_sig_info(sig, &info, t);
}

long sys_tgkill(int tgid, int pid, int sig)
{
	return do_tkill(tgid, pid, sig);
}

long sys_tkill(int pid, int sig)
{
	return do_tkill(-1, pid, sig);
}

/*
 * A child is exiting: must it be reaped now, with no zombie (Linux's
 * do_notify_parent's autoreap)?  Yes when its parent ignores SIGCHLD or
 * set SA_NOCLDWAIT.  Otherwise the parent gets SIGCHLD (ignored unless
 * it has a handler) saying how the child ended.
 */
bool do_notify_parent(struct task_struct *tsk)
{
	const struct k_sigaction *ka = &tsk->parent->action[SIGCHLD - 1];
	int status = tsk->exit_code;
	siginfo_t info = { .si_signo = SIGCHLD, .si_code = status & 0x7f ? CLD_KILLED : CLD_EXITED };

	if (ka->handler == SIG_IGN || (ka->flags & SA_NOCLDWAIT))
		return true;
	info.si_pid = tsk->pid;
	info.si_status = status & 0x7f ? status & 0x7f : (status >> 8) & 0xff;
	do_send_sig_info(SIGCHLD, &info, tsk->parent);
	return false;
}

/* exec: handlers go back to SIG_DFL (SIG_IGN stays), flags and masks are cleared. */
void flush_signal_handlers(struct task_struct *t)
{
	for (int i = 0; i < _NSIG; i++) {
		struct k_sigaction *ka = &t->action[i];

		*ka = (struct k_sigaction){ .handler = ka->handler == SIG_IGN ? SIG_IGN : SIG_DFL };
	}
	t->sas_ss_sp = t->sas_ss_size = 0;
	t->sas_ss_flags = 0;
}
