/*
 * wait4, after Linux's kernel/exit.c: a child that exits stays a zombie,
 * holding its wait status, until its parent reaps it here (unless the
 * parent ignores SIGCHLD: then it went at exit, kernel/sched.c); orphans
 * go to init.
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/uaccess.h"
#include "uapi/linux/wait.h"

#define __WNOTHREAD 0x20000000
#define __WALL      0x40000000
#define __WCLONE    0x80000000
#define INT_MIN     (-2147483647 - 1)
#define RUSAGE_SIZE 144                 /* struct rusage: 2 timevals, 14 longs */

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
 * matches, -EINTR if a fatal signal arrives.
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
		if (current->pending_kill)
			return -EINTR;
		sleep_on(current);
	}
}
