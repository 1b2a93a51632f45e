/*
 * The wall clock (Linux's kernel/time/timekeeping.c and the calls of
 * kernel/time/time.c): CLOCK_REALTIME is the monotonic clock plus
 * offs_real, set at boot from the battery-backed clock (the CMOS RTC:
 * arch/x86_64/rtc.c) and by clock_settime/settimeofday.
 *
 *   real = ktime_get_ns() + offs_real       (ns since 1970-01-01 UTC)
 *
 * Setting the time moves offs_real only: the monotonic clock never jumps.
 * offs_real and the time zone live in the vDSO's data page
 * (include/vdso/datapage.h), where user mode reads them too.
 *
 * Locks: offs_real is one 64-bit word, stored and loaded whole; the time
 * zone's two words are written under tz_lock, and read under it by the
 * system call (the vDSO reads them without).
 */
#include "linux/capability.h"
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/printk.h"
#include "linux/spinlock.h"
#include "linux/time64.h"
#include "linux/uaccess.h"
#include "uapi/linux/time.h"
#include "vdso/datapage.h"

static spinlock_t tz_lock = SPINLOCK_INIT("tz_lock");

/*
 * Seconds from 1970-01-01 to the date given (month 1..12, day 1..31; UTC),
 * by counting days in 400-year eras of 146097 days from a year that
 * starts in March, so that February's leap day comes last.
 */
s64 mktime64(unsigned int year, unsigned int mon, unsigned int day, unsigned int hour,
	     unsigned int min, unsigned int sec)
{
	s64 y = (s64)year - (mon <= 2), era = y / 400, yoe = y - era * 400;
	s64 doy = (153 * (mon > 2 ? mon - 3 : mon + 9) + 2) / 5 + day - 1;
	s64 days = era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;

	return ((days * 24 + hour) * 60 + min) * 60 + sec;
}

/* At boot, after the timer: the wall clock starts at the RTC's date. */
void timekeeping_init(void)
{
	s64 now = read_persistent_clock64();

	WRITE_ONCE(vdso_data->offs_real, now * NSEC_PER_SEC - (s64)ktime_get_ns());
	pr_info("clock: the RTC says %lld s since 1970\n", (long long)now);
}

u64 ktime_get_real_ns(void)
{
	return ktime_get_ns() + READ_ONCE(vdso_data->offs_real);
}

/*
 * Set CLOCK_REALTIME to ts (Linux's do_settimeofday64): -EINVAL for a
 * time the clocks could not count 30 years on from (Linux's
 * timespec64_valid_settod), or one before the boot (the monotonic clock's
 * count since boot must fit in it); -EPERM without CAP_SYS_TIME.
 */
int do_settimeofday64(const struct timespec64 *ts)
{
	u64 real_ns;

	if (ts->tv_sec < 0 || ts->tv_sec >= TIME_SETTOD_SEC_MAX || ts->tv_nsec < 0 ||
	    ts->tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	real_ns = ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
	if (real_ns < ktime_get_ns())
		return -EINVAL;
	if (!capable(CAP_SYS_TIME))
		return -EPERM;
	WRITE_ONCE(vdso_data->offs_real, (s64)real_ns - (s64)ktime_get_ns());
	return 0;
}

/* gettimeofday(tv, tz): the wall clock in microseconds; the time zone as set (either may be NULL). */
long sys_gettimeofday(void *tv, void *tz)
{
	u64 ns = ktime_get_real_ns();
	struct __kernel_old_timeval t = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC / NSEC_PER_USEC };
	struct timezone z;
	unsigned long flags;

	if (tv && copy_to_user(tv, &t, sizeof(t)))
		return -EFAULT;
	spin_lock_irqsave(&tz_lock, flags);
	z = (struct timezone){ vdso_data->tz_minuteswest, vdso_data->tz_dsttime };
	spin_unlock_irqrestore(&tz_lock, flags);
	if (tz && copy_to_user(tz, &z, sizeof(z)))
		return -EFAULT;
	return 0;
}

/* settimeofday(tv, tz): EINVAL for a bad time or zone, as Linux's. */
long sys_settimeofday(const void *tv, const void *tz)
{
	struct __kernel_old_timeval t;
	struct timezone z;
	unsigned long flags;

	if (tv && copy_from_user(&t, tv, sizeof(t)))
		return -EFAULT;
	if (tz && copy_from_user(&z, tz, sizeof(z)))
		return -EFAULT;
	if (tv && (t.tv_usec < 0 || t.tv_usec >= NSEC_PER_SEC / NSEC_PER_USEC))
		return -EINVAL;
	if (tz && (z.tz_minuteswest < -15 * 60 || z.tz_minuteswest > 15 * 60))
		return -EINVAL;
	if (!capable(CAP_SYS_TIME))
		return -EPERM;
	if (tz) {
		spin_lock_irqsave(&tz_lock, flags);
		WRITE_ONCE(vdso_data->tz_minuteswest, z.tz_minuteswest);
		WRITE_ONCE(vdso_data->tz_dsttime, z.tz_dsttime);
		spin_unlock_irqrestore(&tz_lock, flags);
	}
	if (tv) {
		struct timespec64 ts = { t.tv_sec, t.tv_usec * NSEC_PER_USEC };

		return do_settimeofday64(&ts);
	}
	return 0;
}

/* time(tloc): seconds since 1970, also at tloc unless NULL. */
long sys_time(long *tloc)
{
	long secs = ktime_get_real_ns() / NSEC_PER_SEC;

	if (tloc && put_user(secs, tloc))
		return -EFAULT;
	return secs;
}
