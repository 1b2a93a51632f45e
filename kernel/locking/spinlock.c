/*
 * The slow path of spin_lock() with CONFIG_LOCKDEP (Linux's
 * LOCK_CONTENDED/lock_contended): the lock was taken; spin until it is
 * free, and count the wait in the class's /proc/lock_stat row.
 */
#include "linux/spinlock.h"
#include <asm/timex.h>

void do_raw_spin_lock_contended(spinlock_t *l)
{
	unsigned long long start = get_cycles();

	do {
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			cpu_relax();
	} while (!do_raw_spin_trylock(l));
	lock_contended_stat(&l->dep_map, get_cycles() - start);
}
