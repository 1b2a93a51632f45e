/*
 * Signals: for now only their default actions that end a task (no user
 * handlers yet), with the wait status Linux reports.
 */
#ifndef FOLIOS_SIGNAL_H
#define FOLIOS_SIGNAL_H

#include "kernel/types.h"

#define SIGILL  4
#define SIGBUS  7
#define SIGFPE  8
#define SIGKILL 9
#define SIGSEGV 11
#define SIGPIPE 13
#define SIGTERM 15
#define SIGSTOP 19
#define SIG_BLOCK   0                   /* rt_sigprocmask's how */
#define SIG_SETMASK 2
#define ESRCH   3

/* A fault the task cannot survive: it dies of sig now. */
__noreturn void force_sig_fault(int sig, unsigned long addr);
void exit_to_user_mode(void);

#endif
