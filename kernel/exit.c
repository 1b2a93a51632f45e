/*
 * Process exit and wait, after Linux's kernel/exit.c.  do_exit ends the
 * running task: its files and mm go at once; the task stays a zombie,
 * holding its wait status, until its parent reaps it with wait4 (unless
 * the parent ignores SIGCHLD: then it goes at exit).  Its children go to
 * init.  PID 1's exit powers the machine off.
 *
 * Lock order: see mm/rmap.c; the task tree changes under tasklist_lock
 * (kernel/sched.c).
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/printk.h"
#include "linux/uaccess.h"
#include "mm/mm_id.h"
#include "mm/mm_api.h"
#include <asm/arch.h>
#include <asm/irqflags.h>
#include <asm/mmu_context.h>
#include "linux/pid.h"
#include "uapi/linux/wait.h"
#include "uapi/linux/futex.h"
#include "linux/slab.h"
#include "linux/rcupdate.h"
#include "linux/tty.h"

#define __WNOTHREAD 0x20000000
#define __WALL      0x40000000
#define __WCLONE    0x80000000
#define INT_MIN     (-2147483647 - 1)

/* exit(code): this thread ends; the wait status carries the code's low byte in bits 8-15. */
long sys_exit(int code)
{
	do_exit((code & 0xff) << 8);
}

/* exit_group(code): every thread of the process ends. */
long sys_exit_group(int code)
{
	do_group_exit((code & 0xff) << 8);
}

/*
 * SIGKILL to every other live thread of t's group (Linux's
 * zap_other_threads): each exits when it next returns towards user mode;
 * one asleep (interruptibly, or stopped) wakes for it; a stop in progress
 * is forgotten.  tasklist_lock held.
 */
void zap_other_threads(struct task_struct *t)
{
	struct task_struct *th;

	signal_stop_cancel(t);
	for_each_thread(t, th)
		if (th != t && !th->exiting) {
			th->pending.signal |= sigmask(SIGKILL);
			signal_wake_up_fatal(th);
		}
}

/*
 * End the whole thread group with wait_status (Linux's do_group_exit):
 * the first thread to get here sets the group's status and kills the
 * others; later ones exit with it.  A thread killed for another's exec
 * (de_thread) just exits.
 */
__noreturn void do_group_exit(int wait_status)
{
	struct signal_struct *sig = current->signal;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);

	if (sig->flags & SIGNAL_GROUP_EXIT) {
		wait_status = sig->group_exit_code;
	} else if (sig->group_exec_task) {
		wait_status = 0;
	} else if (!thread_group_empty(current)) {
		sig->group_exit_code = wait_status;
		sig->flags |= SIGNAL_GROUP_EXIT;
		zap_other_threads(current);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	do_exit(wait_status);
}

/*
 * Who takes the children of the dying process father (Linux's
 * find_new_reaper): the nearest ancestor that made itself a child
 * subreaper (PR_SET_CHILD_SUBREAPER) and is not exiting, else init.
 * tasklist_lock held.
 */
static struct task_struct *find_new_reaper(struct task_struct *father)
{
	struct task_struct *reaper;

	if (!father->signal->has_child_subreaper)
		return init_task;
	for (reaper = father->parent; reaper && reaper != init_task; reaper = reaper->parent)
		if (reaper->signal->is_child_subreaper && reaper->signal->live > 0)
			return reaper->group_leader;
	return init_task;
}

/*
 * Each thread of child c that asked (PR_SET_PDEATHSIG) hears its parent
 * died: when the parent process dies (Linux: when the thread that made
 * the child exits — foliOS's children belong to the process).
 * tasklist_lock held.
 */
static void send_pdeath_signals(struct task_struct *c, struct task_struct *father)
{
	siginfo_t info = { .si_code = SI_USER, .si_pid = father->tgid };
	struct task_struct *t;

	list_for_each_entry(t, &c->signal->thread_head, thread_node)
		if (t->pdeath_signal) {
			info.si_signo = t->pdeath_signal;
			send_signal_locked(t->pdeath_signal, &info, t, true);
		}
}

/*
 * Give t's children to a new reaper (Linux's forget_original_parent): a
 * subreaper above, or init, which reaps them.  Each child's threads get
 * their parent-death signal.  A child that is a zombie already is news
 * to a subreaper (SIGCHLD, its wait wakes); if that subreaper would reap
 * it at once (SIGCHLD ignored), init reaps it instead.  tasklist_lock held.
 */
static void forget_original_parent(struct task_struct *t)
{
	struct task_struct *reaper = find_new_reaper(t);

	while (!list_empty(&t->children)) {
		struct task_struct *c = list_first_entry(&t->children, struct task_struct, sibling);
		struct task_struct *to = reaper;

		list_del(&c->sibling);
		send_pdeath_signals(c, t);
		if (to != init_task && c->state == TASK_ZOMBIE && thread_group_empty(c)) {
			c->parent = to;
			if (do_notify_parent(c))
				to = init_task;
		}
		c->parent = to;
		list_add_tail(&c->sibling, &to->children);
		kill_orphaned_pgrp(c, t);
	}
	if (reaper != init_task)
		wake_up_interruptible_all(&reaper->signal->wait_chldexit);
	wake_up_interruptible_all(&init_task->signal->wait_chldexit);
}

