/*
 * Starting the application processors (Linux's arch/x86/kernel/smpboot.c).
 *
 * CPU 0 is the boot CPU; the MADT's other enabled local APICs become CPUs
 * 1, 2, ... in MADT order.  Each AP is woken by INIT-SIPI-SIPI into the
 * real-mode trampoline (boot/trampoline.asm) at TRAMPOLINE_PA, climbs to
 * long mode, and arrives in start_secondary() on a stack of its own, where
 * it sets up its GDT/TSS, per-CPU area, FPU and local APIC, marks itself
 * online and enters the idle loop.  The boot CPU starts them one at a time
 * (the trampoline's parameters are shared) and waits for each to check in.
 */
#include "linux/errno.h"
#include "arch/x86_64/x86.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/fpu.h>
#include <asm/processor.h>
#include "linux/printk.h"
#include "linux/sched.h"
#include "linux/smp.h"
#include "linux/string.h"
#include "linux/mm.h"

#define TRAMPOLINE_PA   0x8000          /* boot/trampoline.asm: the same value */
#define AP_STACK_ORDER  2
#define AP_CHECKIN_US   1000000

extern char trampoline_start[], trampoline_end[];
extern char tr_boot_cr3[], tr_kernel_cr3[], tr_stack[], tr_cpu[];
extern char boot_pml4[];                /* boot/boot.asm's tables: low memory 1:1 too */

u8 cpu_apicid[NR_CPUS];                 /* CPU n's local APIC ID */
static unsigned long mmu_cr4_features;  /* the boot CPU's CR4, for the APs */

/*
 * Number the CPUs from the MADT: the boot CPU (boot_apicid) is CPU 0.
 * Sets the possible and present masks and nr_cpu_ids.
 */
void prefill_possible_map(u32 boot_apicid)
{
	unsigned int cpu = 1;

	cpu_apicid[0] = boot_apicid;
	for (unsigned int i = 0; i < acpi_madt.nr_lapics; i++)
		if (acpi_madt.lapic_id[i] != boot_apicid && cpu < NR_CPUS)
			cpu_apicid[cpu++] = acpi_madt.lapic_id[i];
	if (cpu != acpi_madt.nr_lapics)
		pr_warn("smpboot: the boot CPU (APIC ID %u) is not in the MADT\n", boot_apicid);
	for (unsigned int i = 0; i < cpu; i++) {
		cpumask_set_cpu(i, cpu_possible_mask);
		cpumask_set_cpu(i, cpu_present_mask);
	}
	nr_cpu_ids = cpu;
}

/* The trampoline copy's parameter at symbol sym. */
static u64 *trampoline_param(const char *sym)
{
	return (u64 *)((char *)__va(TRAMPOLINE_PA) + (sym - trampoline_start));
}

/* Put the trampoline below 1 MiB (memblock keeps that first MiB to itself). */
void smp_prepare_cpus(void)
{
	const void *page = __va(TRAMPOLINE_PA);

	if ((size_t)(trampoline_end - trampoline_start) > PAGE_SIZE)
		panic("smp_prepare_cpus: the trampoline is larger than a page");
	if (boot_info.cmdline >= (const char *)page &&
	    boot_info.cmdline < (const char *)page + PAGE_SIZE)
		panic("smp_prepare_cpus: the boot information is where the trampoline goes");
	memcpy(__va(TRAMPOLINE_PA), trampoline_start, trampoline_end - trampoline_start);
	*trampoline_param(tr_boot_cr3) = (u64)boot_pml4;      /* linked at its physical address */
	*trampoline_param(tr_kernel_cr3) = __pa(init_pgd);
	mmu_cr4_features = read_cr4();
	identify_cpu(0);
}

/* INIT, then two STARTUPs naming the trampoline's page (Intel's MP protocol). */
static void wakeup_secondary_cpu_via_init(u32 apicid)
{
	apic_send_IPI(apicid, APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT);
	apic_wait_icr_idle();
	apic_send_IPI(apicid, APIC_INT_LEVELTRIG | APIC_DM_INIT);
	apic_wait_icr_idle();
	udelay(10000);
	for (int i = 0; i < 2; i++) {
		apic_send_IPI(apicid, APIC_DM_STARTUP | (TRAMPOLINE_PA >> 12));
		apic_wait_icr_idle();
		udelay(200);
	}
}

/*
 * Start CPU cpu and wait until it is online (Linux's native_cpu_up and
 * do_boot_cpu).  Returns 0, -ENOMEM, or -EIO if it did not check in.
 * Boot CPU, at boot.
 */
int __cpu_up(unsigned int cpu)
{
	unsigned long stack = __get_free_pages(0, AP_STACK_ORDER);
	u64 deadline;

	if (!stack)
		return -ENOMEM;
	*trampoline_param(tr_stack) = stack + (PAGE_SIZE << AP_STACK_ORDER);
	*trampoline_param(tr_cpu) = cpu;
	wakeup_secondary_cpu_via_init(cpu_apicid[cpu]);
	deadline = rdtsc() + (u64)tsc_khz * (AP_CHECKIN_US / 1000);
	while (!cpumask_test_cpu(cpu, cpu_online_mask)) {
		if (rdtsc() > deadline) {
			pr_err("smpboot: CPU %u (APIC ID %u) did not come up\n", cpu,
			       cpu_apicid[cpu]);
			return -EIO;            /* the stack stays: the AP may still come */
		}
		cpu_relax();
	}
	return 0;
}

/*
 * An AP's first C code, on its own stack with the kernel's page tables
 * (boot/trampoline.asm); interrupts off.  Never returns.
 */
__noreturn void start_secondary(unsigned int cpu)
{
	gdt_init(cpu);
	load_current_idt();
	percpu_init(cpu);
	write_cr4(mmu_cr4_features);
	fpu__init_cpu();
	setup_local_APIC();
	setup_secondary_APIC_clock();
	identify_cpu(cpu);
	cpumask_set_cpu(cpu, cpu_online_mask);
	cpu_startup_entry();
}
