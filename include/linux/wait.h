/*
 * Sleeping until something happens (Linux's include/linux/wait.h):
 * sleep_on(chan) puts the current task to sleep until wake_up(chan) wakes
 * every task sleeping on chan; kernel/sched.c.  mm/ and the host tests use
 * them without the rest of the task interface (the host's sleep_on yields).
 */
#ifndef _LINUX_WAIT_H
#define _LINUX_WAIT_H

void sleep_on(const void *chan);
void wake_up(const void *chan);

#endif