/*
 * The last thread of leader's group has left the thread list (Linux's
 * exit_notify and release_task's "last non-leader member" case): the
 * children go to init and the parent hears of it.  Returns true if the
 * zombie leader is reaped at once (its parent ignores SIGCHLD): then it
 * is TASK_DEAD, which no wait4 takes.  tasklist_lock held.
 */
static bool notify_group_dead(struct task_struct *leader)
{
	struct task_struct *parent = leader->parent;
	struct signal_struct *sig = leader->signal;

	forget_original_parent(leader);
	kill_orphaned_pgrp(leader, NULL);
	if (sig->flags & SIGNAL_GROUP_EXIT)
		leader->exit_code = sig->group_exit_code;
	if (!parent)
		return false;
	wake_up_interruptible_all(&parent->signal->wait_chldexit);
	return do_notify_parent(leader);
}

/*
 * Tell t's parent (Linux's exit_notify).  A thread other than the leader
 * goes at once: TASK_DEAD and off the thread list (freed after its last
 * switch).  The leader stays a zombie until it is reaped; its parent
 * hears of it once the thread list holds the leader alone, which may be
 * when the last other thread exits.  All under tasklist_lock, which
 * wait4 and de_thread hold to look: each state is one store, and no
 * wait4 sees a zombie that is about to be TASK_DEAD.
 */
static void exit_notify(struct task_struct *t)
{
	struct task_struct *leader = t->group_leader, *reap = NULL;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);

	if (leader != t) {
		WRITE_ONCE(t->state, TASK_DEAD);
		__unhash_process(t);
	}
	if (thread_group_empty(leader) && (leader == t || leader->state == TASK_ZOMBIE) &&
	    notify_group_dead(leader))
		reap = leader;
	if (leader == t) {
		WRITE_ONCE(t->state, reap ? TASK_DEAD : TASK_ZOMBIE);
		if (reap)
			__unhash_process(t);
	} else if (reap) {
		WRITE_ONCE(leader->state, TASK_DEAD);   /* claimed: no wait4 takes it */
	}
	if (t->signal->group_exec_task)
		wake_up_process(t->signal->group_exec_task);    /* de_thread waits for the others */
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (reap && reap != t)
		task_release(reap);             /* a zombie, off every CPU */
}

/*
 * Drop t's working directory (Linux's exit_fs): the last user of a shared
 * one puts it.  t->fs goes under tasklist_lock, which /proc/<pid>/cwd
 * holds to read it.
 */
void exit_fs(struct task_struct *t)
{
	struct fs_struct *fs;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	fs = t->fs;
	t->fs = NULL;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (fs)
		put_fs_struct(fs);
}

/* Drop a reference to fs: the last user puts the working and root directories (Linux's free_fs_struct). */
void put_fs_struct(struct fs_struct *fs)
{
	if (__atomic_sub_fetch(&fs->users, 1, __ATOMIC_ACQ_REL))
		return;
	if (fs->pwd)
		iput(fs->pwd);
	if (fs->root)
		iput(fs->root);
	kfree(fs);
}

/*
 * Drop t's fd table (Linux's exit_files): the last user closes the files.
 * t->files goes under tasklist_lock, which /proc/<pid>/fd holds to read it.
 */
void exit_files(struct task_struct *t)
{
	struct files_struct *files;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	files = t->files;
	t->files = NULL;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (files)
		put_files_struct(files);
}

/* Sleep until the next timer tick. */
static void wait_next_tick(void)
{
	unsigned long j = jiffies;

	wait_var_event((void *)&jiffies, jiffies != j);
}

/* Is any task but init neither a zombie nor dead?  tasklist_lock held. */
static bool others_alive(struct task_struct *init)
{
	struct task_struct *t;

	list_for_each_entry(t, &all_tasks, task_list)
		if (t != init && !(READ_ONCE(t->state) & (TASK_ZOMBIE | TASK_DEAD)))
			return true;
	return false;
}

/*
 * PID 1 is gone: SIGKILL every other task and give them up to a second
 * to exit by themselves, on whatever CPU each runs — one stopped from
 * here might be half-way through a system call on another CPU, holding
 * what it allocated there.  Returns how many were alive.
 */
static int kill_remaining_tasks(struct task_struct *init)
{
	struct task_struct *t;
	unsigned long flags;
	int alive = 0;
	bool busy;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(t, &all_tasks, task_list)
		if (t != init && !(t->state & (TASK_ZOMBIE | TASK_DEAD)) && !t->exiting) {
			t->pending.signal |= sigmask(SIGKILL);
			signal_wake_up_fatal(t);
			alive++;
		}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	for (int tick = 0; tick < HZ; tick++, wait_next_tick()) {
		spin_lock_irqsave(&tasklist_lock, flags);
		busy = others_alive(init);
		spin_unlock_irqrestore(&tasklist_lock, flags);
		if (!busy)
			break;
	}
	return alive;
}

