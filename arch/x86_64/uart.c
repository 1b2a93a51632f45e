/* 16550 UART on COM1: the serial console (115200 8N1, polled output). */
#include <asm/arch.h>
#include <asm/io.h>

#define COM1    0x3f8
#define LSR_THRE 0x20   /* transmit holding register empty */
#define LSR_TEMT 0x40   /* transmitter empty: FIFO and shift register */

void uart_init(void)
{
	outb(COM1 + 1, 0x00);   /* no UART interrupts yet */
	outb(COM1 + 3, 0x80);   /* DLAB on: divisor follows */
	outb(COM1 + 0, 0x01);   /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03);   /* 8N1, DLAB off */
	outb(COM1 + 2, 0xc7);   /* FIFO on, cleared, 14-byte threshold */
	outb(COM1 + 4, 0x03);   /* DTR, RTS */
}

void uart_putc(char c)
{
	while (!(inb(COM1 + 5) & LSR_THRE))
		;
	outb(COM1, c);
}

/* Write n bytes, turning "\n" into "\r\n" for terminals. */
void uart_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			uart_putc('\r');
		uart_putc(s[i]);
	}
}

/* Wait until every byte has left the UART (before powering off). */
void uart_flush(void)
{
	while (!(inb(COM1 + 5) & LSR_TEMT))
		;
}

/* A received byte, or -1 if none is waiting. */
int uart_getc(void)
{
	return inb(COM1 + 5) & 1 ? inb(COM1) : -1;
}
