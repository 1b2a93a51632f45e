/*
 * Console input with simple line editing: characters are echoed,
 * backspace/DEL erases, Enter (CR or LF) ends the line, Ctrl-D at the start
 * of a line reads as end of file.  Polls the UART once a tick and sleeps
 * in between, so other tasks run and a fatal signal ends the read.
 */
#include "linux/errno.h"
#include "linux/console.h"
#include "linux/printk.h"
#include "linux/sched.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/irqflags.h>

long console_read_line(char *buf, unsigned long size)
{
	unsigned long n = 0;

	while (n < size) {
		int c = uart_getc();

		if (c < 0) {
			if (current->pending_kill)
				return n ? (long)n : -EINTR;
			/* poll again at the next tick; others run meanwhile */
			sleep_on((const void *)&jiffies);
			continue;
		}
		if (c == 4 && n == 0)
			return 0;
		if (c == '\r')
			c = '\n';
		if (c == 0x7f || c == '\b') {
			if (n) {
				n--;
				console_write("\b \b", 3);
			}
			continue;
		}
		buf[n++] = c;
		console_write((char *)&buf[n - 1], 1);
		if (c == '\n')
			break;
	}
	return n;
}
