/*
 * Signals, after Linux's kernel/signal.c: sending (kill, tkill, tgkill,
 * faults) and the pending queue.  Taking a signal (get_signal, the
 * default actions, masks, the alternate stack and their system calls) is
 * in kernel/signal_deliver.c; a handler's frame in arch/x86_64/signal.c.
 *
 * A signal is pending for one thread (tkill, faults) or for the process
 * (kill: any thread that does not block it takes it).  A
 * standard signal is pending at most once; a real-time one (SIGRTMIN..64)
 * queues each time it is sent.  Default actions: ignore, stop (job
 * control: kernel/signal_stop.c), or terminate with the signal as the
 * wait status (no core is dumped, as with RLIMIT_CORE 0): see
 * kernel/signal_deliver.c.
 *
 * Lock order: see linux/sched.h.  The pending queues, the dispositions
 * (sighand->action), the blocked masks, the thread lists and the group's
 * counts change under tasklist_lock (standing in for Linux's
 * sighand->siglock), taken with interrupts off as ^C's kill_pgrp and the
 * ITIMER_REAL tick send from interrupts; a kill looks its target up and
 * queues to it in one hold (a task is freed once reaped, under it).
 */
#include "linux/errno.h"
#include "linux/signal.h"
#include "linux/sched.h"
#include "linux/printk.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "linux/pid.h"
#include "linux/fs.h"
#include <asm/irqflags.h>

#define INT_MIN (-2147483647 - 1)
#define SIGQUEUE_MAX    1024    /* per task, whatever RLIMIT_SIGPENDING says */

/* Linux's SIG_KERNEL_*_MASK: default ignore (stop, never caught: linux/signal.h). */
#define SIG_KERNEL_IGNORE_MASK (sigmask(SIGCONT) | sigmask(SIGCHLD) | sigmask(SIGWINCH) | \
				sigmask(SIGURG))

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
	unsigned long handler = t->sighand->action[sig - 1].handler;

	if (t->group_leader == init_task && (sig_kernel_only(sig) || handler == SIG_DFL))
		return true;
	if ((t->blocked | t->real_blocked) & sigmask(sig))
		return false;
	return handler == SIG_IGN || (handler == SIG_DFL && sig_kernel_ignore(sig));
}

/*
 * q is off its queue: free it, unless a POSIX timer owns it (PREALLOC),
 * whose next expiry queues it again (Linux's __sigqueue_free).
 * tasklist_lock held for a PREALLOC one (the timer tick looks at it).
 */
void __sigqueue_free(struct sigqueue *q)
{
	if (q->flags & SIGQUEUE_PREALLOC)
		INIT_LIST_HEAD(&q->list);
	else
		kfree(q);
}

/* Give back every queued siginfo (exit, or a flush); tasklist_lock held if a timer's may be queued. */
void flush_sigqueue(struct sigpending *queue)
{
	while (!list_empty(&queue->list)) {
		struct sigqueue *q = list_first_entry(&queue->list, struct sigqueue, list);

		list_del(&q->list);
		__sigqueue_free(q);
	}
	queue->signal = 0;
}

/* Discard what pending (nr queued entries) holds of the signals in mask. */
static void flush_pending_mask(sigset_t mask, struct sigpending *pending, int *nr)
{
	struct list_head *pos = pending->list.next;

	while (pos != &pending->list) {
		struct sigqueue *q = list_entry(pos, struct sigqueue, list);

		pos = pos->next;
		if (sigmask(q->info.si_signo) & mask) {
			list_del(&q->list);
			(*nr)--;
			__sigqueue_free(q);
		}
	}
	pending->signal &= ~mask;
}

/*
 * Discard what is pending of the signals in mask for t's process: its
 * shared queue and every thread's own (Linux's flush_sigqueue_mask as
 * do_sigaction uses it).  tasklist_lock held.
 */
