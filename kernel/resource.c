/*
 * Resource limits (Linux's getrlimit/setrlimit/prlimit64 and do_prlimit in
 * kernel/sys.c): each process has its own, inherited at fork and kept
 * across execve.  foliOS enforces RLIMIT_DATA and RLIMIT_AS (mmap, brk and
 * mprotect, through mm's may_expand_vm()), RLIMIT_NOFILE (the lowest free
 * fd) and RLIMIT_STACK (execve's argument space); RLIMIT_CORE is reported
 * (soft 0: no core is ever written); the others are kept and reported.  The defaults are Linux's for init, but for what foliOS sizes
 * itself: NOFILE is its fd table, NPROC and SIGPENDING are not limited.
 *
 * Lock order: see mm/rmap.c; none taken: a task changes only its own limits
 * or those of a task that cannot run meanwhile (one CPU, no preemption).
 */
#include "linux/errno.h"
#include "linux/sched.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "linux/string.h"
#include "mm/mm_api.h"

static const struct rlimit init_rlimits[RLIM_NLIMITS] = {
	[RLIMIT_CPU]            = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_FSIZE]          = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_DATA]           = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_STACK]          = { 8UL << 20, RLIM_INFINITY },
	[RLIMIT_CORE]           = { 0, RLIM_INFINITY },
	[RLIMIT_RSS]            = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_NPROC]          = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_NOFILE]         = { NR_OPEN, NR_OPEN },
	[RLIMIT_MEMLOCK]        = { 8UL << 20, 8UL << 20 },
	[RLIMIT_AS]             = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_LOCKS]          = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_SIGPENDING]     = { RLIM_INFINITY, RLIM_INFINITY },
	[RLIMIT_MSGQUEUE]       = { 819200, 819200 },
	[RLIMIT_NICE]           = { 0, 0 },
	[RLIMIT_RTPRIO]         = { 0, 0 },
	[RLIMIT_RTTIME]         = { RLIM_INFINITY, RLIM_INFINITY },
};

/* A new task's limits: its parent's, or init's defaults. */
void rlimits_init(struct task_struct *t, const struct task_struct *parent)
{
	memcpy(t->rlim, parent ? parent->rlim : init_rlimits, sizeof(t->rlim));
}

/* The running task's soft limit (mm/mm_api.h); RLIM_INFINITY before user space. */
unsigned long rlimit(unsigned int resource)
{
	return current ? current->rlim[resource].rlim_cur : RLIM_INFINITY;
}

unsigned long rlimit_max(unsigned int resource)
{
	return current ? current->rlim[resource].rlim_max : RLIM_INFINITY;
}

/*
 * Read and/or set t's limit of resource (Linux's do_prlimit).  A soft limit
 * above the hard one is EINVAL; NOFILE above the fd table's size is EPERM
 * (Linux's sysctl_nr_open rule); raising a hard limit needs
 * CAP_SYS_RESOURCE, which every foliOS process has (all run as root).
 */
static int do_prlimit(struct task_struct *t, unsigned int resource,
		      const struct rlimit *new, struct rlimit *old)
{
	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (new && new->rlim_cur > new->rlim_max)
		return -EINVAL;
	if (new && resource == RLIMIT_NOFILE && new->rlim_max > NR_OPEN)
		return -EPERM;
	if (old)
		*old = t->rlim[resource];
	if (new)
		t->rlim[resource] = *new;
	return 0;
}

/* prlimit64: any process's limits; Linux's order of checks (EFAULT, ESRCH, then EINVAL). */
long sys_prlimit64(int pid, unsigned int resource, const void *new_rlim, void *old_rlim)
{
	struct rlimit new, old;
	struct task_struct *t = current;
	int ret;

	if (new_rlim && copy_from_user(&new, new_rlim, sizeof(new)))
		return -EFAULT;
	if (pid && !(t = find_task_by_vpid(pid)))
		return -ESRCH;
	ret = do_prlimit(t, resource, new_rlim ? &new : NULL, old_rlim ? &old : NULL);
	if (!ret && old_rlim && copy_to_user(old_rlim, &old, sizeof(old)))
		ret = -EFAULT;
	return ret;
}

long sys_getrlimit(unsigned int resource, void *rlim)
{
	struct rlimit value;
	int ret = do_prlimit(current, resource, NULL, &value);

	if (!ret && copy_to_user(rlim, &value, sizeof(value)))
		ret = -EFAULT;
	return ret;
}

long sys_setrlimit(unsigned int resource, const void *rlim)
{
	struct rlimit value;

	if (copy_from_user(&value, rlim, sizeof(value)))
		return -EFAULT;
	return do_prlimit(current, resource, &value, NULL);
}
