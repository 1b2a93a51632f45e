/*
 * The POSIX clocks (Linux's kernel/time/posix-timers.c and
 * posix-cpu-timers.c) and the sleeps (kernel/time/hrtimer.c):
 *
 *   CLOCK_REALTIME(_COARSE)     the wall clock (kernel/timekeeping.c)
 *   CLOCK_MONOTONIC(_COARSE, _RAW), CLOCK_BOOTTIME
 *                               ktime_get_ns(): since boot (foliOS never
 *                               suspends, so BOOTTIME is MONOTONIC)
 *   CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID
 *                               exact CPU time (kernel/sched/cputime.c)
 *
 * The coarse clocks count whole ticks, as Linux's (resolution 1/HZ).
 * Every clock but the CPU-time ones is read in user mode by the vDSO too.
 * Other processes' CPU clocks (negative clock ids) are EINVAL, and so is
 * clock_nanosleep on a CPU clock (Linux sleeps on the process's).
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/time64.h"
#include "linux/uaccess.h"
#include <asm/arch.h>
#include "uapi/linux/time.h"
#include "vdso/datapage.h"
#include <asm/timex.h>


static long nanosleep_restart(struct restart_block *rb);

/* The process's exact CPU time: its threads', live and gone. */
static u64 process_cputime(void)
{
	struct task_cputime t;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	thread_group_cputime(current, &t);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return t.sum_exec_runtime;
}

/*
 * Clock clock's time in *ns and its resolution in *res; -EINVAL for a
 * clock foliOS has not.  The clocks of the vDSO's data page are read as
 * the vDSO reads them (include/vdso/datapage.h).
 */
static int clock_read(int clock, u64 *ns, u64 *res)
{
	if (vdso_clock_ns(vdso_data, clock, get_cycles_ordered(), ns, res))
		return 0;
	*res = 1;
	switch (clock) {
	case CLOCK_PROCESS_CPUTIME_ID:
		*ns = process_cputime();
		return 0;
	case CLOCK_THREAD_CPUTIME_ID:
		*ns = task_sched_runtime(current);
		return 0;
	}
	return -EINVAL;
}