void __flush_sigqueue_mask(sigset_t mask, struct task_struct *t)
{
	struct task_struct *th;

	lockdep_assert_held(&tasklist_lock);
	flush_pending_mask(mask, &t->signal->shared_pending, &t->signal->nr_shared_queued);
	for_each_thread(t, th)
		flush_pending_mask(mask, &th->pending, &th->nr_sigqueued);
}

/*
 * A process-directed sig was queued: wake a thread that does not block
 * it, t first (Linux's complete_signal).  SIGKILL ends the whole group
 * at once (Linux's sig_fatal case): the group exits with it
 * (SIGNAL_GROUP_EXIT), a stop is forgotten, and every thread gets SIGKILL
 * and wakes, a stopped one too.
 */
static void complete_signal(int sig, struct task_struct *t)
{
	struct signal_struct *signal = t->signal;
	struct task_struct *th;

	if (sig == SIGKILL) {
		if (!(signal->flags & SIGNAL_GROUP_EXIT)) {
			signal->flags |= SIGNAL_GROUP_EXIT;
			signal->group_exit_code = SIGKILL;
		}
		signal_stop_cancel(t);
		for_each_thread(t, th)
			if (!th->exiting) {
				th->pending.signal |= sigmask(SIGKILL);
				signal_wake_up_fatal(th);
			}
		return;
	}
	if (!(t->blocked & sigmask(sig)) && !t->exiting) {
		signal_wake_up(t);
		return;
	}
	for_each_thread(t, th)
		if (!(th->blocked & sigmask(sig)) && !th->exiting) {
			signal_wake_up(th);
			return;
		}
}

/*
 * Queue sig with info on t, on its own queue or (group) its process's
 * shared one (Linux's __send_signal_locked), after what it does to a stop
 * (prepare_signal).  An exiting thread or a dead group takes nothing; an
 * ignored signal is discarded; a standard signal already pending is not
 * queued again.
 * Without memory, or over the queue limit, a standard signal or a kill()'s
 * is still pending (with no siginfo of its own); another real-time one is
 * -EAGAIN.  Wakes a thread that does not block sig.  tasklist_lock held.
 */
/* sig is now pending on pending (t's or, group, its process's): tell who must know. */
static void signal_pending_on(int sig, struct task_struct *t, bool group, struct sigpending *pending)
{
	pending->signal |= sigmask(sig);
	if (group || sig == SIGKILL)            /* a thread's SIGKILL kills its group too */
		complete_signal(sig, t);
	else if (!(t->blocked & sigmask(sig)))
		signal_wake_up(t);              /* a sleeper sees signal_pending() */
}

static int __send_signal(int sig, const siginfo_t *info, struct task_struct *t, bool group)
{
	unsigned long limit = t->signal->rlim[RLIMIT_SIGPENDING].rlim_cur;
	struct sigpending *pending = group ? &t->signal->shared_pending : &t->pending;
	int *nr = group ? &t->signal->nr_shared_queued : &t->nr_sigqueued;
	struct sigqueue *q = NULL;

	if ((group ? !t->signal->live : t->exiting) || t->state == TASK_DEAD)
		return 0;
	prepare_signal(sig, t);
	if (sig_ignored(t, sig))
		return 0;
	if (sig < SIGRTMIN && (pending->signal & sigmask(sig)))
		return 0;
	if (*nr < SIGQUEUE_MAX && (unsigned long)*nr < limit)
		q = kmalloc(sizeof(*q));
	if (q) {
		q->flags = 0;
		q->timer = NULL;
		q->info = *info;
		list_add_tail(&q->list, &pending->list);
		(*nr)++;
	} else if (sig >= SIGRTMIN && info->si_code != SI_USER) {
		return -EAGAIN;
	}
	signal_pending_on(sig, t, group, pending);
	return 0;
}

/* __send_signal for the rest of kernel/ (Linux's send_signal_locked). */
int send_signal_locked(int sig, const siginfo_t *info, struct task_struct *t, bool group)
{
	lockdep_assert_held(&tasklist_lock);
	return __send_signal(sig, info, t, group);
}

