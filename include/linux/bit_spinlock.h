/*
 * Bit spinlocks: one bit of a word is the lock (Linux's bit_spin_lock).
 * Used where a lock must fit into a word that holds other data, such as the
 * mapcount lock bit in folio->_mm_ids.  Spins without disabling interrupts:
 * never take one in an interrupt handler.
 */
#ifndef _LINUX_BIT_SPINLOCK_H
#define _LINUX_BIT_SPINLOCK_H

#include <asm/bitops.h>
#include <asm/processor.h>

static inline void bit_spin_lock(unsigned int bitnum, unsigned long *addr)
{
	while (unlikely(test_and_set_bit_lock(bitnum, addr)))
		while (test_bit(bitnum, addr))
			cpu_relax();
}

/* Non-atomic unlock: the other bits of *addr only change under this lock. */
static inline void __bit_spin_unlock(unsigned int bitnum, unsigned long *addr)
{
	__clear_bit_unlock(bitnum, addr);
}

static inline bool bit_spin_is_locked(unsigned int bitnum, unsigned long *addr)
{
	return test_bit(bitnum, addr);
}

#endif
