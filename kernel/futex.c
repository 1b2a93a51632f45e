/*
 * Fast user-space mutexes (Linux's kernel/futex/): a task waits in the
 * kernel on a 32-bit user word until another wakes it.  Waiters sit in a
 * hash of buckets by their futex_key, each bucket with its own lock.
 *
 * The ordering that makes a wake-up never lost (Linux's futex_wait_setup):
 * the waiter takes the bucket lock, reads the word and, if it still holds
 * the expected value, queues itself before dropping the lock; the waker
 * changes the word first and then takes the bucket lock to wake.  Either
 * the waiter sees the new value (EAGAIN) or the waker sees the waiter.
 *
 * Keys (Linux's get_futex_key): a FUTEX_PRIVATE_FLAG futex is (mm,
 * address); a shared one in a MAP_SHARED mapping is (the inode's sequence
 * number, page index, offset in the page), so every process mapping the
 * object finds it — a number, not the inode pointer, which a freed and
 * reallocated inode would reuse; a shared one in private memory is (mm,
 * address) marked shared.
 *
 * Lock order: see linux/sched.h.  get_futex_key takes the mmap_lock for
 * reading and drops it before any bucket lock.  Under a bucket lock (a
 * spinlock, interrupts off) the word is read, or compared and exchanged,
 * only with page faults disabled (Linux's get_futex_value_locked): a
 * fault fails at once instead of taking the mmap_lock; the caller drops
 * its locks, faults the page in (get_user, or fault_in_user_writeable for
 * a write), and starts again from the key, since a munmap, mmap or
 * MADV_DONTNEED on another CPU may have changed the mapping meanwhile.
 * The robust-list walk at exit holds no lock: it updates the word by
 * cmpxchg, so a FUTEX_WAITERS bit another CPU sets meanwhile survives.
 * No other operation touches user memory (no WAKE_OP, no PI).
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/spinlock.h"
#include "linux/wait.h"
#include "linux/uaccess.h"
#include "linux/fs.h"
#include "linux/time64.h"
#include "uapi/linux/futex.h"
#include "uapi/linux/time.h"
#include "linux/mm.h"
#include "linux/mmap_lock.h"
#include <asm/arch.h>
#include <asm/futex.h>

#define FUTEX_HASH_BITS 6
#define FUT_OFF_INODE   1               /* key.offset: an (inode, index) key */
#define FUT_OFF_MMSHARED 2              /* key.offset: a shared futex in private memory */

/* Which futex: see the keys above (Linux's union futex_key, both form). */
struct futex_key {
	unsigned long ptr;              /* the mm, or the inode's i_sequence */
	unsigned long word;             /* the address or the page index */
	unsigned int offset;            /* the offset in the page | FUT_OFF_* */
};

struct futex_hash_bucket;

/* One waiting task (Linux's struct futex_q), on its bucket's chain. */
struct futex_q {
	struct list_head list;
	struct task_struct *task;
	struct futex_key key;
	u32 bitset;                     /* FUTEX_WAKE_BITSET wakes it if it shares a bit */
	bool woken;                     /* taken off the chain by a waker */
	struct futex_hash_bucket *hb;   /* the bucket it is on (Linux's lock_ptr): a requeue moves it */
};

/* A hash chain and the lock that guards it and its futex_qs' key, woken and hb. */
struct futex_hash_bucket {
	spinlock_t lock;
	struct list_head chain;
};

static struct futex_hash_bucket futex_queues[1 << FUTEX_HASH_BITS];

static struct futex_hash_bucket *hash_futex(const struct futex_key *key)
{
	unsigned long h = key->ptr * 31 + key->word * 17 + key->offset;

	h ^= h >> 17;
	h ^= h >> 9;
	return &futex_queues[h & ((1 << FUTEX_HASH_BITS) - 1)];
}