/*
 * Queue a POSIX timer's preallocated q (its info made by the timer) on t,
 * or (group) t's process (Linux's send_sigqueue).  1 if it was dropped
 * (t is gone or exiting, or ignores the signal), 2 if q is still queued
 * from an earlier expiry (the timer counts an overrun), 0 if queued.  As
 * Linux's, a standard signal pending without q does not stop q.
 * tasklist_lock held.
 */
int send_sigqueue(struct sigqueue *q, struct task_struct *t, bool group)
{
	int sig = q->info.si_signo;
	struct sigpending *pending = group ? &t->signal->shared_pending : &t->pending;
	int *nr = group ? &t->signal->nr_shared_queued : &t->nr_sigqueued;

	lockdep_assert_held(&tasklist_lock);
	if ((group ? !t->signal->live : t->exiting) || t->state == TASK_DEAD)
		return 1;
	prepare_signal(sig, t);
	if (sig_ignored(t, sig))
		return 1;
	if (!list_empty(&q->list))
		return 2;
	list_add_tail(&q->list, &pending->list);
	(*nr)++;
	signal_pending_on(sig, t, group, pending);
	return 0;
}

/*
 * Send sig with info to t's process, or (type PIDTYPE_PID) to the thread
 * t alone (Linux's do_send_sig_info): 0, or -EAGAIN.
 */
int do_send_sig_info(int sig, const siginfo_t *info, struct task_struct *t, enum pid_type type)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	int ret = __send_signal(sig, info, t, type != PIDTYPE_PID);

	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ret;
}

/* A kernel signal to t's process, tasklist_lock held (the tick's walk of the task list). */
int send_sig_locked(int sig, struct task_struct *t)
{
	siginfo_t info = { .si_signo = sig, .si_code = SI_KERNEL };

	return __send_signal(sig, &info, t, true);
}

/* sig from the kernel (priv: SI_KERNEL) or on the current task's behalf (SI_USER). */
int send_sig(int sig, struct task_struct *t, int priv)
{
	siginfo_t info = { .si_signo = sig, .si_code = priv ? SI_KERNEL : SI_USER };

	if (!priv)
		info.si_pid = current->tgid;
	return do_send_sig_info(sig, &info, t, PIDTYPE_TGID);
}

/*
 * A fault of the current task (Linux's force_sig_fault): sig with code
 * and the faulting address.  It cannot be blocked or ignored away: a
 * blocked or ignored sig gets SIG_DFL and is unblocked, so the task dies
 * of it unless a handler runs.  PID 1 dies of a fault it has no handler for.
 */
void force_sig_fault(int sig, int code, unsigned long addr)
{
	struct k_sigaction *ka = &current->sighand->action[sig - 1];
	siginfo_t info = { .si_signo = sig, .si_code = code };
	unsigned long flags;
	bool die;

	info.si_addr = addr;
	spin_lock_irqsave(&tasklist_lock, flags);       /* the disposition: another thread's sigaction */
	if (ka->handler == SIG_IGN || (current->blocked & sigmask(sig))) {
		ka->handler = SIG_DFL;
		current->blocked &= ~sigmask(sig);
	}
	die = ka->handler == SIG_DFL && (current == init_task || sig == SIGKILL);
	if (!die)
		__send_signal(sig, &info, current, false);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (die) {
		pr_info("%s[%d]: killed by signal %d at %#lx\n", current->comm, current->pid,
			sig, addr);
		do_group_exit(sig);
	}
}

/*
 * Send sig with info to one target (Linux's group_send_sig_info); sig 0
 * only probes.  The checks of kill(2): a valid number.  tasklist_lock
 * held: the target was just looked up under it.
 */
static int group_send_sig_info(int sig, const siginfo_t *info, struct task_struct *t,
			       enum pid_type type)
{
	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	return sig ? __send_signal(sig, info, t, type != PIDTYPE_PID) : 0;
}

/* kill()'s siginfo: SI_USER, from the caller. */
static siginfo_t kill_info(int sig, int code)
{
	siginfo_t info = { .si_signo = sig, .si_code = code };

	info.si_pid = current->tgid;
	info.si_uid = 0;
	return info;
}

