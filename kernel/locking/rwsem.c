/*
 * Sleeping reader/writer semaphores (Linux's kernel/locking/rwsem.c, the
 * queue and the hand-off without the optimistic spinning): the fast paths
 * (include/linux/rwsem.h) are one compare-and-swap while nobody waits; a
 * task that cannot have the semaphore queues in wait_list, in arrival
 * order, and sleeps.  Who releases it wakes the first waiter: a writer,
 * which then takes the semaphore itself, or the readers at the front of
 * the queue, which are given it together (their counts added for them,
 * as Linux's rwsem_mark_wake).
 *
 * Between the release and the woken waiter's turn, a reader that finds the
 * semaphore free, or a writer already queued, may take it first (Linux's
 * lock stealing).  So that no waiter loses that way for ever, the first
 * waiter whose wake-up found the semaphore taken sets RWSEM_FLAG_HANDOFF
 * (Linux sets it after RWSEM_WAIT_TIMEOUT; here after the first failed
 * wake-up, as Linux does for a real-time task): from then on nobody else
 * takes it, and the next release hands it to that waiter.  A steady stream
 * of readers cannot starve a writer (a reader queues behind any waiter
 * unless the semaphore is free), and writers cannot starve readers (the
 * readers at the front are served in their turn).
 *
 * Locks: sem->wait_lock, a spinlock, guards wait_list, every waiter's
 * state and the changes of the flag bits; the sleep is wait_var_unlock()
 * (kernel/sched/wait_bit.c), which queues before it drops wait_lock, so no
 * wake-up is lost on any CPU; the wake-up (wq_head->lock, then pi_lock and
 * rq->lock) happens under wait_lock, so a woken waiter's frame, on its
 * stack, outlives it.  Order: linux/rwsem.h.  Also built into the host tests
 * (tests/host/hostenv.c: the wait yields).
 */
#include "linux/rwsem.h"
#include "linux/wait.h"

struct rwsem_waiter {
	struct list_head list;          /* in sem->wait_list */
	bool writer;
	bool woken;                     /* the waker's mark: look again (writer), or holding it (reader) */
};

static bool rwsem_waiter_woken(void *waiter)
{
	return READ_ONCE(((struct rwsem_waiter *)waiter)->woken);
}

static struct rwsem_waiter *rwsem_first_waiter(struct rw_semaphore *sem)
{
	return list_first_entry(&sem->wait_list, struct rwsem_waiter, list);
}

/* Set flag bits in count (wait_lock held: nobody else changes them). */
static void rwsem_set_flags(struct rw_semaphore *sem, unsigned long flags)
{
	__atomic_fetch_or(&sem->count, flags, __ATOMIC_RELAXED);
}

/*
 * Queue waiter at the back and sleep until woken; wait_lock held, and
 * held again on return.
 */
static void rwsem_wait(struct rw_semaphore *sem, struct rwsem_waiter *waiter)
{
	while (!waiter->woken) {
		wait_var_unlock(waiter, rwsem_waiter_woken, &sem->wait_lock);
		spin_lock(&sem->wait_lock);
	}
}

/*
 * Give sem to the readers at the front of the queue (Linux's rwsem_mark_wake
 * for readers), unless a writer took it meanwhile: then their wake-up
 * failed and the first of them gets the hand-off.  wait_lock held.
 */
