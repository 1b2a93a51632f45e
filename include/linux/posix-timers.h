/*
 * POSIX per-process timers: timer_create and its calls (kernel/
 * posix-timers.c, Linux's kernel/time/posix-timers.c).  A process's
 * timers hang on its signal_struct->posix_timers, under tasklist_lock.
 */
#ifndef _LINUX_POSIX_TIMERS_H
#define _LINUX_POSIX_TIMERS_H

#include "linux/types.h"
#include "linux/list.h"
#include "linux/signal.h"

struct task_struct;
struct signal_struct;

/* One timer (Linux's struct k_itimer); every field under tasklist_lock. */
struct k_itimer {
	struct list_head list;          /* in signal->posix_timers */
	int it_id;                      /* timer_create's id, per process */
	int it_clock;                   /* CLOCK_* */
	int it_sigev_notify;            /* SIGEV_* */
	int it_pid;                     /* SIGEV_THREAD_ID's thread */
	int it_clock_pid;               /* CLOCK_THREAD_CPUTIME_ID: the thread whose time counts */
	bool it_wall;                   /* it_expires in CLOCK_REALTIME's time (absolute, or
					   _ALARM); else in the monotonic or CPU clock's */
	u64 it_expires;                 /* 0: disarmed; else the clock's ns at expiry, or for a
					   CPU clock the CPU time left (ns) */
	u64 it_interval;                /* ns; 0: one-shot */
	s64 it_overrun;                 /* expiries not signalled since the signal was queued */
	s64 it_overrun_last;            /* it_overrun as the last signal was taken (timer_getoverrun) */
	struct sigqueue *sigq;          /* preallocated, SIGQUEUE_PREALLOC: queued at most once */
};

void run_posix_timers(struct task_struct *leader, u64 mono_now, u64 real_now);
void run_posix_cpu_timers_tick(struct task_struct *p);
void posixtimer_collect(struct sigqueue *q, siginfo_t *info);
void __exit_itimers(struct signal_struct *sig);
void exit_itimers(struct signal_struct *sig);

#endif