/* Ready the buckets (boot; kernel/main.c). */
void futex_init(void)
{
	for (int i = 0; i < (1 << FUTEX_HASH_BITS); i++) {
		spin_lock_init(&futex_queues[i].lock, "futex_hash_bucket");
		INIT_LIST_HEAD(&futex_queues[i].chain);
	}
}

static bool futex_match(const struct futex_key *a, const struct futex_key *b)
{
	return a->ptr == b->ptr && a->word == b->word && a->offset == b->offset;
}

/*
 * The inode's number for futex keys (Linux's get_inode_sequence_number):
 * given at its first shared futex from a global 64-bit counter, never 0,
 * never reused, so a key cannot alias a later inode at the same address.
 * Racing first uses agree through the cmpxchg.
 */
static u64 get_inode_sequence_number(struct inode *inode)
{
	static u64 i_seq;
	u64 old = __atomic_load_n(&inode->i_sequence, __ATOMIC_RELAXED), new;

	if (old)
		return old;
	new = __atomic_add_fetch(&i_seq, 1, __ATOMIC_RELAXED);
	if (!__atomic_compare_exchange_n(&inode->i_sequence, &old, new, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return old;
	return new;
}

/*
 * The key of the futex word at uaddr in current's mm (Linux's
 * get_futex_key): 0, -EINVAL if uaddr is not 4-byte aligned, -EFAULT if
 * it is not mapped.  Takes and drops the mmap_lock (shared futexes).
 */
static int get_futex_key(unsigned long uaddr, bool private, struct futex_key *key)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	int ret = -EFAULT;

	if (uaddr % sizeof(u32))
		return -EINVAL;
	*key = (struct futex_key){ .ptr = (unsigned long)mm, .word = uaddr };
	if (private)
		return access_ok(uaddr, sizeof(u32)) ? 0 : -EFAULT;
	mmap_read_lock(mm);
	vma = find_vma(mm, uaddr);
	if (vma && vma->vm_start <= uaddr) {
		ret = 0;
		if ((vma->vm_flags & VM_SHARED) && vma->vm_file) {
			key->ptr = get_inode_sequence_number(file_inode(vma->vm_file));
			key->word = vma->vm_pgoff + ((uaddr - vma->vm_start) >> PAGE_SHIFT);
			key->offset = (uaddr & ~PAGE_MASK) | FUT_OFF_INODE;
		} else {
			key->offset = FUT_OFF_MMSHARED;
		}
	}
	mmap_read_unlock(mm);
	return ret;
}

/*
 * Read the futex word under a bucket lock (Linux's
 * get_futex_value_locked): 0, or -EFAULT if the page is not there (or
 * nothing is mapped) — the caller drops its locks, faults it in with
 * get_user and starts again.
 */
static int get_futex_value_locked(u32 *val, unsigned long uaddr)
{
	int ret;

	pagefault_disable();
	ret = copy_from_user(val, (const void *)uaddr, sizeof(*val)) ? -EFAULT : 0;
	pagefault_enable();
	return ret;
}

/*
 * *uaddr = newval if it holds oldval, *curval what it held, without
 * sleeping (Linux's futex_cmpxchg_value_locked): 0 or -EFAULT (then fault
 * it in writable with fault_in_user_writeable and try again).
 */
static int futex_cmpxchg_value_locked(u32 *curval, unsigned long uaddr, u32 oldval, u32 newval)
{
	int ret;

	pagefault_disable();
	ret = futex_atomic_cmpxchg_inatomic(curval, (u32 *)uaddr, oldval, newval);
	pagefault_enable();
	return ret;
}

/*
 * Make the word at uaddr present and writable in current's mm, as a
 * write fault would (Linux's fault_in_user_writeable, through
 * fixup_user_fault): 0, or -EFAULT if it cannot be written.  Takes the
 * mmap_lock: no spinlock held.
 */
static int fault_in_user_writeable(unsigned long uaddr)
{
	struct mm_struct *mm = current->mm;
	int ret;

	mmap_read_lock(mm);
	ret = fixup_user_fault(mm, uaddr, FAULT_FLAG_WRITE);
	mmap_read_unlock(mm);
	return ret < 0 ? -EFAULT : 0;
}

/*
 * Take q off its chain and wake its task (Linux's futex_wake_mark then
 * wake_up_q).  Bucket lock held: the waiter looks at q->woken under it
 * before it returns, so q and its task outlive the wake-up.
 */
static void futex_wake_q(struct futex_q *q)
{
	list_del(&q->list);
	q->woken = true;
	wake_up_process(q->task);
}

/*
 * Wake up to nr waiters on the futex at uaddr whose bitset shares a bit
 * with bitset (Linux's futex_wake): how many woke, or -errno.
 */
long do_futex_wake(unsigned long uaddr, bool private, int nr, u32 bitset)
{
	struct futex_key key;
	struct futex_hash_bucket *hb;
	struct futex_q *q, *n;
	unsigned long flags;
	int ret = get_futex_key(uaddr, private, &key), woken = 0;

	if (ret)
		return ret;
	if (!bitset)
		return -EINVAL;
	hb = hash_futex(&key);
	spin_lock_irqsave(&hb->lock, flags);
	list_for_each_entry_safe(q, n, &hb->chain, list) {
		if (woken >= nr)
			break;
		if (futex_match(&q->key, &key) && (q->bitset & bitset)) {
			futex_wake_q(q);
			woken++;
		}
	}
	spin_unlock_irqrestore(&hb->lock, flags);
	return woken;
}

/*
 * Lock the bucket q is on and return it: a requeue may move q meanwhile
 * (Linux's futex_unqueue retry on q->lock_ptr).
 */
static struct futex_hash_bucket *futex_q_lock(struct futex_q *q, unsigned long *flags)
{
	for (;;) {
		struct futex_hash_bucket *hb = READ_ONCE(q->hb);

		spin_lock_irqsave(&hb->lock, *flags);
		if (hb == READ_ONCE(q->hb))
			return hb;
		spin_unlock_irqrestore(&hb->lock, *flags);
	}
}

/*
 * Sleep until q is woken, a signal is pending or ktime_get_ns() passes
 * end (0: no timeout).  0 if woken, else -ETIMEDOUT or -ERESTARTSYS
 * (Linux's futex_wait_queue and the unqueue after it).  The state is set
 * before q is looked at under the bucket lock: a waker that unqueues q
 * after that finds the task asleep or about to be and wakes it; one
 * before, the look sees.  A timed sleep also waits on the tick.
 */
static int futex_wait_queue(struct futex_q *q, u64 end)
{
	struct futex_hash_bucket *hb;
	struct wait_queue_head *tick = __var_waitqueue((void *)&jiffies);
	struct wait_bit_queue_entry tick_wait;
	unsigned long flags;
	int ret = 0;

	init_wait_var_entry(&tick_wait, (void *)&jiffies);
	for (;;) {
		if (end)
			prepare_to_wait(tick, &tick_wait.wq_entry, TASK_INTERRUPTIBLE);
		else
			set_current_state(TASK_INTERRUPTIBLE);
		hb = futex_q_lock(q, &flags);
		if (q->woken)
			break;
		if (signal_pending(current) || (end && ktime_get_ns() >= end)) {
			list_del(&q->list);
			ret = signal_pending(current) ? -ERESTARTSYS : -ETIMEDOUT;
			break;
		}
		spin_unlock_irqrestore(&hb->lock, flags);
		schedule();
	}
	spin_unlock_irqrestore(&hb->lock, flags);
	if (end)
		finish_wait(tick, &tick_wait.wq_entry);
	__set_current_state(TASK_RUNNING);
	return ret;
}

/*
 * Queue q on its bucket if the word at uaddr still holds val (Linux's
 * futex_wait_setup): 0 (queued), -EAGAIN if it holds something else,
 * -EFAULT/-EINVAL.  The word is read under the bucket lock with faults
 * disabled; if the page is not there, the lock is dropped, get_user
 * faults it in, and the key is looked up again.
 */
static int futex_wait_setup(unsigned long uaddr, bool private, u32 val, struct futex_q *q)
{
	struct futex_hash_bucket *hb;
	unsigned long flags;
	u32 uval;
	int ret;

	for (;;) {
		ret = get_futex_key(uaddr, private, &q->key);
		if (ret)
			return ret;
		hb = hash_futex(&q->key);
		spin_lock_irqsave(&hb->lock, flags);
		ret = get_futex_value_locked(&uval, uaddr);
		if (!ret)
			break;
		spin_unlock_irqrestore(&hb->lock, flags);
		ret = get_user(uval, (u32 *)uaddr);
		if (ret)
			return ret;
	}
	if (uval != val) {
		ret = -EAGAIN;
	} else {
		q->hb = hb;
		list_add_tail(&q->list, &hb->chain);
	}
	spin_unlock_irqrestore(&hb->lock, flags);
	return ret;
}

static long futex_wait_restart(struct restart_block *rb);

/*
 * FUTEX_WAIT(_BITSET): if the word at uaddr holds val, sleep until woken
 * (0), the timeout end passes (-ETIMEDOUT) or a signal comes
 * (-ERESTARTSYS: SA_RESTART restarts the wait; with a timeout
 * -ERESTART_RESTARTBLOCK, which resumes it with the same deadline after a
 * stop or a signal no handler took, else EINTR); -EAGAIN at once if it
 * holds something else (Linux's futex_wait).
 */
static long futex_wait(unsigned long uaddr, bool private, u32 val, u64 end, u32 bitset)
{
	struct futex_q q = { .task = current, .bitset = bitset };
	struct restart_block *rb = &current->restart_block;
	int ret;

	if (!bitset)
		return -EINVAL;
	ret = futex_wait_setup(uaddr, private, val, &q);
	if (ret)
		return ret;
	ret = futex_wait_queue(&q, end);
	if (ret != -ERESTARTSYS || !end)
		return ret;
	rb->fn = futex_wait_restart;
	rb->futex.uaddr = uaddr;
	rb->futex.val = val;
	rb->futex.bitset = bitset;
	rb->futex.private = private;
	rb->futex.end = end;
	return -ERESTART_RESTARTBLOCK;
}

/* restart_syscall of an interrupted timed wait (Linux's futex_wait_restart). */
static long futex_wait_restart(struct restart_block *rb)
{
	rb->fn = do_no_restart_syscall;
	return futex_wait(rb->futex.uaddr, rb->futex.private, rb->futex.val, rb->futex.end,
			  rb->futex.bitset);
}

/* Lock two buckets in address order (Linux's double_lock_hb). */
static unsigned long double_lock_hb(struct futex_hash_bucket *a, struct futex_hash_bucket *b)
{
	unsigned long flags;

	spin_lock_irqsave(a < b ? &a->lock : &b->lock, flags);

	if (a != b)
		spin_lock_nested(a < b ? &b->lock : &a->lock, SINGLE_DEPTH_NESTING);
	return flags;
}

static void double_unlock_hb(struct futex_hash_bucket *a, struct futex_hash_bucket *b,
			     unsigned long flags)
{
	if (a != b)
		spin_unlock(a < b ? &b->lock : &a->lock);
	spin_unlock_irqrestore(a < b ? &a->lock : &b->lock, flags);
}

/* Move q to key2's chain in hb2 (Linux's requeue_futex).  Both locks held. */
static void requeue_futex(struct futex_q *q, struct futex_hash_bucket *hb2,
			  const struct futex_key *key2)
{
	list_del(&q->list);
	list_add_tail(&q->list, &hb2->chain);
	q->key = *key2;
	WRITE_ONCE(q->hb, hb2);
}

/*
 * FUTEX_(CMP_)REQUEUE (Linux's futex_requeue): wake nr_wake waiters of
 * uaddr1 and move up to nr_requeue others to uaddr2.  CMP first checks,
 * under both bucket locks, that uaddr1 holds cmpval (else -EAGAIN); if
 * the page is not there, the locks go, get_user faults it in and the
 * keys are looked up again.  Returns how many were woken plus moved, or
 * -errno.
 */
static long futex_requeue(unsigned long uaddr1, bool private, unsigned long uaddr2,
			  int nr_wake, int nr_requeue, const u32 *cmpval)
{
	struct futex_key key1, key2;
	struct futex_hash_bucket *hb1, *hb2;
	struct futex_q *q, *n;
	unsigned long flags;
	int ret, done = 0;
	u32 uval;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
retry:
	ret = get_futex_key(uaddr1, private, &key1);
	if (!ret)
		ret = get_futex_key(uaddr2, private, &key2);
	if (ret)
		return ret;
	hb1 = hash_futex(&key1);
	hb2 = hash_futex(&key2);
	flags = double_lock_hb(hb1, hb2);
	if (cmpval) {
		ret = get_futex_value_locked(&uval, uaddr1);
		if (ret) {
			double_unlock_hb(hb1, hb2, flags);
			ret = get_user(uval, (u32 *)uaddr1);
			if (ret)
				return ret;
			goto retry;
		}
		if (uval != *cmpval)
			ret = -EAGAIN;
	}
	list_for_each_entry_safe(q, n, &hb1->chain, list) {
		if (ret || done >= nr_wake + nr_requeue)
			break;
		if (!futex_match(&q->key, &key1))
			continue;
		if (done++ < nr_wake)
			futex_wake_q(q);
		else
			requeue_futex(q, hb2, &key2);
	}
	double_unlock_hb(hb1, hb2, flags);
	return ret ? ret : done;
}

/*
 * The end of a wait's timeout on the monotonic clock (0: none):
 * FUTEX_WAIT's is relative, FUTEX_WAIT_BITSET's absolute on
 * CLOCK_MONOTONIC, or on CLOCK_REALTIME with FUTEX_CLOCK_REALTIME (taken
 * as the monotonic time it stands for now: pthread_cond_timedwait's).
 * 0 or -EFAULT/-EINVAL.
 */
static int futex_timeout(const void *utime, int op, u64 *end)
{
	u64 now, real;
	long ts[2];

	*end = 0;
	if (!utime)
		return 0;
	if (copy_from_user(ts, utime, sizeof(ts)))
		return -EFAULT;
	if (ts[0] < 0 || ts[1] < 0 || ts[1] >= 1000000000)
		return -EINVAL;
	*end = ts[0] * 1000000000ULL + ts[1];
	if ((op & FUTEX_CMD_MASK) == FUTEX_WAIT) {
		*end += ktime_get_ns();
	} else if (op & FUTEX_CLOCK_REALTIME) {
		now = ktime_get_ns();
		real = ktime_get_real_ns();
		*end = *end > real ? now + (*end - real) : 1;
	}
	if (!*end)
		*end = 1;                       /* already past, not "none" */
	return 0;
}

/*
 * futex(uaddr, op, val, timeout or val2, uaddr2, val3): the operations
 * musl and pthreads use (Linux's do_futex).  -ENOSYS for the others (PI,
 * WAKE_OP), as a kernel without them.
 */
long sys_futex(u32 *uaddr, int op, u32 val, const void *utime, u32 *uaddr2, u32 val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	bool private = op & FUTEX_PRIVATE_FLAG;
	u64 end;
	int ret;

	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT_BITSET)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAIT_BITSET:
		ret = futex_timeout(utime, op, &end);
		return ret ? ret : futex_wait((unsigned long)uaddr, private, val, end, val3);
	case FUTEX_WAKE:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAKE_BITSET:
		return do_futex_wake((unsigned long)uaddr, private, val, val3);
	case FUTEX_REQUEUE:
		return futex_requeue((unsigned long)uaddr, private, (unsigned long)uaddr2, val,
				     (int)(unsigned long)utime, NULL);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue((unsigned long)uaddr, private, (unsigned long)uaddr2, val,
				     (int)(unsigned long)utime, &val3);
	}
	return -ENOSYS;
}

