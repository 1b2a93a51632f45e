/*
 * ktest suite "locks": the sleeping locks without a second task to sleep
 * (boot runs the suites before the first task): rw_semaphore readers and
 * writers and its writer fairness, mutex ownership, the folio lock's
 * PG_waiters hand-off, preempt_count under spinlocks and the bit lock.
 *
 * Lock order: each case's own locks only.
 */
#include "linux/ktest.h"
#include "linux/rwsem.h"
#include "linux/mutex.h"
#include "linux/spinlock.h"
#include "linux/bit_spinlock.h"
#include "linux/page-flags.h"

/* Many readers or one writer; a waiter (the flag, as one asleep in down_write) stops new ones. */
static void rwsem_readers_writers(struct ktest *t)
{
	struct rw_semaphore sem;

	init_rwsem(&sem, "ktest_rwsem");
	down_read(&sem);
	KTEST_EXPECT(t, down_read_trylock(&sem));
	KTEST_EXPECT(t, !down_write_trylock(&sem));
	sem.count |= RWSEM_FLAG_WAITERS;
	KTEST_EXPECT(t, !down_read_trylock(&sem));
	sem.count &= ~RWSEM_FLAG_WAITERS;
	up_read(&sem);
	up_read(&sem);
	KTEST_EXPECT(t, !rwsem_is_locked(&sem));
	down_write(&sem);
	KTEST_EXPECT(t, rwsem_is_write_locked(&sem));
	KTEST_EXPECT(t, !down_read_trylock(&sem));
	downgrade_write(&sem);
	KTEST_EXPECT(t, down_read_trylock(&sem));
	up_read(&sem);
	up_read(&sem);
	KTEST_EXPECT_EQ(t, sem.count, 0);
}

static void mutex_owner(struct ktest *t)
{
	struct mutex m;

	mutex_init(&m, "ktest_mutex");
	mutex_lock(&m);
	KTEST_EXPECT(t, mutex_is_locked(&m));
	KTEST_EXPECT(t, !mutex_trylock(&m));
	mutex_unlock(&m);
	KTEST_EXPECT(t, mutex_trylock(&m));
	mutex_unlock(&m);
	KTEST_EXPECT(t, !mutex_is_locked(&m));
}

/* folio_unlock wakes only when PG_waiters says someone sleeps, and clears it. */
static void folio_lock_waiters(struct ktest *t)
{
	struct folio *folio = folio_alloc(0, 0);

	KTEST_ASSERT(t, folio);
	folio_lock(folio);
	KTEST_EXPECT(t, !folio_trylock(folio));
	set_bit(PG_waiters, &folio->flags);     /* as __folio_lock before its sleep */
	folio_unlock(folio);
	KTEST_EXPECT(t, !folio_test_locked(folio));
	KTEST_EXPECT(t, !test_bit(PG_waiters, &folio->flags));
	folio_wait_locked(folio);               /* unlocked: returns at once */
	folio_put(folio);
}

/* Spinlocks and the bit lock count in preempt_count; the bit lock in lock_stat. */
static void preempt_count_nesting(struct ktest *t)
{
	static spinlock_t l = SPINLOCK_INIT("ktest_preempt");
	struct bit_spin_lock_stats stats[NR_CPUS] = { 0 };
	unsigned long word = 0, flags;
	int pc = preempt_count();

	spin_lock(&l);
	KTEST_EXPECT_EQ(t, preempt_count(), pc + 1);
	bit_spin_lock_stat(3, &word, stats);
	KTEST_EXPECT_EQ(t, preempt_count(), pc + 2);
	KTEST_EXPECT(t, in_atomic() && !in_interrupt());
	__bit_spin_unlock(3, &word);
	spin_unlock(&l);
	spin_lock_irqsave(&l, flags);
	KTEST_EXPECT(t, irqs_disabled());
	spin_unlock_irqrestore(&l, flags);
	KTEST_EXPECT(t, !irqs_disabled());
	KTEST_EXPECT_EQ(t, preempt_count(), pc);
	KTEST_EXPECT_EQ(t, stats[smp_processor_id()].acquisitions, 1);
	KTEST_EXPECT_EQ(t, stats[smp_processor_id()].contentions, 0);
	KTEST_EXPECT_EQ(t, word, 0);
}

static const struct ktest_case locks_cases[] = {
	KTEST_CASE(rwsem_readers_writers),
	KTEST_CASE(mutex_owner),
	KTEST_CASE(folio_lock_waiters),
	KTEST_CASE(preempt_count_nesting),
};
KTEST_SUITE(locks, locks_cases);
