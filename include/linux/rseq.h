/* Restartable sequences (kernel/rseq.c): the hooks of the scheduler, signals, fork and exec. */
#ifndef _LINUX_RSEQ_H
#define _LINUX_RSEQ_H

#include "linux/sched.h"

void rseq_handle_notify_resume(struct pt_regs *regs);
int rseq_signal_deliver(struct pt_regs *regs);
void rseq_fork(struct task_struct *c, unsigned long clone_flags);
void rseq_execve(struct task_struct *t);

/* t leaves its CPU (schedule): its area is brought up to date before it returns to user mode. */
static inline void rseq_preempt(struct task_struct *t)
{
	if (t->rseq)
		t->rseq_pending = true;
}

#endif
