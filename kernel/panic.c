/*
 * panic: report a kernel bug and stop.  Prints the reason, the registers
 * and a symbolized backtrace (the arch's show_regs()), then powers off with
 * the panic exit code (run-qemu.sh exits 125).  A panic inside a panic just
 * powers off.
 */
#include "linux/panic.h"
#include <asm/arch.h>
#include <asm/irqflags.h>

static bool in_panic;

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
