/*
 * File system calls, for now only the console: fd 0 reads lines from the
 * serial port (echo, backspace), fds 1 and 2 write to it.  Other fds: -EBADF.
 */
#include "kernel/syscalls.h"
#include "kernel/uaccess.h"
#include "kernel/printk.h"
#include "kernel/task.h"
#include "kernel/console.h"
#include "mm/mm.h"

#define CONSOLE_CHUNK 4096
#define TIOCGWINSZ 0x5413
#define TCGETS     0x5401

/*
 * Write count bytes from the user to the console, 4 KiB at a time, each
 * chunk copied in full before any of it is printed (a bad buffer prints
 * nothing and gives -EFAULT, as Linux's tty does).
 */
long sys_write(int fd, const char *buf, unsigned long count)
{
	char *chunk;
	unsigned long done = 0;

	if (fd != 1 && fd != 2)
		return -EBADF;
	chunk = kmalloc(CONSOLE_CHUNK);
	if (!chunk)
		return -ENOMEM;
	while (done < count) {
		unsigned long n = MIN(count - done, CONSOLE_CHUNK);

		if (copy_from_user(chunk, buf + done, n))
			break;
		console_write(chunk, n);
		done += n;
	}
	kfree(chunk);
	return done ? (long)done : count ? -EFAULT : 0;
}

struct iovec {
	void *iov_base;
	unsigned long iov_len;
};

long sys_writev(int fd, const void *uiov, int iovcnt)
{
	long total = 0;

	if (iovcnt < 0 || iovcnt > 1024)
		return -EINVAL;
	for (int i = 0; i < iovcnt; i++) {
		struct iovec iov;
		long n;

		if (copy_from_user(&iov, (const struct iovec *)uiov + i, sizeof(iov)))
			return total ? total : -EFAULT;
		if (!iov.iov_len)
			continue;
		n = sys_write(fd, iov.iov_base, iov.iov_len);
		if (n < 0)
			return total ? total : n;
		total += n;
		if ((unsigned long)n < iov.iov_len)
			break;
	}
	return total;
}

/* Read one line (or what fits) from the console into the user buffer. */
long sys_read(int fd, char *buf, unsigned long count)
{
	char line[256];
	long n;

	if (fd != 0)
		return -EBADF;
	if (!count)
		return 0;
	n = console_read_line(line, MIN(count, sizeof(line)));
	if (copy_to_user(buf, line, n))
		return -EFAULT;
	return n;
}

long sys_ioctl(int fd, unsigned long cmd, unsigned long arg)
{
	static const unsigned short winsize[4] = { 24, 80, 0, 0 };
	unsigned char termios[60] = { 0 };

	if (fd < 0 || fd > 2)
		return -EBADF;
	if (cmd == TIOCGWINSZ)
		return copy_to_user((void *)arg, winsize, sizeof(winsize)) ? -EFAULT : 0;
	if (cmd == TCGETS)
		return copy_to_user((void *)arg, termios, sizeof(termios)) ? -EFAULT : 0;
	return -ENOTTY;
}
