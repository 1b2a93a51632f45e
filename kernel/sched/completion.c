/*
 * Completions (Linux's kernel/sched/completion.c): see linux/completion.h.
 * Locks: x->wait.lock, irq-safe; under it the woken task's pi_lock and
 * run-queue lock (try_to_wake_up), the order of include/linux/wait.h.
 */
#include "linux/completion.h"
#include "linux/sched.h"

/* Count one completion and wake the waiters (any context). */
void complete(struct completion *x)
{
	struct wait_queue_entry *curr;
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	x->done++;
	list_for_each_entry(curr, &x->wait.head, entry)
		default_wake_function(curr, TASK_NORMAL, NULL);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

/*
 * Sleep (uninterruptibly) until x has a completion, then take it.  May
 * sleep: process context, no spinlock held.
 */
void wait_for_completion(struct completion *x)
{
	DEFINE_WAIT_FUNC(wait, default_wake_function);

	might_sleep();
	spin_lock_irq(&x->wait.lock);
	if (!x->done) {
		list_add_tail(&wait.entry, &x->wait.head);
		do {
			set_current_state(TASK_UNINTERRUPTIBLE);
			spin_unlock_irq(&x->wait.lock);
			schedule();
			spin_lock_irq(&x->wait.lock);
		} while (!x->done);
		list_del(&wait.entry);
		__set_current_state(TASK_RUNNING);
	}
	x->done--;
	spin_unlock_irq(&x->wait.lock);
}
