/*
 * Spinlocks (Linux's include/linux/spinlock.h).  Holding one disables
 * preemption (preempt_count, include/linux/preempt.h), so the holder is in
 * atomic context and must not sleep.  spin_lock() leaves the interrupt flag
 * alone: only for a lock no interrupt handler takes.  spin_lock_irq() and
 * spin_lock_irqsave(l, flags) also disable interrupts on this CPU: for a
 * lock an interrupt handler takes too (lockdep checks which is which).
 *
 * With CONFIG_LOCKDEP every acquisition goes through the validator
 * (include/linux/lockdep.h) and counts in /proc/lock_stat.  The lock word
 * uses the compiler's atomics, which the host build shares.
 */
#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H

#include "linux/types.h"
#include "linux/lockdep.h"
#include "linux/printk.h"
#include "linux/preempt.h"
#include <asm/irqflags.h>
#include <asm/processor.h>

typedef struct spinlock {
	struct lockdep_map dep_map;     /* its class: one per name */
	volatile int locked;
} spinlock_t;

_Static_assert(sizeof(spinlock_t) == 16, "spinlock_t: 16 bytes (struct page's ptl)");

#define SPINLOCK_INIT(n) { .dep_map = { .name = n } }

static inline void spin_lock_init(spinlock_t *l, const char *name)
{
	l->locked = 0;
	l->dep_map.name = name;
	l->dep_map.class_cache = 0;
}

static inline bool do_raw_spin_trylock(spinlock_t *l)
{
	return !__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE);
}

/* kernel/locking/spinlock.c: spin, counting cycles for /proc/lock_stat. */
void do_raw_spin_lock_contended(spinlock_t *l);

static inline void do_raw_spin_lock(spinlock_t *l)
{
	if (likely(do_raw_spin_trylock(l)))
		return;
	if (IS_ENABLED(CONFIG_LOCKDEP)) {
		do_raw_spin_lock_contended(l);
		return;
	}
	do {
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			cpu_relax();
	} while (!do_raw_spin_trylock(l));
}

static inline void do_raw_spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

/* The validator's hooks; nothing without CONFIG_LOCKDEP. */
#define spin_acquire(l, subclass, trylock, ip) do {                           \
	if (IS_ENABLED(CONFIG_LOCKDEP))                                      \
		lock_acquire(&(l)->dep_map, (l), subclass, trylock, ip);     \
} while (0)
#define spin_release(l, ip) do {                                             \
	if (IS_ENABLED(CONFIG_LOCKDEP))                                      \
		lock_release((l), ip);                                       \
} while (0)

static inline void __spin_lock(spinlock_t *l, unsigned int subclass, unsigned long ip)
{
	preempt_disable();
	spin_acquire(l, subclass, false, ip);
	do_raw_spin_lock(l);
}

static inline void __spin_unlock(spinlock_t *l, unsigned long ip)
{
	spin_release(l, ip);
	do_raw_spin_unlock(l);
}

#define spin_lock(l)                   __spin_lock(l, 0, _THIS_IP_)
/* The second lock of one class held at once (fork's two page-table locks). */
#define spin_lock_nested(l, subclass)  __spin_lock(l, subclass, _THIS_IP_)

#define spin_unlock(l) do {                                                  \
	__spin_unlock(l, _THIS_IP_);                                         \
	preempt_enable();                                                    \
} while (0)

#define spin_lock_irq(l) do {                                                \
	local_irq_disable();                                                 \
	__spin_lock(l, 0, _THIS_IP_);                                        \
} while (0)

#define spin_unlock_irq(l) do {                                              \
	__spin_unlock(l, _THIS_IP_);                                         \
	local_irq_enable();                                                  \
	preempt_enable();                                                    \
} while (0)

/* flags (an unsigned long lvalue) keeps the interrupt state for the unlock. */
#define spin_lock_irqsave(l, flags) do {                                     \
	(flags) = arch_local_irq_save();                                     \
	__spin_lock(l, 0, _THIS_IP_);                                        \
} while (0)

#define spin_unlock_irqrestore(l, flags) do {                                \
	__spin_unlock(l, _THIS_IP_);                                         \
	arch_local_irq_restore(flags);                                       \
	preempt_enable();                                                    \
} while (0)

/* Take the lock if it is free; true if taken.  Never spins. */
#define spin_trylock(l) ({                                                   \
	spinlock_t *__l = (l);                                               \
	bool __taken;                                                        \
	preempt_disable();                                                   \
	__taken = do_raw_spin_trylock(__l);                                  \
	if (__taken)                                                         \
		spin_acquire(__l, 0, true, _THIS_IP_);                       \
	else                                                                 \
		preempt_enable();                                            \
	__taken;                                                             \
})

static inline bool spin_is_locked(spinlock_t *l)
{
	return READ_ONCE(l->locked);
}

/* The lock is held (by someone: the cheap check, always on). */
#define assert_spin_locked(l) BUG_ON(!spin_is_locked(l), "assert_spin_locked: " #l " not locked")

/*
 * lockdep_assert_held(l): this task holds l, any lock with a lockdep_map
 * (a spinlock_t, rw_semaphore or mutex), else a WARN (Linux's).  Only the
 * validator knows who holds what.  Without CONFIG_LOCKDEP a spinlock's
 * word still shows that somebody holds it, one load, and is checked (the
 * host tests' build, make bench's); other locks are not, as in Linux:
 * rwsem_assert_held() (linux/rwsem.h) checks an rwsem's word.
 */
#define lockdep_assert_held(l) do {                                          \
	if (IS_ENABLED(CONFIG_LOCKDEP))                                      \
		WARN_ON_ONCE(!lock_is_held(l), "lockdep_assert_held: " #l " not held"); \
	else                                                                 \
		WARN_ON_ONCE(!__spin_word_held(l), "lockdep_assert_held: " #l " not locked"); \
} while (0)
#define __spin_word_held(l) _Generic((l), spinlock_t *: spin_is_locked((spinlock_t *)(l)), \
				     default: true)

#endif
