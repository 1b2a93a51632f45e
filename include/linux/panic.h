/* Fatal errors: panic with a register dump and backtrace, then power off. */
#ifndef _LINUX_PANIC_H
#define _LINUX_PANIC_H

#include "linux/printk.h"
#include <asm/ptrace.h>

__printf(2, 3) __noreturn void panic_regs(const struct pt_regs *regs, const char *fmt, ...);

#endif
