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

long sys_clock_gettime(int clock, void *tp)
{
	u64 ns = ktime_get_ns();
	long ts[2] = { ns / 1000000000, ns % 1000000000 };

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return -EINVAL;
	return copy_to_user(tp, ts, sizeof(ts)) ? -EFAULT : 0;
}

/*
 * Sleep at least the requested time, in whole timer ticks (HZ), rounded
 * up — and by the clock clock_gettime reads: an emulator that fell behind
 * delivers missed ticks in a burst, so ticks alone may end a sleep early.
 */
long sys_nanosleep(const void *ureq, void *urem)
{
	long req[2];
	unsigned long ticks, until;
	u64 end;

	if (copy_from_user(req, ureq, sizeof(req)))
		return -EFAULT;
	if (req[0] < 0 || req[1] < 0 || req[1] >= 1000000000)
		return -EINVAL;
	ticks = req[0] * HZ + (req[1] * HZ + 999999999) / 1000000000;
	until = jiffies + ticks + 1;    /* the current tick is partly over */
	end = ktime_get_ns() + req[0] * 1000000000ULL + req[1];
	while ((long)(jiffies - until) < 0 || ktime_get_ns() < end) {
		if (current->pending_kill)
			return -EINTR;
		sleep_on((const void *)&jiffies);
	}
	return 0;
}
