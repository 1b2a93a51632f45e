/*
 * The console's file operations (Linux's drivers/tty/tty_io.c and
 * tty_ioctl.c): read goes to the line discipline (fs/n_tty.c); write
 * prints whole 4 KiB chunks, output-processed as the termios says
 * (n_tty_write: OPOST|ONLCR by default); the termios and window-size
 * ioctls, with Linux's defaults (tty_std_termios: canonical, echo,
 * signals).  The one terminal has three names: /dev/ttyS0 (4:64), which a
 * session leader's open makes its controlling tty; /dev/console (5:1),
 * which never does, as Linux's; /dev/tty (5:0), the caller's controlling
 * tty (ENXIO without one).  Job control: fs/tty_jobctrl.c.
 */
#include "linux/errno.h"
#include "linux/tty.h"
#include "linux/sched.h"
#include "linux/fs.h"
#include "linux/printk.h"
#include "linux/uaccess.h"
#include "linux/slab.h"
#include "linux/signal.h"
#include "linux/string.h"
#include "uapi/linux/eventpoll.h"
#include "uapi/linux/ioctls.h"
#include "uapi/linux/stat.h"
#include <asm/irqflags.h>

#define TTY_WRITE_CHUNK 4096

struct tty_struct console_tty = {
	.lock = SPINLOCK_INIT("tty->lock"), .atomic_read_lock = MUTEX_INIT("atomic_read_lock"),
	.pgrp = 0, .read_wait = __WAIT_QUEUE_HEAD_INITIALIZER(console_tty.read_wait),
	.termios = {
		.c_iflag = ICRNL | IXON, .c_oflag = OPOST | ONLCR,
		.c_cflag = B38400 | CS8 | CREAD | HUPCL,
		.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
		/* ^C ^\ DEL ^U ^D, VTIME 0, VMIN 1, -, ^Q ^S ^Z, -, ^R ^O ^W ^V (Linux's INIT_C_CC) */
		.c_cc = "\003\034\177\025\004\0\1\0\021\023\032\0\022\017\027\026\0",
		.c_ispeed = 38400, .c_ospeed = 38400,
	},
	.winsize = { .ws_row = 24, .ws_col = 80 },
};

/*
 * Job control applies to the tty's own names, not to /dev/console, which
 * Linux lets every process use (its redirected_tty_write).
 */
static bool job_control_applies(struct file *f)
{
	return file_inode(f)->i_rdev != console_inode.i_rdev;
}

/* read(2) on the console: a line at a time (n_tty_read); a background reader gets SIGTTIN. */
static long tty_read(struct file *f, char *ubuf, size_t count, loff_t *pos)
{
	long ret = count && job_control_applies(f) ? __tty_check_change(&console_tty, SIGTTIN) : 0;

	return ret ? ret : n_tty_read(&console_tty, ubuf, count, f->f_flags & O_NONBLOCK);
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
	char *chunk;

	if (L_FLAG(&console_tty, TOSTOP) && job_control_applies(f)) {
		long ret = tty_check_change(&console_tty);     /* a background writer: SIGTTOU */

		if (ret)
			return ret;
	}
	chunk = kmalloc(TTY_WRITE_CHUNK);
	if (!chunk)
		return -ENOMEM;
	while (done < count) {
		unsigned long n = MIN(count - done, TTY_WRITE_CHUNK);

		if (copy_from_user(chunk, ubuf + done, n))
			break;
		n_tty_write(&console_tty, chunk, n);
		done += n;
	}
	kfree(chunk);
	return done ? (long)done : count ? -EFAULT : 0;
}

/* TCGETS: the 36 bytes of Linux's struct termios, taken whole under tty->lock. */
static long tty_tcgets(struct tty_struct *tty, void *arg)
{
	struct termios t;
	unsigned long flags;

	spin_lock_irqsave(&tty->lock, flags);
	memcpy(&t, &tty->termios, sizeof(t));   /* struct ktermios starts as struct termios */
	spin_unlock_irqrestore(&tty->lock, flags);
	return copy_to_user(arg, &t, sizeof(t)) ? -EFAULT : 0;
}

/*
 * TCSETS, TCSETSW (after the output drained: console writes never wait,
 * so it has) and TCSETSF (the input flushed too).
 */
static long tty_tcsets(struct tty_struct *tty, const void *arg, bool flush)
{
	struct termios t;

	if (copy_from_user(&t, arg, sizeof(t)))
		return -EFAULT;
	n_tty_set_termios(tty, &t, flush);
	return 0;
}

/* TCFLSH: TCIFLUSH and TCIOFLUSH drop the unread input; output is never queued. */
static long tty_tcflsh(struct tty_struct *tty, unsigned long arg)
{
	if (arg != TCIFLUSH && arg != TCOFLUSH && arg != TCIOFLUSH)
		return -EINVAL;
	if (arg != TCOFLUSH)
		n_tty_flush_input(tty);
	return 0;
}

