/*
 * Process identity, groups, limits, resource usage (times, getrusage: the
 * CPU time kernel/sched/cputime.c keeps) and system information: the calls
 * Linux has in kernel/sys.c, with the resource limits (do_prlimit).
 *
 * Every process runs as root: each user and group id is 0.
 *
 * Lock order: see linux/sched.h; the task list is walked, a task looked up
 * and used (its group, its limits) in one hold of tasklist_lock: a task
 * reaped meanwhile is freed once off the list.
 */
#include "linux/sched/signal.h"
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/swap.h"
#include "linux/sched.h"
#include "linux/uaccess.h"
#include "linux/string.h"
#include "linux/mm.h"
#include "linux/mmap_lock.h"
#include "linux/vmstat.h"
#include <asm/arch.h>
#include <asm/timex.h>
#include "uapi/linux/prctl.h"
#include "uapi/linux/sysinfo.h"
#include "linux/utsname.h"
#include "linux/time64.h"
#include "uapi/linux/time.h"

long sys_getpid(void)
{
	return current->tgid;
}

/* The thread's own id; the group leader's is the process id. */
long sys_gettid(void)
{
	return current->pid;
}

long sys_getppid(void)
{
	return current->parent ? current->parent->tgid : 0;
}

long sys_getuid(void)
{
	return 0;
}

long sys_geteuid(void)
{
	return 0;
}

long sys_getgid(void)
{
	return 0;
}

long sys_getegid(void)
{
	return 0;
}

/* setpgid's checks and change, under tasklist_lock (the lookup, the group walk, the change). */
static long __setpgid(int pid, int pgid)
{
	struct task_struct *p, *g, *th, *me = current->group_leader;

	p = find_task_by_vpid(pid);
	if (!p || p->pid != p->tgid || (p != me && p->parent != me))
		return -ESRCH;
	if (p != me && p->sid != me->sid)
		return -EPERM;
	if (p != me && p->did_exec)
		return -EACCES;
	if (p->sid == p->pid)                   /* a session leader stays in its group */
		return -EPERM;
	if (pgid != pid) {
		for_each_process(g)
			if (g->pgid == pgid && g->sid == me->sid)
				break;
		if (&g->task_list == &all_tasks)
			return -EPERM;
	}
	for_each_thread(p, th)
		th->pgid = pgid;
	return 0;
}

/*
 * setpgid(pid, pgid): put the caller or one of its children (pid; 0 is
 * the caller) into group pgid (0: its own pid), as Linux checks it:
 * EINVAL for pgid < 0, ESRCH for a process not ours, EPERM for a child
 * in another session, EACCES for a child that has exec'd, EPERM for a
 * session leader or a group with no member in the caller's session.
 */
long sys_setpgid(int pid, int pgid)
{
	unsigned long flags;
	long ret;

	if (!pid)
		pid = current->tgid;
	if (!pgid)
		pgid = pid;
	if (pgid < 0)
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);
	ret = __setpgid(pid, pgid);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ret;
}

/* pid's (0: the caller's) process group or session, a zombie's too; -ESRCH. */
static long pid_pgid_sid(int pid, bool sid)
{
	struct task_struct *p;
	unsigned long flags;
	long ret;

	spin_lock_irqsave(&tasklist_lock, flags);
	p = pid ? find_task_by_vpid(pid) : current;
	ret = !p ? -ESRCH : sid ? p->sid : p->pgid;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ret;
}

long sys_getpgid(int pid)
{
	return pid_pgid_sid(pid, false);
}

long sys_getpgrp(void)
{
	return current->pgid;
}

long sys_getsid(int pid)
{
	return pid_pgid_sid(pid, true);
}

/*
 * setsid(): the caller's process leads a new session and a new group,
 * both its pid, with no controlling terminal; EPERM if a process group
 * of that number exists (the caller leads one), as Linux's ksys_setsid.
 */
