/*
 * fork, wait4 and the end of a process's life.
 *
 * fork copies the address space copy-on-write (mm/fork.c) and the
 * caller's registers; the child returns 0 from the same system call and
 * first runs at the next scheduling point (the parent keeps running, as
 * with Linux's default).  A child that exits stays a zombie, holding its
 * wait status, until its parent reaps it with wait4; orphans go to init.
 */
#include "kernel/syscalls.h"
#include "kernel/task.h"
#include "kernel/uaccess.h"
#include "kernel/string.h"
#include "kernel/printk.h"
#include "mm/mm.h"
#include "mm/mm_id.h"
#include "mm/mm_api.h"

#define WNOHANG     1
#define WUNTRACED   2
#define WCONTINUED  8
#define __WNOTHREAD 0x20000000
#define __WALL      0x40000000
#define __WCLONE    0x80000000
#define INT_MIN     (-2147483647 - 1)

long sys_fork(void)
{
	struct task_struct *p = current, *c = task_create(p->comm, p);

	if (!c)
		return -ENOMEM;
	c->mm = dup_mm(p->mm);
	if (!c->mm) {
		task_release(c);
		return -ENOMEM;
	}
	files_dup(&c->files, &p->files);
	fpu_clone(c);
	*task_pt_regs(c) = *task_pt_regs(p);
	task_pt_regs(c)->rax = 0;
	c->fs_base = p->fs_base;
	c->gs_base = p->gs_base;
	c->sig_ignored = p->sig_ignored;
	c->make_it_fail = p->make_it_fail;
	task_start(c);
	return c->pid;
}

/* A zombie child of current matching pid (-1: any); NULL if none. */
static struct task_struct *find_zombie(int pid, bool *have_child)
{
	struct task_struct *c;

	*have_child = false;
	list_for_each_entry(c, &current->children, sibling) {
		if (pid != -1 && c->pid != pid)
			continue;
		*have_child = true;
		if (c->state == TASK_ZOMBIE)
			return c;
	}
	return NULL;
}

long sys_wait4(int pid, int *wstatus, int options, void *rusage)
{
	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (pid == INT_MIN)                     /* -INT_MIN is no process group */
		return -ESRCH;
	for (;;) {
		bool have_child;
		struct task_struct *z = find_zombie(pid < 0 ? -1 : pid, &have_child);

		if (z) {        /* reaped even when the status cannot be stored: Linux */
			int zpid = z->pid, status = z->exit_code;

			task_release(z);
			if (wstatus && copy_to_user(wstatus, &status, sizeof(status)))
				return -EFAULT;
			return zpid;
		}
		if (!have_child)
			return -ECHILD;
		if (options & WNOHANG)
			return 0;
		if (current->pending_kill)
			return -EINTR;
		sleep_on(current);
	}
}
