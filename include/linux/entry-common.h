/*
 * The return to user mode (Linux's include/linux/entry-common.h), after
 * every system call, interrupt and exception from user mode.  The common
 * case — no reschedule asked for, no signal pending, no saved mask to
 * restore, no system call to restart, no RCU callback ready, no rseq area
 * to update — is decided here, inline, on the
 * way out of every page fault;
 * exit_to_user_mode() (kernel/signal_deliver.c) does the work otherwise.
 * Interrupts go off first and stay off: no signal can arrive between the
 * test and the return.
 */
#ifndef _LINUX_ENTRY_COMMON_H
#define _LINUX_ENTRY_COMMON_H

#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/rcupdate.h"
#include <asm/syscall.h>
#include <asm/irqflags.h>

/* Is there work before t may return to user mode with regs (Linux's EXIT_TO_USER_MODE_WORK)? */
static inline bool exit_to_user_mode_work(struct task_struct *t, struct pt_regs *regs)
{
	return t->need_resched || signal_pending(t) || t->restore_sigmask ||
	       syscall_needs_restart(regs) || rcu_core_pending() || t->rseq_pending;
}

static inline void exit_to_user_mode_prepare(struct pt_regs *regs)
{
	struct task_struct *t = current;

	local_irq_disable();
	if (unlikely(exit_to_user_mode_work(t, regs)))
		exit_to_user_mode(regs);
	if (IS_ENABLED(CONFIG_LOCKDEP))
		lockdep_sys_exit();
}

#endif
