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

/* kernel/locking/rwsem.c */
bool down_read_trylock(struct rw_semaphore *sem);
bool down_write_trylock(struct rw_semaphore *sem);
void down_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
void down_write_nested(struct rw_semaphore *sem, unsigned int subclass);
void up_read(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
void downgrade_write(struct rw_semaphore *sem);

static inline bool rwsem_is_locked(struct rw_semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED) != 0;
}

static inline bool rwsem_is_write_locked(struct rw_semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED) == RWSEM_WRITER_LOCKED;
}

#endif
