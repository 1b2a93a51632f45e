/*
 * Completions (Linux's include/linux/completion.h, kernel/sched/completion.c):
 * "this has happened" for a waiter that sleeps until it has, signalled
 * from any context (an interrupt handler: a disk request's end).
 *
 * Locks: x->wait.lock (irq-safe) guards done and the waiters.  complete()
 * touches x only under it, and a waiter leaves only after taking it
 * again, so a completion on the waiter's stack may go away as soon as
 * wait_for_completion returns.
 */
#ifndef _LINUX_COMPLETION_H
#define _LINUX_COMPLETION_H

#include "linux/wait.h"

struct completion {
	unsigned int done;              /* complete()s not yet waited for */
	struct wait_queue_head wait;
};

static inline void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

void complete(struct completion *x);
void wait_for_completion(struct completion *x);

#endif
