/*
 * panic: report a kernel bug and stop.  Prints the reason, the registers
 * and a symbolized backtrace (the arch's show_regs()), then powers off with
 * the panic exit code (run-qemu.sh exits 125).  A panic inside a panic just
 * powers off.  One CPU reports (Linux's panic_cpu): another CPU that
 * panics meanwhile, often of the same corruption, stands still with
 * interrupts off instead of powering off under the report.
 */
#include "linux/panic.h"
#include "linux/smp.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/irqflags.h>

static int panic_cpu = -1;

/* Make this CPU the one that reports, or stop it (a nested panic powers off). */
static void panic_claim(void)
{
	int cpu = (int)smp_processor_id(), old = -1;

	if (__atomic_compare_exchange_n(&panic_cpu, &old, cpu, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		return;
	if (old == cpu)
		arch_panic_power_off();
	for (;;)
		halt();
}

static __noreturn void vpanic(const struct pt_regs *regs, const char *fmt, va_list ap)
{
	struct pt_regs here;
	char reason[256];

	local_irq_disable();
	panic_claim();
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
