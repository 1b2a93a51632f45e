/*
 * 16550 UART on COM1: the serial console (115200 8N1).  Output is polled;
 * input comes by the receive interrupt (ISA IRQ 4, through the IOAPIC), which hands
 * every byte to the tty's line discipline (fs/n_tty.c), as Linux's
 * serial8250_rx_chars does.
 */
#include "arch/x86_64/x86.h"
#include <asm/arch.h>
#include <asm/io.h>
#include "linux/tty.h"

#define COM1    0x3f8
#define IER_RDI  0x01   /* interrupt enable: received data available */
#define MCR_OUT2 0x08   /* on a PC, gates the UART's interrupt line */
#define LSR_DR   0x01   /* data ready */
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

/* Write n bytes as they are (a tty's output, processed already: fs/n_tty.c). */
void uart_write_raw(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		uart_putc(s[i]);
}

/* Write n bytes, turning "\n" into "\r\n" for terminals (the kernel's messages). */
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

/* Take receive interrupts from now on (after apic_intr_mode_init). */
void uart_startup(void)
{
	outb(COM1 + 4, 0x03 | MCR_OUT2);
	outb(COM1 + 1, IER_RDI);
	ioapic_unmask_isa_irq(IRQ_COM1);
}

/* Stop receive interrupts: the bytes wait in the UART (and its sender). */
void uart_throttle(void)
{
	outb(COM1 + 1, 0);
}

void uart_unthrottle(void)
{
	outb(COM1 + 1, IER_RDI);
}

/*
 * IRQ 4: move the received bytes into the tty until the UART is empty or
 * the tty throttles it.  Interrupts off.
 */
void uart_interrupt(void)
{
	while (inb(COM1 + 5) & LSR_DR) {
		if (n_tty_check_throttle(&console_tty))
			return;
		n_tty_receive_char(&console_tty, inb(COM1));
	}
}