/*
 * PID 1 is gone and the machine powers off: end every other task that
 * kill_remaining_tasks() left as a SIGKILL and a reap would (its files, its mm, then the task itself,
 * youngest first so that a child goes before its parent), so that the
 * leak check sees only what the kernel failed to give back — not the
 * memory of a process still blocked somewhere.  Runs on init's stack.
 */
static void end_remaining_tasks(struct task_struct *init)
{
	struct task_struct *t;

	list_for_each_entry(t, &all_tasks, task_list) {
		if (t == init || t->state == TASK_ZOMBIE)
			continue;
		exit_files(t);
		exit_fs(t);
		if (t->mm) {
			mmput(t->mm);
			t->mm = NULL;
		}
	}
	while ((t = list_entry(all_tasks.prev, struct task_struct, task_list)) != init)
		task_release(t);
}

/*
 * What a thread leaves in user memory as it goes (Linux's mm_release):
 * a vfork parent goes on, the robust futexes it held are marked FUTEX_OWNER_DIED, and with
 * CLONE_CHILD_CLEARTID its TID word is zeroed and one futex waiter woken
 * (pthread_join and musl's thread list lock wait on it).
 */
static void mm_release(struct task_struct *t)
{
	int zero = 0;

	if (t->robust_list)
		exit_robust_list(t);
	if (t->clear_child_tid &&
	    !copy_to_user((void *)t->clear_child_tid, &zero, sizeof(zero)))
		do_futex_wake(t->clear_child_tid, false, 1, FUTEX_BITSET_MATCH_ANY);
	t->clear_child_tid = 0;
	complete_vfork_done(t);         /* last: the parent goes on once the child wrote all */
}

/* t->mm becomes mm under tasklist_lock, which /proc takes to pin a task's mm (mmgrab). */
void set_task_mm(struct task_struct *t, struct mm_struct *mm)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	t->mm = mm;
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/* Leave the mm (Linux's exit_mm): off its page tables; the last user tears it down. */
static void exit_mm(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;

	if (!mm)
		return;
	mm_release(t);
	local_irq_disable();
	spin_lock(&tasklist_lock);              /* set_task_mm's, with interrupts kept off */
	t->mm = NULL;
	spin_unlock(&tasklist_lock);
	arch_switch_mm_and_stack(t);            /* lazy: the mm stays loaded, pinned */
	local_irq_enable();
	mmput(mm);                              /* the last exit_mmap may sleep on the mmap_lock */
	local_irq_disable();
	leave_mm();     /* nothing runs here in that mm any more: drop it now, not at the next switch */
	local_irq_enable();
}

/* PID 1's group is gone: end every other task, check for leaks, power off with its status. */
static __noreturn void init_exit(struct task_struct *t, int wait_status)
{
	int code = wait_status & 0x7f ? 128 + (wait_status & 0x7f) : (wait_status >> 8) & 0xff;
	int alive;

	local_irq_enable();                     /* their exit_mmap takes each mmap_lock */
	alive = kill_remaining_tasks(t);
	end_remaining_tasks(t);
	/* A task that exited on another CPU is freed once that CPU switched away. */
	for (int tick = 0; tick < HZ && atomic_read(&nr_tasks) > 1; tick++)
		wait_next_tick();
	local_irq_disable();
	if (alive)
		pr_warn("power-off: killed %d leftover process(es)\n", alive);
	put_task_shared(t);                     /* init's, so the leak check counts them back */
	local_irq_enable();
	rcu_barrier();                          /* what the page cache freed by RCU */
	local_irq_disable();
	user_space_leak_check();
	arch_power_off(code);
}

/*
 * End the current thread with a wait status (Linux's encoding: exit code
 * in bits 8-15, or the killing signal in bits 0-6).  The files, the
 * working directory and the mm go now (each when its last user goes);
 * exit_notify decides between zombie and TASK_DEAD.  PID 1 exiting
 * powers off with its status, as run-qemu.sh expects.
 */
__noreturn void do_exit(int wait_status)
{
	struct task_struct *t = current;
	unsigned long flags;
	bool group_dead;

	debug_check_no_locks_held();
	/*
	 * A fatal fault or OOM kill may get here from a trap with interrupts
	 * off; the exit sleeps (futex wake, mmap_lock), so turn them on (Linux's
	 * do_exit does the same, with a note).
	 */
	local_irq_enable();
	spin_lock_irqsave(&tasklist_lock, flags);
	t->exiting = true;                      /* no signal is queued for t from now on */
	exit_signals_stop(t);
	group_dead = !--t->signal->live;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (group_dead)
		disassociate_ctty(t->group_leader);     /* a session leader's terminal is let go */
	exit_files(t);
	exit_fs(t);
	exit_mm(t);
	local_irq_disable();
	t->exit_code = wait_status;
	if (group_dead && t->group_leader == init_task)
		init_exit(t, t->signal->flags & SIGNAL_GROUP_EXIT ? t->signal->group_exit_code :
			  wait_status);
	flush_sigqueue(&t->pending);
	exit_notify(t);
	do_task_dead();
}

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
