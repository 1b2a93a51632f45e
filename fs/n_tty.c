/*
 * The line discipline (Linux's drivers/tty/n_tty.c): bytes from the
 * UART's receive interrupt go into read_buf as the termios says.
 *
 *   ICANON on (the default): lines are edited — echo (ECHO, ECHOCTL),
 *   VERASE erases a byte, VWERASE a word (IEXTEN), VKILL the line, CR
 *   reads as NL (ICRNL), VEOF ends a line without itself (EOF at a line's
 *   start), NL, VEOL and VEOL2 end one with themselves — and n_tty_read()
 *   gives a reader at most one complete line per call.
 *   ICANON off: every byte is readable as it comes; a read returns once
 *   VMIN bytes came (or the count), or VTIME tenths of a second passed
 *   without one (after the first, if VMIN is set), as Linux's.
 *   ISIG: VINTR, VQUIT and VSUSP send SIGINT, SIGQUIT and SIGTSTP to the
 *   foreground process group and flush the input (unless NOFLSH).
 *
 * Output, writers' and echo alike, is processed as OPOST says
 * (process_output): ONLCR's "\r\n" for "\n" by default; none at all
 * without OPOST (raw mode: vi, less), whose bytes go out as written.
 *
 * Nothing is lost: when read_buf is full and a reader can empty it, the
 * UART is throttled (its receive interrupt off; the bytes wait in the
 * UART and, on QEMU, in the host) until n_tty_read() makes room.  Only a
 * line longer than read_buf loses bytes: as in Linux, its last slot is
 * kept for the newline.
 *
 * Lock order: atomic_read_lock (a mutex: readers one at a time, each taking
 * whole lines, as Linux's) -> tty->lock (irqsave: the receive interrupt,
 * on whichever CPU the IOAPIC sends it to, a reader on another CPU and
 * TCSETS change the same indices and modes) -> tasklist_lock (^C's
 * kill_pgrp), the console lock (echo) and read_wait's lock.  A reader
 * sleeps and copies to user memory with neither spinlock held; see also
 * linux/tty.h.
 */
#include "linux/errno.h"
#include "linux/tty.h"
#include "linux/printk.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/string.h"
#include "linux/uaccess.h"
#include <asm/arch.h>
#include <asm/bitops.h>

#define READ_CHUNK      256             /* bytes a reader takes per interrupts-off stretch */
#define DISABLED_CHAR   0               /* _POSIX_VDISABLE; also VEOF's mark in read_buf */

#define MASK(i)         ((i) & (N_TTY_BUF_SIZE - 1))

static unsigned int read_cnt(const struct tty_struct *tty)
{
	return tty->read_head - tty->read_tail;
}

/*
 * Does c take a column on the screen?  Not a control character (C0, DEL
 * or C1, as Linux's iscntrl), nor with IUTF8 a UTF-8 continuation byte.
 */
static bool advances_column(const struct tty_struct *tty, char ch)
{
	unsigned char c = ch;

	return c >= 0x20 && c != 0x7f && !(c >= 0x80 && c < 0xa0) &&
	       !(I_FLAG(tty, IUTF8) && (c & 0xc0) == 0x80);
}

/*
 * Output processing (Linux's do_output_char): with OPOST, ONLCR makes
 * "\n" "\r\n", OCRNL makes "\r" "\n", ONOCR drops a "\r" at column 0,
 * ONLRET takes "\n" as a return too, OLCUC upper-cases, XTABS writes a
 * tab as spaces to the next multiple of 8; without OPOST every byte goes
 * as it is.  tty->column follows the cursor.  Into out (8n bytes at
 * most: a tab's spaces); returns its length.  tty->lock held.
 */
static size_t process_output(struct tty_struct *tty, const char *in, size_t n, char *out)
{
	tcflag_t o = tty->termios.c_oflag;
	size_t len = 0;

	if (!(o & OPOST)) {
		memcpy(out, in, n);
		return n;
	}
	for (size_t i = 0; i < n; i++) {
		char c = in[i];

		if (c == '\n') {
			if (o & (ONLCR | ONLRET))
				tty->column = 0;
			if (o & ONLCR)
				out[len++] = '\r';
		} else if (c == '\r') {
			if ((o & ONOCR) && !tty->column)
				continue;
			if (o & OCRNL)
				c = '\n';
			if (!(o & OCRNL) || (o & ONLRET))
				tty->column = 0;
		} else if (c == '\t') {
			unsigned int spaces = 8 - (tty->column & 7);

			tty->column += spaces;
			if ((o & TABDLY) == XTABS) {
				memset(out + len, ' ', spaces);
				len += spaces;
				continue;
			}
		} else if (c == '\b') {
			tty->column -= !!tty->column;
		} else if (advances_column(tty, c)) {
			if ((o & OLCUC) && c >= 'a' && c <= 'z')
				c -= 'a' - 'A';
			tty->column++;
		}
		out[len++] = c;
	}
	return len;
}

