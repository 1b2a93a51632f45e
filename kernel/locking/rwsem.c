/*
 * Sleeping reader/writer semaphores (Linux's kernel/locking/rwsem.c, the
 * idea without the optimistic spinning): the fast paths are one
 * compare-and-swap; a task that finds the semaphore taken counts itself in
 * nr_waiters and sleeps on it; the last reader or the writer leaving wakes
 * the sleepers when there are any, and they all try again.
 *
 * The sleep is wait_var_trylock(sem)/wake_up_var(sem) (kernel/sched/
 * wait_bit.c): each try comes after the sleeper is queued, so no wake-up
 * is lost on any CPU.  Also built into the host tests (tests/host/
 * hostenv.c: the wait yields).
 */
#include "linux/rwsem.h"
#include "linux/wait.h"

/* Sleep until trylock(sem) succeeds; a writer holds new readers off meanwhile. */
static bool rwsem_try_read(void *sem)
{
	return __down_read_trylock(sem);
}

static bool rwsem_try_write(void *sem)
{
	return __down_write_trylock(sem);
}

static void rwsem_down_slowpath(struct rw_semaphore *sem, bool (*trylock)(void *sem), bool writer)
{
	__atomic_add_fetch(&sem->nr_waiters, 1, __ATOMIC_RELAXED);
	if (writer)
		__atomic_add_fetch(&sem->nr_writers_waiting, 1, __ATOMIC_RELAXED);
	wait_var_trylock(sem, trylock);
	if (writer)
		__atomic_sub_fetch(&sem->nr_writers_waiting, 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&sem->nr_waiters, 1, __ATOMIC_RELAXED);
}

/* Wake the tasks sleeping on sem (they all try again). */
void rwsem_wake(struct rw_semaphore *sem)
{
	if (__atomic_load_n(&sem->nr_waiters, __ATOMIC_RELAXED))
		wake_up_var(sem);
}

/* down_read's sleep: a writer has sem, or waits for it. */
void rwsem_down_read_slowpath(struct rw_semaphore *sem)
{
	rwsem_down_slowpath(sem, rwsem_try_read, false);
}

void rwsem_down_write_slowpath(struct rw_semaphore *sem)
{
	rwsem_down_slowpath(sem, rwsem_try_write, true);
}

bool down_read_trylock(struct rw_semaphore *sem)
{
	if (!__down_read_trylock(sem))
		return false;
	rwsem_acquire(sem, 0, true, _RET_IP_);
	return true;
}

bool down_write_trylock(struct rw_semaphore *sem)
{
	if (!__down_write_trylock(sem))
		return false;
	rwsem_acquire(sem, 0, true, _RET_IP_);
	return true;
}

/* down_write of a second semaphore of the class (fork: the child's mmap_lock). */
void down_write_nested(struct rw_semaphore *sem, unsigned int subclass)
{
	might_sleep();
	rwsem_acquire(sem, subclass, false, _RET_IP_);
	if (!__down_write_trylock(sem))
		rwsem_down_write_slowpath(sem);
}

void up_write(struct rw_semaphore *sem)
{
	rwsem_release(sem, _RET_IP_);
	__atomic_store_n(&sem->count, 0, __ATOMIC_RELEASE);
	rwsem_wake(sem);
}

/* Writer to reader without letting another writer in (mmap_write_downgrade); readers may join. */
void downgrade_write(struct rw_semaphore *sem)
{
	__atomic_store_n(&sem->count, 1, __ATOMIC_RELEASE);
	rwsem_wake(sem);
}