long sys_setsid(void)
{
	struct task_struct *me = current->group_leader, *g, *th;
	unsigned long flags;
	long ret = me->tgid;

	spin_lock_irqsave(&tasklist_lock, flags);
	for_each_process(g)
		if (g->pgid == me->tgid)
			ret = -EPERM;
	if (ret > 0) {
		for_each_thread(me, th) {
			th->pgid = me->tgid;
			th->sid = me->tgid;
		}
		me->signal->tty = NULL;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ret;
}

const struct new_utsname init_uts_name = {
	.sysname = "Linux", .nodename = "folios", .release = UTS_RELEASE,
	.version = UTS_VERSION, .machine = "x86_64", .domainname = "(none)",
};

long sys_newuname(struct new_utsname *name)
{
	return copy_to_user(name, &init_uts_name, sizeof(init_uts_name)) ? -EFAULT : 0;
}

static void ns_to_timeval(u64 ns, long tv[2])
{
	tv[0] = ns / NSEC_PER_SEC;
	tv[1] = ns % NSEC_PER_SEC / NSEC_PER_USEC;
}

/*
 * p's resource usage into r (Linux's getrusage): RUSAGE_SELF its whole
 * process, RUSAGE_THREAD p alone, RUSAGE_CHILDREN its reaped children
 * (and theirs), RUSAGE_BOTH the process and its children (wait4's).
 * User and system time by tick, page faults, context switches; the rest 0.
 * tasklist_lock held.
 */
void __getrusage(struct task_struct *p, int who, struct rusage *r)
{
	struct signal_struct *sig = p->signal;
	struct task_cputime t = { 0 };

	lockdep_assert_held(&tasklist_lock);
	memset(r, 0, sizeof(*r));
	if (who == RUSAGE_THREAD) {
		t.utime = READ_ONCE(p->utime);
		t.stime = READ_ONCE(p->stime);
		r->ru_minflt = READ_ONCE(p->min_flt);
		r->ru_majflt = READ_ONCE(p->maj_flt);
		r->ru_nvcsw = READ_ONCE(p->nvcsw);
		r->ru_nivcsw = READ_ONCE(p->nivcsw);
	} else {
		if (who != RUSAGE_CHILDREN) {
			unsigned long min_flt, maj_flt;
			struct task_struct *th;

			thread_group_cputime(p, &t);
			thread_group_faults(p, &min_flt, &maj_flt);
			r->ru_minflt = min_flt;
			r->ru_majflt = maj_flt;
			r->ru_nvcsw = sig->nvcsw;
			r->ru_nivcsw = sig->nivcsw;
			list_for_each_entry(th, &sig->thread_head, thread_node) {
				r->ru_nvcsw += READ_ONCE(th->nvcsw);
				r->ru_nivcsw += READ_ONCE(th->nivcsw);
			}
		}
		if (who != RUSAGE_SELF) {
			t.utime += sig->cutime;
			t.stime += sig->cstime;
			r->ru_minflt += sig->cmin_flt;
			r->ru_majflt += sig->cmaj_flt;
			r->ru_nvcsw += sig->cnvcsw;
			r->ru_nivcsw += sig->cnivcsw;
		}
	}
	ns_to_timeval(t.utime, r->ru_utime);
	ns_to_timeval(t.stime, r->ru_stime);
}

long sys_getrusage(int who, void *ru)
{
	struct rusage r;

	unsigned long flags;

	if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN && who != RUSAGE_THREAD)
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);
	__getrusage(current, who, &r);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return copy_to_user(ru, &r, sizeof(r)) ? -EFAULT : 0;
}

static long ns_to_clock_t(u64 ns)
{
	return ns / (NSEC_PER_SEC / USER_HZ);
}

/* times(buf): the process's and its reaped children's CPU time in clock ticks; returns ticks since boot. */
long sys_times(struct tms *tbuf)
{
	struct signal_struct *sig = current->signal;
	struct task_cputime t;
	struct tms tms;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	thread_group_cputime(current, &t);
	tms = (struct tms){ ns_to_clock_t(t.utime), ns_to_clock_t(t.stime),
			    ns_to_clock_t(sig->cutime), ns_to_clock_t(sig->cstime) };
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (tbuf && copy_to_user(tbuf, &tms, sizeof(tms)))
		return -EFAULT;
	return ns_to_clock_t(ktime_get_ns());
}

