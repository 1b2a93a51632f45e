/* Clocks and interval timers (linux/time.h, linux/time_types.h). */
#ifndef _UAPI_LINUX_TIME_H
#define _UAPI_LINUX_TIME_H

#define CLOCK_REALTIME          0
#define CLOCK_MONOTONIC         1

#define ITIMER_REAL             0       /* counts real time, SIGALRM */
#define ITIMER_VIRTUAL          1
#define ITIMER_PROF             2

struct __kernel_old_timeval {
	long tv_sec, tv_usec;
};

struct __kernel_old_itimerval {
	struct __kernel_old_timeval it_interval;        /* reload value; 0: once */
	struct __kernel_old_timeval it_value;           /* time to the next expiry; 0: disarmed */
};

#endif
