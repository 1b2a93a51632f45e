/*
 * Wait queues (Linux's kernel/sched/wait.c); the contract is in
 * include/linux/wait.h.  wq_head->lock guards the list; it is taken with
 * interrupts off because wakers run in interrupt handlers (the tick, the
 * UART).
 */
#include "linux/sched.h"
#include "linux/wait.h"

void init_waitqueue_head(struct wait_queue_head *wq_head)
{
	spin_lock_init(&wq_head->lock, "wq_head->lock");
	INIT_LIST_HEAD(&wq_head->head);
}

void add_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	unsigned long flags = spin_lock_irqsave(&wq_head->lock);

	wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
	list_add(&wq_entry->entry, &wq_head->head);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

void remove_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	unsigned long flags = spin_lock_irqsave(&wq_head->lock);

	list_del_init(&wq_entry->entry);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

/*
 * Queue wq_entry (if it is not queued yet: a loop calls this each time
 * round) and set current's state; the caller then tests its condition and
 * schedules.  Exclusive waiters go at the tail, others at the head, so
 * wake_up() wakes every non-exclusive waiter and one exclusive one.
 */
static void __prepare_to_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry,
			      int state, bool exclusive)
{
	unsigned long flags = spin_lock_irqsave(&wq_head->lock);

	if (list_empty(&wq_entry->entry)) {
		if (exclusive) {
			wq_entry->flags |= WQ_FLAG_EXCLUSIVE;
			list_add_tail(&wq_entry->entry, &wq_head->head);
		} else {
			wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
			list_add(&wq_entry->entry, &wq_head->head);
		}
	}
	set_current_state(state);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

void prepare_to_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry, int state)
{
	__prepare_to_wait(wq_head, wq_entry, state, false);
}

void prepare_to_wait_exclusive(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry,
			       int state)
{
	__prepare_to_wait(wq_head, wq_entry, state, true);
}

/*
 * The end of a wait: running again and off the queue (a waker's
 * autoremove_wake_function may have taken it off already: then no lock).
 */
void finish_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	if (!list_empty_careful(&wq_entry->entry)) {
		flags = spin_lock_irqsave(&wq_head->lock);
		list_del_init(&wq_entry->entry);
		spin_unlock_irqrestore(&wq_head->lock, flags);
	}
}

int default_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode, void *key)
{
	return try_to_wake_up(wq_entry->private, mode);
}

/* Wake the sleeper and take it off the queue: it will not need the lock in finish_wait. */
int autoremove_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode, void *key)
{
	int ret = default_wake_function(wq_entry, mode, key);

	if (ret)
		list_del_init(&wq_entry->entry);
	return ret;
}

/*
 * Wake the waiters of wq_head whose state matches mode: all non-exclusive
 * ones and nr_exclusive exclusive ones (0: all).  key goes to each wake
 * function (wake_up_var's address).  Any context.
 */
void __wake_up(struct wait_queue_head *wq_head, unsigned int mode, int nr_exclusive, void *key)
{
	struct wait_queue_entry *curr, *next;
	unsigned long flags = spin_lock_irqsave(&wq_head->lock);

	list_for_each_entry_safe(curr, next, &wq_head->head, entry) {
		unsigned int wq_flags = curr->flags;
		int ret = curr->func(curr, mode, key);

		if (ret < 0)
			break;
		if (ret && (wq_flags & WQ_FLAG_EXCLUSIVE) && !--nr_exclusive)
			break;
	}
	spin_unlock_irqrestore(&wq_head->lock, flags);
}
