/* The register frame the trap entry stubs push (arch/x86_64/entry.asm). */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include "linux/types.h"

struct pt_regs {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector, error_code;         /* pushed by the entry stub (0 if none) */
	u64 rip, cs, rflags, rsp, ss;   /* pushed by the CPU */
};

static inline bool user_mode(const struct pt_regs *regs)
{
	return (regs->cs & 3) == 3;
}

/* Print the registers and the backtrace from them (arch/x86_64/stacktrace.c). */
void show_regs(const struct pt_regs *regs);

#endif
