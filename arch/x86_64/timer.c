/*
 * Time: the TSC, calibrated against PIT (8254) channel 2 at boot, gives
 * nanoseconds since boot: the monotonic clock, kept in the vDSO's data
 * page (include/vdso/datapage.h) so that user mode reads it too.  The local APIC timers (apic.c),
 * calibrated in the same PIT interval, interrupt every CPU at HZ; the boot
 * CPU's counts jiffies.
 */
#include "arch/x86_64/x86.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/io.h>
#include <asm/processor.h>
#include "linux/printk.h"
#include "vdso/datapage.h"

#define PIT_HZ          1193182
#define CALIBRATE_MS    10

volatile unsigned long jiffies;
unsigned long tsc_khz;

/* The PIT, TSC and local APIC timer read together (as close as can be). */
struct clock_sample {
	u32 pit, apic;                  /* both count down */
	u64 tsc;
};

static struct clock_sample clock_sample(void)
{
	struct clock_sample s;

	outb(0x43, 0x80);               /* latch channel 2's count */
	s.pit = inb(0x42);
	s.pit |= inb(0x42) << 8;
	s.apic = apic_timer_count();
	s.tsc = rdtsc();
	return s;
}

/*
 * One calibration over CALIBRATE_MS of PIT channel 2 (Linux's
 * pit_calibrate_tsc and calibrate_APIC_clock): how far the TSC and the
 * local APIC timer went while the PIT went so far.  Both ends are read
 * next to the PIT, so a vCPU that the host stops meanwhile errs little.
 * Sets tsc_khz; returns the local APIC timer's counts per tick.
 */
static u32 calibrate_pit_once(void)
{
	struct clock_sample s0, s1;
	u32 pit_ticks;

	outb(0x61, (inb(0x61) & ~0x02) | 0x01);  /* gate high, speaker off */
	outb(0x43, 0xb0);                       /* channel 2, lo/hi, mode 0 */
	outb(0x42, 0xff);
	outb(0x42, 0xff);
	apic_timer_count_start();
	s0 = clock_sample();
	do
		s1 = clock_sample();
	while (s0.pit - s1.pit < PIT_HZ / (1000 / CALIBRATE_MS));
	pit_ticks = s0.pit - s1.pit;
	tsc_khz = (s1.tsc - s0.tsc) * PIT_HZ / pit_ticks / 1000;
	return (u64)(s0.apic - s1.apic) * PIT_HZ / pit_ticks / HZ;
}

/* Calibrate the TSC and the local APIC timer, then start the tick. */
void timer_init(void)
{
	u32 period = calibrate_pit_once();

	pr_info("tsc: %lu.%03lu MHz\n", tsc_khz / 1000, tsc_khz % 1000);
	WRITE_ONCE(vdso_data->tsc_khz, tsc_khz);        /* the clocks start */
	setup_boot_APIC_clock(period);
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

/* Nanoseconds since boot (0 until the TSC is calibrated), as the vDSO reads them. */
u64 ktime_get_ns(void)
{
	return vdso_mono_ns(vdso_data, rdtsc_ordered());
}

/* Record the TSC at boot so timestamps start near zero. */
void tsc_mark_boot(void)
{
	vdso_data->tsc_base = rdtsc();
}
