/*
 * Reader/writer semaphores (Linux's include/linux/rwsem.h): many readers
 * or one writer; a task that cannot have it sleeps (kernel/locking/rwsem.c).
 * count > 0: that many readers; RWSEM_WRITER_LOCKED: a writer.  As Linux's,
 * a waiting writer stops new readers (down_read_trylock fails while
 * nr_writers_waiting), so a stream of readers cannot starve it.  Never
 * taken in an interrupt handler; the holder may sleep.  Lockdep sees a
 * reader as a holder like any other (down_read twice can deadlock behind a
 * waiting writer).
 */
#ifndef _LINUX_RWSEM_H
#define _LINUX_RWSEM_H

#include "linux/types.h"
#include "linux/lockdep.h"

#define RWSEM_WRITER_LOCKED (-1L)

struct rw_semaphore {
	long count;
	int nr_waiters;                 /* sleeping in down_read/down_write */
	int nr_writers_waiting;         /* of them, writers: new readers wait */
	struct lockdep_map dep_map;
};

static inline void init_rwsem(struct rw_semaphore *sem, const char *name)
{
	sem->count = 0;
	sem->nr_waiters = 0;
	sem->nr_writers_waiting = 0;
	sem->dep_map = (struct lockdep_map){ .name = name };
}

static inline bool __down_read_trylock(struct rw_semaphore *sem)
{
	long c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	return c >= 0 && !__atomic_load_n(&sem->nr_writers_waiting, __ATOMIC_RELAXED) &&
	       __atomic_compare_exchange_n(&sem->count, &c, c + 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline bool __down_write_trylock(struct rw_semaphore *sem)
{
	long c = 0;

	return __atomic_compare_exchange_n(&sem->count, &c, RWSEM_WRITER_LOCKED, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* kernel/locking/rwsem.c: the sleeping halves and the wake-up. */
void rwsem_down_read_slowpath(struct rw_semaphore *sem);
void rwsem_down_write_slowpath(struct rw_semaphore *sem);
void rwsem_wake(struct rw_semaphore *sem);
bool down_read_trylock(struct rw_semaphore *sem);
bool down_write_trylock(struct rw_semaphore *sem);
void down_write_nested(struct rw_semaphore *sem, unsigned int subclass);
void up_write(struct rw_semaphore *sem);
void downgrade_write(struct rw_semaphore *sem);

/* The validator's hooks; nothing without CONFIG_LOCKDEP. */
#define rwsem_acquire(sem, subclass, trylock, ip) do {                       \
	if (IS_ENABLED(CONFIG_LOCKDEP))                                      \
		lock_acquire(&(sem)->dep_map, (sem), subclass, trylock, ip); \
} while (0)
#define rwsem_release(sem, ip) do {                                          \
	if (IS_ENABLED(CONFIG_LOCKDEP))                                      \
		lock_release((sem), ip);                                     \
} while (0)

/*
 * Take sem for reading; may sleep (never in atomic context).  Inline, as
 * the page fault takes the mmap_lock so: the uncontended case is one
 * compare-and-swap, the sleep is out of line (Linux's __down_read).
 */
static inline void down_read(struct rw_semaphore *sem)
{
	might_sleep();
	rwsem_acquire(sem, 0, false, _THIS_IP_);
	if (unlikely(!__down_read_trylock(sem)))
		rwsem_down_read_slowpath(sem);
}

/* The last reader out wakes the sleepers, if there are any. */
static inline void up_read(struct rw_semaphore *sem)
{
	rwsem_release(sem, _THIS_IP_);
	if (!__atomic_sub_fetch(&sem->count, 1, __ATOMIC_RELEASE) &&
	    unlikely(__atomic_load_n(&sem->nr_waiters, __ATOMIC_RELAXED)))
		rwsem_wake(sem);
}

/* Take sem for writing, alone; may sleep. */
static inline void down_write(struct rw_semaphore *sem)
{
	down_write_nested(sem, 0);
}

static inline bool rwsem_is_locked(struct rw_semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED) != 0;
}

static inline bool rwsem_is_write_locked(struct rw_semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED) == RWSEM_WRITER_LOCKED;
}

#endif
