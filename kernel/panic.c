/*
 * panic: report a kernel bug and stop.  Prints the reason, the registers, a
 * backtrace with symbol names, then powers off with the panic exit code
 * (run-qemu.sh exits 125).  A panic inside a panic just powers off.
 */
#include "linux/panic.h"
#include "linux/ksyms.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/irqflags.h>

static bool in_panic;

void show_regs(const struct pt_regs *r)
{
	char sym[96];

	ksym_format(r->rip, sym, sizeof(sym));
	pr_emerg("RIP: %04lx:%016lx %s\n", (unsigned long)r->cs, (unsigned long)r->rip, sym);
	pr_emerg("RSP: %04lx:%016lx EFLAGS: %08lx\n", (unsigned long)r->ss,
		 (unsigned long)r->rsp, (unsigned long)r->rflags);
	pr_emerg("RAX: %016lx RBX: %016lx RCX: %016lx\n", r->rax, r->rbx, r->rcx);
	pr_emerg("RDX: %016lx RSI: %016lx RDI: %016lx\n", r->rdx, r->rsi, r->rdi);
	pr_emerg("RBP: %016lx R08: %016lx R09: %016lx\n", r->rbp, r->r8, r->r9);
	pr_emerg("R10: %016lx R11: %016lx R12: %016lx\n", r->r10, r->r11, r->r12);
	pr_emerg("R13: %016lx R14: %016lx R15: %016lx\n", r->r13, r->r14, r->r15);
	pr_emerg("CR0: %016lx CR2: %016lx CR3: %016lx CR4: %016lx\n",
		 read_cr0(), read_cr2(), read_cr3(), read_cr4());
}

static __noreturn void vpanic(const struct pt_regs *regs, const char *fmt, va_list ap)
{
	struct pt_regs here;
	char reason[256];

	local_irq_disable();
	if (in_panic)
		arch_panic_power_off();
	in_panic = true;
	vsnprintf(reason, sizeof(reason), fmt, ap);
	pr_emerg("Kernel panic - not syncing: %s\n", reason);
	if (!regs) {
		arch_save_regs(&here);
		regs = &here;
	}
	show_regs(regs);
	arch_backtrace(regs->rbp, regs->rip);
	pr_emerg("---[ end Kernel panic - not syncing: %s ]---\n", reason);
	arch_panic_power_off();
}

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpanic(NULL, fmt, ap);
}

void panic_regs(const struct pt_regs *regs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpanic(regs, fmt, ap);
}