/* sysinfo: uptime, the load averages, memory and swap in bytes (shmem as sharedram), the threads (Linux's procs). */
long sys_sysinfo(void *info)
{
	struct sysinfo si = { .uptime = ktime_get_ns() / 1000000000, .mem_unit = 1 };
	struct task_struct *t;
	unsigned long flags;

	si.totalram = zone.managed_pages * PAGE_SIZE;
	si.freeram = zone.free_pages * PAGE_SIZE;
	si.sharedram = global_node_page_state(NR_SHMEM) * PAGE_SIZE;
	si.totalswap = READ_ONCE(total_swap_pages) * PAGE_SIZE;
	si.freeswap = atomic_long_read(&nr_swap_pages) * PAGE_SIZE;
	for (int i = 0; i < 3; i++)     /* /proc/loadavg's, in 16-bit fixed point (SI_LOAD_SHIFT) */
		si.loads[i] = READ_ONCE(avenrun[i]) << (16 - FSHIFT);
	spin_lock_irqsave(&tasklist_lock, flags);
	for_each_process(t)
		si.procs += t->signal->nr_threads;      /* Linux counts threads (nr_threads) */
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return copy_to_user(info, &si, sizeof(si)) ? -EFAULT : 0;
}

/*
 * Resource limits: each process (all its threads) has its own, inherited at fork and kept
 * across execve.  foliOS enforces RLIMIT_DATA and RLIMIT_AS (mmap, brk and
 * mprotect, through mm's may_expand_vm()), RLIMIT_NOFILE (the lowest free
 * fd) and RLIMIT_STACK (execve's argument space); RLIMIT_CORE is reported
 * (soft 0: no core is ever written); the others are kept and reported.
 * The defaults are Linux's for init, but for what foliOS sizes itself:
 * NOFILE is its fd table, NPROC and SIGPENDING are not limited.
 */
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
void rlimits_init(struct signal_struct *sig, const struct signal_struct *parent)
{
	memcpy(sig->rlim, parent ? parent->rlim : init_rlimits, sizeof(sig->rlim));
}

/* The running task's soft limit (linux/mm.h); RLIM_INFINITY before user space. */
unsigned long rlimit(unsigned int resource)
{
	return current && current->signal ? current->signal->rlim[resource].rlim_cur : RLIM_INFINITY;
}

unsigned long rlimit_max(unsigned int resource)
{
	return current && current->signal ? current->signal->rlim[resource].rlim_max : RLIM_INFINITY;
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
	if (new && new->rlim_max > t->signal->rlim[resource].rlim_max && !capable(CAP_SYS_RESOURCE))
		return -EPERM;          /* raising a hard limit */
	if (old)
		*old = t->signal->rlim[resource];
	if (new)
		t->signal->rlim[resource] = *new;
	return 0;
}

/*
 * do_prlimit() on process pid (0: the caller), looked up and changed in
 * one hold of tasklist_lock (Linux takes the leader's task_lock): -ESRCH
 * if there is none.
 */
static int do_prlimit_pid(int pid, unsigned int resource, const struct rlimit *new,
			  struct rlimit *old)
{
	struct task_struct *t;
	unsigned long flags;
	int ret = -ESRCH;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = pid ? find_task_by_vpid(pid) : current;
	if (t)
		ret = do_prlimit(t, resource, new, old);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ret;
}

/* prlimit64: any process's limits; Linux's order of checks (EFAULT, ESRCH, then EINVAL). */
long sys_prlimit64(int pid, unsigned int resource, const void *new_rlim, void *old_rlim)
{
	struct rlimit new, old;
	int ret;

	if (new_rlim && copy_from_user(&new, new_rlim, sizeof(new)))
		return -EFAULT;
	ret = do_prlimit_pid(pid, resource, new_rlim ? &new : NULL, old_rlim ? &old : NULL);
	if (!ret && old_rlim && copy_to_user(old_rlim, &old, sizeof(old)))
		ret = -EFAULT;
	return ret;
}

long sys_getrlimit(unsigned int resource, void *rlim)
{
	struct rlimit value;
	int ret = do_prlimit_pid(0, resource, NULL, &value);

	if (!ret && copy_to_user(rlim, &value, sizeof(value)))
		ret = -EFAULT;
	return ret;
}

long sys_setrlimit(unsigned int resource, const void *rlim)
{
	struct rlimit value;

	if (copy_from_user(&value, rlim, sizeof(value)))
		return -EFAULT;
	return do_prlimit_pid(0, resource, &value, NULL);
}

/*
 * PR_SET_CHILD_SUBREAPER's other half (Linux's propagate_has_child_subreaper):
 * every process below current learns that an ancestor may take its
 * orphans, so that its exit looks for one.  tasklist_lock held.
 */