/* TIOCGWINSZ, TIOCSWINSZ: a new size goes with SIGWINCH to the foreground group (Linux's tty_do_resize). */
static long tty_winsize(struct tty_struct *tty, unsigned int cmd, void *arg)
{
	struct winsize ws;
	unsigned long flags;
	bool changed;
	int pgrp;

	if (cmd == TIOCGWINSZ) {
		spin_lock_irqsave(&tty->lock, flags);
		ws = tty->winsize;
		spin_unlock_irqrestore(&tty->lock, flags);
		return copy_to_user(arg, &ws, sizeof(ws)) ? -EFAULT : 0;
	}
	if (copy_from_user(&ws, arg, sizeof(ws)))
		return -EFAULT;
	spin_lock_irqsave(&tty->lock, flags);
	changed = memcmp(&ws, &tty->winsize, sizeof(ws));
	tty->winsize = ws;
	spin_unlock_irqrestore(&tty->lock, flags);
	pgrp = READ_ONCE(tty->pgrp);
	if (changed && pgrp)
		kill_pgrp(pgrp, SIGWINCH);
	return 0;
}

/*
 * TIOCSTI: the byte at arg goes through the line discipline as if typed
 * (Linux's tiocsti; foliOS runs everything as root, whom Linux 6.1 lets).
 */
static long tty_tiocsti(struct tty_struct *tty, char *arg)
{
	unsigned long flags;
	char c;

	if (get_user(c, arg))
		return -EFAULT;
	flags = arch_local_irq_save();          /* as from the receive interrupt */
	n_tty_receive_char(tty, c);
	arch_local_irq_restore(flags);
	return 0;
}

/*
 * ioctl on the console; what it does not know is -ENOTTY.  Changing the
 * modes or flushing from a background group gets SIGTTOU first.
 */
static long tty_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct tty_struct *tty = &console_tty;
	void *p = (void *)arg;
	long ret;

	switch (cmd) {
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
	case TCFLSH:
		ret = tty_check_change(tty);
		if (ret)
			return ret;
	}
	switch (cmd) {
	case TCGETS:
		return tty_tcgets(tty, p);
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return tty_tcsets(tty, p, cmd == TCSETSF);
	case TCFLSH:
		return tty_tcflsh(tty, arg);
	case TIOCSTI:
		return tty_tiocsti(tty, p);
	case TIOCGWINSZ:
	case TIOCSWINSZ:
		return tty_winsize(tty, cmd, p);
	case FIONREAD:
		return put_user((int)n_tty_inq(tty), (int *)p) ? -EFAULT : 0;
	}
	ret = tty_jobctrl_ioctl(tty, cmd, arg);
	return ret == -ENOIOCTLCMD ? -ENOTTY : ret;
}

/* Output never waits; input is ready when a read would return (fs/n_tty.c). */
static __poll_t tty_poll(struct file *f, struct poll_table_struct *wait)
{
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;

	if (n_tty_input_available(&console_tty, true))
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

/* Open of /dev/ttyS0: a session leader with no terminal takes it, unless O_NOCTTY (Linux's tty_open). */
static int tty_open(struct inode *inode, struct file *f)
{
	if (!(f->f_flags & O_NOCTTY))
		tty_open_proc_set_tty(&console_tty);
	return nonseekable_open(inode, f);
}

/* Open of /dev/tty: the caller's controlling tty, -ENXIO if it has none (Linux's tty_open_current_tty). */
static int tty_current_open(struct inode *inode, struct file *f)
{
	if (!READ_ONCE(current->signal->tty))
		return -ENXIO;
	return nonseekable_open(inode, f);
}

const struct file_operations ttyS_fops = {
	.open = tty_open, .read = tty_read, .write = tty_write, .poll = tty_poll,
	.unlocked_ioctl = tty_ioctl,
};

const struct file_operations tty_current_fops = {
	.open = tty_current_open, .read = tty_read, .write = tty_write, .poll = tty_poll,
	.unlocked_ioctl = tty_ioctl,
};

/* /dev/console, 5:1, crw--w----; its own reference keeps it for ever. */
struct inode console_inode = {
	.i_mode = S_IFCHR | 0620, .i_nlink = 1, .i_ino = 1, .i_rdev = (5 << 8) | 1,
	.i_count = ATOMIC_INIT(1), .i_fop = &console_fops,
};

/* /dev/ttyS0, 4:64, crw--w----, and /dev/tty, 5:0, crw-rw-rw-. */
static struct inode ttyS0_inode = {
	.i_mode = S_IFCHR | 0620, .i_nlink = 1, .i_ino = 2, .i_rdev = TTYS0_DEV,
	.i_count = ATOMIC_INIT(1), .i_fop = &ttyS_fops,
};

static struct inode tty_current_inode = {
	.i_mode = S_IFCHR | 0666, .i_nlink = 1, .i_ino = 4, .i_rdev = (5 << 8) | 0,
	.i_count = ATOMIC_INIT(1), .i_fop = &tty_current_fops,
};

/* The inode of dev/console, dev/ttyS0 or dev/tty (a reference), or NULL. */
struct inode *tty_dev_lookup(const char *path)
{
	struct inode *inode = NULL;

	if (!strcmp(path, "dev/console"))
		inode = &console_inode;
	else if (!strcmp(path, "dev/ttyS0"))
		inode = &ttyS0_inode;
	else if (!strcmp(path, "dev/tty"))
		inode = &tty_current_inode;
	if (inode)
		ihold(inode);
	return inode;
}
