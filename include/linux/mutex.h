/*
 * Mutexes (Linux's include/linux/mutex.h): one owner at a time, a task
 * that cannot have it sleeps (kernel/locking/mutex.c); only the owner
 * unlocks.  Never taken in an interrupt handler or with a spinlock held.
 */
#ifndef _LINUX_MUTEX_H
#define _LINUX_MUTEX_H

#include "linux/types.h"
#include "linux/lockdep.h"
#include "linux/spinlock.h"        /* lockdep_assert_held() */

struct mutex {
	unsigned long owner;            /* the owning task_struct, 0: free */
	int nr_waiters;
	struct lockdep_map dep_map;
};

#define MUTEX_INIT(n) { .dep_map = { .name = n } }

static inline void mutex_init(struct mutex *lock, const char *name)
{
	*lock = (struct mutex)MUTEX_INIT(name);
}

void mutex_lock(struct mutex *lock);
void mutex_lock_nested(struct mutex *lock, unsigned int subclass);
bool mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);

static inline bool mutex_is_locked(struct mutex *lock)
{
	return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) != 0;
}

#endif