#define OUTPUT_PIECE    64              /* bytes processed at a time, into 8 times as many */

/* Print in (n bytes) processed, as one piece on the console.  tty->lock held. */
static void write_processed(struct tty_struct *tty, const char *in, size_t n)
{
	unsigned long flags = console_output_begin();
	char out[8 * OUTPUT_PIECE];

	for (size_t i = 0; i < n; i += OUTPUT_PIECE)
		console_write_locked(out, process_output(tty, in + i, MIN(n - i, OUTPUT_PIECE), out));
	console_output_end(flags);
}

/* Echo s (3 bytes at most) to the console, output-processed.  tty->lock held. */
static void echo_output(struct tty_struct *tty, const char *s, size_t n)
{
	write_processed(tty, s, n);
}

/*
 * A writer's bytes to the console (Linux's n_tty_write): processed and
 * printed as one piece under tty->lock, so no echo or kernel message
 * lands inside.  Takes tty->lock, interrupts off.
 */
void n_tty_write(struct tty_struct *tty, const char *in, size_t n)
{
	unsigned long flags;

	spin_lock_irqsave(&tty->lock, flags);
	write_processed(tty, in, n);
	spin_unlock_irqrestore(&tty->lock, flags);
}

/* A control character echoes as ^X with ECHOCTL, taking two columns. */
static bool echoes_as_ctl(const struct tty_struct *tty, unsigned char c)
{
	return L_FLAG(tty, ECHOCTL) && ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f);
}

/* Echo c if ECHO is on (a newline also with ECHONL in canonical mode). */
static void echo_char(struct tty_struct *tty, unsigned char c)
{
	char ctl[2] = { '^', c ^ 0x40 };

	if (!L_FLAG(tty, ECHO) && !(c == '\n' && L_FLAG(tty, ECHONL) && L_FLAG(tty, ICANON)))
		return;
	if (echoes_as_ctl(tty, c))
		echo_output(tty, ctl, 2);
	else
		echo_output(tty, (const char *)&c, 1);
}

/* Is c the enabled control character cc[i]? */
static bool is_cc(const struct tty_struct *tty, unsigned char c, int i)
{
	return tty->termios.c_cc[i] != DISABLED_CHAR && c == tty->termios.c_cc[i];
}

/*
 * Store c at read_head; a line end also completes the line.  Readers are
 * woken when there is something for them: a line, or any byte without
 * ICANON.
 */
static void put_tty_queue(struct tty_struct *tty, unsigned char c, bool line_end)
{
	unsigned int i = MASK(tty->read_head);

	tty->read_buf[i] = c;
	if (line_end)
		__set_bit(i, tty->read_flags);
	else
		clear_bit(i, tty->read_flags);
	tty->read_head++;
	if (line_end)
		tty->canon_head = tty->read_head;
	if (line_end || !L_FLAG(tty, ICANON))
		wake_up_interruptible(&tty->read_wait);
}

/* Rub out the last byte of the line being typed from the screen (ECHOE). */
static void echo_erase(struct tty_struct *tty, unsigned char c)
{
	if (!L_FLAG(tty, ECHO) || !L_FLAG(tty, ECHOE))
		return;
	echo_output(tty, "\b \b", 3);
	if (echoes_as_ctl(tty, c))
		echo_output(tty, "\b \b", 3);
}

/* VERASE erases the last byte of the line being typed, VWERASE its last word, VKILL all of it. */
static void eraser(struct tty_struct *tty, unsigned char c)
{
	bool kill_line = is_cc(tty, c, VKILL), word = !kill_line && is_cc(tty, c, VWERASE);
	bool seen_alnum = false;

	while (tty->read_head != tty->canon_head) {
		unsigned char prev = tty->read_buf[MASK(tty->read_head - 1)];
		bool alnum = prev == '_' || ((prev | 0x20) >= 'a' && (prev | 0x20) <= 'z') ||
			     (prev >= '0' && prev <= '9');

		if (word && seen_alnum && !alnum)
			break;
		seen_alnum |= alnum;
		tty->read_head--;
		echo_erase(tty, prev);
		if (!kill_line && !word)
			break;
	}
}

