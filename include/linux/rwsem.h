/*
 * Reader/writer semaphores (Linux's include/linux/rwsem.h): many readers
 * or one writer; a task that cannot have it sleeps (kernel/locking/rwsem.c).
 * count, as Linux's: bit 0 a writer holds it, bit 1 tasks wait in
 * wait_list, bit 2 the first of them is to have it next (hand-off), bits
 * 8 and up the readers holding it.  A new reader or writer takes the fast
 * path only while nobody waits; the sleepers are served in arrival order,
 * the readers at the front of the queue together.  Never taken in an
 * interrupt handler; the holder may sleep.  Lockdep sees a reader as a
 * holder like any other (down_read twice can deadlock behind a waiting
 * writer).
 *
 * Locks: wait_lock (a spinlock) guards wait_list and the waiters' state;
 * count changes by atomic operations, its flag bits under wait_lock.  Lock
 * order (the kernel's tree: mm/rmap.c): under wait_lock only the wake-up's
 * wq_head->lock (include/linux/sched.h).
 */
#ifndef _LINUX_RWSEM_H
#define _LINUX_RWSEM_H

#include "linux/types.h"
#include "linux/lockdep.h"
#include "linux/list.h"
#include "linux/spinlock.h"

#define RWSEM_WRITER_LOCKED     (1UL << 0)
#define RWSEM_FLAG_WAITERS      (1UL << 1)
#define RWSEM_FLAG_HANDOFF      (1UL << 2)
#define RWSEM_READER_BIAS       (1UL << 8)
#define RWSEM_READER_MASK       (~(RWSEM_READER_BIAS - 1))
#define RWSEM_LOCK_MASK         (RWSEM_WRITER_LOCKED | RWSEM_READER_MASK)
#define RWSEM_READ_FAILED_MASK  (RWSEM_WRITER_LOCKED | RWSEM_FLAG_WAITERS | RWSEM_FLAG_HANDOFF)

struct rw_semaphore {
	unsigned long count;
	spinlock_t wait_lock;
	struct list_head wait_list;     /* struct rwsem_waiter, in arrival order */
	struct lockdep_map dep_map;
};

/* A statically defined rw_semaphore, unlocked (Linux's DECLARE_RWSEM). */
#define DECLARE_RWSEM(var, n)                                                \
	struct rw_semaphore var = {                                          \
		.wait_lock = SPINLOCK_INIT("rwsem->wait_lock"),              \
		.wait_list = LIST_HEAD_INIT((var).wait_list),                \
		.dep_map = { .name = n },                                    \
	}

static inline void init_rwsem(struct rw_semaphore *sem, const char *name)
{
	sem->count = 0;
	spin_lock_init(&sem->wait_lock, "rwsem->wait_lock");
	INIT_LIST_HEAD(&sem->wait_list);
	sem->dep_map = (struct lockdep_map){ .name = name };
}

/* A reader gets in at once while no writer holds sem and nobody waits (Linux's rwsem_read_trylock). */
static inline bool __down_read_trylock(struct rw_semaphore *sem)
{
	unsigned long c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	do {
		if (c & RWSEM_READ_FAILED_MASK)
			return false;
	} while (!__atomic_compare_exchange_n(&sem->count, &c, c + RWSEM_READER_BIAS, false,
					      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
	return true;
}

/* A writer, only while nobody holds sem or waits for it. */
static inline bool __down_write_trylock(struct rw_semaphore *sem)
{
	unsigned long c = 0;

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

/* The last reader out wakes the first sleeper(s), if any. */
static inline void up_read(struct rw_semaphore *sem)
{
	unsigned long c;

	rwsem_release(sem, _THIS_IP_);
	c = __atomic_sub_fetch(&sem->count, RWSEM_READER_BIAS, __ATOMIC_RELEASE);
	if (unlikely((c & (RWSEM_LOCK_MASK | RWSEM_FLAG_WAITERS)) == RWSEM_FLAG_WAITERS))
		rwsem_wake(sem);
}

/* Take sem for writing, alone; may sleep. */
static inline void down_write(struct rw_semaphore *sem)
{
	down_write_nested(sem, 0);
}

static inline bool rwsem_is_locked(struct rw_semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED) & RWSEM_LOCK_MASK;
}

static inline bool rwsem_is_write_locked(struct rw_semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED) & RWSEM_WRITER_LOCKED;
}

/*
 * Assertions (Linux's): lockdep_assert_held(sem) (linux/spinlock.h) for
 * held either way.  foliOS's validator keeps no read or write mark per
 * held lock, so the _write and _read forms ask it whether this task holds
 * sem and the count how: a task that holds sem while the writer bit is
 * set is its writer, as a writer excludes every other holder.  Like
 * Linux's, they check nothing without CONFIG_LOCKDEP.
 */
#define lockdep_assert_held_write(sem) do {                                  \
	if (IS_ENABLED(CONFIG_LOCKDEP))                                      \
		WARN_ON_ONCE(!lock_is_held(sem) || !rwsem_is_write_locked(sem), \
			     "lockdep_assert_held_write: " #sem " not held for write"); \
} while (0)
#define lockdep_assert_held_read(sem) do {                                   \
	if (IS_ENABLED(CONFIG_LOCKDEP))                                      \
		WARN_ON_ONCE(!lock_is_held(sem) || rwsem_is_write_locked(sem), \
			     "lockdep_assert_held_read: " #sem " not held for read"); \
} while (0)

/*
 * Linux's rwsem_assert_held(_write): the validator's answer where there
 * is one, else the count's, which says somebody holds sem (for write) —
 * one load, for the checks every build keeps (mmap_assert_locked()).
 * Macros, so that a WARN names its caller's line.
 */
#define rwsem_assert_held(sem) do {                                          \
	if (IS_ENABLED(CONFIG_LOCKDEP))                                      \
		lockdep_assert_held(sem);                                    \
	else                                                                 \
		WARN_ON_ONCE(!rwsem_is_locked(sem), "rwsem_assert_held: " #sem " not held"); \
} while (0)
#define rwsem_assert_held_write(sem) do {                                    \
	if (IS_ENABLED(CONFIG_LOCKDEP))                                      \
		lockdep_assert_held_write(sem);                              \
	else                                                                 \
		WARN_ON_ONCE(!rwsem_is_write_locked(sem),                    \
			     "rwsem_assert_held_write: " #sem " not held for write"); \
} while (0)

#endif
