/*
 * Spinlocks.  Taking one disables interrupts on this CPU (the irqsave form is
 * the only form), so a lock is never re-entered from an interrupt handler.
 * The lock word uses the compiler's atomics, which the host build shares.
 */
#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H

#include "linux/types.h"
#include <asm/irqflags.h>
#include <asm/processor.h>

typedef struct {
	volatile int locked;
	const char *name;
} spinlock_t;

#define SPINLOCK_INIT(n) { 0, n }

static inline void spin_lock_init(spinlock_t *l, const char *name)
{
	l->locked = 0;
	l->name = name;
}

/* Take the lock without touching the interrupt flag (never from a handler). */
static inline void spin_lock(spinlock_t *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (READ_ONCE(l->locked))
			cpu_relax();
}

static inline unsigned long spin_lock_irqsave(spinlock_t *l)
{
	unsigned long flags = arch_local_irq_save();

	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (READ_ONCE(l->locked))
			cpu_relax();
	return flags;
}

static inline void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	arch_local_irq_restore(flags);
}

/* Release without touching the interrupt flag (spin_lock; a new task's first run). */
static inline void spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(spinlock_t *l)
{
	return READ_ONCE(l->locked);
}

#endif
