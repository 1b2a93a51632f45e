/*
 * Time: clock_gettime (Linux's kernel/time/posix-timers.c) and nanosleep
 * (kernel/time/hrtimer.c).  Both clocks read the boot-relative nanoseconds
 * of ktime_get_ns(); there is no wall clock.
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/uaccess.h"
#include <asm/arch.h>
#include "uapi/linux/time.h"

#define NANOSLEEP_MAX_SECS      (1L << 32)      /* longer is forever (no u64 overflow) */

static long nanosleep_restart(struct restart_block *rb);

long sys_clock_gettime(int clock, void *tp)
{
	u64 ns = ktime_get_ns();
	long ts[2] = { ns / 1000000000, ns % 1000000000 };

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return -EINVAL;
	return copy_to_user(tp, ts, sizeof(ts)) ? -EFAULT : 0;
}

/*
 * Sleep until ktime_get_ns() reaches end, and whole timer ticks (HZ) for
 * the time left, rounded up — both: an emulator that fell behind delivers
 * missed ticks in a burst, so ticks alone may end a sleep early.  0, or
 * for a signal the time left in rmtp (if given) and -ERESTART_RESTARTBLOCK:
 * -EINTR after a handler, else restart_syscall sleeps on to the same end
 * (Linux's do_nanosleep and hrtimer_nanosleep_restart).
 */
static long do_nanosleep(u64 end, void *rmtp)
{
	u64 left = end - MIN(end, ktime_get_ns());
	unsigned long until = jiffies + (left * HZ + 999999999) / 1000000000 + 1;

	for (;;) {
		unsigned long j = jiffies;

		if ((long)(j - until) >= 0 && ktime_get_ns() >= end)
			return 0;
		if (signal_pending(current)) {
			struct restart_block *rb = &current->restart_block;
			long rem[2];

			left = end - MIN(end, ktime_get_ns());
			rem[0] = left / 1000000000;
			rem[1] = left % 1000000000;
			if (rmtp && copy_to_user(rmtp, rem, sizeof(rem)))
				return -EFAULT;
			rb->fn = nanosleep_restart;
			rb->nanosleep.expires = end;
			rb->nanosleep.rmtp = rmtp;
			return -ERESTART_RESTARTBLOCK;
		}
		(void)wait_var_event_interruptible((void *)&jiffies, jiffies != j); /* the next tick */
	}
}

static long nanosleep_restart(struct restart_block *rb)
{
	return do_nanosleep(rb->nanosleep.expires, rb->nanosleep.rmtp);
}

/* nanosleep(req, rem): sleep at least req; rem gets what is left if a signal ends it. */
long sys_nanosleep(const void *ureq, void *urem)
{
	long req[2];

	if (copy_from_user(req, ureq, sizeof(req)))
		return -EFAULT;
	if (req[0] < 0 || req[1] < 0 || req[1] >= 1000000000)
		return -EINVAL;
	if (req[0] > NANOSLEEP_MAX_SECS)
		req[0] = NANOSLEEP_MAX_SECS;
	return do_nanosleep(ktime_get_ns() + req[0] * 1000000000ULL + req[1], urem);
}
