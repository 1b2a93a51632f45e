/*
 * Fault injection for the allocators and the disks (Linux's fail_page_alloc,
 * failslab and fail_make_request, Documentation/fault-injection): a chosen
 * share of allocations or I/Os fails, so that every error path runs.  Armed only once user space starts, so boot
 * itself is not disturbed.
 *
 *   fail_page_alloc=<interval>,<probability>,<space>,<times>   (Linux's syntax)
 *   failslab=<interval>,<probability>,<space>,<times>
 *   fail_make_request=<interval>,<probability>,<space>,<times> (block I/O to a
 *       disk whose /sys/block/<disk>/make-it-fail is 1 ends with an error)
 *   fail_seed=<n>                                      (foliOS: the PRNG seed)
 *
 * Like Linux with task-filter set, only tasks marked through
 * /proc/<pid>/make-it-fail (inherited by their children) see failures:
 * the test runner marks each test, so the runner and init survive.
 *
 * interval: only every interval-th eligible call may fail (1: any);
 * probability: percent of those that fail; space: that many calls pass
 * before any fails; times: how many failures at most (-1: no limit).
 */
#ifndef _LINUX_FAULT_INJECT_H
#define _LINUX_FAULT_INJECT_H

#include "linux/types.h"

struct fault_attr {
	unsigned long interval, probability, space;
	long times;                     /* failures left; < 0: no limit */
	unsigned long calls, failures;  /* counted while armed */
	bool enabled;
};

extern struct fault_attr fail_page_alloc, failslab, fail_make_request;

void fault_inject_init(void);
int setup_fault_attr(struct fault_attr *attr, const char *str);
void fault_inject_seed(u64 seed);
void fault_inject_arm(bool on);
bool should_fail(struct fault_attr *attr);

/* Is the running task marked make-it-fail?  (kernel/fork.c; always on the host) */
bool fault_inject_task_allowed(void);

#endif
