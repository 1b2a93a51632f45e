/* Clocks and interval timers (linux/time.h, linux/time_types.h). */
#ifndef _UAPI_LINUX_TIME_H
#define _UAPI_LINUX_TIME_H

#define CLOCK_REALTIME          0       /* the date: settable */
#define CLOCK_MONOTONIC         1       /* since boot */
#define CLOCK_PROCESS_CPUTIME_ID 2      /* the process's CPU time */
#define CLOCK_THREAD_CPUTIME_ID 3       /* the thread's CPU time */
#define CLOCK_MONOTONIC_RAW     4
#define CLOCK_REALTIME_COARSE   5       /* tick resolution */
#define CLOCK_MONOTONIC_COARSE  6
#define CLOCK_BOOTTIME          7       /* = MONOTONIC: foliOS never suspends */
#define CLOCK_REALTIME_ALARM    8       /* timer_create only: = REALTIME here */
#define CLOCK_BOOTTIME_ALARM    9       /* timer_create only: = BOOTTIME here */

#define TIMER_ABSTIME           0x01    /* clock_nanosleep: an absolute time */

#define ITIMER_REAL             0       /* counts real time, SIGALRM */
#define ITIMER_VIRTUAL          1
#define ITIMER_PROF             2

struct __kernel_old_timeval {
	long tv_sec, tv_usec;
};

struct __kernel_timespec {
	long long tv_sec, tv_nsec;
};

/* timer_settime's and timer_gettime's setting. */
struct __kernel_itimerspec {
	struct __kernel_timespec it_interval;
	struct __kernel_timespec it_value;
};

struct timezone {
	int tz_minuteswest, tz_dsttime;
};

/* times(2), in clock ticks (USER_HZ, 100 as on x86 Linux) */
struct tms {
	long tms_utime, tms_stime, tms_cutime, tms_cstime;
};

struct __kernel_old_itimerval {
	struct __kernel_old_timeval it_interval;        /* reload value; 0: once */
	struct __kernel_old_timeval it_value;           /* time to the next expiry; 0: disarmed */
};

#endif
