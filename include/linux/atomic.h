/*
 * atomic_t with Linux's operations, on the compiler's __atomic builtins
 * (on x86-64 they become lock-prefixed instructions; the host tests get the
 * same semantics).  Relaxed ordering unless the name says otherwise, as in
 * Linux; value-returning read-modify-writes are fully ordered.
 */
#ifndef _LINUX_ATOMIC_H
#define _LINUX_ATOMIC_H

#include "linux/types.h"

typedef struct {
	int counter;
} atomic_t;

#define ATOMIC_INIT(v) { (v) }

static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_add(int i, atomic_t *v)
{
	__atomic_add_fetch(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_sub(int i, atomic_t *v)
{
	__atomic_sub_fetch(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_inc(atomic_t *v)
{
	atomic_add(1, v);
}

static inline void atomic_dec(atomic_t *v)
{
	atomic_sub(1, v);
}

static inline int atomic_add_return(int i, atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline int atomic_add_return_relaxed(int i, atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_RELAXED);
}

static inline int atomic_sub_return_relaxed(int i, atomic_t *v)
{
	return __atomic_sub_fetch(&v->counter, i, __ATOMIC_RELAXED);
}

/* Subtract; true if the result is zero (full ordering, as the last put needs). */
static inline bool atomic_sub_and_test(int i, atomic_t *v)
{
	return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST) == 0;
}

/* Increment; true if the result is zero (a -1-based count became "1"). */
static inline bool atomic_inc_and_test(atomic_t *v)
{
	return atomic_add_return(1, v) == 0;
}

static inline bool atomic_dec_and_test(atomic_t *v)
{
	return atomic_add_return(-1, v) == 0;
}

/* Add; true if the result is negative (a -1-based count dropped to "0"). */
static inline bool atomic_add_negative(int i, atomic_t *v)
{
	return atomic_add_return(i, v) < 0;
}

/* If *v is old, make it new; returns what *v was (fully ordered). */
static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	__atomic_compare_exchange_n(&v->counter, &old, new, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return old;
}

/* Add a unless *v is u; true if it added (Linux's atomic_add_unless). */
/* Store new, return what was there (Linux's atomic_xchg). */
static inline int atomic_xchg(atomic_t *v, int new)
{
	return __atomic_exchange_n(&v->counter, new, __ATOMIC_SEQ_CST);
}

static inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	do {
		if (c == u)
			return false;
	} while (!__atomic_compare_exchange_n(&v->counter, &c, c + a, false, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return true;
}

/* Increment unless *v is negative; true if it did (Linux's atomic_inc_unless_negative). */
static inline bool atomic_inc_unless_negative(atomic_t *v)
{
	int c = atomic_read(v);

	do {
		if (c < 0)
			return false;
	} while (!__atomic_compare_exchange_n(&v->counter, &c, c + 1, false, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return true;
}

/* Decrement unless *v is positive; true if it did (Linux's atomic_dec_unless_positive). */
static inline bool atomic_dec_unless_positive(atomic_t *v)
{
	int c = atomic_read(v);

	do {
		if (c > 0)
			return false;
	} while (!__atomic_compare_exchange_n(&v->counter, &c, c - 1, false, __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return true;
}

typedef struct {
	long counter;
} atomic_long_t;

static inline long atomic_long_read(const atomic_long_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_long_add(long i, atomic_long_t *v)
{
	__atomic_add_fetch(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_long_set(atomic_long_t *v, long i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

#endif
