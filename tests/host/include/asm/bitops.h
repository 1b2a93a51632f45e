/* Host stand-in for asm/bitops.h, on the compiler's atomics.  Locks: none. */
#ifndef ASM_BITOPS_H
#define ASM_BITOPS_H

#include "linux/types.h"

/* A racy read by design (the bit may change under it): a relaxed atomic load. */
static inline bool test_bit(unsigned int nr, const volatile unsigned long *addr)
{
	return (__atomic_load_n(addr, __ATOMIC_RELAXED) >> nr) & 1;
}

static inline void set_bit(unsigned int nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_RELAXED);
}

static inline void clear_bit(unsigned int nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_RELAXED);
}

static inline bool test_and_clear_bit(unsigned int nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_SEQ_CST) >> nr) & 1;
}

static inline bool test_and_set_bit(unsigned int nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_SEQ_CST) >> nr) & 1;
}

static inline void __set_bit(unsigned int nr, volatile unsigned long *addr)
{
	*addr |= 1UL << nr;
}

static inline bool test_and_set_bit_lock(unsigned int nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_ACQUIRE) >> nr) & 1;
}

static inline void __clear_bit_unlock(unsigned int nr, volatile unsigned long *addr)
{
	__atomic_store_n(addr, __atomic_load_n(addr, __ATOMIC_RELAXED) & ~(1UL << nr), __ATOMIC_RELEASE);
}

static inline void clear_bit_unlock(unsigned int nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_RELEASE);
}

#endif
