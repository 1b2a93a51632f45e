/*
 * Wait queues (Linux's include/linux/wait.h, kernel/sched/wait.c): a list
 * of sleeping tasks behind a spinlock.  A sleeper puts itself on the list
 * and sets its state (prepare_to_wait), then tests its condition, then
 * schedules; a waker makes the condition true, then wakes the list.  Each
 * side orders its store before its load (the lock, set_current_state's
 * barrier), so either the sleeper sees the condition or the waker sees the
 * sleeper: no wake-up is lost, on any CPU, with interrupts on or off.
 *
 * Lock order (include/linux/sched.h): wq_head->lock, then the woken task's
 * pi_lock and run-queue lock (kernel/sched/core.c).  Wakers may run in
 * interrupts.
 */
#ifndef _LINUX_WAIT_H
#define _LINUX_WAIT_H

#include "linux/errno.h"
#include "linux/list.h"
#include "linux/spinlock.h"

struct wait_queue_entry;
typedef int (*wait_queue_func_t)(struct wait_queue_entry *wq_entry, unsigned int mode, void *key);

#define WQ_FLAG_EXCLUSIVE 0x01          /* wake_up() wakes one such waiter, not all */

typedef struct wait_queue_entry {
	unsigned int flags;
	void *private;                  /* the sleeping task */
	wait_queue_func_t func;         /* how to wake it */
	struct list_head entry;         /* in wait_queue_head.head */
} wait_queue_entry_t;

typedef struct wait_queue_head {
	spinlock_t lock;                /* guards head */
	struct list_head head;
} wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) \
	{ .lock = SPINLOCK_INIT("wq_head->lock"), .head = LIST_HEAD_INIT((name).head) }
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

int autoremove_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode, void *key);
int default_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode, void *key);

#define DEFINE_WAIT_FUNC(name, function) \
	struct wait_queue_entry name = { .private = current, .func = function, \
					 .entry = LIST_HEAD_INIT((name).entry) }
#define DEFINE_WAIT(name) DEFINE_WAIT_FUNC(name, autoremove_wake_function)

void init_waitqueue_head(struct wait_queue_head *wq_head);
void add_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void remove_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void prepare_to_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry, int state);
void prepare_to_wait_exclusive(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry,
			       int state);
void finish_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry);
void __wake_up(struct wait_queue_head *wq_head, unsigned int mode, int nr_exclusive, void *key);

#define wake_up(x)                      __wake_up(x, TASK_NORMAL, 1, NULL)
#define wake_up_all(x)                  __wake_up(x, TASK_NORMAL, 0, NULL)
#define wake_up_interruptible(x)        __wake_up(x, TASK_INTERRUPTIBLE, 1, NULL)
#define wake_up_interruptible_all(x)    __wake_up(x, TASK_INTERRUPTIBLE, 0, NULL)

/*
 * Sleep in state with entry on wq_head until condition holds (Linux's
 * ___wait_event; wait_event and wait_var_event share the loop).  0, or
 * -ERESTARTSYS if the sleep is TASK_INTERRUPTIBLE and a signal came
 * first, or TASK_KILLABLE and SIGKILL did.
 * After a wake-up the condition is tested before queueing again: the
 * usual wake-up makes it true, and then the wait ends without the lock.
 * The user of these macros includes linux/sched.h (current, schedule).
 */
#define __wait_loop(wq_head, entry, condition, state, exclusive) ({             \
	long __ret = 0;                                                         \
	for (;;) {                                                              \
		if (exclusive)                                                  \
			prepare_to_wait_exclusive(wq_head, entry, state);       \
		else                                                            \
			prepare_to_wait(wq_head, entry, state);                 \
		if (condition)                                                  \
			break;                                                  \
		if (((state) == TASK_INTERRUPTIBLE && signal_pending(current)) || \
		    (((state) & TASK_WAKEKILL) && fatal_signal_pending(current))) { \
			__ret = -ERESTARTSYS;                                   \
			break;                                                  \
		}                                                               \
		schedule();                                                     \
		if (condition)                                                  \
			break;                                                  \
	}                                                                       \
	finish_wait(wq_head, entry);                                            \
	__ret;                                                                  \
})

#define ___wait_event(wq_head, condition, state, exclusive) ({                  \
	DEFINE_WAIT(__wait);                                                    \
	__wait_loop(wq_head, &__wait, condition, state, exclusive);             \
})

#define wait_event(wq_head, condition) do {                                     \
	if (!(condition))                                                       \
		___wait_event(&(wq_head), condition, TASK_UNINTERRUPTIBLE, 0); \
} while (0)

#define wait_event_interruptible(wq_head, condition) \
	((condition) ? 0L : ___wait_event(&(wq_head), condition, TASK_INTERRUPTIBLE, 0))
#define wait_event_interruptible_exclusive(wq_head, condition) \
	((condition) ? 0L : ___wait_event(&(wq_head), condition, TASK_INTERRUPTIBLE, 1))

/*
 * Waiting on a variable's address (Linux's wait_var_event, kernel/sched/wait_bit.c):
 * a hashed table of wait queues shared by every address, for things with
 * no queue of their own (the tick, a lock word).  The waker calls
 * wake_up_var(var) after changing what the condition reads.
 */
struct wait_bit_queue_entry {
	void *var;                      /* the address waited on (Linux's key.flags) */
	struct wait_queue_entry wq_entry;
};

struct wait_queue_head *__var_waitqueue(void *var);
void init_wait_var_entry(struct wait_bit_queue_entry *wbq_entry, void *var);
void wake_up_var(void *var);
void wait_var_trylock(void *var, bool (*trylock)(void *var));
void wait_var_unlock(void *var, bool (*ready)(void *var), spinlock_t *lock);

#define ___wait_var_event(var, condition, state) ({                             \
	struct wait_queue_head *__wq_head = __var_waitqueue(var);              \
	struct wait_bit_queue_entry __wbq_entry;                                \
	init_wait_var_entry(&__wbq_entry, var);                                 \
	__wait_loop(__wq_head, &__wbq_entry.wq_entry, condition, state, 0);     \
})

#define wait_var_event(var, condition) do {                                     \
	if (!(condition))                                                       \
		___wait_var_event(var, condition, TASK_UNINTERRUPTIBLE);       \
} while (0)

#define wait_var_event_interruptible(var, condition) \
	((condition) ? 0L : ___wait_var_event(var, condition, TASK_INTERRUPTIBLE))
#define wait_var_event_killable(var, condition) \
	((condition) ? 0L : ___wait_var_event(var, condition, TASK_KILLABLE))

#endif
