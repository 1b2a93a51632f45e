/*
 * wait4 and waitid (the wait half of Linux's kernel/exit.c): a parent
 * reaps or looks at its children — exited (zombies, reaped unless
 * WNOWAIT), stopped and continued (WUNTRACED/WSTOPPED, WCONTINUED), each
 * reported once — by pid, process group, pidfd or any, sleeping on its
 * signal_struct's wait_chldexit until one is ready (WNOHANG: not at all).
 *
 * Lock order: see linux/sched.h; children are looked at under tasklist_lock,
 * which the exit path (kernel/exit.c) holds as it changes them.
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/uaccess.h"
#include "linux/pid.h"
#include "linux/fs.h"
#include "uapi/linux/wait.h"

#define __WNOTHREAD 0x20000000
#define __WALL      0x40000000
#define __WCLONE    0x80000000
#define INT_MIN     (-2147483647 - 1)

/* One wait4 or waitid in progress (Linux's struct wait_opts). */
struct wait_opts {
	int pid, pgrp;                  /* which children: see eligible_pid */
	int flags;                      /* WNOHANG, WNOWAIT, WEXITED, ... */
	siginfo_t *info;                /* waitid: how the child ended (kernel copy), or NULL */
	int *stat;                      /* wait4: the user's wstatus, or NULL */
	void *rusage;                   /* the user's struct rusage, or NULL */
};

/*
 * Does child c match the wait (Linux's eligible_pid)?  pid > 0 that
 * process, -1 any, else the members of group pgrp.
 */
static bool eligible_pid(const struct wait_opts *wo, const struct task_struct *c)
{
	if (wo->pid > 0)
		return c->pid == wo->pid;
	return wo->pid == -1 || c->pgid == wo->pgrp;
}

/* What wait reports of a child, taken while tasklist_lock still keeps it. */
struct child_report {
	struct task_struct *zombie;     /* to reap; NULL: a stop or a continue */
	int pid, status;                /* wait4's status, Linux's encoding */
	int why;                        /* waitid's si_code: CLD_* */
	struct rusage ru;
};

/*
 * Is zombie c to be reported (if wo waits for exits)?  Unless WNOWAIT it
 * is claimed: off the children list, so that no other thread's wait4
 * takes it too.  tasklist_lock held.
 */
static bool child_exited(const struct wait_opts *wo, struct task_struct *c,
			 struct child_report *r)
{
	int status = c->exit_code;

	if (!(wo->flags & WEXITED))
		return false;
	r->zombie = c;
	r->status = status;
	r->why = !(status & 0x7f) ? CLD_EXITED : status & 0x80 ? CLD_DUMPED : CLD_KILLED;
	if (wo->rusage)
		__getrusage(c, RUSAGE_BOTH, &r->ru);
	if (!(wo->flags & WNOWAIT)) {
		list_del(&c->sibling);
		c->parent = NULL;
		account_reaped_child(c);
	}
	return true;
}

/*
 * Has live child c stopped (WSTOPPED) or continued (WCONTINUED) since
 * the last report (Linux's wait_task_stopped, wait_task_continued)?
 * Unless WNOWAIT the event is consumed.  tasklist_lock held.
 */
static bool child_stopped_or_continued(const struct wait_opts *wo, struct task_struct *c,
				       struct child_report *r)
{
	struct signal_struct *sig = c->signal;

	if ((wo->flags & WSTOPPED) && (sig->flags & SIGNAL_STOP_STOPPED) && sig->group_stop_sig) {
		r->why = CLD_STOPPED;
		r->status = sig->group_stop_sig << 8 | 0x7f;
		if (!(wo->flags & WNOWAIT))
			sig->group_stop_sig = 0;
	} else if ((wo->flags & WCONTINUED) && (sig->flags & SIGNAL_STOP_CONTINUED)) {
		r->why = CLD_CONTINUED;
		r->status = 0xffff;
		if (!(wo->flags & WNOWAIT))
			sig->flags &= ~SIGNAL_STOP_CONTINUED;
	} else {
		return false;
	}
	r->zombie = NULL;
	if (wo->rusage)
		__getrusage(c, RUSAGE_BOTH, &r->ru);
	return true;
}

/*
 * A child of current's process that wo selects with something to report
 * into r: true, or false (*have_child: some child matches).
 * tasklist_lock held.
 */
static bool find_child_report(const struct wait_opts *wo, bool *have_child,
			      struct child_report *r)
{
	struct task_struct *c;

	*have_child = false;
	list_for_each_entry(c, &current->group_leader->children, sibling) {
		if (!eligible_pid(wo, c))
			continue;
		*have_child = true;
		r->pid = c->pid;
		/* a leader's zombie waits for its other threads (Linux's delay_group_leader) */
		if (c->state == TASK_ZOMBIE && thread_group_empty(c) ? child_exited(wo, c, r) :
		    child_stopped_or_continued(wo, c, r))
			return true;
	}
	return false;
}

/*
 * Report r (Linux's wait_task_zombie and wait_task_stopped): its status
 * to wo->stat or wo->info, the resource usage to wo->rusage.  A zombie
 * is released unless WNOWAIT, even when a store faults, as in Linux.
 * Returns the child's pid or -EFAULT.
 */
