/*
 * The line discipline (Linux's drivers/tty/n_tty.c, canonical mode only):
 * bytes from the UART's receive interrupt are edited into lines in
 * read_buf — echo, ^H/DEL erase, ^U kill, CR read as NL (ICRNL), ^D ends
 * a line without itself (EOF at a line's start), ^C and ^\ send SIGINT and
 * SIGQUIT to the foreground process group and flush the input — and
 * n_tty_read() gives a reader at most one complete line per call.
 *
 * Nothing is lost: when read_buf is full and a reader can empty it, the
 * UART is throttled (its receive interrupt off; the bytes wait in the
 * UART and, on QEMU, in the host) until n_tty_read() makes room.  Only a
 * line longer than read_buf loses bytes: as in Linux, its last slot is
 * kept for the newline.
 *
 * Lock order: atomic_read_lock (a mutex: readers one at a time, each taking
 * whole lines, as Linux's) -> tty->lock (irqsave: the receive interrupt,
 * on whichever CPU the IOAPIC sends it to, and a reader on another CPU
 * change the same indices) -> tasklist_lock (^C's kill_pgrp), the console
 * lock (echo) and read_wait's lock.  A reader sleeps and copies to user
 * memory with neither spinlock held; see also mm/rmap.c.
 */
#include "linux/errno.h"
#include "linux/tty.h"
#include "linux/printk.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/uaccess.h"
#include <asm/bitops.h>

#define INTR_CHAR       0x03            /* ^C */
#define EOF_CHAR        0x04            /* ^D */
#define ERASE_CHAR      0x7f            /* DEL; ^H erases too */
#define KILL_CHAR       0x15            /* ^U */
#define QUIT_CHAR       0x1c            /* ^\ */
#define READ_CHUNK      256             /* bytes a reader takes per interrupts-off stretch */

#define MASK(i)         ((i) & (N_TTY_BUF_SIZE - 1))

static unsigned int read_cnt(const struct tty_struct *tty)
{
	return tty->read_head - tty->read_tail;
}

/* A control character echoes as ^X (ECHOCTL), taking two columns. */
static bool echoes_as_ctl(unsigned char c)
{
	return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f;
}

static void echo_char(unsigned char c)
{
	char ctl[2] = { '^', c ^ 0x40 };

	if (echoes_as_ctl(c))
		console_write(ctl, 2);
	else
		console_write((const char *)&c, 1);
}

/* Store c at read_head; a line end also completes the line and wakes readers. */
static void put_tty_queue(struct tty_struct *tty, unsigned char c, bool line_end)
{
	unsigned int i = MASK(tty->read_head);

	tty->read_buf[i] = c;
	if (line_end)
		__set_bit(i, tty->read_flags);
	else
		clear_bit(i, tty->read_flags);
	tty->read_head++;
	if (line_end) {
		tty->canon_head = tty->read_head;
		wake_up_interruptible(&tty->read_wait);
	}
}

/* ^H/DEL erase the last byte of the line being typed; ^U all of it. */
static void eraser(struct tty_struct *tty, bool kill_line)
{
	while (tty->read_head != tty->canon_head) {
		unsigned char c = tty->read_buf[MASK(tty->read_head - 1)];

		tty->read_head--;
		console_write("\b \b", 3);
		if (echoes_as_ctl(c))
			console_write("\b \b", 3);
		if (!kill_line)
			break;
	}
}

/* Drop everything not yet read, complete lines too (Linux's n_tty_flush_buffer). */
static void n_tty_flush_buffer(struct tty_struct *tty)
{
	tty->read_head = tty->canon_head = tty->read_tail;
	if (tty->throttled) {
		tty->throttled = false;
		uart_unthrottle();
	}
}

/* ^C or ^\: echo it, flush the input, signal the foreground group (Linux's isig). */
static void isig(struct tty_struct *tty, unsigned char c, int sig)
{
	echo_char(c);
	n_tty_flush_buffer(tty);
	kill_pgrp(tty->pgrp, sig);
}

/* Edit one received byte into read_buf; tty->lock held. */
static void __n_tty_receive_char(struct tty_struct *tty, unsigned char c)
{
	if (c == '\r')
		c = '\n';
	if (c == INTR_CHAR || c == QUIT_CHAR) {
		isig(tty, c, c == INTR_CHAR ? SIGINT : SIGQUIT);
	} else if (c == ERASE_CHAR || c == '\b' || c == KILL_CHAR) {
		eraser(tty, c == KILL_CHAR);
	} else if (c == '\n' || c == EOF_CHAR) {
		if (read_cnt(tty) == N_TTY_BUF_SIZE)
			return;                 /* the driver throttles before this */
		if (c == '\n')
			echo_char(c);
		put_tty_queue(tty, c, true);
	} else if (read_cnt(tty) < N_TTY_BUF_SIZE - 1) {
		echo_char(c);                   /* the last slot waits for the newline */
		put_tty_queue(tty, c, false);
	}
}

