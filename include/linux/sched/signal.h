/*
 * The running task's resource limits (Linux's include/linux/sched/signal.h
 * has them with the signal_struct that holds them): kernel/sys.c reads
 * current's; the host build of mm/ gives its own.
 */
#ifndef _LINUX_SCHED_SIGNAL_H
#define _LINUX_SCHED_SIGNAL_H

unsigned long rlimit(unsigned int resource);            /* the soft limit */
unsigned long rlimit_max(unsigned int resource);        /* the hard limit */

#endif
