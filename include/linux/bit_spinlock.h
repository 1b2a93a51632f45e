/*
 * Bit spinlocks: one bit of a word is the lock (Linux's bit_spin_lock).
 * Used where a lock must fit into a word that holds other data, such as the
 * mapcount lock bit in folio->_mm_ids.  As Linux's: holding one disables
 * preemption (the holder must not sleep), interrupts stay as they are, so
 * no interrupt handler may take one; lockdep does not see them.
 *
 * bit_spin_lock_stat() also counts, in the calling CPU's
 * struct bit_spin_lock_stats, the acquisitions, those that found the bit
 * taken, the spin loops and the cycles spun (/proc/lock_stat).
 */
#ifndef _LINUX_BIT_SPINLOCK_H
#define _LINUX_BIT_SPINLOCK_H

#include "linux/preempt.h"
#include "linux/smp.h"
#include <asm/bitops.h>
#include <asm/processor.h>
#include <asm/timex.h>

struct bit_spin_lock_stats {
	unsigned long acquisitions;
	unsigned long contentions;      /* found taken */
	unsigned long spins;            /* cpu_relax() loops while it was */
	unsigned long long cycles;      /* spent waiting (get_cycles) */
};

static inline void bit_spin_lock(unsigned int bitnum, unsigned long *addr)
{
	preempt_disable();
	while (unlikely(test_and_set_bit_lock(bitnum, addr))) {
		preempt_enable();
		do {
			cpu_relax();
		} while (test_bit(bitnum, addr));
		preempt_disable();
	}
}

/* The wait of bit_spin_lock_stat(), out of its fast path. */
static __attribute__((noinline, unused, cold)) void
bit_spin_lock_contended(unsigned int bitnum, unsigned long *addr, struct bit_spin_lock_stats *stats)
{
	unsigned long long start = get_cycles();
	unsigned long spins = 0;

	do {
		preempt_enable();
		do {
			cpu_relax();
			spins++;
		} while (test_bit(bitnum, addr));
		preempt_disable();
	} while (test_and_set_bit_lock(bitnum, addr));
	stats = &stats[smp_processor_id()];     /* the CPU may have changed */
	stats->contentions++;
	stats->spins += spins;
	stats->cycles += get_cycles() - start;
}

/* bit_spin_lock, counted in stats[this CPU] (an array of NR_CPUS). */
static inline void bit_spin_lock_stat(unsigned int bitnum, unsigned long *addr,
				      struct bit_spin_lock_stats *stats)
{
	preempt_disable();
	stats[smp_processor_id()].acquisitions++;
	if (unlikely(test_and_set_bit_lock(bitnum, addr)))
		bit_spin_lock_contended(bitnum, addr, stats);
}

/* Non-atomic unlock: the other bits of *addr only change under this lock. */
static inline void __bit_spin_unlock(unsigned int bitnum, unsigned long *addr)
{
	__clear_bit_unlock(bitnum, addr);
	preempt_enable();
}

static inline bool bit_spin_is_locked(unsigned int bitnum, unsigned long *addr)
{
	return test_bit(bitnum, addr);
}

#endif
