/*
 * membarrier(2) (Linux's kernel/sched/membarrier.c): a memory barrier on
 * other CPUs, so that a thread can make its fast path barrier-free and pay
 * on the slow path instead.
 *
 *   GLOBAL                every CPU passes a full barrier: a grace period
 *                         (each CPU switched tasks, idled or went to user)
 *   GLOBAL_EXPEDITED      an IPI to every other CPU (for registered processes)
 *   PRIVATE_EXPEDITED     an IPI to the CPUs this process's mm may run on;
 *     _SYNC_CORE          the same (the IPI's return, iret, serializes x86)
 *     _RSEQ               the same, and their rseq critical sections restart
 *
 * The expedited private commands need the process's REGISTER_ first
 * (-EPERM otherwise), as Linux's; registrations live in the mm, across
 * fork, and end at exec (a new mm).  GET_REGISTRATIONS reports them.
 *
 * Locks: the registration bits are set atomically; the IPIs are
 * smp_call_function's.  mm_cpumask() may have CPUs that left the mm
 * (a superset), which only costs an IPI.
 */
#include "linux/errno.h"
#include "linux/rcupdate.h"
#include "linux/rseq.h"
#include "linux/sched.h"
#include "linux/smp.h"
#include "linux/syscalls.h"
#include "linux/mm_types.h"
#include "uapi/linux/membarrier.h"

/* mm->membarrier_state: what the process registered for (the REGISTER_ command's bit). */
#define MEMBARRIER_STATE_MASK (MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED | \
			       MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED | \
			       MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE | \
			       MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ)

#define MEMBARRIER_CMD_BITMASK (MEMBARRIER_CMD_GLOBAL | MEMBARRIER_CMD_GLOBAL_EXPEDITED | \
				MEMBARRIER_STATE_MASK | MEMBARRIER_CMD_PRIVATE_EXPEDITED | \
				MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE | \
				MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ | \
				MEMBARRIER_CMD_GET_REGISTRATIONS)

/* The IPI: a full barrier on that CPU (and for _RSEQ, its current thread's section restarts). */
static void ipi_mb(void *info)
{
	smp_mb();
}

static void ipi_rseq(void *info)
{
	smp_mb();
	rseq_preempt(current);
}

/* A full barrier on every CPU of mask (and this one), each done when this returns. */
static void membarrier_ipi(const struct cpumask *mask, bool rseq)
{
	smp_mb();
	on_each_cpu_mask(mask, rseq ? ipi_rseq : ipi_mb, NULL, true);
	smp_mb();
}

/* A private expedited command: -EPERM unless registered (reg, the REGISTER_ bit). */
static long membarrier_private(unsigned long reg, bool rseq, int flags, int cpu_id)
{
	struct mm_struct *mm = current->mm;
	struct cpumask mask;

	if (!(READ_ONCE(mm->membarrier_state) & reg))
		return -EPERM;
	smp_mb();       /* the caller's stores before the mask is read: entry is no barrier */
	mask = *mm_cpumask(mm);
	if ((flags & MEMBARRIER_CMD_FLAG_CPU) && cpu_id >= 0) {        /* < 0: every CPU */
		if (cpu_id >= NR_CPUS || !cpumask_test_cpu(cpu_id, cpu_online_mask))
			return 0;               /* Linux: nothing to do on a CPU that is not there */
		mask = (struct cpumask){ mask.bits & BIT(cpu_id) };
	}
	membarrier_ipi(&mask, rseq);
	return 0;
}

/*
 * membarrier(cmd, flags, cpu_id): see the top of this file.  QUERY
 * returns the commands there are; -EINVAL for another command, or flags
 * other than MEMBARRIER_CMD_FLAG_CPU with PRIVATE_EXPEDITED_RSEQ.
 */
long sys_membarrier(int cmd, unsigned int flags, int cpu_id)
{
	struct mm_struct *mm = current->mm;

	if (cmd == MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ ? flags & ~MEMBARRIER_CMD_FLAG_CPU : flags)
		return -EINVAL;
	switch (cmd) {
	case MEMBARRIER_CMD_QUERY:
		return MEMBARRIER_CMD_BITMASK;
	case MEMBARRIER_CMD_GLOBAL:
		synchronize_rcu();
		return 0;
	case MEMBARRIER_CMD_GLOBAL_EXPEDITED:
		membarrier_ipi(cpu_online_mask, false);
		return 0;
	case MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED:
	case MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED:
	case MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE:
	case MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ:
		set_bit(__builtin_ctz(cmd), &mm->membarrier_state);
		return 0;
	case MEMBARRIER_CMD_PRIVATE_EXPEDITED:
		return membarrier_private(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, false, 0, 0);
	case MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE:
		return membarrier_private(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, false,
					  0, 0);
	case MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ:
		return membarrier_private(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, true, flags,
					  cpu_id);
	case MEMBARRIER_CMD_GET_REGISTRATIONS:
		return READ_ONCE(mm->membarrier_state) & MEMBARRIER_STATE_MASK;
	}
	return -EINVAL;
}