static void propagate_has_child_subreaper(void)
{
	struct task_struct *p, *a;

	lockdep_assert_held(&tasklist_lock);
	for_each_process(p)
		for (a = p->parent; a; a = a->parent)
			if (a->group_leader == current->group_leader) {
				p->signal->has_child_subreaper = true;
				break;
			}
}

/* The options that set or read a flag of the process or its mm; -EINVAL for others. */
static long prctl_flags(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
			unsigned long arg5)
{
	struct mm_struct *mm = current->mm;
	unsigned long flags;

	switch (option) {
	case PR_SET_CHILD_SUBREAPER:
		spin_lock_irqsave(&tasklist_lock, flags);
		current->signal->is_child_subreaper = arg2;
		if (arg2)
			propagate_has_child_subreaper();
		spin_unlock_irqrestore(&tasklist_lock, flags);
		return 0;
	case PR_GET_CHILD_SUBREAPER:
		return put_user((int)current->signal->is_child_subreaper, (int *)arg2) ? -EFAULT : 0;
	case PR_SET_NO_NEW_PRIVS:
		if (arg2 != 1 || arg3 || arg4 || arg5)
			return -EINVAL;
		current->no_new_privs = true;
		return 0;
	case PR_GET_NO_NEW_PRIVS:
		return arg2 || arg3 || arg4 || arg5 ? -EINVAL : current->no_new_privs;
	case PR_SET_DUMPABLE:
		if (arg2 != SUID_DUMP_DISABLE && arg2 != SUID_DUMP_USER)
			return -EINVAL;
		mmap_write_lock(mm);
		mm->flags = (mm->flags & ~MMF_DUMPABLE_MASK) | arg2;
		mmap_write_unlock(mm);
		return 0;
	case PR_GET_DUMPABLE:
		return READ_ONCE(mm->flags) & MMF_DUMPABLE_MASK;
	case PR_SET_THP_DISABLE:
		if (arg3 || arg4 || arg5)
			return -EINVAL;
		mmap_write_lock(mm);
		if (arg2)
			set_bit(MMF_DISABLE_THP, &mm->flags);
		else
			clear_bit(MMF_DISABLE_THP, &mm->flags);
		mmap_write_unlock(mm);
		return 0;
	case PR_GET_THP_DISABLE:
		return arg2 || arg3 || arg4 || arg5 ? -EINVAL : test_bit(MMF_DISABLE_THP, &mm->flags);
	}
	return -EINVAL;
}

/*
 * prctl(2), the options programs use, with Linux's argument checks: the
 * task's name (PR_SET_NAME truncates to 15 bytes, PR_GET_NAME copies all
 * 16), its parent-death signal (sent by forget_original_parent), its
 * bounding set, the securebits (none), and the flags of prctl_flags():
 * child subreaper, no_new_privs, dumpable, THP disabled.  Every other
 * option is EINVAL, Linux's answer for one it does not know or was built
 * without (e.g. KSM's PR_SET_MEMORY_MERGE, which programs probe for).
 */
long sys_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	       unsigned long arg5)
{
	char comm[TASK_COMM_LEN] = { 0 };

	switch (option) {
	case PR_SET_NAME:
		if (strncpy_from_user(comm, (const char *)arg2, sizeof(comm)) == -EFAULT)
			return -EFAULT;
		comm[sizeof(comm) - 1] = '\0';
		memcpy(current->comm, comm, sizeof(comm));
		return 0;
	case PR_GET_NAME:
		return copy_to_user((void *)arg2, current->comm, TASK_COMM_LEN) ? -EFAULT : 0;
	case PR_SET_PDEATHSIG:
		if (!valid_signal(arg2))
			return -EINVAL;
		WRITE_ONCE(current->pdeath_signal, arg2);
		return 0;
	case PR_GET_PDEATHSIG:
		return put_user(READ_ONCE(current->pdeath_signal), (int *)arg2) ? -EFAULT : 0;
	case PR_CAPBSET_READ:
		return cap_valid((long)arg2) ? !!(current->caps.bset & BIT(arg2)) : -EINVAL;
	case PR_CAPBSET_DROP:
		if (!capable(CAP_SETPCAP))
			return -EPERM;
		if (!cap_valid((long)arg2))
			return -EINVAL;
		WRITE_ONCE(current->caps.bset, current->caps.bset & ~BIT(arg2));
		return 0;
	case PR_GET_SECUREBITS:
		return 0;
	default:
		return prctl_flags(option, arg2, arg3, arg4, arg5);
	}
}