static void rwsem_wake_readers(struct rw_semaphore *sem)
{
	struct rwsem_waiter *w, *next;
	unsigned long c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED), new, nr = 0;

	list_for_each_entry(w, &sem->wait_list, list) {
		if (w->writer)
			break;
		nr++;
	}
	do {
		if (c & RWSEM_WRITER_LOCKED) {
			rwsem_set_flags(sem, RWSEM_FLAG_HANDOFF);
			return;
		}
		new = (c + nr * RWSEM_READER_BIAS) & ~RWSEM_FLAG_HANDOFF;
		if (&w->list == &sem->wait_list)        /* every waiter is one of them */
			new &= ~RWSEM_FLAG_WAITERS;
	} while (!__atomic_compare_exchange_n(&sem->count, &c, new, false, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	list_for_each_entry_safe(w, next, &sem->wait_list, list) {
		if (w->writer)
			break;
		list_del(&w->list);
		WRITE_ONCE(w->woken, true);
		wake_up_var(w);
	}
}

/*
 * Wake the first waiter(s), if sem can be theirs: readers at the front
 * are given it; a writer is woken to take it when nobody holds it (Linux's
 * rwsem_mark_wake).  wait_lock held.
 */
static void rwsem_mark_wake(struct rw_semaphore *sem)
{
	struct rwsem_waiter *first;

	if (list_empty(&sem->wait_list))
		return;
	first = rwsem_first_waiter(sem);
	if (!first->writer) {
		rwsem_wake_readers(sem);
	} else if (!(__atomic_load_n(&sem->count, __ATOMIC_RELAXED) & RWSEM_LOCK_MASK)) {
		WRITE_ONCE(first->woken, true);
		wake_up_var(first);
	}
}

/* The release found waiters: wake whom it may (Linux's rwsem_wake). */
void rwsem_wake(struct rw_semaphore *sem)
{
	spin_lock(&sem->wait_lock);
	rwsem_mark_wake(sem);
	spin_unlock(&sem->wait_lock);
}

/*
 * down_read's sleep: a writer holds sem, or others wait.  Take it at once
 * if it is free (or only read-held with nobody waiting) and nobody has the
 * hand-off; else queue, make sure a release will see the queue, and sleep
 * until the waker has given it to us.
 */
void rwsem_down_read_slowpath(struct rw_semaphore *sem)
{
	struct rwsem_waiter waiter = { .writer = false };
	unsigned long c;

	spin_lock(&sem->wait_lock);
	c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);
	while (!(c & (RWSEM_WRITER_LOCKED | RWSEM_FLAG_HANDOFF)) &&
	       (!(c & RWSEM_READER_MASK) || !(c & RWSEM_FLAG_WAITERS)))
		if (__atomic_compare_exchange_n(&sem->count, &c, c + RWSEM_READER_BIAS, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			spin_unlock(&sem->wait_lock);
			return;
		}
	list_add_tail(&waiter.list, &sem->wait_list);
	rwsem_set_flags(sem, RWSEM_FLAG_WAITERS);
	if (!(__atomic_load_n(&sem->count, __ATOMIC_RELAXED) & RWSEM_LOCK_MASK))
		rwsem_mark_wake(sem);   /* released before it saw the flag: nobody else wakes us */
	rwsem_wait(sem, &waiter);
	spin_unlock(&sem->wait_lock);
}

/*
 * May the queued writer waiter take sem now (Linux's rwsem_try_write_lock)?
 * Only if nobody holds it, and nobody else has the hand-off.  The first
 * waiter back from a wake-up that finds it taken sets the hand-off.
 * wait_lock held; on success waiter has left the queue.
 */
static bool rwsem_try_write_lock(struct rw_semaphore *sem, struct rwsem_waiter *waiter)
{
	bool first = rwsem_first_waiter(sem) == waiter;
	unsigned long c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED), new;

	do {
		if (c & RWSEM_LOCK_MASK) {
			if (first && waiter->woken)
				rwsem_set_flags(sem, RWSEM_FLAG_HANDOFF);
			return false;
		}
		if ((c & RWSEM_FLAG_HANDOFF) && !first)
			return false;
		new = (c | RWSEM_WRITER_LOCKED) & ~RWSEM_FLAG_HANDOFF;
		if (list_is_singular(&sem->wait_list))
			new &= ~RWSEM_FLAG_WAITERS;
	} while (!__atomic_compare_exchange_n(&sem->count, &c, new, false, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	list_del(&waiter->list);
	return true;
}

/* down_write's sleep: queue, then try at each wake-up until it is ours. */
void rwsem_down_write_slowpath(struct rw_semaphore *sem)
{
	struct rwsem_waiter waiter = { .writer = true };

	spin_lock(&sem->wait_lock);
	list_add_tail(&waiter.list, &sem->wait_list);
	rwsem_set_flags(sem, RWSEM_FLAG_WAITERS);
	while (!rwsem_try_write_lock(sem, &waiter)) {
		waiter.woken = false;
		rwsem_wait(sem, &waiter);
	}
	spin_unlock(&sem->wait_lock);
}

bool down_read_trylock(struct rw_semaphore *sem)
{
	if (!__down_read_trylock(sem))
		return false;
	rwsem_acquire(sem, 0, true, _RET_IP_);
	return true;
}

bool down_write_trylock(struct rw_semaphore *sem)
{
	if (!__down_write_trylock(sem))
		return false;
	rwsem_acquire(sem, 0, true, _RET_IP_);
	return true;
}

/* down_write of a second semaphore of the class (fork: the child's mmap_lock). */
void down_write_nested(struct rw_semaphore *sem, unsigned int subclass)
{
	might_sleep();
	rwsem_acquire(sem, subclass, false, _RET_IP_);
	if (!__down_write_trylock(sem))
		rwsem_down_write_slowpath(sem);
}

void up_write(struct rw_semaphore *sem)
{
	unsigned long c;

	rwsem_release(sem, _RET_IP_);
	c = __atomic_sub_fetch(&sem->count, RWSEM_WRITER_LOCKED, __ATOMIC_RELEASE);
	if (unlikely(c & RWSEM_FLAG_WAITERS))
		rwsem_wake(sem);
}

/*
 * Writer to reader without letting another writer in (mmap_write_downgrade);
 * the readers at the front of the queue join.
 */
void downgrade_write(struct rw_semaphore *sem)
{
	unsigned long c = __atomic_add_fetch(&sem->count, RWSEM_READER_BIAS - RWSEM_WRITER_LOCKED,
					     __ATOMIC_RELEASE);

	if (unlikely(c & RWSEM_FLAG_WAITERS))
		rwsem_wake(sem);
}
