/* Clocks (linux/time.h). */
#ifndef _UAPI_LINUX_TIME_H
#define _UAPI_LINUX_TIME_H

#define CLOCK_REALTIME          0
#define CLOCK_MONOTONIC         1

#endif