/*
 * A robust futex of the exiting task t at uaddr (Linux's
 * handle_futex_death): if t owns it (its TID in the word), the word gets
 * FUTEX_OWNER_DIED, keeping FUTEX_WAITERS, and one waiter wakes to take
 * it.  The word changes by cmpxchg: a waiter on another CPU may set
 * FUTEX_WAITERS between the read and the write, and must not lose it
 * (nor its wake-up).  pending: the entry of list_op_pending, which a
 * dying unlocker may have released (owner 0) before waking anyone: wake
 * one then.  0, or -EFAULT if the word cannot be read or written.  No
 * lock held (t is current, in do_exit).
 */
static int handle_futex_death(unsigned long uaddr, struct task_struct *t, bool pending)
{
	u32 uval, nval, mval;

	if (uaddr % sizeof(u32))
		return -EFAULT;
retry:
	if (get_user(uval, (u32 *)uaddr))
		return -EFAULT;
	if (pending && !(uval & FUTEX_TID_MASK)) {
		do_futex_wake(uaddr, false, 1, FUTEX_BITSET_MATCH_ANY);
		return 0;
	}
	if ((uval & FUTEX_TID_MASK) != (u32)t->pid)
		return 0;
	mval = (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
	if (futex_cmpxchg_value_locked(&nval, uaddr, uval, mval)) {
		if (fault_in_user_writeable(uaddr))
			return -EFAULT;
		goto retry;
	}
	if (nval != uval)
		goto retry;
	if (uval & FUTEX_WAITERS)
		do_futex_wake(uaddr, false, 1, FUTEX_BITSET_MATCH_ANY);
	return 0;
}

/* Read one user word of the robust list; false if it faults. */
static bool fetch_robust_entry(unsigned long *entry, unsigned long uaddr)
{
	return !copy_from_user(entry, (const void *)uaddr, sizeof(*entry));
}

/*
 * Walk t's robust list at exit (Linux's exit_robust_list): every futex
 * on it and the one in list_op_pending, at most ROBUST_LIST_LIMIT, get
 * handle_futex_death.  Bit 0 of an entry marks a PI futex (none here).
 */
void exit_robust_list(struct task_struct *t)
{
	struct robust_list_head head;
	unsigned long entry, next, pending;
	int limit = ROBUST_LIST_LIMIT;

	if (copy_from_user(&head, (const void *)t->robust_list, sizeof(head)))
		return;
	entry = head.list & ~1UL;
	pending = head.list_op_pending & ~1UL;
	while (entry != t->robust_list && limit--) {
		if (!fetch_robust_entry(&next, entry))
			return;
		if (entry != pending && handle_futex_death(entry + head.futex_offset, t, false))
			return;
		entry = next & ~1UL;
	}
	if (pending)
		handle_futex_death(pending + head.futex_offset, t, true);
}

/* set_robust_list(head, len): where the exit walk starts; -EINVAL for a wrong len. */
long sys_set_robust_list(void *head, unsigned long len)
{
	if (len != sizeof(struct robust_list_head))
		return -EINVAL;
	current->robust_list = (unsigned long)head;
	return 0;
}

/* get_robust_list(pid, head_ptr, len_ptr): pid's (0: the caller's) head; -ESRCH. */
long sys_get_robust_list(int pid, void **head_ptr, unsigned long *len_ptr)
{
	unsigned long len = sizeof(struct robust_list_head), head = 0, flags;
	struct task_struct *t;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = pid ? find_task_by_vpid(pid) : current;
	if (t && t->state != TASK_DEAD)
		head = READ_ONCE(t->robust_list);
	else
		t = NULL;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!t)
		return -ESRCH;
	if (copy_to_user(len_ptr, &len, sizeof(len)) || copy_to_user(head_ptr, &head, sizeof(head)))
		return -EFAULT;
	return 0;
}