/*
 * kill(-pgrp, sig): sig with info to every process (zombies included) of
 * group pgrp, walked under tasklist_lock (held for __kill_pgrp_info).  0 if one took it, -ESRCH if
 * the group is empty, else the last error.
 */
int __kill_pgrp_info(int sig, const siginfo_t *info, int pgrp)
{
	struct task_struct *p;
	int ret = -ESRCH;

	lockdep_assert_held(&tasklist_lock);
	for_each_process(p)
		if (p->pgid == pgrp) {
			int err = group_send_sig_info(sig, info, p, PIDTYPE_TGID);

			if (ret)
				ret = err;
		}
	return ret;
}

static int kill_pgrp_info(int pgrp, const siginfo_t *info, int sig)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&tasklist_lock, flags);
	ret = __kill_pgrp_info(sig, info, pgrp);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ret;
}

/* sig from the kernel (the tty's ^C) to group pgrp: as kill_pgrp_info. */
int kill_pgrp(int pgrp, int sig)
{
	siginfo_t info = { .si_signo = sig, .si_code = SI_KERNEL };

	return kill_pgrp_info(pgrp, &info, sig);
}

/* kill(-1, sig): every process but PID 1 and the caller; -ESRCH if none. */
static int kill_all(const siginfo_t *info, int sig)
{
	struct task_struct *p;
	unsigned long flags;
	int ret = 0, count = 0;

	spin_lock_irqsave(&tasklist_lock, flags);
	for_each_process(p)
		if (p->pid > 1 && p != current->group_leader) {
			count++;
			ret = group_send_sig_info(sig, info, p, PIDTYPE_TGID);
		}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return count ? ret : -ESRCH;
}

/* sig with info to process pid, a zombie too (Linux's kill_pid_info); -ESRCH if there is none. */
static int kill_pid_info(int sig, const siginfo_t *info, int pid)
{
	struct task_struct *t;
	unsigned long flags;
	int ret = -ESRCH;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = pid > 0 ? find_task_by_vpid(pid) : NULL;
	if (t)
		ret = group_send_sig_info(sig, info, t->group_leader, PIDTYPE_TGID);
	spin_unlock_irqrestore(&tasklist_lock, flags);
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

	if (pid > 0)
		return kill_pid_info(sig, &info, pid);
	if (pid == INT_MIN)                     /* -INT_MIN is no process group */
		return -ESRCH;
	if (pid != -1)
		return kill_pgrp_info(pid ? -pid : current->pgid, &info, sig);
	return kill_all(&info, sig);
}

/*
 * sig with info to thread pid, which must be in group tgid unless tgid
 * is -1 (Linux's do_send_specific).  An exited thread takes nothing.
 */
static long do_send_specific(int tgid, int pid, int sig, const siginfo_t *info)
{
	struct task_struct *t;
	unsigned long flags;
	int ret = -ESRCH;

	if (pid <= 0 || (tgid <= 0 && tgid != -1))
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);
	t = find_task_by_vpid(pid);
	if (t && (tgid <= 0 || tgid == t->tgid))
		ret = group_send_sig_info(sig, info, t, PIDTYPE_PID);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ret;
}

/* tgkill(tgid, pid, sig), tkill(pid, sig): one thread, SI_TKILL (Linux's do_tkill). */
long sys_tgkill(int tgid, int pid, int sig)
{
	siginfo_t info = kill_info(sig, SI_TKILL);

	return do_send_specific(tgid, pid, sig, &info);
}

long sys_tkill(int pid, int sig)
{
	siginfo_t info = kill_info(sig, SI_TKILL);

	return do_send_specific(-1, pid, sig, &info);
}

/*
 * May the caller send its own siginfo to target (a process or thread ID)?
 * It may pose neither as the kernel nor as kill() (si_code >= 0, or
 * SI_TKILL) to anyone but itself: 0 or -EPERM (Linux's
 * do_rt_sigqueueinfo check).
 */
