/*
 * ktest suite "lockdep": each case makes the validator see one kind of bug
 * on locks of its own (classes named "ktest_*", used nowhere else) and
 * checks that it was reported; lockdep_expect_reports() keeps the report
 * from printing and panicking.  Nothing here deadlocks for real: the
 * test's one task takes the locks in both orders one after the other.  Needs CONFIG_LOCKDEP
 * (each case passes trivially without it).
 *
 * Lock order: the ktest_* locks only, never with another lock held.
 */
#include "linux/ktest.h"
#include "linux/sched.h"
#include "linux/spinlock.h"
#include "linux/uaccess.h"
#include <asm/page.h>

static spinlock_t lock_a = SPINLOCK_INIT("ktest_A");
static spinlock_t lock_b = SPINLOCK_INIT("ktest_B");

/* Run fn with reports counted, not printed; how many it made. */
static unsigned long reports_of(void (*fn)(void))
{
	unsigned long before = lockdep_nr_reports();

	lockdep_expect_reports(true);
	fn();
	lockdep_expect_reports(false);
	return lockdep_nr_reports() - before;
}

static void ab_then_ba(void)
{
	spin_lock(&lock_a);
	spin_lock(&lock_b);
	spin_unlock(&lock_b);
	spin_unlock(&lock_a);
	spin_lock(&lock_b);
	spin_lock(&lock_a);             /* B -> A closes the cycle A -> B -> A */
	spin_unlock(&lock_a);
	spin_unlock(&lock_b);
}

/* Taking B under A, then A under B: "possible circular locking dependency". */
static void lockdep_ab_ba(struct ktest *t)
{
	if (!IS_ENABLED(CONFIG_LOCKDEP))
		return;
	KTEST_EXPECT_EQ(t, reports_of(ab_then_ba), 1);
	KTEST_EXPECT(t, !lock_is_held(&lock_a) && !lock_is_held(&lock_b));
	KTEST_EXPECT_EQ(t, reports_of(ab_then_ba), 1);  /* the edge was not recorded */
}

static spinlock_t irq_lock = SPINLOCK_INIT("ktest_irq_safe");
static spinlock_t unsafe_lock = SPINLOCK_INIT("ktest_irq_unsafe");

static void hardirq_then_irqs_on(void)
{
	unsigned long flags;

	irq_enter();                    /* as the interrupt entry does */
	spin_lock_irqsave(&irq_lock, flags);
	spin_unlock_irqrestore(&irq_lock, flags);
	irq_exit();
	local_irq_enable();
	spin_lock(&irq_lock);           /* the handler could now interrupt us */
	spin_unlock(&irq_lock);
}

static void irqs_on_then_hardirq(void)
{
	unsigned long flags;

	local_irq_enable();
	spin_lock(&unsafe_lock);
	spin_unlock(&unsafe_lock);
	irq_enter();
	spin_lock_irqsave(&unsafe_lock, flags);
	spin_unlock_irqrestore(&unsafe_lock, flags);
	irq_exit();
}

/* A lock a hardirq takes, taken with interrupts on (and the inverse). */
static void lockdep_irq_unsafe(struct ktest *t)
{
	if (!IS_ENABLED(CONFIG_LOCKDEP))
		return;
	KTEST_EXPECT_EQ(t, reports_of(hardirq_then_irqs_on), 1);
	KTEST_EXPECT_EQ(t, reports_of(irqs_on_then_hardirq), 1);
	KTEST_EXPECT(t, !in_interrupt());
}

static spinlock_t atomic_lock = SPINLOCK_INIT("ktest_atomic");

static void sleep_under_spinlock(void)
{
	spin_lock(&atomic_lock);
	might_sleep();
	spin_unlock(&atomic_lock);
	might_sleep();                  /* fine again */
}

/* might_sleep() with a spinlock held: "sleeping function called from invalid context". */
static void lockdep_might_sleep(struct ktest *t)
{
	if (!IS_ENABLED(CONFIG_LOCKDEP))
		return;
	KTEST_EXPECT_EQ(t, reports_of(sleep_under_spinlock), 1);
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
}

static u32 fault_word;
static unsigned long fault_copy_left;

/* A copy from an unmapped user address (the boot task has no mm: it faults). */
static void user_copy_under_spinlock(void)
{
	spin_lock(&atomic_lock);
	fault_copy_left = copy_from_user(&fault_word, (const void *)PAGE_SIZE, sizeof(fault_word));
	spin_unlock(&atomic_lock);
}

static void user_copy_faults_disabled(void)
{
	pagefault_disable();
	spin_lock(&atomic_lock);
	fault_copy_left = copy_from_user(&fault_word, (const void *)PAGE_SIZE, sizeof(fault_word));
	spin_unlock(&atomic_lock);
	pagefault_enable();
}

/*
 * A user copy under a spinlock: might_fault() reports it, and so does the
 * fault handler, which does not call the mm there (the copy fails).  With
 * page faults disabled, neither: the copy just fails.
 */
static void lockdep_might_fault(struct ktest *t)
{
	static struct task_struct lent;         /* ktest runs on the boot CPU with no task */

	if (!IS_ENABLED(CONFIG_LOCKDEP))
		return;
	arch_set_current(&lent);                /* pagefault_disabled() is a task's count */
	KTEST_EXPECT_EQ(t, reports_of(user_copy_under_spinlock), 2);
	KTEST_EXPECT_EQ(t, fault_copy_left, sizeof(fault_word));
	KTEST_EXPECT_EQ(t, reports_of(user_copy_faults_disabled), 0);
	KTEST_EXPECT_EQ(t, fault_copy_left, sizeof(fault_word));
	KTEST_EXPECT(t, !pagefault_disabled());
	arch_set_current(NULL);
}

static spinlock_t same_1 = SPINLOCK_INIT("ktest_same_class");
static spinlock_t same_2 = SPINLOCK_INIT("ktest_same_class");

static void same_class_nested(void)
{
	spin_lock(&same_1);
	spin_lock_nested(&same_2, SINGLE_DEPTH_NESTING);
	spin_unlock(&same_2);
	spin_unlock(&same_1);
}

static void same_class_twice(void)
{
	spin_lock(&same_1);
	spin_lock(&same_2);
	spin_unlock(&same_2);
	spin_unlock(&same_1);
}

static void held_at_exit(void)
{
	spin_lock(&same_1);
	debug_check_no_locks_held();
	spin_unlock(&same_1);
}

/* Two locks of one class: fine as a named subclass, a report without; held at exit. */
static void lockdep_nesting(struct ktest *t)
{
	if (!IS_ENABLED(CONFIG_LOCKDEP))
		return;
	KTEST_EXPECT_EQ(t, reports_of(same_class_nested), 0);
	KTEST_EXPECT_EQ(t, reports_of(same_class_twice), 1);
	KTEST_EXPECT_EQ(t, reports_of(held_at_exit), 1);
	KTEST_EXPECT(t, spin_trylock(&same_1));
	KTEST_EXPECT(t, !spin_trylock(&same_1));
	lockdep_assert_held(&same_1);
	spin_unlock(&same_1);
}

static const struct ktest_case lockdep_cases[] = {
	KTEST_CASE(lockdep_ab_ba),
	KTEST_CASE(lockdep_irq_unsafe),
	KTEST_CASE(lockdep_might_sleep),
	KTEST_CASE(lockdep_might_fault),
	KTEST_CASE(lockdep_nesting),
};
KTEST_SUITE(lockdep, lockdep_cases);
