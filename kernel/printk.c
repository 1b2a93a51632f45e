/*
 * printk: timestamped lines into the log buffer and onto the console.
 *
 * Every line gets a "[seconds.micros] " prefix, so each kernel message on the
 * console starts with '[' (docs/contract.md).  A message is shown on the
 * console when its level is below console_loglevel ("loglevel=N"); the log
 * buffer keeps all of them (GDB's "klog" and syslog(2), dmesg's, read it).
 *
 * Lock order: see linux/printk.h; logbuf_lock serializes whole printk calls, so
 * lines never mix.
 */
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/spinlock.h"
#include "linux/errno.h"
#include "linux/slab.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include <asm/arch.h>

#define LOG_BUF_LEN     (1 << 16)
#define DEFAULT_MESSAGE_LOGLEVEL 4

int console_loglevel = 7;
unsigned long nr_warnings;
char log_buf[LOG_BUF_LEN];      /* ring; log_next is where the next byte goes */
unsigned long log_next;
static spinlock_t logbuf_lock = SPINLOCK_INIT("logbuf");
static bool at_line_start = true;      /* in the log's text */
static bool console_at_bol = true;     /* on the serial console */

static void console_emit(const char *s, size_t n)
{
	if (!n)
		return;
	uart_write(s, n);
	console_at_bol = s[n - 1] == '\n';
}

static void log_store(const char *s, size_t n, bool console)
{
	for (size_t i = 0; i < n; i++)
		log_buf[log_next++ % LOG_BUF_LEN] = s[i];
	if (console)
		console_emit(s, n);
}

/* Write text, putting a timestamp before the start of every line. */
static void emit(const char *text, bool console)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text + 1) : strlen(text);

		if (at_line_start) {
			char ts[24];
			u64 ns = ktime_get_ns();
			int len = snprintf(ts, sizeof(ts), "[%5lu.%06lu] ",
					   (unsigned long)(ns / 1000000000),
					   (unsigned long)(ns % 1000000000 / 1000));

			if (console && !console_at_bol)
				console_emit("\n", 1);     /* a kernel line starts a line */
			log_store(ts, len, console);
		}
		log_store(text, n, console);
		at_line_start = nl != NULL;
		text += n;
	}
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	int level = DEFAULT_MESSAGE_LOGLEVEL, n;
	unsigned long flags;

	if (fmt[0] == '\001' && fmt[1] >= '0' && fmt[1] <= '7') {
		level = fmt[1] - '0';
		fmt += 2;
	}
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	spin_lock_irqsave(&logbuf_lock, flags);
	emit(buf, level < console_loglevel);
	spin_unlock_irqrestore(&logbuf_lock, flags);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

void warn_slowpath(const char *file, int line, const char *cond)
{
	nr_warnings++;
	printk(KERN_WARNING "WARNING: %s:%d: %s\n", file, line, cond);
	arch_backtrace((unsigned long)__builtin_frame_address(0), 0);
}

/*
 * A tty's output to the console: console_output_begin(), then its bytes
 * as they are (the line discipline processed them: OPOST) in as many
 * console_write_locked() calls as it takes, then console_output_end():
 * no kernel message lands inside.  (The text does not go to the kernel
 * log.)  Interrupts off in between.
 */
unsigned long console_output_begin(void)
{
	unsigned long flags;

	spin_lock_irqsave(&logbuf_lock, flags);
	return flags;
}

void console_write_locked(const char *s, size_t n)
{
	lockdep_assert_held(&logbuf_lock);
	if (!n)
		return;
	uart_write_raw(s, n);
	console_at_bol = s[n - 1] == '\n';
}

void console_output_end(unsigned long flags)
{
	spin_unlock_irqrestore(&logbuf_lock, flags);
}

#define SYSLOG_ACTION_CLOSE          0
#define SYSLOG_ACTION_OPEN           1
#define SYSLOG_ACTION_READ_ALL       3
#define SYSLOG_ACTION_READ_CLEAR     4
#define SYSLOG_ACTION_CLEAR          5
#define SYSLOG_ACTION_CONSOLE_OFF    6
#define SYSLOG_ACTION_CONSOLE_ON     7
#define SYSLOG_ACTION_CONSOLE_LEVEL  8
#define SYSLOG_ACTION_SIZE_BUFFER    10

static unsigned long clear_seq;         /* log_next at the last SYSLOG_ACTION_CLEAR */
static int saved_console_loglevel = -1;

/*
 * The log since the last clear, its last len bytes at most, oldest first
 * and from a line's start, into a new buffer (*text); the byte count, or
 * -ENOMEM.  clear: the log is cleared too, in the same hold of the lock.
 */
static long syslog_copy(char **text, unsigned long len, bool clear)
{
	unsigned long flags, start, n;
	char *buf = kmalloc(LOG_BUF_LEN);
	bool cut;

	if (!buf)
		return -ENOMEM;
	spin_lock_irqsave(&logbuf_lock, flags);
	start = log_next - MIN(MIN(log_next - clear_seq, (unsigned long)LOG_BUF_LEN), len);
	cut = start != clear_seq;               /* the ring or len cut the first line */
	for (n = 0; start + n < log_next; n++)
		buf[n] = log_buf[(start + n) % LOG_BUF_LEN];
	if (clear)
		clear_seq = log_next;
	spin_unlock_irqrestore(&logbuf_lock, flags);
	if (cut) {
		char *nl = memchr(buf, '\n', n);
		unsigned long skip = nl ? (unsigned long)(nl - buf) + 1 : n;

		n -= skip;
		memmove(buf, buf + skip, n);
	}
	*text = buf;
	return n;
}

/*
 * syslog(2), as dmesg calls it (Linux's do_syslog): READ_ALL and
 * READ_CLEAR copy the log since the last CLEAR (up to len bytes, whole
 * lines), CLEAR forgets it, CONSOLE_OFF/ON/LEVEL set what reaches the
 * console, SIZE_BUFFER is the log's size, CLOSE and OPEN do nothing.
 * The blocking READ (2) and SIZE_UNREAD (9), a klogd's, are EINVAL.
 */
long sys_syslog(int type, char *ubuf, int len)
{
	char *text;
	long n;

	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!ubuf || len < 0)
			return -EINVAL;
		n = syslog_copy(&text, len, type == SYSLOG_ACTION_READ_CLEAR);
		if (n < 0)
			return n;
		if (copy_to_user(ubuf, text, n))
			n = -EFAULT;
		kfree(text);
		return n;
	case SYSLOG_ACTION_CLEAR:
		clear_seq = READ_ONCE(log_next);
		return 0;
	case SYSLOG_ACTION_CONSOLE_OFF:
		if (saved_console_loglevel < 0)
			saved_console_loglevel = console_loglevel;
		console_loglevel = 1;           /* Linux's minimum_console_loglevel */
		return 0;
	case SYSLOG_ACTION_CONSOLE_ON:
		if (saved_console_loglevel >= 0)
			console_loglevel = saved_console_loglevel;
		saved_console_loglevel = -1;
		return 0;
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		if (len < 1 || len > 8)
			return -EINVAL;
		console_loglevel = len;
		saved_console_loglevel = -1;
		return 0;
	case SYSLOG_ACTION_SIZE_BUFFER:
		return LOG_BUF_LEN;
	}
	return -EINVAL;
}
