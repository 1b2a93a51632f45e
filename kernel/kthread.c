/*
 * Kernel threads (Linux's kernel/kthread.c): tasks that run one kernel
 * function and never enter user mode — kswapd.  foliOS's are not
 * processes: their PID is 0, as the idle tasks', and they are on no task
 * list, so no signal, wait, /proc entry or power-off sweep reaches them
 * (Linux lists its kernel threads in /proc, children of kthreadd, PID 2,
 * and they ignore signals).  They run with no mm (a lazy TLB, as the idle
 * task) and never end.
 *
 * Locks: none of its own; the new task goes on a run queue under its lock.
 */
#include "linux/sched.h"
#include "linux/printk.h"

/*
 * Make a kernel thread named name that runs fn(arg), and wake it
 * (Linux's kthread_run).  NULL if out of memory.
 */
struct task_struct *kthread_run(int (*fn)(void *), void *arg, const char *name)
{
	struct task_struct *t = task_alloc(name);

	if (!t)
		return NULL;
	t->kthread_fn = fn;
	t->kthread_arg = arg;
	wake_up_new_task(t);
	return t;
}
