/*
 * Capabilities (Linux's include/linux/capability.h): each task's
 * effective, permitted and inheritable sets and its bounding set
 * (kernel/capability.c).  Every task is root, whose sets start full;
 * capset and PR_CAPBSET_DROP take bits away, and capable() is what the
 * privileged calls ask.
 */
#ifndef _LINUX_CAPABILITY_H
#define _LINUX_CAPABILITY_H

#include "linux/types.h"
#include "uapi/linux/capability.h"

#define CAP_FULL_SET    ((1ULL << (CAP_LAST_CAP + 1)) - 1)

struct task_struct;

/* A task's capability sets (part of Linux's struct cred). */
struct task_caps {
	u64 effective, permitted, inheritable, bset;
};

bool capable(int cap);
void cap_bprm_creds(struct task_struct *t);

#endif