/* Drop everything not yet read, complete lines too (Linux's n_tty_flush_buffer); tty->lock held. */
static void n_tty_flush_buffer(struct tty_struct *tty)
{
	tty->read_head = tty->canon_head = tty->read_tail;
	if (tty->throttled) {
		tty->throttled = false;
		uart_unthrottle();
	}
}

/*
 * A signal character: echo it, flush the input, signal the foreground
 * group (Linux's isig) — if a session controls the tty and has one.
 */
static void isig(struct tty_struct *tty, unsigned char c, int sig)
{
	int pgrp = READ_ONCE(tty->pgrp);

	echo_char(tty, c);
	if (!L_FLAG(tty, NOFLSH))
		n_tty_flush_buffer(tty);
	if (pgrp)
		kill_pgrp(pgrp, sig);
}

/* The signal ISIG makes of c, or 0. */
static int signal_char(const struct tty_struct *tty, unsigned char c)
{
	if (!L_FLAG(tty, ISIG))
		return 0;
	if (is_cc(tty, c, VINTR))
		return SIGINT;
	if (is_cc(tty, c, VQUIT))
		return SIGQUIT;
	if (is_cc(tty, c, VSUSP))
		return SIGTSTP;
	return 0;
}

/* Edit one byte into the line being typed (ICANON); tty->lock held. */
static void receive_canon_char(struct tty_struct *tty, unsigned char c)
{
	if (is_cc(tty, c, VERASE) || is_cc(tty, c, VKILL) ||
	    (is_cc(tty, c, VWERASE) && L_FLAG(tty, IEXTEN))) {
		eraser(tty, c);
	} else if (c == '\n' || is_cc(tty, c, VEOF) || is_cc(tty, c, VEOL) || is_cc(tty, c, VEOL2)) {
		if (read_cnt(tty) == N_TTY_BUF_SIZE)
			return;                 /* the driver throttles before this */
		if (!is_cc(tty, c, VEOF))
			echo_char(tty, c);
		put_tty_queue(tty, is_cc(tty, c, VEOF) ? DISABLED_CHAR : c, true);
	} else if (read_cnt(tty) < N_TTY_BUF_SIZE - 1) {
		echo_char(tty, c);              /* the last slot waits for the newline */
		put_tty_queue(tty, c, false);
	}
}

/* One received byte, as the termios says; tty->lock held. */
static void __n_tty_receive_char(struct tty_struct *tty, unsigned char c)
{
	int sig;

	if (I_FLAG(tty, ISTRIP))
		c &= 0x7f;
	if (c == '\r') {
		if (I_FLAG(tty, IGNCR))
			return;
		if (I_FLAG(tty, ICRNL))
			c = '\n';
	} else if (c == '\n' && I_FLAG(tty, INLCR)) {
		c = '\r';
	}
	sig = signal_char(tty, c);
	if (sig) {
		isig(tty, c, sig);
	} else if (L_FLAG(tty, ICANON)) {
		receive_canon_char(tty, c);
	} else if (read_cnt(tty) < N_TTY_BUF_SIZE) {
		echo_char(tty, c);
		put_tty_queue(tty, c, false);
	}
}

/*
 * May the driver hand over another byte?  No when read_buf is full while
 * a reader can empty it (a complete line waits, or ICANON is off): then
 * the UART is throttled until n_tty_read() unthrottles it.  Interrupts
 * off; takes tty->lock.
 */
