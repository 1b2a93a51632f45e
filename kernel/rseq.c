/*
 * Restartable sequences (Linux's kernel/rseq.c): a thread registers a
 * struct rseq (glibc does, for every thread, and reads sched_getcpu()
 * from it), which the kernel keeps telling the CPU the thread runs on,
 * and through which the thread names the critical section it is in: if
 * the thread was preempted, migrated or interrupted by a signal inside
 * it, it resumes at the section's abort address instead, so a
 * per-CPU sequence either completes on one CPU undisturbed or starts
 * over.
 *
 *   struct rseq (user)          cpu_id_start, cpu_id, node_id, mm_cid
 *      rseq_cs ---------------> struct rseq_cs { start_ip,
 *                                 post_commit_offset, abort_ip }
 *   [start_ip, start_ip + post_commit_offset): the section; abort_ip is
 *   preceded by the registration's 32-bit signature.
 *
 * When: schedule() marks a thread it switches away from (rseq_pending,
 * Linux's TIF_NOTIFY_RESUME with RSEQ_EVENT_PREEMPT/MIGRATE), the return
 * to user mode then runs rseq_handle_notify_resume(), and a signal's
 * delivery runs it before the handler's frame is built (Linux's
 * rseq_signal_deliver).  A bad area or descriptor is SIGSEGV.
 *
 * mm_cid is the CPU number here: unique among the running threads of a
 * process, as Linux promises, but not compacted to the fewest IDs.
 *
 * Locks: none; the area is the thread's own user memory, touched only by
 * the thread itself, with interrupts on (every access may fault).
 */
#include "linux/errno.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "linux/smp.h"
#include "linux/mm.h"
#include "uapi/linux/rseq.h"
#include "uapi/linux/sched.h"

/* Write the CPU IDs (cpu, or -1 to unregister) into t's area; 0 or -EFAULT. */
static int rseq_update_cpu_node_id(struct rseq *area, int cpu)
{
	struct { unsigned int cpu_id_start, cpu_id; } ids = { cpu < 0 ? 0 : cpu, cpu };
	unsigned int node_cid[2] = { 0, cpu < 0 ? 0 : cpu };

	if (copy_to_user(&area->cpu_id_start, &ids, sizeof(ids)) ||
	    copy_to_user(&area->node_id, node_cid, sizeof(node_cid)))
		return -EFAULT;
	return 0;
}

/*
 * The critical section the area names, read and checked as Linux's
 * rseq_get_rseq_cs: in user space, not wrapping, the abort address
 * outside the section and preceded by the registration's signature.
 * 1 with *cs, 0 if none is named, or -EFAULT/-EINVAL.
 */
static int rseq_get_rseq_cs(struct task_struct *t, struct rseq_cs *cs)
{
	unsigned long long ptr;
	unsigned int sig;

	if (copy_from_user(&ptr, &t->rseq->rseq_cs, sizeof(ptr)))
		return -EFAULT;
	if (!ptr)
		return 0;
	if (ptr >= TASK_SIZE_MAX || copy_from_user(cs, (void *)ptr, sizeof(*cs)))
		return -EFAULT;
	if (cs->version || cs->start_ip >= TASK_SIZE_MAX ||
	    cs->start_ip + cs->post_commit_offset < cs->start_ip ||
	    cs->start_ip + cs->post_commit_offset > TASK_SIZE_MAX ||
	    cs->abort_ip >= TASK_SIZE_MAX || cs->abort_ip < 4 ||
	    cs->abort_ip - cs->start_ip < cs->post_commit_offset)
		return -EINVAL;
	if (copy_from_user(&sig, (void *)(cs->abort_ip - 4), sizeof(sig)))
		return -EFAULT;
	return sig == t->rseq_sig ? 1 : -EINVAL;
}

/*
 * If the interrupted user state in regs is inside the area's critical
 * section, move it to the abort address (Linux's rseq_ip_fixup); either
 * way the section is over: rseq_cs is cleared.  The section's and the
 * area's flags (Linux's deprecated RSEQ_CS_FLAG_NO_RESTART_*) must be 0
 * when it restarts.  0, or -EFAULT/-EINVAL.
 */
