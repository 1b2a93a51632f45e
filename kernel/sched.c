/*
 * Tasks: creation, the task list and PIDs, lookup, and freeing.  The
 * scheduler is kernel/sched/ (core.c: run queues and switching; fair.c:
 * balancing; wait.c: wait queues; syscalls.c: the sched_* calls).
 *
 * Lock order: see linux/sched.h; tasklist_lock guards all_tasks, each
 * task's children/sibling links, next_pid, the thread groups' lists and
 * counts and the pending signals (kernel/signal.c); wake-ups happen
 * under it; task structs and stacks are freed outside it.
 */
#include "linux/sched.h"
#include "linux/syscalls.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/spinlock.h"
#include "linux/uaccess.h"
#include "linux/mm.h"
#include <asm/arch.h>
#include <asm/irqflags.h>

spinlock_t tasklist_lock = SPINLOCK_INIT("tasklist");
LIST_HEAD(all_tasks);
static int next_pid = 1;

/* The last PID given out (Linux's idr_get_cursor for /proc/loadavg), read racily. */
int last_pid(void)
{
	return READ_ONCE(next_pid) - 1;
}
struct task_struct *init_task;
atomic_t nr_tasks = ATOMIC_INIT(0);

/* A new task (not yet runnable) with a kernel stack; NULL if out of memory. */
struct task_struct *task_create(const char *comm, struct task_struct *parent)
{
	struct task_struct *t = kzalloc(sizeof(*t));
	unsigned long flags;

	if (!t)
		return NULL;
	t->kstack = (void *)__get_free_pages(0, KSTACK_ORDER);
	if (!t->kstack || fpstate_alloc(&t->fpu)) {
		if (t->kstack)
			free_pages((unsigned long)t->kstack, KSTACK_ORDER);
		kfree(t);
		return NULL;
	}
	atomic_inc(&nr_tasks);
	t->start_time = ktime_get_ns();
	t->caps = (struct task_caps){ CAP_FULL_SET, CAP_FULL_SET, 0, CAP_FULL_SET };  /* root's */
	strlcpy(t->comm, comm, sizeof(t->comm));
	INIT_LIST_HEAD(&t->children);
	INIT_LIST_HEAD(&t->pending.list);
	sched_fork(t, current);         /* the creator's affinity and CPU */
	spin_lock_irqsave(&tasklist_lock, flags);
	t->pid = t->tgid = next_pid++;
	t->group_leader = t;
	t->parent = parent;
	if (parent) {
		list_add_tail(&t->sibling, &parent->children);
		t->pgid = parent->pgid;
	}
	list_add_tail(&t->task_list, &all_tasks);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	arch_prepare_new_stack(t);
	return t;
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

/* Free a task off every CPU: its stack, its FPU image, itself. */
void free_task(struct task_struct *t)
{
	put_task_shared(t);
	free_pages((unsigned long)t->kstack, KSTACK_ORDER);
	fpstate_free(&t->fpu);
	kfree(t);
	atomic_dec(&nr_tasks);
}

/*
 * Free a task that never ran or was reaped: its place, its stack, its FPU
 * image, itself.  A zombie's CPU may still be switching away from it.
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
 * The task with this pid, a zombie too (until reaped), or NULL.  The
 * caller holds tasklist_lock for as long as it uses the task: tasks have
 * no reference count of their own, and the lock keeps a found one from
 * being reaped and freed.
 */
struct task_struct *find_task_by_vpid(int pid)
{
	struct task_struct *t;

	lockdep_assert_held(&tasklist_lock);
	list_for_each_entry(t, &all_tasks, task_list)   /* threads too: a TID finds its thread */
		if (t->pid == pid && t->signal)         /* not one clone() is still making */
			return t;
	return NULL;
}

/* For the mapcount trace (mm/rmap_trace.h): who is running now. */
int rmap_trace_pid(void)
{
	return current ? current->pid : 0;
}

/* May fault injection fail an allocation now (linux/fault-inject.h)?  Only for marked tasks. */
bool fault_inject_task_allowed(void)
{
	return current && current->make_it_fail;
}

/*
 * The PID of the n-th user task (0, 1, …), zombies included as in Linux's
 * /proc (they hold memory until reaped), or 0 past the last.
 */
int task_nth_pid(unsigned long n)
{
	struct task_struct *t;

	list_for_each_entry(t, &all_tasks, task_list)
		if (thread_group_leader(t) && (t->mm || t->state == TASK_ZOMBIE) && !n--)
			return t->pid;
	return 0;
}

/* The PID of the live task whose mm has this MM ID, or 0 (for the folio view). */
int mm_id_to_pid(unsigned int mm_id)
{
	struct task_struct *t;

	list_for_each_entry(t, &all_tasks, task_list)
		if (t->mm && t->mm->mm_id == mm_id && t->state != TASK_ZOMBIE)
			return t->tgid;
	return 0;
}

/*
 * The end of do_exit (Linux's do_task_dead): schedule away for good.  A
 * TASK_DEAD task (a thread, or its parent ignores SIGCHLD), which
 * exit_notify took off the task list, is freed by the next task to run on
 * its CPU, once off its stack (finish_task_switch); a zombie waits for its
 * parent's wait4.
 */
__noreturn void do_task_dead(void)
{
	struct task_struct *t = current;

	schedule();
	panic("do_task_dead: task %d ran again", t->pid);
}
