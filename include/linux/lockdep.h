/*
 * The lock validator (Linux's include/linux/lockdep.h), kernel/locking/lockdep.c.
 * Built in when CONFIG_LOCKDEP (make LOCKDEP=1, the default of the builds
 * make test and make run use; make bench builds LOCKDEP=0).
 *
 * A lock class is every lock of one name (the name given to
 * spin_lock_init/SPINLOCK_INIT/init_rwsem/mutex_init; with a subclass for
 * spin_lock_nested).  Each task keeps the stack of locks it holds; taking B
 * while A is held records "A -> B"; a new dependency that closes a cycle,
 * a class taken both in a hardirq and with interrupts enabled, sleeping in
 * atomic context, and a lock held at the return to user mode or at exit are
 * reported.  A report panics ("lockdep: ..."): make test cannot miss one.
 * Code says which locks it expects held with lockdep_assert_held()
 * (linux/spinlock.h) and, for a rw_semaphore, its _write and _read forms
 * and rwsem_assert_held() (linux/rwsem.h); they WARN.
 */
#ifndef _LINUX_LOCKDEP_H
#define _LINUX_LOCKDEP_H

#include "linux/types.h"

#define MAX_LOCK_DEPTH          48
#define MAX_LOCKDEP_SUBCLASSES  8
#define SINGLE_DEPTH_NESTING    1

struct lock_class;

/* One lock a task holds (Linux's struct held_lock). */
struct held_lock {
	const void *instance;           /* the lock itself */
	struct lock_class *class;
	unsigned long acquire_ip;
	bool hardirq;                   /* taken in a hardirq (its own chain) */
	bool trylock;
};

/* The locks a task holds, innermost last (task_struct->lockdep). */
struct lockdep_held {
	int depth;
	struct held_lock locks[MAX_LOCK_DEPTH];
};

/*
 * Where a lock names its class; class_cache saves the lookup (subclass 0).
 * Packed so a spinlock_t stays 16 bytes, small enough for a page-table
 * lock inside struct page (Linux's ptdesc->ptl), lockdep or not.
 */
struct __attribute__((packed, aligned(4))) lockdep_map {
	const char *name;
	unsigned int class_cache;       /* class index + 1; 0: not looked up yet */
};

#define _THIS_IP_ ({ __label__ __here; __here: (unsigned long)&&__here; })
#define _RET_IP_  ((unsigned long)__builtin_return_address(0))

void lock_acquire(struct lockdep_map *map, const void *instance, unsigned int subclass,
		  bool trylock, unsigned long ip);
void lock_release(const void *instance, unsigned long ip);
bool lock_is_held(const void *instance);
void lock_contended_stat(struct lockdep_map *map, unsigned long long cycles);
void __might_sleep(const char *file, int line, bool irqs_off_ok);
void lockdep_sys_exit(void);
void debug_check_no_locks_held(void);

/* For ktest: count reports instead of printing them and panicking. */
void lockdep_expect_reports(bool on);
unsigned long lockdep_nr_reports(void);

/*
 * might_sleep(): a function that may sleep says so at its top, so a caller
 * in atomic context (a spinlock held, a hardirq, interrupts off) is caught
 * even when it does not sleep this time.
 */
#define might_sleep() do {                                                   \
	if (IS_ENABLED(CONFIG_LOCKDEP))                                      \
		__might_sleep(__FILE__, __LINE__, false);                    \
} while (0)

#endif
