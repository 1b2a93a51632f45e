/*
 * Where a system call's number, arguments and result sit in the register
 * frame (Linux's asm/syscall.h).  The x86-64 ABI: rax = number, rdi rsi
 * rdx r10 r8 r9 = arguments, rax = result or -errno.
 */
#ifndef ASM_SYSCALL_H
#define ASM_SYSCALL_H

#include <asm/ptrace.h>
#include "linux/errno.h"

struct task_struct;

/*
 * As in Linux, the number is the low 32 bits of rax (the high half is
 * ignored), kept at entry in the error code slot (Linux's orig_ax): rax
 * takes the result, and a restart needs the number again.  rt_sigreturn
 * sets it to -1: no call to restart.
 */
static inline int syscall_get_nr(struct task_struct *task, struct pt_regs *regs)
{
	return (int)regs->error_code;
}

static inline void syscall_get_arguments(struct task_struct *task, struct pt_regs *regs,
					 unsigned long *args)
{
	args[0] = regs->rdi;
	args[1] = regs->rsi;
	args[2] = regs->rdx;
	args[3] = regs->r10;
	args[4] = regs->r8;
	args[5] = regs->r9;
}

/* The result: -error if error is non-zero, otherwise val. */
static inline void syscall_set_return_value(struct task_struct *task, struct pt_regs *regs,
					    int error, long val)
{
	regs->rax = error ? (long)error : val;
}

/* Did regs enter by SYSCALL, with a call still to finish (Linux's orig_ax >= 0)? */
static inline bool in_syscall(const struct pt_regs *regs)
{
	return regs->vector == (u64)-1 && (long)regs->error_code >= 0;
}

/*
 * Did the call in regs return one of the restart codes (linux/errno.h)?
 * Inline: every return to user mode asks, every page fault's too.
 */
static inline bool syscall_needs_restart(const struct pt_regs *regs)
{
	long ret = regs->rax;

	return in_syscall(regs) && (ret == -ERESTARTSYS || ret == -ERESTARTNOINTR ||
				    ret == -ERESTARTNOHAND || ret == -ERESTART_RESTARTBLOCK);
}

#endif