static int user_siginfo_permitted(const siginfo_t *info, int target)
{
	if ((info->si_code >= 0 || info->si_code == SI_TKILL) && target != current->tgid &&
	    target != current->pid)
		return -EPERM;
	return 0;
}

/* The sender's siginfo copied in, and user_siginfo_permitted(): 0, -EFAULT or -EPERM. */
static int copy_user_siginfo(siginfo_t *info, const void *uinfo, int target)
{
	if (copy_from_user(info, uinfo, sizeof(*info)))
		return -EFAULT;
	return user_siginfo_permitted(info, target);
}

/* rt_sigqueueinfo(pid, sig, info): sigqueue(3)'s call, info as the caller made it. */
long sys_rt_sigqueueinfo(int pid, int sig, const void *uinfo)
{
	siginfo_t info;
	int err = copy_user_siginfo(&info, uinfo, pid);

	return err ? err : kill_pid_info(sig, &info, pid);
}

/* rt_tgsigqueueinfo(tgid, pid, sig, info): the same to one thread. */
long sys_rt_tgsigqueueinfo(int tgid, int pid, int sig, const void *uinfo)
{
	siginfo_t info;
	int err;

	if (pid <= 0 || tgid <= 0)
		return -EINVAL;
	err = copy_user_siginfo(&info, uinfo, pid);
	return err ? err : do_send_specific(tgid, pid, sig, &info);
}

/*
 * pidfd_send_signal(pidfd, sig, info, flags): kill() to the process a
 * pidfd names (a zombie takes it, a reaped one is -ESRCH), with the
 * caller's info whose si_signo must be sig, or kill()'s.  flags must be
 * 0; -EBADF if pidfd is no pidfd.
 */
long sys_pidfd_send_signal(int pidfd, int sig, const void *uinfo, unsigned int flags)
{
	siginfo_t info = kill_info(sig, SI_USER);
	int pid, err = 0;

	if (flags)
		return -EINVAL;
	pid = pidfd_get_pid(pidfd);
	if (pid < 0)
		return pid;
	if (uinfo && copy_from_user(&info, uinfo, sizeof(info)))
		return -EFAULT;
	if (uinfo)
		err = info.si_signo != sig ? -EINVAL : user_siginfo_permitted(&info, pid);
	return err ? err : kill_pid_info(sig, &info, pid);
}

/*
 * A child is exiting: must it be reaped now, with no zombie (Linux's
 * do_notify_parent's autoreap)?  Yes when its parent ignores SIGCHLD or
 * set SA_NOCLDWAIT.  Otherwise the parent gets SIGCHLD (ignored unless
 * it has a handler) saying how the child ended.  tasklist_lock held.
 */
bool do_notify_parent(struct task_struct *tsk)
{
	const struct k_sigaction *ka = &tsk->parent->sighand->action[SIGCHLD - 1];
	int status = tsk->exit_code;
	siginfo_t info = { .si_signo = SIGCHLD, .si_code = status & 0x7f ? CLD_KILLED : CLD_EXITED };

	if (ka->handler == SIG_IGN || (ka->flags & SA_NOCLDWAIT))
		return true;
	info.si_pid = tsk->pid;
	info.si_status = status & 0x7f ? status & 0x7f : (status >> 8) & 0xff;
	__send_signal(SIGCHLD, &info, tsk->parent, true);
	return false;
}

/* exec: handlers go back to SIG_DFL (SIG_IGN stays), flags and masks are cleared. */
void flush_signal_handlers(struct task_struct *t)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);       /* senders look at the dispositions */
	for (int i = 0; i < _NSIG; i++) {
		struct k_sigaction *ka = &t->sighand->action[i];

		*ka = (struct k_sigaction){ .handler = ka->handler == SIG_IGN ? SIG_IGN : SIG_DFL };
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	t->sas_ss_sp = t->sas_ss_size = 0;
	t->sas_ss_flags = 0;
}