bool n_tty_check_throttle(struct tty_struct *tty)
{
	bool full;

	spin_lock(&tty->lock);
	full = read_cnt(tty) >= N_TTY_BUF_SIZE - 1 &&
	       (!L_FLAG(tty, ICANON) || tty->canon_head != tty->read_tail);
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
 * Take up to size bytes at read_tail into buf (tty->lock held): with
 * ICANON, of the line there, setting *eol when its end was taken (a VEOF
 * mark ends the line without being copied); without, whatever came.
 * Returns the bytes copied.
 */
static unsigned long copy_from_read_buf(struct tty_struct *tty, char *buf, unsigned long size,
					bool *eol)
{
	unsigned int end = L_FLAG(tty, ICANON) ? tty->canon_head : tty->read_head;
	unsigned long n = 0;

	while (n < size && tty->read_tail != end) {
		unsigned int i = MASK(tty->read_tail++);

		*eol = L_FLAG(tty, ICANON) && test_bit(i, tty->read_flags);
		if (*eol && tty->read_buf[i] == DISABLED_CHAR)
			break;
		buf[n++] = tty->read_buf[i];
		if (*eol)
			break;
	}
	if (tty->throttled && read_cnt(tty) < N_TTY_BUF_SIZE - 1) {
		tty->throttled = false;
		uart_unthrottle();
	}
	return n;
}

/*
 * Whether a read would return now: with ICANON a complete line (or an
 * EOF mark) is buffered; without, a byte (for poll with VMIN and no
 * VTIME: VMIN bytes, as Linux's input_available_p).
 */
bool n_tty_input_available(const struct tty_struct *tty, bool poll)
{
	unsigned int amt = 1;

	if (L_FLAG(tty, ICANON))
		return READ_ONCE(tty->canon_head) != READ_ONCE(tty->read_tail);
	if (poll && !tty->termios.c_cc[VTIME] && tty->termios.c_cc[VMIN])
		amt = tty->termios.c_cc[VMIN];
	return READ_ONCE(tty->read_head) - READ_ONCE(tty->read_tail) >= amt;
}

/*
 * Sleep until input is there for a read, a signal comes (-ERESTARTSYS)
 * or ktime_get_ns() passes end (0: no timeout; -ETIMEDOUT).  The receive
 * interrupt wakes read_wait; a timed wait also waits on the tick.
 */
static int n_tty_wait(struct tty_struct *tty, u64 end)
{
	struct wait_queue_head *tick = __var_waitqueue((void *)&jiffies);
	struct wait_bit_queue_entry tick_wait;
	DEFINE_WAIT(wait);
	int ret = 0;

	init_wait_var_entry(&tick_wait, (void *)&jiffies);
	for (;;) {
		prepare_to_wait(&tty->read_wait, &wait, TASK_INTERRUPTIBLE);
		if (end)
			prepare_to_wait(tick, &tick_wait.wq_entry, TASK_INTERRUPTIBLE);
		if (n_tty_input_available(tty, false))
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (end && ktime_get_ns() >= end) {
			ret = -ETIMEDOUT;
			break;
		}
		schedule();
	}
	finish_wait(&tty->read_wait, &wait);
	if (end)
		finish_wait(tick, &tick_wait.wq_entry);
	return ret;
}

/* One chunk from read_buf to user memory: the bytes copied, or -EFAULT (they are gone). */
static long read_chunk(struct tty_struct *tty, char *ubuf, unsigned long size, bool *eol)
{
	char chunk[READ_CHUNK];
	unsigned long n, flags;

	spin_lock_irqsave(&tty->lock, flags);
	n = copy_from_read_buf(tty, chunk, MIN(size, sizeof(chunk)), eol);
	spin_unlock_irqrestore(&tty->lock, flags);
	return copy_to_user(ubuf, chunk, n) ? -EFAULT : (long)n;
}

/* ICANON: at most one line, at most count bytes of it (the rest stays for the next read). */
static long n_tty_read_canon(struct tty_struct *tty, char *ubuf, unsigned long count,
			     bool nonblock)
{
	unsigned long done = 0;
	bool eol = false;
	long n;

	while (!eol && done < count) {
		if (!done && !n_tty_input_available(tty, false)) {
			int err = nonblock ? -EAGAIN : n_tty_wait(tty, 0);

			if (err)
				return err;
			continue;       /* a ^C may have flushed the line meanwhile */
		}
		n = read_chunk(tty, ubuf + done, count - done, &eol);
		if (n < 0)
			return n;
		if (!n && !eol && done)
			break;
		done += n;
	}
	return done;
}

/*
 * ICANON off: bytes as they come, until VMIN of them (or count) came, or
 * VTIME tenths of a second passed without one — counted from the read's
 * start without VMIN, from the last byte with it; VMIN and VTIME 0: what
 * is there now (Linux's n_tty_read).
 */
static long n_tty_read_raw(struct tty_struct *tty, char *ubuf, unsigned long count,
			   bool nonblock)
{
	unsigned int vmin = tty->termios.c_cc[VMIN], vtime = tty->termios.c_cc[VTIME];
	u64 timeout = vtime * 100000000ULL, end = vmin ? 0 : timeout ? ktime_get_ns() + timeout : 0;
	unsigned long done = 0;
	bool eol;
	long n;

	for (;;) {
		n = read_chunk(tty, ubuf + done, count - done, &eol);
		if (n < 0)
			return n;
		done += n;
		if (done == count || (done && done >= vmin) || (!vmin && !vtime))
			return done;
		if (n && vtime)
			end = ktime_get_ns() + timeout;
		if (n)
			continue;
		if (nonblock)
			return done ? (long)done : -EAGAIN;
		n = n_tty_wait(tty, end);
		if (n == -ETIMEDOUT || (n && done))
			return done;
		if (n)
			return n;
	}
}

/*
 * read(2) on the tty, as its termios says.  Blocks unless nonblock
 * (-EAGAIN); a signal ends the wait (-ERESTARTSYS: EINTR or a restart).
 * 0 at EOF (VEOF at a line's start) or when VMIN and VTIME allow it;
 * -EFAULT if ubuf cannot take the bytes (they are gone).  Readers take
 * atomic_read_lock in turn; each chunk comes out of read_buf under
 * tty->lock and goes to user memory outside it.
 */
long n_tty_read(struct tty_struct *tty, char *ubuf, unsigned long count, bool nonblock)
{
	long ret;

	if (!count)
		return 0;
	mutex_lock(&tty->atomic_read_lock);
	if (L_FLAG(tty, ICANON))
		ret = n_tty_read_canon(tty, ubuf, count, nonblock);
	else
		ret = n_tty_read_raw(tty, ubuf, count, nonblock);
	mutex_unlock(&tty->atomic_read_lock);
	return ret;
}

/* FIONREAD: the bytes reads would get now (with ICANON, of complete lines, EOF marks left out). */
unsigned int n_tty_inq(struct tty_struct *tty)
{
	unsigned int n = 0, end;
	unsigned long flags;

	spin_lock_irqsave(&tty->lock, flags);
	end = L_FLAG(tty, ICANON) ? tty->canon_head : tty->read_head;
	for (unsigned int i = tty->read_tail; i != end; i++)
		n += !(L_FLAG(tty, ICANON) && test_bit(MASK(i), tty->read_flags) &&
		       tty->read_buf[MASK(i)] == DISABLED_CHAR);
	spin_unlock_irqrestore(&tty->lock, flags);
	return n;
}

/* TCFLSH, TCSETSF: drop the input not yet read. */
void n_tty_flush_input(struct tty_struct *tty)
{
	unsigned long flags;

	spin_lock_irqsave(&tty->lock, flags);
	n_tty_flush_buffer(tty);
	spin_unlock_irqrestore(&tty->lock, flags);
}

/*
 * TCSETS*: take t's modes and control characters (the speeds stay), and
 * flush the input first if asked.  Turning ICANON off makes what was
 * typed readable byte by byte; turning it on makes what waits one line
 * (Linux's n_tty_set_termios).  Readers are woken: what they may read
 * changed.
 */
void n_tty_set_termios(struct tty_struct *tty, const struct termios *t, bool flush)
{
	struct ktermios *k = &tty->termios;
	unsigned long flags;
	bool canon_changed;

	spin_lock_irqsave(&tty->lock, flags);
	if (flush)
		n_tty_flush_buffer(tty);
	canon_changed = (k->c_lflag ^ t->c_lflag) & ICANON;
	k->c_iflag = t->c_iflag;
	k->c_oflag = t->c_oflag;
	k->c_cflag = t->c_cflag;
	k->c_lflag = t->c_lflag;
	k->c_line = t->c_line;
	memcpy(k->c_cc, t->c_cc, sizeof(k->c_cc));
	if (canon_changed) {
		memset(tty->read_flags, 0, sizeof(tty->read_flags));
		tty->canon_head = tty->read_tail;
		if (L_FLAG(tty, ICANON) && read_cnt(tty)) {
			__set_bit(MASK(tty->read_head - 1), tty->read_flags);
			tty->canon_head = tty->read_head;
		}
	}
	spin_unlock_irqrestore(&tty->lock, flags);
	wake_up_interruptible(&tty->read_wait);
}
