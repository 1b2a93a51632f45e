/*
 * The console's file operations (Linux's drivers/tty/tty_io.c): read goes
 * to the line discipline (fs/n_tty.c); write prints whole 4 KiB chunks;
 * the few ioctls programs use on a terminal.  The console is the
 * controlling tty of init's session: its foreground group is init's group
 * (foliOS's PID 1 has pgid 0), which every process joins unless it calls
 * setpgid — so ^C reaches a shell's children, and PID 1 ignores it.
 */
#include "linux/errno.h"
#include "linux/tty.h"
#include "linux/fs.h"
#include "linux/printk.h"
#include "linux/uaccess.h"
#include "linux/slab.h"
#include "uapi/linux/eventpoll.h"
#include "uapi/linux/ioctls.h"
#include "uapi/linux/stat.h"

#define TTY_WRITE_CHUNK 4096

struct tty_struct console_tty = {
	.lock = SPINLOCK_INIT("tty->lock"), .atomic_read_lock = MUTEX_INIT("atomic_read_lock"),
	.pgrp = 0, .read_wait = __WAIT_QUEUE_HEAD_INITIALIZER(console_tty.read_wait),
};

/* read(2) on the console: a line at a time (n_tty_read). */
static long tty_read(struct file *f, char *ubuf, size_t count, loff_t *pos)
{
	return n_tty_read(&console_tty, ubuf, count, f->f_flags & O_NONBLOCK);
}

/*
 * write(2) on the console: TTY_WRITE_CHUNK bytes at a time, each copied in
 * full before any of it is printed, so no kernel message or echo lands
 * inside it (a bad buffer prints nothing and gives -EFAULT, as Linux's tty
 * does).  Returns the bytes written.
 */
static long tty_write(struct file *f, const char *ubuf, size_t count, loff_t *pos)
{
	unsigned long done = 0;
	char *chunk = kmalloc(TTY_WRITE_CHUNK);

	if (!chunk)
		return -ENOMEM;
	while (done < count) {
		unsigned long n = MIN(count - done, TTY_WRITE_CHUNK);

		if (copy_from_user(chunk, ubuf + done, n))
			break;
		console_write(chunk, n);
		done += n;
	}
	kfree(chunk);
	return done ? (long)done : count ? -EFAULT : 0;
}

/*
 * ioctl on the console: TIOCGWINSZ (24x80) and TCGETS (a zeroed termios);
 * anything else -ENOTTY.
 */
static long tty_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	static const unsigned short winsize[4] = { 24, 80, 0, 0 };
	static const unsigned char termios[60];

	if (cmd == TIOCGWINSZ)
		return copy_to_user((void *)arg, winsize, sizeof(winsize)) ? -EFAULT : 0;
	if (cmd == TCGETS)
		return copy_to_user((void *)arg, termios, sizeof(termios)) ? -EFAULT : 0;
	return -ENOTTY;
}

/* Output never waits; input is ready when a whole line (or EOF) is buffered. */
static __poll_t tty_poll(struct file *f, struct poll_table_struct *wait)
{
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;

	if (n_tty_input_available(&console_tty))
		mask |= EPOLLIN | EPOLLRDNORM;
	return mask;
}

const struct file_operations console_fops = {
	.open = nonseekable_open,
	.read = tty_read,
	.write = tty_write,
	.poll = tty_poll,
	.unlocked_ioctl = tty_ioctl,
};

/* /dev/console, 5:1, crw--w----; its own reference keeps it for ever. */
struct inode console_inode = {
	.i_mode = S_IFCHR | 0620, .i_nlink = 1, .i_ino = 1, .i_rdev = (5 << 8) | 1,
	.i_count = ATOMIC_INIT(1), .i_fop = &console_fops,
};
