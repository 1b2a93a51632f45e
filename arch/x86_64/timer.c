/*
 * Time: the PIT (8254) drives a periodic HZ interrupt through the legacy
 * PIC (8259, remapped to vectors 32-47); the TSC, calibrated against PIT
 * channel 2 at boot, gives nanoseconds for printk timestamps.
 */
#include "arch/x86_64/x86.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/io.h>
#include "linux/printk.h"

#define PIT_HZ          1193182
#define PIC1_CMD        0x20
#define PIC1_DATA       0x21
#define PIC2_CMD        0xa0
#define PIC2_DATA       0xa1
#define CALIBRATE_MS    10

volatile unsigned long jiffies;
unsigned long tsc_khz;
static u64 tsc_at_boot;

void pic_init(void)
{
	outb(PIC1_CMD, 0x11);           /* ICW1: init, expect ICW4 */
	outb(PIC2_CMD, 0x11);
	outb(PIC1_DATA, IRQ_BASE);      /* ICW2: vector base */
	outb(PIC2_DATA, IRQ_BASE + 8);
	outb(PIC1_DATA, 4);             /* ICW3: slave on IRQ2 */
	outb(PIC2_DATA, 2);
	outb(PIC1_DATA, 1);             /* ICW4: 8086 mode */
	outb(PIC2_DATA, 1);
	outb(PIC1_DATA, 0xff);          /* all masked until a driver wants one */
	outb(PIC2_DATA, 0xff);
}

void pic_eoi(unsigned int irq)
{
	if (irq >= 8)
		outb(PIC2_CMD, 0x20);
	outb(PIC1_CMD, 0x20);
}

void pic_unmask(unsigned int irq)
{
	u16 port = irq < 8 ? PIC1_DATA : PIC2_DATA;

	outb(port, inb(port) & ~(1 << (irq & 7)));
}

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
	u32 divisor = PIT_HZ / HZ;

	tsc_khz = calibrate_tsc_khz();
	outb(0x43, 0x34);                       /* channel 0, lo/hi, rate generator */
	outb(0x40, divisor & 0xff);
	outb(0x40, divisor >> 8);
	pic_unmask(IRQ_TIMER);
	pr_info("tsc: %lu.%03lu MHz, timer: PIT at %d Hz\n", tsc_khz / 1000,
		tsc_khz % 1000, HZ);
}

void timer_interrupt(void)
{
	jiffies++;
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
