/* ioctl (Linux's fs/ioctl.c): the file's unlocked_ioctl, or -ENOTTY. */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/syscalls.h"

long sys_ioctl(int fd, unsigned long cmd, unsigned long arg)
{
	struct fd f = fdget(fd);
	long ret;

	if (!f.file)
		return -EBADF;
	ret = f.file->f_op->unlocked_ioctl ? f.file->f_op->unlocked_ioctl(f.file, cmd, arg) : -ENOTTY;
	fdput(f);
	return ret;
}