/*
 * May the driver hand over another byte?  No when read_buf is full for an
 * ordinary byte while a complete line waits for a reader: then the UART
 * is throttled until n_tty_read() unthrottles it.  Interrupts off; takes
 * tty->lock.
 */
bool n_tty_check_throttle(struct tty_struct *tty)
{
	bool full;

	spin_lock(&tty->lock);
	full = read_cnt(tty) >= N_TTY_BUF_SIZE - 1 && tty->canon_head != tty->read_tail;
	if (full && !tty->throttled) {
		tty->throttled = true;
		uart_throttle();
	}
	spin_unlock(&tty->lock);
	return full;
}

/* One received byte (from the UART interrupt, interrupts off); takes tty->lock. */
void n_tty_receive_char(struct tty_struct *tty, unsigned char c)
{
	spin_lock(&tty->lock);
	__n_tty_receive_char(tty, c);
	spin_unlock(&tty->lock);
}

/*
 * Take up to size bytes of the line at read_tail into buf (tty->lock
 * held).  Sets *eol when the line's end was taken; an EOF mark ends the
 * line without being copied.  Returns the bytes copied.
 */
static unsigned long copy_from_read_buf(struct tty_struct *tty, char *buf, unsigned long size,
					bool *eol)
{
	unsigned long n = 0;

	while (n < size && tty->read_tail != tty->canon_head) {
		unsigned int i = MASK(tty->read_tail++);

		*eol = test_bit(i, tty->read_flags);
		if (*eol && tty->read_buf[i] == EOF_CHAR)
			break;
		buf[n++] = tty->read_buf[i];
		if (*eol)
			break;
	}
	return n;
}

/*
 * Sleep until a complete line waits: 0, -EAGAIN or -ERESTARTSYS (a signal).
 * The receive interrupt wakes read_wait after it completed a line.
 */
static int wait_for_line(struct tty_struct *tty, bool nonblock)
{
	while (!n_tty_input_available(tty)) {
		if (signal_pending(current))
			return -ERESTARTSYS;
		if (nonblock)
			return -EAGAIN;
		(void)wait_event_interruptible(tty->read_wait, n_tty_input_available(tty));
	}
	return 0;
}

/* Whether a read would return now: a complete line (or an EOF mark) is buffered. */
bool n_tty_input_available(const struct tty_struct *tty)
{
	return READ_ONCE(tty->canon_head) != READ_ONCE(tty->read_tail);
}

/*
 * Read at most one line, and at most count bytes of it (the rest stays
 * for the next read).  Blocks until a line is complete unless nonblock
 * (-EAGAIN); a signal ends the wait (-ERESTARTSYS: EINTR or a restart).
 * 0 at EOF (^D at a line's start); -EFAULT if ubuf cannot take the bytes
 * (they are gone).  Readers take atomic_read_lock in turn; each chunk
 * comes out of read_buf under tty->lock and goes to user memory outside
 * it.  A ^C that flushed the line between the wait and the copy sends
 * the reader back to waiting.
 */
long n_tty_read(struct tty_struct *tty, char *ubuf, unsigned long count, bool nonblock)
{
	char chunk[READ_CHUNK];
	unsigned long done = 0, n, flags;
	bool eol = false;
	int err = 0;

	mutex_lock(&tty->atomic_read_lock);
	while (!eol && done < count) {
		if (!done && (err = wait_for_line(tty, nonblock)))
			break;
		spin_lock_irqsave(&tty->lock, flags);
		n = copy_from_read_buf(tty, chunk, MIN(count - done, sizeof(chunk)), &eol);
		if (tty->throttled && read_cnt(tty) < N_TTY_BUF_SIZE - 1) {
			tty->throttled = false;
			uart_unthrottle();
		}
		spin_unlock_irqrestore(&tty->lock, flags);
		if (!n && !eol && done)
			break;
		if (copy_to_user(ubuf + done, chunk, n)) {
			err = -EFAULT;
			break;
		}
		done += n;
	}
	mutex_unlock(&tty->atomic_read_lock);
	return err ? err : (long)done;
}
