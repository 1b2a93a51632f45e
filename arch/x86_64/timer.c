/*
 * Time: the TSC, calibrated against PIT (8254) channel 2 at boot, gives
 * nanoseconds for printk timestamps and calibrates the local APIC timers
 * (apic.c), which interrupt every CPU at HZ; the boot CPU's counts jiffies.
 */
#include "arch/x86_64/x86.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/io.h>
#include <asm/processor.h>
#include "linux/printk.h"

#define PIT_HZ          1193182
#define CALIBRATE_MS    10

volatile unsigned long jiffies;
unsigned long tsc_khz;
static u64 tsc_at_boot;

/* Count TSC ticks over CALIBRATE_MS of PIT channel 2 (Linux's pit_calibrate_tsc). */
static unsigned long calibrate_tsc_khz(void)
{
	u32 latch = PIT_HZ / (1000 / CALIBRATE_MS);
	u64 t0, t1;

	outb(0x61, (inb(0x61) & ~0x02) | 0x01);  /* gate high, speaker off */
	outb(0x43, 0xb0);                       /* channel 2, lo/hi, mode 0 */
	outb(0x42, latch & 0xff);
	outb(0x42, latch >> 8);
	t0 = rdtsc();
	while (!(inb(0x61) & 0x20))             /* OUT2 goes high at terminal count */
		;
	t1 = rdtsc();
	return (t1 - t0) / CALIBRATE_MS;
}

void timer_init(void)
{
	tsc_khz = calibrate_tsc_khz();
	pr_info("tsc: %lu.%03lu MHz\n", tsc_khz / 1000, tsc_khz % 1000);
	setup_boot_APIC_clock();
}

/* The boot CPU's tick.  Only CPU 0 writes jiffies. */
void timer_interrupt(void)
{
	jiffies++;
}

/* Spin for us microseconds on the TSC (after timer_init). */
void udelay(unsigned long us)
{
	u64 end = rdtsc() + us * tsc_khz / 1000;

	while (rdtsc() < end)
		cpu_relax();
}

/* Nanoseconds since boot (0 until the TSC is calibrated). */
u64 ktime_get_ns(void)
{
	u64 delta;

	if (!tsc_khz)
		return 0;
	delta = rdtsc() - tsc_at_boot;
	return delta / tsc_khz * 1000000 + (delta % tsc_khz) * 1000000 / tsc_khz;
}

/* Record the TSC at boot so timestamps start near zero. */
void tsc_mark_boot(void)
{
	tsc_at_boot = rdtsc();
}
