/*
 * kmain: the first C code, entered from boot/boot.asm in long mode on the
 * boot stack with the Multiboot2 magic and info address.
 *
 * Order matters: console first (so failures can be seen), traps (so faults
 * are reported), the memory map, the real page tables, the buddy, then the
 * timer and interrupts.
 */
#include "kernel/printk.h"
#include "kernel/cmdline.h"
#include "kernel/ktest.h"
#include "kernel/string.h"
#include "mm/mm.h"
#include "mm/memblock.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/irqflags.h>

void crash_if_asked(void);

#define VARIANT (IS_ENABLED(CONFIG_NO_PAGE_MAPCOUNT) ? "no-page-mapcount" : "page-mapcount")

extern char _kernel_phys_start[], _kernel_end[];

static void setup_loglevel(void)
{
	char val[8];

	if (cmdline_get(boot_info.cmdline, "loglevel", val, sizeof(val)))
		console_loglevel = simple_strtoul(val, NULL, 10);
}

/* Run the self-tests named by "ktest[=suite]" and power off with the result. */
static void run_ktest_if_asked(void)
{
	char filter[32];

	if (!cmdline_get(boot_info.cmdline, "ktest", filter, sizeof(filter)))
		return;
	arch_power_off(ktest_run_all(filter) ? 1 : 0);
}

void kmain(unsigned long magic, unsigned long info_pa)
{
	tsc_mark_boot();
	uart_init();
	trap_init();
	memblock_reserve(0, 1UL << 20);         /* BIOS data, EBDA, VGA hole */
	memblock_reserve((phys_addr_t)_kernel_phys_start,
			 __pa(_kernel_end) - (phys_addr_t)_kernel_phys_start);
	multiboot_parse(magic, info_pa);
	setup_loglevel();
	pr_notice("foliOS (%s) x86-64, built " __DATE__ " " __TIME__ "\n", VARIANT);
	pr_notice("Command line: %s\n", boot_info.cmdline);
	mmu_init();
	cpu_features_init();
	mem_init();
	mmu_early_done();
	timer_init();
	local_irq_enable();
	crash_if_asked();
	run_ktest_if_asked();
	pr_notice("foliOS: no user space yet; idle. (Ctrl-A X quits QEMU)\n");
	for (;;)
		halt();
}