static int put_timespec(u64 ns, void *utp)
{
	struct __kernel_timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	return copy_to_user(utp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/*
 * A timespec as nanoseconds, its seconds cut to max_secs: -EINVAL if
 * negative or tv_nsec is out of range (Linux's timespec64_valid).
 */
int timespec_to_ns(const struct __kernel_timespec *ts, u64 *ns, s64 max_secs)
{
	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	*ns = MIN(ts->tv_sec, max_secs) * NSEC_PER_SEC + ts->tv_nsec;
	return 0;
}

/*
 * Sleep until the tick after j, unless a signal is pending (-EINTR; even
 * with the time up, as Linux's do_poll and do_select look first) or
 * ktime_get_ns() reached end (if timed: 0).  1 after the sleep: the
 * caller looks again at what it waits for.
 */
long schedule_tick_timeout(unsigned long j, bool timed, u64 end)
{
	if (signal_pending(current))
		return -EINTR;
	if (timed && ktime_get_ns() >= end)
		return 0;
	(void)wait_var_event_interruptible((void *)&jiffies, jiffies != j);
	return 1;
}

/* A user timespec as nanoseconds (timespec_to_ns): -EFAULT or -EINVAL. */
int get_timespec_ns(const void *utp, u64 *ns, s64 max_secs)
{
	struct __kernel_timespec ts;

	if (copy_from_user(&ts, utp, sizeof(ts)))
		return -EFAULT;
	return timespec_to_ns(&ts, ns, max_secs);
}

long sys_clock_gettime(int clock, void *tp)
{
	u64 ns, res;
	int err = clock_read(clock, &ns, &res);

	return err ? err : put_timespec(ns, tp);
}

long sys_clock_getres(int clock, void *tp)
{
	u64 ns, res;
	int err = clock_read(clock, &ns, &res);

	return err ? err : tp ? put_timespec(res, tp) : 0;
}

/* clock_settime: CLOCK_REALTIME only (everyone is root here, whom Linux lets); see do_settimeofday64. */
long sys_clock_settime(int clock, const void *tp)
{
	struct __kernel_timespec ts;
	struct timespec64 t;

	if (clock != CLOCK_REALTIME)
		return -EINVAL;
	if (copy_from_user(&ts, tp, sizeof(ts)))
		return -EFAULT;
	t = (struct timespec64){ ts.tv_sec, ts.tv_nsec };
	return do_settimeofday64(&t);
}

/* The clock a sleep counts: CLOCK_REALTIME's for an absolute one on it, else the monotonic. */
static u64 sleep_clock_ns(bool realtime)
{
	return realtime ? ktime_get_real_ns() : ktime_get_ns();
}

/*
 * Sleep until the clock (sleep_clock_ns) reaches end, and, on the
 * monotonic clock, whole timer ticks (HZ) for the time left, rounded up —
 * both: an emulator that fell behind delivers missed ticks in a burst, so
 * ticks alone may end a sleep early.  An absolute CLOCK_REALTIME sleep
 * looks at the wall clock at every tick, so a clock set forward past end
 * wakes it, as Linux's (its timer is on that clock).  0, or for a signal
 * the time left in rmtp (if given) and -ERESTART_RESTARTBLOCK: -EINTR
 * after a handler, else restart_syscall sleeps on to the same end
 * (Linux's do_nanosleep and hrtimer_nanosleep_restart).
 */
static long do_nanosleep(u64 end, void *rmtp, bool realtime)
{
	u64 left = end - MIN(end, sleep_clock_ns(realtime));
	unsigned long until = realtime ? jiffies : jiffies + (left * HZ + 999999999) / 1000000000 + 1;

	for (;;) {
		unsigned long j = jiffies;

		if ((long)(j - until) >= 0 && sleep_clock_ns(realtime) >= end)
			return 0;
		if (signal_pending(current)) {
			struct restart_block *rb = &current->restart_block;
			long rem[2];

			left = end - MIN(end, sleep_clock_ns(realtime));
			rem[0] = left / 1000000000;
			rem[1] = left % 1000000000;
			if (rmtp && copy_to_user(rmtp, rem, sizeof(rem)))
				return -EFAULT;
			rb->fn = nanosleep_restart;
			rb->nanosleep.expires = end;
			rb->nanosleep.rmtp = rmtp;
			rb->nanosleep.realtime = realtime;
			return -ERESTART_RESTARTBLOCK;
		}
		(void)wait_var_event_interruptible((void *)&jiffies, jiffies != j); /* the next tick */
	}
}

static long nanosleep_restart(struct restart_block *rb)
{
	return do_nanosleep(rb->nanosleep.expires, rb->nanosleep.rmtp, rb->nanosleep.realtime);
}

/* nanosleep(req, rem): sleep at least req; rem gets what is left if a signal ends it. */
long sys_nanosleep(const void *ureq, void *urem)
{
	u64 req;
	int err = get_timespec_ns(ureq, &req, NANOSLEEP_MAX_SECS);

	return err ? err : do_nanosleep(ktime_get_ns() + req, urem, false);
}

/*
 * clock_nanosleep(clock, flags, req, rem): as nanosleep on the clock, or
 * with TIMER_ABSTIME until the clock reads req (rem is not written); the
 * wall clock's absolute sleep follows settimeofday.
 */
long sys_clock_nanosleep(int clock, int flags, const void *ureq, void *urem)
{
	u64 req;
	int err;

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC && clock != CLOCK_BOOTTIME)
		return -EINVAL;
	err = get_timespec_ns(ureq, &req, flags & TIMER_ABSTIME ? KTIME_SEC_MAX : NANOSLEEP_MAX_SECS);
	if (err)
		return err;
	if (!(flags & TIMER_ABSTIME))
		return do_nanosleep(ktime_get_ns() + req, urem, false);
	return do_nanosleep(req, NULL, clock == CLOCK_REALTIME);
}
