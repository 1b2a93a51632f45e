/*
 * Process exit, after Linux's kernel/exit.c (its wait4 and waitid are
 * kernel/exit_wait.c).  do_exit ends the
 * running task: its files and mm go at once; the task stays a zombie,
 * holding its wait status, until its parent reaps it with wait4 (unless
 * the parent ignores SIGCHLD: then it goes at exit).  Its children go to
 * init.  PID 1's exit powers the machine off.  A task leaves the task
 * list, its parent's children and its thread group in __unhash_process();
 * task_release() (Linux's release_task) does that and frees it
 * (free_task, kernel/fork.c); the last switch away from a dead task is
 * do_task_dead() (kernel/sched/core.c, as in Linux).
 *
 * Lock order: see linux/sched.h; the task tree changes under tasklist_lock
 * (kernel/fork.c).
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/printk.h"
#include "linux/uaccess.h"
#include "linux/sched/mm.h"
#include "linux/mmap_lock.h"
#include "linux/mm.h"
#include <asm/arch.h>
#include <asm/irqflags.h>
#include <asm/mmu_context.h>
#include "linux/pid.h"
#include "uapi/linux/wait.h"
#include "uapi/linux/futex.h"
#include "linux/slab.h"
#include "linux/rcupdate.h"
#include "linux/tty.h"
#include "linux/posix-timers.h"

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
 * Take t off its parent's children, its thread group and the task list:
 * its PID is gone.  tasklist_lock held.
 */
void __unhash_process(struct task_struct *t)
{
	if (t->parent)
		list_del(&t->sibling);
	if (t->signal) {                        /* Linux's __exit_signal */
		account_exit_thread(t);
		list_del(&t->thread_node);
		t->signal->nr_threads--;
	}
	list_del(&t->task_list);
}

/*
 * Free a task that never ran or was reaped (Linux's release_task): its
 * place, its stack, its FPU image, itself.  A zombie's CPU may still be
 * switching away from it.
 */
void task_release(struct task_struct *t)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);

	__unhash_process(t);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	sched_wait_off_cpu(t);
	free_task(t);
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

/*
 * t->mm becomes mm under tasklist_lock, which /proc takes to pin a task's
 * mm (mmgrab): from now on others may reach mm (mm_publish).
 */
void set_task_mm(struct task_struct *t, struct mm_struct *mm)
{
	unsigned long flags;

	if (mm)
		mm_publish(mm);
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
	if (group_dead)
		__exit_itimers(t->signal);      /* the POSIX timers go with the process */
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
	spin_lock(&tasklist_lock);              /* a POSIX timer's queued signal is freed under it */
	flush_sigqueue(&t->pending);
	spin_unlock(&tasklist_lock);
	exit_notify(t);
	do_task_dead();
}
