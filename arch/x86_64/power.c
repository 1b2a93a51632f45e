/*
 * Power-off through QEMU's isa-debug-exit device (port 0xf4).  QEMU exits
 * with (value << 1) | 1, so a guest can never produce QEMU's own failure
 * code 1 or a 0:
 *
 *   value 0x10 -> QEMU exits 33: orderly power-off; the status went to the
 *                 debug console (port 0xe9) as "status N" first
 *   value 0x3e -> QEMU exits 125: kernel panic
 *
 * run-qemu.sh turns these into its own exit status (docs/contract.md).
 */
#include <asm/arch.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/cpu.h>
#include "linux/printk.h"

#define DEBUG_EXIT_PORT 0xf4
#define DEBUGCON_PORT   0xe9
#define EXIT_POWER_OFF  0x10
#define EXIT_PANIC      0x3e

static void debugcon_puts(const char *s)
{
	while (*s)
		outb(DEBUGCON_PORT, *s++);
}

static __noreturn void debug_exit(u8 value)
{
	local_irq_disable();
	uart_flush();
	outb(DEBUG_EXIT_PORT, value);
	for (;;)                /* not under QEMU: stop here */
		halt();
}

__noreturn void arch_power_off(int status)
{
	char line[32];

	snprintf(line, sizeof(line), "status %d\n", status & 0xff);
	debugcon_puts(line);
	debug_exit(EXIT_POWER_OFF);
}

__noreturn void arch_panic_power_off(void)
{
	debugcon_puts("panic\n");
	debug_exit(EXIT_PANIC);
}
