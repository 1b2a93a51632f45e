/*
 * Sleeping mutexes (Linux's kernel/locking/mutex.c, without the optimistic
 * spinning): the owner word is taken with one compare-and-swap; a task
 * that finds it taken counts itself in nr_waiters and sleeps on the mutex
 * (sleep_on/wake_up, as kernel/locking/rwsem.c, which says why no wake-up
 * is lost); mutex_unlock wakes the sleepers when there are any.
 */
#include "linux/mutex.h"
#include "linux/sched.h"
#include "linux/printk.h"

/* The owner word's value for current (1 before the first task: boot and ktest). */
static unsigned long mutex_owner_id(void)
{
	return current ? (unsigned long)current : 1;
}

static bool __mutex_trylock(struct mutex *lock)
{
	unsigned long free = 0;

	return __atomic_compare_exchange_n(&lock->owner, &free, mutex_owner_id(), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

bool mutex_trylock(struct mutex *lock)
{
	if (!__mutex_trylock(lock))
		return false;
	if (IS_ENABLED(CONFIG_LOCKDEP))
		lock_acquire(&lock->dep_map, lock, 0, true, _RET_IP_);
	return true;
}

static bool mutex_try(void *lock)
{
	return __mutex_trylock(lock);
}

/* Take the mutex, sleeping while another task owns it. */
void mutex_lock_nested(struct mutex *lock, unsigned int subclass)
{
	might_sleep();
	if (IS_ENABLED(CONFIG_LOCKDEP))
		lock_acquire(&lock->dep_map, lock, subclass, false, _RET_IP_);
	if (__mutex_trylock(lock))
		return;
	__atomic_add_fetch(&lock->nr_waiters, 1, __ATOMIC_RELAXED);
	wait_var_trylock(lock, mutex_try);
	__atomic_sub_fetch(&lock->nr_waiters, 1, __ATOMIC_RELAXED);
}

void mutex_lock(struct mutex *lock)
{
	mutex_lock_nested(lock, 0);
}

/* Release the mutex current owns. */
void mutex_unlock(struct mutex *lock)
{
	BUG_ON(lock->owner != mutex_owner_id(), "mutex_unlock: not the owner");
	if (IS_ENABLED(CONFIG_LOCKDEP))
		lock_release(lock, _RET_IP_);
	__atomic_store_n(&lock->owner, 0, __ATOMIC_RELEASE);
	if (__atomic_load_n(&lock->nr_waiters, __ATOMIC_RELAXED))
		wake_up_var(lock);
}
