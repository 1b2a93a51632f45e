/*
 * The CMOS real-time clock (Linux's arch/x86/kernel/rtc.c,
 * mach_get_cmos_time): read once at boot for the wall clock.
 *
 *   port 0x70: register index (bit 7: NMI off)   port 0x71: its value
 *   0x00 sec  0x02 min  0x04 hour  0x07 day  0x08 month  0x09 year
 *   0x32 century (the ACPI FADT's usual one)      0x0A status A (bit 7: UIP)
 *   0x0B status B (bit 2: binary, not BCD; bit 1: 24-hour)
 *
 * The clock ticks while it is read, so the registers are read until two
 * readings agree, each taken while no update is in progress.
 *
 * Locking: rtc_lock (irqsave) around each index/value pair.
 */
#include "linux/time64.h"
#include "linux/spinlock.h"
#include <asm/io.h>

#define RTC_PORT_INDEX  0x70
#define RTC_PORT_DATA   0x71
#define RTC_UIP         0x80            /* status A: update in progress */
#define RTC_DM_BINARY   0x04            /* status B */
#define RTC_24H         0x02

struct rtc_time {
	unsigned int sec, min, hour, day, mon, year, century;
};

static spinlock_t rtc_lock = SPINLOCK_INIT("rtc_lock");

static unsigned int cmos_read(unsigned int reg)
{
	unsigned long flags;
	unsigned int v;

	spin_lock_irqsave(&rtc_lock, flags);
	outb(RTC_PORT_INDEX, reg);
	v = inb(RTC_PORT_DATA);
	spin_unlock_irqrestore(&rtc_lock, flags);
	return v;
}

static void rtc_read_raw(struct rtc_time *t)
{
	while (cmos_read(0x0a) & RTC_UIP)
		;
	t->sec = cmos_read(0x00);
	t->min = cmos_read(0x02);
	t->hour = cmos_read(0x04);
	t->day = cmos_read(0x07);
	t->mon = cmos_read(0x08);
	t->year = cmos_read(0x09);
	t->century = cmos_read(0x32);
}

static unsigned int bcd2bin(unsigned int v)
{
	return (v & 0x0f) + (v >> 4) * 10;
}

/* Seconds since 1970 by the RTC (Linux's read_persistent_clock64 on x86). */
s64 read_persistent_clock64(void)
{
	struct rtc_time t, again;
	unsigned int status;
	bool pm;

	rtc_read_raw(&t);
	for (;;) {
		rtc_read_raw(&again);
		if (!__builtin_memcmp(&t, &again, sizeof(t)))
			break;
		t = again;
	}
	status = cmos_read(0x0b);
	pm = !(status & RTC_24H) && (t.hour & 0x80);
	t.hour &= 0x7f;
	if (!(status & RTC_DM_BINARY)) {
		t.sec = bcd2bin(t.sec);
		t.min = bcd2bin(t.min);
		t.hour = bcd2bin(t.hour);
		t.day = bcd2bin(t.day);
		t.mon = bcd2bin(t.mon);
		t.year = bcd2bin(t.year);
		t.century = bcd2bin(t.century);
	}
	if (!(status & RTC_24H))
		t.hour = t.hour % 12 + (pm ? 12 : 0);
	t.year += t.century >= 19 && t.century <= 21 ? t.century * 100 : 2000;
	return mktime64(t.year, t.mon, t.day, t.hour, t.min, t.sec);
}
