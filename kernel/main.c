/*
 * kmain: the first C code, entered from boot/boot.asm in long mode on the
 * boot stack with the Multiboot2 magic and info address.
 *
 * Order matters: console first (so failures can be seen), traps (so faults
 * are reported), the memory map, the real page tables, the buddy, then the
 * APICs (from ACPI's MADT), the timer and interrupts, then the other CPUs.
 */
#include "linux/swap.h"
#include "linux/printk.h"
#include "linux/random.h"
#include "linux/cmdline.h"
#include "linux/time64.h"
#include "linux/huge_mm.h"
#include "linux/rmap_trace.h"
#include "linux/mapcount_shadow.h"
#include "linux/fault-inject.h"
#include "linux/ktest.h"
#include "linux/string.h"
#include "linux/sched.h"
#include "linux/smp.h"
#include "linux/initrd.h"
#include "linux/pci.h"
#include "linux/virtio.h"
#include "linux/shmem_fs.h"
#include "linux/mm.h"
#include "linux/memblock.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/irqflags.h>

void crash_if_asked(void);


extern char _kernel_phys_start[], _kernel_end[];

static void setup_loglevel(void)
{
	char val[8];

	if (cmdline_get(boot_info.cmdline, "loglevel", val, sizeof(val)))
		console_loglevel = simple_strtoul(val, NULL, 10);
}

/*
 * mm switches from the command line: the THP policy in Linux's syntax
 * (transparent_hugepage=always|madvise|never, thp_anon=16K,32K:always;…)
 * and foliOS's mapcount_trace=all|order:N|pfn:P; allocation fault injection
 * and disk I/O fault injection (Linux's fail_page_alloc=, failslab= and
 * fail_make_request=, foliOS's fail_seed=).
 */
static void setup_mm_options(void)
{
	char val[128];

	if (cmdline_get(boot_info.cmdline, "transparent_hugepage", val, sizeof(val)) &&
	    thp_enabled_cmdline(val))
		pr_warn("transparent_hugepage=%s: not always, madvise or never; ignored\n", val);
	if (cmdline_get(boot_info.cmdline, "thp_anon", val, sizeof(val)) && thp_anon_cmdline(val))
		pr_warn("thp_anon=%s: bad size or mode; the groups before it were taken\n", val);
	if (cmdline_get(boot_info.cmdline, "mapcount_trace", val, sizeof(val)) &&
	    rmap_trace_control(val))
		pr_warn("mapcount_trace=%s: not off, all, order:N or pfn:P; ignored\n", val);
	if (cmdline_get(boot_info.cmdline, "fail_page_alloc", val, sizeof(val)) &&
	    setup_fault_attr(&fail_page_alloc, val))
		pr_warn("fail_page_alloc=%s: not interval,probability,space,times; ignored\n", val);
	if (cmdline_get(boot_info.cmdline, "failslab", val, sizeof(val)) &&
	    setup_fault_attr(&failslab, val))
		pr_warn("failslab=%s: not interval,probability,space,times; ignored\n", val);
	if (cmdline_get(boot_info.cmdline, "fail_make_request", val, sizeof(val)) &&
	    setup_fault_attr(&fail_make_request, val))
		pr_warn("fail_make_request=%s: not interval,probability,space,times; ignored\n", val);
	if (cmdline_get(boot_info.cmdline, "fail_seed", val, sizeof(val)))
		fault_inject_seed(simple_strtoul(val, NULL, 0));
	if (cmdline_has(boot_info.cmdline, "mapcount_shadow") && mapcount_shadow_setup())
		pr_warn("mapcount_shadow: no memory, or no rmap hook (RMAP_TRACE=0); off\n");
}

/* Run the self-tests named by "ktest[=suite]" and power off with the result. */
static void run_ktest_if_asked(void)
{
	char filter[32];

	if (!cmdline_get(boot_info.cmdline, "ktest", filter, sizeof(filter)))
		return;
	arch_power_off(ktest_run_all(filter) ? 1 : 0);
}

/* Find the initrd module and start /bin/init in it as PID 1. */
static __noreturn void start_user_space(void)
{
	int ret;

	for (unsigned int i = 0; i < boot_info.nr_modules; i++)
		if (!strcmp(boot_info.modules[i].name, "initrd"))
			initrd_init(__va(boot_info.modules[i].start),
				    boot_info.modules[i].end - boot_info.modules[i].start);
	shmem_init();
	mnt_init();
	sched_init();
	kswapd_run();
	futex_init();
	ret = user_init_from_cmdline(boot_info.cmdline);
	if (ret)
		panic("start_user_space: cannot run /bin/init (%d)", ret);
	cpu_startup_entry();
}

void kmain(unsigned long magic, unsigned long info_pa)
{
	tsc_mark_boot();
	uart_init();
	trap_init();
	arch_cpu_init();                        /* GS: current reads it from here on */
	memblock_reserve(0, 1UL << 20);         /* BIOS data, EBDA, VGA hole */
	memblock_reserve((phys_addr_t)_kernel_phys_start,
			 __pa(_kernel_end) - (phys_addr_t)_kernel_phys_start);
	multiboot_cmdline(magic, info_pa);
	setup_loglevel();
	multiboot_parse(magic, info_pa);
	pr_notice("foliOS (%s) x86-64, built " __DATE__ " " __TIME__ "\n", MAPCOUNT_VARIANT);
	pr_notice("Command line: %s\n", boot_info.cmdline);
	mmu_init();
	cpu_features_init();
	mem_init();
	setup_mm_options();
	mmu_early_done();
	acpi_boot_init();
	apic_intr_mode_init();
	timer_init();
	timekeeping_init();
	vdso_init();
	random_init();                          /* after the clocks: they are part of the seed */
	uart_startup();
	local_irq_enable();
	pci_subsys_init();                      /* devices and their drivers: before smp_init */
	virtio_blk_init();
	smp_init();
	crash_if_asked();
	run_ktest_if_asked();
	start_user_space();
}
