/*
 * Waiting on an address (Linux's kernel/sched/wait_bit.c, the wait_var_event
 * half): 64 shared wait queues, an address hashed to one of them.  Each
 * entry remembers its address, so wake_up_var() wakes only the waiters of
 * that address, not the others hashed to the same queue.
 */
#include "linux/sched.h"
#include "linux/wait.h"

#define WAIT_TABLE_BITS 6
#define WAIT_TABLE_SIZE (1 << WAIT_TABLE_BITS)

/* Initialised statically: the tick wakes waiters from the first interrupt on. */
#define WQ1(i)  __WAIT_QUEUE_HEAD_INITIALIZER(bit_wait_table[i])
#define WQ4(i)  WQ1(i), WQ1((i) + 1), WQ1((i) + 2), WQ1((i) + 3)
#define WQ16(i) WQ4(i), WQ4((i) + 4), WQ4((i) + 8), WQ4((i) + 12)

static struct wait_queue_head bit_wait_table[WAIT_TABLE_SIZE] = {
	WQ16(0), WQ16(16), WQ16(32), WQ16(48)
};

/*
 * The sleeping locks' slow path (rwsem, mutex, folio lock): sleep on var
 * until trylock(var) succeeds.  Each try comes after the task is queued
 * with its state set, so the unlocker's wake_up_var() cannot fall between
 * a failed try and the sleep.  The host tests' version yields instead.
 */
void wait_var_trylock(void *var, bool (*trylock)(void *var))
{
	___wait_var_event(var, trylock(var), TASK_UNINTERRUPTIBLE);
}

/*
 * Sleep on var at most once, dropping lock only after queueing (the shape
 * of Linux's migration_entry_wait_on_locked): a waker that changes what
 * ready() reads and calls wake_up_var() after taking lock cannot slip
 * between the test and the sleep.  Returns with lock dropped; the caller
 * looks again.  The host tests' version yields instead.
 */
void wait_var_unlock(void *var, bool (*ready)(void *var), spinlock_t *lock)
{
	struct wait_queue_head *wq_head = __var_waitqueue(var);
	struct wait_bit_queue_entry wbq_entry;
	bool go;

	init_wait_var_entry(&wbq_entry, var);
	prepare_to_wait(wq_head, &wbq_entry.wq_entry, TASK_UNINTERRUPTIBLE);
	go = ready(var);
	spin_unlock(lock);
	if (!go)
		schedule();
	finish_wait(wq_head, &wbq_entry.wq_entry);
}

struct wait_queue_head *__var_waitqueue(void *var)
{
	unsigned long h = (unsigned long)var * 0x61c8864680b583ebUL;

	return &bit_wait_table[h >> (64 - WAIT_TABLE_BITS)];
}

/* The wake function of a wait_var_event entry: only for its own address. */
static int var_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode, void *key)
{
	struct wait_bit_queue_entry *wbq_entry =
		container_of(wq_entry, struct wait_bit_queue_entry, wq_entry);

	if (wbq_entry->var != key)
		return 0;
	return autoremove_wake_function(wq_entry, mode, key);
}

void init_wait_var_entry(struct wait_bit_queue_entry *wbq_entry, void *var)
{
	wbq_entry->var = var;
	wbq_entry->wq_entry = (struct wait_queue_entry){ .private = current,
		.func = var_wake_function, .entry = LIST_HEAD_INIT(wbq_entry->wq_entry.entry) };
}

void wake_up_var(void *var)
{
	__wake_up(__var_waitqueue(var), TASK_NORMAL, 0, var);
}
