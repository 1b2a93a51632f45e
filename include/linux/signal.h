/*
 * Signals (kernel/signal.c): dispositions per task, kill() to a process,
 * a process group or everyone, and the default actions, with Linux's
 * names.  No user handler runs yet (they arrive with the selftests issue):
 * a handler acts as SIG_DFL, and no signal is blocked.
 */
#ifndef _LINUX_SIGNAL_H
#define _LINUX_SIGNAL_H

#include "linux/types.h"
#include "uapi/linux/signal.h"


/* One signal's disposition, in the layout of rt_sigaction's struct (x86-64). */
struct k_sigaction {
	unsigned long handler;          /* SIG_DFL, SIG_IGN or a user address */
	unsigned long flags;            /* SA_* */
	unsigned long restorer;
	unsigned long mask;
};

struct task_struct;

static inline bool valid_signal(unsigned long sig)
{
	return sig <= _NSIG;
}

/* A fault the task cannot survive: it dies of sig now. */
__noreturn void force_sig_fault(int sig, unsigned long addr);
int do_send_sig_info(int sig, struct task_struct *t);
int kill_pgrp(int pgrp, int sig);
bool do_notify_parent(struct task_struct *tsk);
void flush_signal_handlers(struct task_struct *t);
void exit_to_user_mode(void);

#endif
