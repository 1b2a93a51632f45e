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
#include "uapi/linux/wait.h"

#define __WNOTHREAD 0x20000000
#define __WALL      0x40000000
#define __WCLONE    0x80000000
#define INT_MIN     (-2147483647 - 1)
#define RUSAGE_SIZE 144                 /* struct rusage: 2 timevals, 14 longs */

/* exit(code): the wait status carries the code's low byte in bits 8-15. */
long sys_exit(int code)
{
	do_exit((code & 0xff) << 8);
}

/* exit_group: every thread of the process ends; there is one per process. */
long sys_exit_group(int code)
{
	do_exit((code & 0xff) << 8);
}

/* Give t's children to init, which reaps them (Linux's forget_original_parent). */
static void forget_original_parent(struct task_struct *t)
{
	unsigned long flags = spin_lock_irqsave(&tasklist_lock);

	while (!list_empty(&t->children)) {
		struct task_struct *c = list_first_entry(&t->children, struct task_struct, sibling);

		list_del(&c->sibling);
		c->parent = init_task;
		list_add_tail(&c->sibling, &init_task->children);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	wake_up(init_task);
}

/*
 * Tell t's parent (Linux's exit_notify): t's children go to init; t
 * becomes a zombie, or TASK_DEAD at once if its parent ignores SIGCHLD;
 * the parent, perhaps asleep in wait4, wakes.
 */
static void exit_notify(struct task_struct *t)
{
	forget_original_parent(t);
	t->state = TASK_ZOMBIE;
	if (t->parent && do_notify_parent(t))
		t->state = TASK_DEAD;
	if (t->parent)
		wake_up(t->parent);
}

/*
 * PID 1 is gone and the machine powers off: end every other task as a
 * SIGKILL and a reap would (its files, its mm, then the task itself,
 * youngest first so that a child goes before its parent), so that the
 * leak check sees only what the kernel failed to give back — not the
 * memory of a process still blocked somewhere.  Returns how many were
 * still alive.  Runs on init's stack with interrupts off.
 */
static int end_remaining_tasks(struct task_struct *init)
{
	struct task_struct *t;
	int alive = 0;

	list_for_each_entry(t, &all_tasks, task_list) {
		if (t == init || t->state == TASK_ZOMBIE)
			continue;
		alive++;
		files_close_all(&t->files);
		if (t->mm) {
			exit_mmap(t->mm);
			mmdrop(t->mm);
			t->mm = NULL;
		}
	}
	while ((t = list_entry(all_tasks.prev, struct task_struct, task_list)) != init)
		task_release(t);
	return alive;
}

/*
 * End the current task with a wait status (Linux's encoding: exit code in
 * bits 8-15, or the killing signal in bits 0-6).  The files and the mm go
 * now; exit_notify decides between zombie and TASK_DEAD.  PID 1 exiting
 * powers off with its status, as run-qemu.sh expects.
 */
__noreturn void do_exit(int wait_status)
{
	struct task_struct *t = current;
	struct mm_struct *mm = t->mm;

	files_close_all(&t->files);
	local_irq_disable();
	t->exit_code = wait_status;
	t->mm = NULL;
	arch_switch_mm_and_stack(t);            /* off the dying page tables */
	if (mm) {
		exit_mmap(mm);
		mmdrop(mm);
	}
	if (t == init_task) {
		int code = wait_status & 0x7f ? 128 + (wait_status & 0x7f) : (wait_status >> 8) & 0xff;
		int alive = end_remaining_tasks(t);

		if (alive)
			pr_warn("power-off: killed %d leftover process(es)\n", alive);
		user_space_leak_check();
		arch_power_off(code);
	}
	flush_sigqueue(&t->pending);
	exit_notify(t);
	do_task_dead();
}

/*
 * Does child c match wait4's pid (Linux's eligible_pid)?  pid > 0 that
 * process, -1 any, else the members of group pgrp.
 */
static bool eligible_pid(int pid, int pgrp, const struct task_struct *c)
{
	if (pid > 0)
		return c->pid == pid;
	return pid == -1 || c->pgid == pgrp;
}

/* A zombie child of current that pid/pgrp selects; NULL if none (*have_child: any match). */
static struct task_struct *find_zombie(int pid, int pgrp, bool *have_child)
{
	struct task_struct *c;

	*have_child = false;
	list_for_each_entry(c, &current->children, sibling) {
		if (!eligible_pid(pid, pgrp, c))
			continue;
		*have_child = true;
		if (c->state == TASK_ZOMBIE)
			return c;
	}
	return NULL;
}

/*
 * Reap z: its status to wstatus, then a resource usage of zeros (foliOS
 * accounts no time) to rusage.  z is released even when a store faults,
 * as in Linux.  Returns its pid or -EFAULT.
 */
static long wait_task_zombie(struct task_struct *z, int *wstatus, void *rusage)
{
	static const char no_usage[RUSAGE_SIZE];
	int pid = z->pid, status = z->exit_code;

	task_release(z);
	if (wstatus && copy_to_user(wstatus, &status, sizeof(status)))
		return -EFAULT;
	if (rusage && copy_to_user(rusage, no_usage, sizeof(no_usage)))
		return -EFAULT;
	return pid;
}

/*
 * wait4(pid, wstatus, options, rusage): pid > 0 that child, 0 any child in
 * the caller's process group, -1 any child, < -1 any child in group -pid.
 * Sleeps until one is a zombie (WNOHANG: returns 0); -ECHILD if no child
 * matches, -ERESTARTSYS if a signal arrives (EINTR, or SA_RESTART's restart).
 */
long sys_wait4(int pid, int *wstatus, int options, void *rusage)
{
	int pgrp = pid ? -pid : current->pgid;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (pid == INT_MIN)                     /* -INT_MIN is no process group */
		return -ESRCH;
	for (;;) {
		bool have_child;
		struct task_struct *z = find_zombie(pid, pgrp, &have_child);

		if (z)
			return wait_task_zombie(z, wstatus, rusage);
		if (!have_child)
			return -ECHILD;
		if (options & WNOHANG)
			return 0;
		if (signal_pending(current))
			return -ERESTARTSYS;
		sleep_on(current);
	}
}