static int rseq_ip_fixup(struct task_struct *t, struct pt_regs *regs)
{
	struct rseq_cs cs;
	unsigned long long zero = 0;
	unsigned int flags;
	int ret = rseq_get_rseq_cs(t, &cs);

	if (ret <= 0)
		return ret;
	if (regs->rip - cs.start_ip >= cs.post_commit_offset)
		return copy_to_user(&t->rseq->rseq_cs, &zero, sizeof(zero)) ? -EFAULT : 0;
	if (copy_from_user(&flags, &t->rseq->flags, sizeof(flags)))
		return -EFAULT;
	if (flags || cs.flags)
		return -EINVAL;
	if (copy_to_user(&t->rseq->rseq_cs, &zero, sizeof(zero)))
		return -EFAULT;
	regs->rip = cs.abort_ip;
	return 0;
}

/*
 * Bring current's area up to date before it returns to user mode with
 * regs (Linux's __rseq_handle_notify_resume): abort a critical section it
 * was taken out of, and write the CPU it will run on.  0, or -errno for
 * a fault or a bad descriptor.  Interrupts on: each access may fault and
 * sleep (and a sleep marks the thread again, for the caller's next turn).
 */
static int __rseq_handle_notify_resume(struct pt_regs *regs)
{
	struct task_struct *t = current;

	might_fault();
	t->rseq_pending = false;
	if (!t->rseq)
		return 0;
	if (rseq_ip_fixup(t, regs) || rseq_update_cpu_node_id(t->rseq, raw_smp_processor_id()))
		return -EFAULT;
	return 0;
}

/* The return to user mode's turn: a bad area or descriptor is SIGSEGV. */
void rseq_handle_notify_resume(struct pt_regs *regs)
{
	if (__rseq_handle_notify_resume(regs))
		force_sig_fault(SIGSEGV, SI_KERNEL, 0);
}

/*
 * A signal's handler is about to run on regs: a section it interrupted
 * aborts first.  -EFAULT if the area or descriptor is bad: the caller
 * then kills as a frame it cannot build does (Linux's force_sigsegv).
 */
int rseq_signal_deliver(struct pt_regs *regs)
{
	return current->rseq ? __rseq_handle_notify_resume(regs) : 0;
}

/* A new thread (CLONE_VM) registers its own area; a forked process keeps its parent's. */
void rseq_fork(struct task_struct *c, unsigned long clone_flags)
{
	if (clone_flags & CLONE_VM) {
		c->rseq = NULL;
		c->rseq_len = c->rseq_sig = 0;
	} else {
		c->rseq = current->rseq;
		c->rseq_len = current->rseq_len;
		c->rseq_sig = current->rseq_sig;
		c->rseq_pending = c->rseq != NULL;
	}
}

/* exec: the new program has not registered. */
void rseq_execve(struct task_struct *t)
{
	t->rseq = NULL;
	t->rseq_len = t->rseq_sig = 0;
}

/* rseq(area, len, RSEQ_FLAG_UNREGISTER, sig): the checks of Linux, in its order. */
static long rseq_unregister(struct rseq *area, u32 len, int flags, u32 sig)
{
	struct task_struct *t = current;

	if (flags & ~RSEQ_FLAG_UNREGISTER)
		return -EINVAL;
	if (t->rseq != area || !t->rseq || len != t->rseq_len)
		return -EINVAL;
	if (sig != t->rseq_sig)
		return -EPERM;
	if (rseq_update_cpu_node_id(area, RSEQ_CPU_ID_UNINITIALIZED))
		return -EFAULT;
	rseq_execve(t);
	return 0;
}

/*
 * rseq(area, len, flags, sig): register current's area (len at least
 * ORIG_RSEQ_SIZE, aligned to it), whose critical sections' abort
 * addresses follow sig; -EBUSY if this one is registered already, -EINVAL
 * for another (or another length), -EPERM for another signature.  The
 * CPU IDs are written on the way back to user mode.
 */
long sys_rseq(void *uarea, u32 len, int flags, u32 sig)
{
	struct rseq *area = uarea;
	struct task_struct *t = current;

	if (flags & RSEQ_FLAG_UNREGISTER)
		return rseq_unregister(area, len, flags, sig);
	if (flags)
		return -EINVAL;
	if (t->rseq) {
		if (t->rseq != area || len != t->rseq_len)
			return -EINVAL;
		return sig != t->rseq_sig ? -EPERM : -EBUSY;
	}
	if (!IS_ALIGNED((unsigned long)area, ORIG_RSEQ_SIZE) || len < ORIG_RSEQ_SIZE)
		return -EINVAL;
	if (!access_ok((unsigned long)area, len))
		return -EFAULT;
	t->rseq = area;
	t->rseq_len = len;
	t->rseq_sig = sig;
	t->rseq_pending = true;
	return 0;
}
