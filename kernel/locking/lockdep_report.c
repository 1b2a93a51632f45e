/*
 * The validator's reports (Linux's print_* of kernel/locking/lockdep.c)
 * and its checks outside lock acquisition: sleeping in atomic context
 * (might_sleep), locks held at the return to user mode and at exit.
 * Printing happens with graph_lock dropped (report_begin, lockdep.c).
 */
#include "kernel/locking/lockdep_internals.h"
#include "linux/sched.h"
#include "linux/ksyms.h"
#include "linux/printk.h"
#include "linux/preempt.h"
#include <asm/irqflags.h>

void print_ip_sym(const char *prefix, unsigned long ip)
{
	char sym[64];

	ksym_format(ip, sym, sizeof(sym));
	lpr("%s%s\n", prefix, sym);
}

void print_lock_name(const struct lock_class *class)
{
	lpr(class->subclass ? "(%s)/%u" : "(%s)", class->name, class->subclass);
}

void print_held_locks(struct lockdep_held *h)
{
	struct task_struct *t = current;

	lpr("%d lock%s held by %s/%d:\n", h->depth, h->depth == 1 ? "" : "s",
	    t ? t->comm : "boot", t ? t->pid : 0);
	for (int i = 0; i < h->depth; i++) {
		lpr(" #%d: ", i);
		print_lock_name(h->locks[i].class);
		print_ip_sym(", at: ", h->locks[i].acquire_ip);
	}
}

void print_banner(const char *title)
{
	struct task_struct *t = current;

	lpr("\n======================================================\n");
	lpr("WARNING: %s\n", title);
	lpr("------------------------------------------------------\n");
	lpr("%s/%d (preempt_count %x) ", t ? t->comm : "boot", t ? t->pid : 0, preempt_count());
}

/*
 * A function that may sleep was called (Linux's __might_sleep): report it
 * in atomic context — a spinlock held, in a hardirq — or with interrupts
 * off unless the caller sleeps that way on purpose (irqs_off_ok: sleep_on,
 * whose callers may close the lost-wake-up window with interrupts off).
 */
void __might_sleep(const char *file, int line, bool irqs_off_ok)
{
	bool irqs_off = irqs_disabled();
	struct task_struct *t = current;
	unsigned long flags;

	if (!in_atomic() && (irqs_off_ok || !irqs_off))
		return;
	if (!lockdep_enter(&flags))
		return;
	lpr("BUG: sleeping function called from invalid context at %s:%d\n", file, line);
	lpr("in_atomic(): %d, irqs_disabled(): %d, pid: %d, name: %s\npreempt_count: %x\n",
	    in_atomic(), irqs_off, t ? t->pid : 0, t ? t->comm : "boot", preempt_count());
	print_held_locks(held_locks());
	lockdep_report("sleeping function called from invalid context");
	lockdep_exit(flags);
}

static void check_no_locks_held(const char *when)
{
	struct lockdep_held *h = held_locks();
	unsigned long flags;

	if (!h->depth && !in_atomic())
		return;
	if (!lockdep_enter(&flags))
		return;
	print_banner(when);
	print_held_locks(h);
	lockdep_report(when);
	lockdep_exit(flags);
}

/* At the return to user mode: no lock may be held, nothing left atomic. */
void lockdep_sys_exit(void)
{
	if (IS_ENABLED(CONFIG_LOCKDEP))
		check_no_locks_held("lock held when returning to user space!");
}

/* At a task's exit (do_exit), before it takes the locks of its end. */
void debug_check_no_locks_held(void)
{
	if (IS_ENABLED(CONFIG_LOCKDEP))
		check_no_locks_held("lock held when task exits!");
}