static long wait_report(const struct wait_opts *wo, const struct child_report *r)
{
	int status = r->status;

	if (r->zombie && !(wo->flags & WNOWAIT))
		task_release(r->zombie);
	if (wo->info) {
		wo->info->si_code = r->why;
		wo->info->si_status = r->why == CLD_CONTINUED ? SIGCONT :
				      r->why == CLD_EXITED || r->why == CLD_STOPPED ?
				      (status >> 8) & 0xff : status & 0x7f;
		wo->info->si_pid = r->pid;
	}
	if (wo->stat && copy_to_user(wo->stat, &status, sizeof(status)))
		return -EFAULT;
	if (wo->rusage && copy_to_user(wo->rusage, &r->ru, sizeof(r->ru)))
		return -EFAULT;
	return r->pid;
}

/*
 * Wait for a child wo selects to exit, stop or continue (Linux's
 * do_wait): its pid once reported, 0 if nothing happened and WNOHANG,
 * -ECHILD if no child matches, -ERESTARTSYS if a signal arrives (EINTR,
 * or SA_RESTART's restart).  A child's exit_notify() (or its stop,
 * kernel/signal_stop.c) wakes the wait_chldexit of current's whole
 * process (any thread may wait for it); the state is set before the
 * look at the children, so that wake-up is never missed.
 */
static long do_wait(const struct wait_opts *wo)
{
	DEFINE_WAIT_FUNC(wait, default_wake_function);
	struct wait_queue_head *wq = &current->signal->wait_chldexit;
	struct child_report r;
	unsigned long flags;
	bool have_child, found;

	add_wait_queue(wq, &wait);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		spin_lock_irqsave(&tasklist_lock, flags);
		found = find_child_report(wo, &have_child, &r);
		spin_unlock_irqrestore(&tasklist_lock, flags);
		if (found || !have_child || (wo->flags & WNOHANG) || signal_pending(current))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	remove_wait_queue(wq, &wait);
	if (found)
		return wait_report(wo, &r);
	if (!have_child)
		return -ECHILD;
	return wo->flags & WNOHANG ? 0 : -ERESTARTSYS;
}

/*
 * wait4(pid, wstatus, options, rusage): pid > 0 that child, 0 any child in
 * the caller's process group, -1 any child, < -1 any child in group -pid.
 * See do_wait for the results.
 */
long sys_wait4(int pid, int *wstatus, int options, void *rusage)
{
	struct wait_opts wo = { .pid = pid, .pgrp = pid ? -pid : current->pgid,
				.flags = options | WEXITED, .stat = wstatus, .rusage = rusage };

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (pid == INT_MIN)                     /* -INT_MIN is no process group */
		return -ESRCH;
	return do_wait(&wo);
}

/*
 * Which children waitid(which, upid) selects, into wo (Linux's
 * kernel_waitid): P_ALL any, P_PID upid > 0, P_PGID group upid (0: the
 * caller's), P_PIDFD the process of pidfd upid, whose O_NONBLOCK goes to
 * *f_flags.  0, -EINVAL or -EBADF (not an open pidfd).
 */
static int waitid_select(int which, int upid, struct wait_opts *wo, unsigned int *f_flags)
{
	struct fd f;

	switch (which) {
	case P_ALL:
		wo->pid = -1;
		return 0;
	case P_PID:
		wo->pid = upid;
		return upid > 0 ? 0 : -EINVAL;
	case P_PGID:
		wo->pgrp = upid ? upid : current->pgid;
		return upid >= 0 ? 0 : -EINVAL;
	case P_PIDFD:
		if (upid < 0)
			return -EINVAL;
		f = fdget(upid);
		if (!f.file)
			return -EBADF;
		wo->pid = pidfd_pid(f.file);
		*f_flags = f.file->f_flags;
		fdput(f);
		return wo->pid < 0 ? wo->pid : 0;
	}
	return -EINVAL;
}

/*
 * The wait of waitid (Linux's kernel_waitid): do_wait for a child that
 * waitid_select picks; options need one of WEXITED, WSTOPPED, WCONTINUED.  A pidfd opened
 * PIDFD_NONBLOCK waits as WNOHANG and gives -EAGAIN for nothing yet.
 */
static long kernel_waitid(int which, int upid, struct wait_opts *wo)
{
	unsigned int f_flags = 0;
	long ret;

	if (wo->flags & ~(WNOHANG | WNOWAIT | WEXITED | WSTOPPED | WCONTINUED | __WNOTHREAD |
			  __WCLONE | __WALL) || !(wo->flags & (WEXITED | WSTOPPED | WCONTINUED)))
		return -EINVAL;
	ret = waitid_select(which, upid, wo, &f_flags);
	if (ret)
		return ret;
	if (f_flags & O_NONBLOCK)
		wo->flags |= WNOHANG;
	ret = do_wait(wo);
	return !ret && (f_flags & O_NONBLOCK) ? -EAGAIN : ret;
}

/*
 * waitid(which, upid, infop, options, rusage): 0 once a child was
 * reported (or none yet with WNOHANG), else -errno.  Whatever the result,
 * infop's signo, errno, code, pid, uid and status are written, as Linux
 * does: all 0 when no child was reported.
 */
long sys_waitid(int which, int upid, siginfo_t *infop, int options, void *rusage)
{
	siginfo_t info = { 0 };
	struct wait_opts wo = { .flags = options, .info = &info, .rusage = rusage };
	long ret = kernel_waitid(which, upid, &wo);

	if (ret > 0) {
		info.si_signo = SIGCHLD;
		ret = 0;
	}
	/* si_signo .. si_status: the first 28 bytes of the x86-64 layout */
	if (infop && copy_to_user(infop, &info, offsetof(siginfo_t, _sifields) + 3 * sizeof(int)))
		return -EFAULT;
	return ret;
}
