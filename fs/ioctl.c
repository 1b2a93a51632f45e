/* ioctl (Linux's fs/ioctl.c): the file's unlocked_ioctl, or -ENOTTY. */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/syscalls.h"

long sys_ioctl(int fd, unsigned long cmd, unsigned long arg)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (!f->f_op->unlocked_ioctl)
		return -ENOTTY;
	return f->f_op->unlocked_ioctl(f, cmd, arg);
}
