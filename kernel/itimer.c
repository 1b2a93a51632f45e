/*
 * Interval timers (Linux's kernel/time/itimer.c): ITIMER_REAL, the one
 * alarm(2) and musl's alarm() (a setitimer) use, which sends SIGALRM when
 * real time runs out and reloads with the interval.  Each task keeps its
 * expiry in ns of ktime_get_ns(); the timer tick looks at every task
 * (Linux arms an hrtimer instead), so a SIGALRM comes up to 1/HZ late.
 * fork's child starts disarmed, exec keeps the timer, as in Linux.
 *
 * ITIMER_VIRTUAL and ITIMER_PROF count the process's CPU time down, user
 * time only (SIGVTALRM) or user and system (SIGPROF), a tick of it at a
 * time as the tick accounts it (kernel/sched/cputime.c) on any thread of
 * the process (Linux's process-wide CPU itimers, kernel/time/
 * posix-cpu-timers.c).  As Linux, a value set gets one tick more, so that
 * the timer never fires before that much CPU time was used.
 *
 * The tick drives timer_create's timers too (kernel/posix-timers.c).
 *
 * Locking: itimer_lock (irqsave: the tick takes it) guards every task's
 * it_real_expires/it_real_incr and it[] (Linux: sighand->siglock);
 * send_sig under it takes tasklist_lock.  The tick walks the task list under tasklist_lock
 * (irq-safe), which every change of the list holds.
 */
#include "linux/errno.h"
#include "linux/posix-timers.h"
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
	u64 now = ktime_get_ns(), real = ktime_get_real_ns();
	struct task_struct *t;
	unsigned long flags;

	spin_lock_irqsave(&itimer_lock, flags);
	spin_lock(&tasklist_lock);
	for_each_process(t) {
		if (!list_empty(&t->signal->posix_timers))
			run_posix_timers(t, now, real);         /* timer_create's */
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

/*
 * A CPU-time timer's tick: ns of the process's CPU time went by.  Returns
 * true when it expired (reloaded with its interval, or disarmed).
 * itimer_lock held.
 */
static bool cpu_itimer_tick(struct cpu_itimer *it, u64 ns)
{
	if (!it->expires)
		return false;
	if (it->expires > ns) {
		it->expires -= ns;
		return false;
	}
	it->expires = it->incr;
	return true;
}

/*
 * The tick on p's CPU (Linux's run_posix_cpu_timers): p's process used a
 * tick of CPU time, user time if user_tick; SIGPROF and SIGVTALRM for the
 * timers that ran out.  Interrupts off.
 */
void run_posix_cpu_timers(struct task_struct *p, int user_tick)
{
	bool prof, virt;

	if (!p || is_idle_task(p) || !p->signal)
		return;
	spin_lock(&itimer_lock);
	prof = cpu_itimer_tick(&p->signal->it[CPUCLOCK_PROF], TICK_NSEC);
	virt = user_tick && cpu_itimer_tick(&p->signal->it[CPUCLOCK_VIRT], TICK_NSEC);
	spin_unlock(&itimer_lock);
	if (READ_ONCE(p->signal->nr_cpu_timers))
		run_posix_cpu_timers_tick(p);   /* timer_create's */
	if (prof)
		send_sig(SIGPROF, p, 1);
	if (virt)
		send_sig(SIGVTALRM, p, 1);
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

/* The CPU-time timer of ITIMER_PROF or ITIMER_VIRTUAL. */
static struct cpu_itimer *cpu_itimer(int which)
{
	return &current->signal->it[which == ITIMER_PROF ? CPUCLOCK_PROF : CPUCLOCK_VIRT];
}

/* current's timer which at now: the time left and the interval; itimer_lock held. */
static void __getitimer(int which, struct __kernel_old_itimerval *v, u64 now)
{
	struct signal_struct *sig = current->signal;
	u64 left = 0, incr;

	if (which == ITIMER_REAL) {
		if (sig->it_real_expires)
			left = sig->it_real_expires > now ? sig->it_real_expires - now : 1;
		incr = sig->it_real_incr;
	} else {
		left = cpu_itimer(which)->expires;
		incr = cpu_itimer(which)->incr;
	}
	v->it_value = ns_to_timeval(left);
	v->it_interval = ns_to_timeval(incr);
}

/* current's timer which (Linux's do_getitimer). */
static void do_getitimer(int which, struct __kernel_old_itimerval *v)
{
	unsigned long flags;

	spin_lock_irqsave(&itimer_lock, flags);
	__getitimer(which, v, ktime_get_ns());
	spin_unlock_irqrestore(&itimer_lock, flags);
}

/*
 * Arm (or with a zero value disarm) current's timer which; the old
 * setting to *old (Linux's do_setitimer, set_cpu_itimer).
 */
static void do_setitimer(int which, const struct __kernel_old_itimerval *v,
			 struct __kernel_old_itimerval *old)
{
	u64 value = timeval_to_ns(&v->it_value), incr = timeval_to_ns(&v->it_interval);
	u64 now = ktime_get_ns();
	unsigned long flags;

	spin_lock_irqsave(&itimer_lock, flags);
	__getitimer(which, old, now);
	if (which == ITIMER_REAL) {
		current->signal->it_real_expires = value ? now + value : 0;
		current->signal->it_real_incr = value ? incr : 0;
	} else {
		cpu_itimer(which)->expires = value ? value + TICK_NSEC : 0;
		cpu_itimer(which)->incr = incr;
	}
	spin_unlock_irqrestore(&itimer_lock, flags);
}

static bool timeval_valid(const struct __kernel_old_timeval *tv)
{
	return tv->tv_sec >= 0 && tv->tv_usec >= 0 && tv->tv_usec < 1000000;
}

static bool itimer_which_valid(int which)
{
	return which == ITIMER_REAL || which == ITIMER_VIRTUAL || which == ITIMER_PROF;
}

/* getitimer(which, value): 0, -EINVAL (no such timer) or -EFAULT. */
long sys_getitimer(int which, struct __kernel_old_itimerval *uvalue)
{
	struct __kernel_old_itimerval v;

	if (!itimer_which_valid(which))
		return -EINVAL;
	do_getitimer(which, &v);
	return copy_to_user(uvalue, &v, sizeof(v)) ? -EFAULT : 0;
}

/*
 * setitimer(which, value, ovalue): a NULL value disarms, as Linux allows;
 * the previous setting goes to ovalue if given.  0, -EINVAL (no such
 * timer, or a microsecond count outside 0..999999) or -EFAULT.
 */
long sys_setitimer(int which, const struct __kernel_old_itimerval *uvalue,
		   struct __kernel_old_itimerval *uovalue)
{
	struct __kernel_old_itimerval v = { 0 }, old;

	if (uvalue && copy_from_user(&v, uvalue, sizeof(v)))
		return -EFAULT;
	if (!itimer_which_valid(which))
		return -EINVAL;
	if (!timeval_valid(&v.it_value) || !timeval_valid(&v.it_interval))
		return -EINVAL;
	do_setitimer(which, &v, &old);
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

	do_setitimer(ITIMER_REAL, &v, &old);
	if ((!old.it_value.tv_sec && old.it_value.tv_usec) || old.it_value.tv_usec >= 500000)
		old.it_value.tv_sec++;
	return old.it_value.tv_sec;
}
