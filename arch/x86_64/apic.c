/*
 * The local APIC (Linux's arch/x86/kernel/apic/apic.c), in xAPIC mode: one
 * per CPU, at the same physical address on each (each CPU sees its own),
 * mapped uncached.  It takes the IOAPIC's interrupts and the other CPUs'
 * IPIs, sends IPIs through its ICR, and has a timer: calibrated once
 * against the PIT (with the TSC) and run periodically at HZ on every CPU.
 *
 * A CPU touches only its own local APIC; the ICR is written with interrupts
 * off, so a handler's IPI cannot fall between the two halves of another.
 */
#include "arch/x86_64/x86.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/irqflags.h>
#include <asm/processor.h>
#include "linux/printk.h"

#define MSR_IA32_APICBASE       0x1b
#define MSR_IA32_APICBASE_ENABLE BIT(11)

#define APIC_ID         0x20
#define APIC_TASKPRI    0x80
#define APIC_EOI        0xb0
#define APIC_SPIV       0xf0
#define APIC_SPIV_APIC_ENABLED BIT(8)
#define APIC_ESR        0x280
#define APIC_ICR        0x300
#define APIC_ICR_BUSY   BIT(12)
#define APIC_ICR2       0x310
#define APIC_LVTT       0x320
#define APIC_LVT_TIMER_PERIODIC BIT(17)
#define APIC_LVT0       0x350
#define APIC_LVT1       0x360
#define APIC_LVTERR     0x370
#define APIC_DM_NMI     0x400
#define APIC_LVT_MASKED BIT(16)
#define APIC_TMICT      0x380
#define APIC_TMCCT      0x390
#define APIC_TDCR       0x3e0
#define APIC_TDR_DIV_16 0x3

static volatile u32 *apic_base;
static u32 lapic_timer_period;          /* timer counts (bus clock / 16) per jiffy */

static u32 apic_read(u32 reg)
{
	return apic_base[reg / 4];
}

static void apic_write(u32 reg, u32 v)
{
	apic_base[reg / 4] = v;
}

u32 read_apic_id(void)
{
	return apic_read(APIC_ID) >> 24;
}

/* End of interrupt: the APIC may deliver the next one of this priority. */
void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

void apic_wait_icr_idle(void)
{
	while (apic_read(APIC_ICR) & APIC_ICR_BUSY)
		cpu_relax();
}

/* Send an IPI (icr_low: delivery mode | vector) to the CPU with this APIC ID. */
void apic_send_IPI(u32 apicid, u32 icr_low)
{
	unsigned long flags = arch_local_irq_save();

	apic_wait_icr_idle();
	apic_write(APIC_ICR2, apicid << 24);
	apic_write(APIC_ICR, icr_low);
	arch_local_irq_restore(flags);
}

/*
 * Enable this CPU's local APIC: accept every priority, the spurious and
 * error vectors, LINT0 (the 8259's line) masked, LINT1 as NMI on the boot
 * CPU only, as Linux's setup_local_APIC.
 */
void setup_local_APIC(void)
{
	bool bsp = read_apic_id() == cpu_apicid[0];

	wrmsr(MSR_IA32_APICBASE, rdmsr(MSR_IA32_APICBASE) | MSR_IA32_APICBASE_ENABLE);
	apic_write(APIC_TASKPRI, 0);
	apic_write(APIC_SPIV, APIC_SPIV_APIC_ENABLED | SPURIOUS_APIC_VECTOR);
	apic_write(APIC_LVT0, APIC_LVT_MASKED);
	apic_write(APIC_LVT1, bsp ? APIC_DM_NMI : APIC_LVT_MASKED);
	apic_write(APIC_LVTERR, ERROR_APIC_VECTOR);
	apic_write(APIC_ESR, 0);                /* clear errors: write, then read */
	apic_read(APIC_ESR);
	apic_eoi();
}

/* Start this CPU's timer: periodic, LOCAL_TIMER_VECTOR every jiffy. */
static void setup_APIC_timer(void)
{
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TMICT, lapic_timer_period);
}

/*
 * Calibration (Linux's calibrate_APIC_clock): timer.c starts the timer
 * counting down from the top, masked, and reads it next to the PIT.
 */
void apic_timer_count_start(void)
{
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TMICT, 0xffffffff);
}

u32 apic_timer_count(void)
{
	return apic_read(APIC_TMCCT);
}

/* Start the boot CPU's timer, period counts a tick: jiffies from here on. */
void setup_boot_APIC_clock(u32 period)
{
	lapic_timer_period = period;
	if (!lapic_timer_period)
		panic("setup_boot_APIC_clock: the local APIC timer does not count");
	setup_APIC_timer();
	pr_info("APIC timer: %u counts per tick, %d Hz\n", lapic_timer_period, HZ);
}

/* An AP's timer: the boot CPU's calibration holds (the same bus clock). */
void setup_secondary_APIC_clock(void)
{
	setup_APIC_timer();
}

/*
 * Interrupts through the APICs (Linux's apic_intr_mode_init): map and
 * enable the boot CPU's local APIC, number the CPUs, route the ISA IRQs
 * through the IOAPIC.  After acpi_boot_init, with interrupts off.
 */
void apic_intr_mode_init(void)
{
	apic_base = ioremap_prot(acpi_madt.lapic_addr, PAGE_SIZE, PAGE_KERNEL_NOCACHE);
	prefill_possible_map(read_apic_id());
	setup_local_APIC();
	setup_IO_APIC();
}
