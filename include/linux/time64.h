/*
 * Kernel time (Linux's include/linux/time64.h and timekeeping.h): the
 * monotonic clock is ktime_get_ns() (the TSC since boot, arch); the wall
 * clock is it plus an offset set from the RTC at boot and by
 * clock_settime/settimeofday (kernel/timekeeping.c).
 */
#ifndef _LINUX_TIME64_H
#define _LINUX_TIME64_H

#include "linux/types.h"
#include <asm/arch.h>                  /* ktime_get_ns() */

#define NSEC_PER_USEC   1000L
#define USEC_PER_SEC    1000000L
#define NSEC_PER_MSEC   1000000L
#define NSEC_PER_SEC    1000000000L
#define TICK_NSEC       (NSEC_PER_SEC / HZ)     /* a tick of the timer, on every CPU */
#define USER_HZ         100             /* times(2)'s clock ticks, as x86 Linux's */

#define KTIME_SEC_MAX           (0x7fffffffffffffffLL / NSEC_PER_SEC)   /* Linux's */
#define TIME_SETTOD_SEC_MAX     (KTIME_SEC_MAX - 30LL * 365 * 86400)
#define NANOSLEEP_MAX_SECS      (1L << 32)      /* a longer sleep is forever (no u64 overflow) */

u64 ktime_get_real_ns(void);            /* since 1970-01-01 00:00 UTC */
struct __kernel_timespec;
int timespec_to_ns(const struct __kernel_timespec *ts, u64 *ns, s64 max_secs);
int get_timespec_ns(const void *utp, u64 *ns, s64 max_secs);        /* kernel/time.c */
long schedule_tick_timeout(unsigned long j, bool timed, u64 end);
int do_settimeofday64(const struct timespec64 *ts);
void timekeeping_init(void);
s64 mktime64(unsigned int year, unsigned int mon, unsigned int day, unsigned int hour,
	     unsigned int min, unsigned int sec);

/* The battery-backed clock's date at boot (arch: the CMOS RTC), in seconds since 1970. */
s64 read_persistent_clock64(void);

#endif
