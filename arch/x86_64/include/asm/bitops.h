/*
 * Bit operations on an unsigned long.  The lock-flavoured pair is what
 * bit spinlocks are built from: "lock bts" takes the bit atomically with
 * acquire semantics; the unlock is a plain store of the word with the bit
 * cleared (release: x86 stores are not reordered with earlier accesses),
 * which is only correct because every other bit of the word is changed
 * only under the lock (Linux's __clear_bit_unlock).
 *
 * Locks: none; the locked instructions are safe against every CPU (and
 * the MMU's A/D updates, for page-table entries).
 */
#ifndef ASM_BITOPS_H
#define ASM_BITOPS_H

#include "linux/types.h"

static inline bool test_bit(unsigned int nr, const volatile unsigned long *addr)
{
	return (*addr >> nr) & 1;
}

/* Atomically set / clear bit nr, for words others may change at the same time. */
static inline void set_bit(unsigned int nr, volatile unsigned long *addr)
{
	__asm__ __volatile__("lock btsq %1, %0" : "+m"(*addr) : "Ir"((unsigned long)nr) : "memory");
}

static inline void clear_bit(unsigned int nr, volatile unsigned long *addr)
{
	__asm__ __volatile__("lock btrq %1, %0" : "+m"(*addr) : "Ir"((unsigned long)nr) : "memory");
}

/* Atomically clear bit nr; return its old value (Linux's test_and_clear_bit). */
static inline bool test_and_clear_bit(unsigned int nr, volatile unsigned long *addr)
{
	bool old;

	__asm__ __volatile__("lock btrq %2, %0" : "+m"(*addr), "=@ccc"(old)
			     : "Ir"((unsigned long)nr) : "memory");
	return old;
}

/* Atomically set bit nr; return its old value (Linux's test_and_set_bit). */
static inline bool test_and_set_bit(unsigned int nr, volatile unsigned long *addr)
{
	bool old;

	__asm__ __volatile__("lock btsq %2, %0" : "+m"(*addr), "=@ccc"(old)
			     : "Ir"((unsigned long)nr) : "memory");
	return old;
}

/* Non-atomic variants: only for a word nobody else can see yet (a new folio). */
static inline void __set_bit(unsigned int nr, volatile unsigned long *addr)
{
	*addr |= 1UL << nr;
}

/* Atomically set bit nr; return its old value.  Acquire ordering. */
static inline bool test_and_set_bit_lock(unsigned int nr, volatile unsigned long *addr)
{
	bool old;

	__asm__ __volatile__("lock btsq %2, %0" : "+m"(*addr), "=@ccc"(old)
			     : "Ir"((unsigned long)nr) : "memory");
	return old;
}

/* Clear bit nr with release ordering; the word must not change meanwhile. */
static inline void __clear_bit_unlock(unsigned int nr, volatile unsigned long *addr)
{
	__asm__ __volatile__("" ::: "memory");
	*addr &= ~(1UL << nr);
}

/* Atomic clear with release ordering, for words others may change. */
static inline void clear_bit_unlock(unsigned int nr, volatile unsigned long *addr)
{
	__asm__ __volatile__("lock btrq %1, %0" : "+m"(*addr) : "Ir"((unsigned long)nr) : "memory");
}

#endif
