/*
 * Console input with simple line editing: characters are echoed,
 * backspace/DEL erases, Enter (CR or LF) ends the line, Ctrl-D at the start
 * of a line reads as end of file.  Polls the UART once a tick and sleeps
 * in between, so other tasks run and a fatal signal ends the read.
 * console_fops is what an open of /dev/console (and fds 0-2 of PID 1) gets.
 */
#include "linux/errno.h"
#include "linux/console.h"
#include "linux/printk.h"
#include "linux/sched.h"
#include "linux/fs.h"
#include "linux/uaccess.h"
#include "mm/mm.h"
#include "uapi/linux/eventpoll.h"
#include "uapi/linux/ioctls.h"
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

/* read(2) of the console: one line, at most count bytes of it. */
static long console_file_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	char line[256];
	long n;

	if (!count)
		return 0;
	n = console_read_line(line, MIN(count, sizeof(line)));
	if (n < 0)
		return n;
	if (copy_to_user(ubuf, line, n))
		return -EFAULT;
	return n;
}

#define CONSOLE_CHUNK 4096

/*
 * write(2) to the console, 4 KiB at a time, each chunk copied in full
 * before any of it is printed (a bad buffer prints nothing and gives
 * -EFAULT, as Linux's tty does).
 */
static long console_file_write(struct file *file, const char *ubuf, size_t count, loff_t *pos)
{
	unsigned long done = 0;
	char *chunk = kmalloc(CONSOLE_CHUNK);

	if (!chunk)
		return -ENOMEM;
	while (done < count) {
		unsigned long n = MIN(count - done, CONSOLE_CHUNK);

		if (copy_from_user(chunk, ubuf + done, n))
			break;
		console_write(chunk, n);
		done += n;
	}
	kfree(chunk);
	return done ? (long)done : count ? -EFAULT : 0;
}

/* The terminal ioctls programs ask first: the window size and termios (all zero). */
static long console_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	static const unsigned short winsize[4] = { 24, 80, 0, 0 };
	unsigned char termios[60] = { 0 };

	if (cmd == TIOCGWINSZ)
		return copy_to_user((void *)arg, winsize, sizeof(winsize)) ? -EFAULT : 0;
	if (cmd == TCGETS)
		return copy_to_user((void *)arg, termios, sizeof(termios)) ? -EFAULT : 0;
	return -ENOTTY;
}

/* Output never waits; whether input is ready comes with the tty's input buffer. */
static __poll_t console_poll(struct file *file, struct poll_table_struct *wait)
{
	return EPOLLOUT | EPOLLWRNORM;
}

const struct file_operations console_fops = {
	.open = nonseekable_open,
	.read = console_file_read,
	.write = console_file_write,
	.poll = console_poll,
	.unlocked_ioctl = console_ioctl,
};

/* /dev/console, 5:1, crw--w----; its own reference keeps it for ever. */
struct inode console_inode = {
	.i_mode = S_IFCHR | 0620, .i_nlink = 1, .i_ino = 1, .i_rdev = (5 << 8) | 1,
	.i_count = 1, .i_fop = &console_fops,
};
