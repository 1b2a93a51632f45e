/*
 * Reader/writer semaphores (Linux's include/linux/rwsem.h): many readers
 * or one writer.  count > 0: that many readers; RWSEM_WRITER_LOCKED: a
 * writer.  This first version spins; a waiter that sleeps comes with the
 * wait queues (kernel/locking/).  Never taken in an interrupt handler.
 */
#ifndef _LINUX_RWSEM_H
#define _LINUX_RWSEM_H

#include "linux/types.h"
#include <asm/processor.h>

#define RWSEM_WRITER_LOCKED (-1L)

struct rw_semaphore {
	long count;
	const char *name;
};

static inline void init_rwsem(struct rw_semaphore *sem, const char *name)
{
	sem->count = 0;
	sem->name = name;
}

static inline bool down_read_trylock(struct rw_semaphore *sem)
{
	long c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	return c >= 0 && __atomic_compare_exchange_n(&sem->count, &c, c + 1, false,
						     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline bool down_write_trylock(struct rw_semaphore *sem)
{
	long c = 0;

	return __atomic_compare_exchange_n(&sem->count, &c, RWSEM_WRITER_LOCKED, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void down_read(struct rw_semaphore *sem)
{
	while (!down_read_trylock(sem))
		cpu_relax();
}

static inline void down_write(struct rw_semaphore *sem)
{
	while (!down_write_trylock(sem))
		cpu_relax();
}

static inline void up_read(struct rw_semaphore *sem)
{
	__atomic_sub_fetch(&sem->count, 1, __ATOMIC_RELEASE);
}

static inline void up_write(struct rw_semaphore *sem)
{
	__atomic_store_n(&sem->count, 0, __ATOMIC_RELEASE);
}

/* Writer to reader without letting another writer in (mmap_write_downgrade). */
static inline void downgrade_write(struct rw_semaphore *sem)
{
	__atomic_store_n(&sem->count, 1, __ATOMIC_RELEASE);
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
