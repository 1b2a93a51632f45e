/*
 * Tasks and the round-robin scheduler.
 *
 * The boot context becomes the idle task (pid 0), which only halts.  User
 * tasks are preempted on the timer tick when they run in user mode, and
 * switch voluntarily when they sleep (wait4) or exit.  schedule() runs with
 * interrupts off; each task's kernel stack holds its saved registers.
 *
 * Lock order: see mm/rmap.c; nothing is taken under tasklist_lock (task
 * structs and stacks are freed outside it).
 */
#include "linux/sched.h"
#include "linux/syscalls.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/spinlock.h"
#include "linux/uaccess.h"
#include "mm/mm.h"
#include <asm/arch.h>
#include <asm/irqflags.h>

spinlock_t tasklist_lock = SPINLOCK_INIT("tasklist");
static LIST_HEAD(run_queue);
LIST_HEAD(all_tasks);
static struct task_struct idle_task = { .pid = 0, .comm = "idle" };
static int next_pid = 1;
static struct task_struct *task_dead;   /* reaped at its exit, still on its stack */
struct task_struct *init_task;

extern char boot_stack[];

void sched_init(void)
{
	idle_task.kstack = boot_stack;
	INIT_LIST_HEAD(&idle_task.children);
	arch_set_current(&idle_task);
}

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
	strlcpy(t->comm, comm, sizeof(t->comm));
	INIT_LIST_HEAD(&t->children);
	INIT_LIST_HEAD(&t->pending.list);
	t->state = TASK_SLEEPING;
	flags = spin_lock_irqsave(&tasklist_lock);
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

/* Take t off its parent's children and the task list: its PID is gone. */
static void __unhash_process(struct task_struct *t)
{
	unsigned long flags = spin_lock_irqsave(&tasklist_lock);

	if (t->parent)
		list_del(&t->sibling);
	if (t->signal) {                        /* Linux's __exit_signal */
		list_del(&t->thread_node);
		t->signal->nr_threads--;
	}
	list_del(&t->task_list);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

static void free_task(struct task_struct *t)
{
	put_task_shared(t);
	free_pages((unsigned long)t->kstack, KSTACK_ORDER);
	fpstate_free(&t->fpu);
	kfree(t);
}

/* Free a task that never ran or was reaped: its place, its stack, its FPU image, itself. */
void task_release(struct task_struct *t)
{
	__unhash_process(t);
	free_task(t);
}

/*
 * After a switch, on the next task's stack: free the task that was reaped
 * as it exited (Linux's finish_task_switch dropping a TASK_DEAD task).
 */
static void finish_task_switch(void)
{
	struct task_struct *dead = task_dead;

	if (dead) {
		task_dead = NULL;
		free_task(dead);
	}
}

void task_start(struct task_struct *t)
{
	wake_up_task(t);
}

void wake_up_task(struct task_struct *t)
{
	unsigned long flags = spin_lock_irqsave(&tasklist_lock);

	if (t->state == TASK_SLEEPING) {
		t->state = TASK_RUNNABLE;
		list_add_tail(&t->run_list, &run_queue);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/*
 * Run the next runnable task (round robin), or idle.  A runnable current
 * task goes to the back of the queue.  Returns when current runs again.
 */
void schedule(void)
{
	unsigned long flags = spin_lock_irqsave(&tasklist_lock);
	struct task_struct *prev = current, *next = &idle_task;

	if (prev != &idle_task && prev->state == TASK_RUNNABLE)
		list_add_tail(&prev->run_list, &run_queue);
	if (!list_empty(&run_queue)) {
		next = list_first_entry(&run_queue, struct task_struct, run_list);
		list_del(&next->run_list);
	}
	if (next != prev) {
		arch_switch_mm_and_stack(next);
		switch_fpu(prev, next);
		__switch_to(&prev->sp, next->sp);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	finish_task_switch();
}

/*
 * First thing a new task runs (from ret_from_fork): release the lock
 * schedule() switched to it under; interrupts stay off until it enters
 * user mode.
 */
void schedule_tail(void)
{
	spin_unlock(&tasklist_lock);
	finish_task_switch();
	if (current->set_child_tid)             /* CLONE_CHILD_SETTID, in the child's own mm */
		copy_to_user((void *)current->set_child_tid, &current->pid, sizeof(int));
}

long sys_sched_yield(void)
{
	schedule();
	return 0;
}

/* Timer tick in user mode: give the CPU to the next task. */
void sched_tick(void)
{
	if (current != &idle_task && !list_empty(&run_queue))
		schedule();
}

/*
 * Sleep until wake_up(chan).  Returns with interrupts as they were: a
 * caller that checked its condition with interrupts off (n_tty_read) keeps
 * them off until the task is asleep, so no wake_up falls in between.
 */
void sleep_on(const void *chan)
{
	unsigned long flags = arch_local_irq_save();

	current->wait_chan = chan;
	current->state = TASK_SLEEPING;
	schedule();
	arch_local_irq_restore(flags);
}

/* The task with this pid, a zombie too (until reaped), or NULL. */
struct task_struct *find_task_by_vpid(int pid)
{
	struct task_struct *t;

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

/* May fault injection fail an allocation now (mm/fail_alloc.h)?  Only for marked tasks. */
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

/* Make every task sleeping on chan runnable. */
void wake_up(const void *chan)
{
	struct task_struct *t;

	list_for_each_entry(t, &all_tasks, task_list)
		if (t->wait_chan == chan && t->state == TASK_SLEEPING)
			wake_up_task(t);
}

/* The idle loop: halt until an interrupt makes something runnable. */
__noreturn void cpu_idle(void)
{
	for (;;) {
		arch_cpu_idle();
		if (!list_empty(&run_queue))
			schedule();
	}
}

/*
 * An AP's idle loop (arch/x86_64/smpboot.c calls it once the CPU is
 * online): until tasks run on every CPU, it only answers interrupts and IPIs.
 */
__noreturn void cpu_startup_entry(void)
{
	for (;;)
		arch_cpu_idle();
}

/*
 * The reschedule IPI's hook.  With one run queue the interrupt itself is
 * the message: it ended the target's hlt, and its idle loop looks for work.
 */
void scheduler_ipi(void)
{
}

/*
 * The end of do_exit (Linux's do_task_dead): schedule away for good.  A
 * TASK_DEAD task (its parent ignores SIGCHLD) leaves the task list now and
 * is freed by the next task to run, once off its stack; a zombie waits for
 * its parent's wait4.  Interrupts are off.
 */
__noreturn void do_task_dead(void)
{
	struct task_struct *t = current;

	if (t->state == TASK_DEAD) {
		__unhash_process(t);
		task_dead = t;
	}
	schedule();
	panic("do_task_dead: task %d ran again", t->pid);
}
