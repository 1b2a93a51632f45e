/*
 * fork copies the address space copy-on-write (mm/fork.c) and the
 * caller's registers; the child returns 0 from the same system call and
 * first runs at the next scheduling point (the parent keeps running, as
 * with Linux's default).  It inherits the signal dispositions and (in
 * task_create) the process group.  wait4 is in kernel/exit.c.
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/uaccess.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "mm/mm.h"
#include "mm/mm_id.h"
#include "mm/mm_api.h"

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
	c->pwd = p->pwd;
	if (c->pwd)
		ihold(c->pwd);
	copy_thread(c);
	memcpy(c->action, p->action, sizeof(c->action));
	c->blocked = p->blocked;                /* pending signals are not inherited */
	c->sas_ss_sp = p->sas_ss_sp;
	c->sas_ss_size = p->sas_ss_size;
	c->sas_ss_flags = p->sas_ss_flags;
	c->make_it_fail = p->make_it_fail;
	wake_up_new_task(c);
	return c->pid;
}

/* Where the child's TID is cleared at exit (musl's thread list); returns the TID. */
long sys_set_tid_address(int *tidptr)
{
	current->clear_child_tid = (unsigned long)tidptr;
	return current->pid;
}
