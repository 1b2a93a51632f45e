/*
 * Interval timers (Linux's kernel/time/itimer.c): ITIMER_REAL, the one
 * alarm(2) and musl's alarm() (a setitimer) use, which sends SIGALRM when
 * real time runs out and reloads with the interval.  Each task keeps its
 * expiry in ns of ktime_get_ns(); the timer tick looks at every task
 * (Linux arms an hrtimer instead), so a SIGALRM comes up to 1/HZ late.
 * fork's child starts disarmed, exec keeps the timer, as in Linux.
 * ITIMER_VIRTUAL and ITIMER_PROF (CPU-time timers) are not implemented:
 * foliOS accounts no CPU time; they give -EINVAL.
 *
 * Locking: itimer_lock (irqsave: the tick takes it) guards every task's
 * it_real_expires/it_real_incr (Linux: sighand->siglock); send_sig under it
 * takes tasklist_lock.  The tick walks the task list under tasklist_lock
 * (irq-safe), which every change of the list holds.
 */
#include "linux/errno.h"
#include "linux/sched.h"
#include "linux/syscalls.h"
#include "linux/time64.h"
#include "linux/uaccess.h"
#include <asm/arch.h>
#include "uapi/linux/time.h"

#define ITIMER_MAX_SECS (1L << 32)      /* longer is forever (no u64 overflow) */

static spinlock_t itimer_lock = SPINLOCK_INIT("itimer");

/*
 * The timer tick: SIGALRM to each live task whose ITIMER_REAL expired
 * (Linux's it_real_fn).  The task list is walked under tasklist_lock:
 * other CPUs fork and reap meanwhile.
 */
void run_itimers(void)
{
	u64 now = ktime_get_ns();
	struct task_struct *t;
	unsigned long flags;

	spin_lock_irqsave(&itimer_lock, flags);
	spin_lock(&tasklist_lock);
	for_each_process(t) {
		if (!t->signal->it_real_expires || now < t->signal->it_real_expires || !t->signal->live)
			continue;
		send_sig_locked(SIGALRM, t);
		if (!t->signal->it_real_incr)
			t->signal->it_real_expires = 0;
		else    /* the next period after now, missed ones dropped (hrtimer_forward) */
			t->signal->it_real_expires += ((now - t->signal->it_real_expires) / t->signal->it_real_incr + 1) *
					      t->signal->it_real_incr;
	}
	spin_unlock(&tasklist_lock);
	spin_unlock_irqrestore(&itimer_lock, flags);
}

static u64 timeval_to_ns(const struct __kernel_old_timeval *tv)
{
	return MIN(tv->tv_sec, ITIMER_MAX_SECS) * NSEC_PER_SEC + tv->tv_usec * NSEC_PER_USEC;
}

/* ns as a timeval, rounded up to a microsecond so an armed timer never reads 0. */
static struct __kernel_old_timeval ns_to_timeval(u64 ns)
{
	ns = (ns + NSEC_PER_USEC - 1) / NSEC_PER_USEC;
	return (struct __kernel_old_timeval){ ns / 1000000, ns % 1000000 };
}

/* current's ITIMER_REAL at now: the time left and the interval; itimer_lock held. */
static void __getitimer(struct __kernel_old_itimerval *v, u64 now)
{
	u64 left = 0;

	if (current->signal->it_real_expires)
		left = current->signal->it_real_expires > now ? current->signal->it_real_expires - now : 1;
	v->it_value = ns_to_timeval(left);
	v->it_interval = ns_to_timeval(current->signal->it_real_incr);
}

/* current's ITIMER_REAL (Linux's get_itimerspec). */
static void do_getitimer(struct __kernel_old_itimerval *v)
{
	unsigned long flags;

	spin_lock_irqsave(&itimer_lock, flags);
	__getitimer(v, ktime_get_ns());
	spin_unlock_irqrestore(&itimer_lock, flags);
}

/* Arm (or with a zero value disarm) current's ITIMER_REAL; the old setting to *old. */
static void do_setitimer(const struct __kernel_old_itimerval *v,
			 struct __kernel_old_itimerval *old)
{
	u64 value = timeval_to_ns(&v->it_value), now = ktime_get_ns();
	unsigned long flags;

	spin_lock_irqsave(&itimer_lock, flags);
	__getitimer(old, now);
	current->signal->it_real_expires = value ? now + value : 0;
	current->signal->it_real_incr = value ? timeval_to_ns(&v->it_interval) : 0;
	spin_unlock_irqrestore(&itimer_lock, flags);
}

static bool timeval_valid(const struct __kernel_old_timeval *tv)
{
	return tv->tv_sec >= 0 && tv->tv_usec >= 0 && tv->tv_usec < 1000000;
}

/* getitimer(which, value): 0, -EINVAL (not ITIMER_REAL) or -EFAULT. */
long sys_getitimer(int which, struct __kernel_old_itimerval *uvalue)
{
	struct __kernel_old_itimerval v;

	if (which != ITIMER_REAL)
		return -EINVAL;
	do_getitimer(&v);
	return copy_to_user(uvalue, &v, sizeof(v)) ? -EFAULT : 0;
}

/*
 * setitimer(which, value, ovalue): a NULL value disarms, as Linux allows;
 * the previous setting goes to ovalue if given.  0, -EINVAL (not
 * ITIMER_REAL, or a microsecond count outside 0..999999) or -EFAULT.
 */
long sys_setitimer(int which, const struct __kernel_old_itimerval *uvalue,
		   struct __kernel_old_itimerval *uovalue)
{
	struct __kernel_old_itimerval v = { 0 }, old;

	if (uvalue && copy_from_user(&v, uvalue, sizeof(v)))
		return -EFAULT;
	if (which != ITIMER_REAL)
		return -EINVAL;
	if (!timeval_valid(&v.it_value) || !timeval_valid(&v.it_interval))
		return -EINVAL;
	do_setitimer(&v, &old);
	return uovalue && copy_to_user(uovalue, &old, sizeof(old)) ? -EFAULT : 0;
}

/*
 * alarm(seconds): a one-shot ITIMER_REAL (0 disarms); the seconds the
 * previous one had left, rounded to nearest, at least 1 if it was armed
 * (Linux's alarm_setitimer).
 */
long sys_alarm(unsigned int seconds)
{
	struct __kernel_old_itimerval v = { .it_value.tv_sec = seconds }, old;

	do_setitimer(&v, &old);
	if ((!old.it_value.tv_sec && old.it_value.tv_usec) || old.it_value.tv_usec >= 500000)
		old.it_value.tv_sec++;
	return old.it_value.tv_sec;
}
