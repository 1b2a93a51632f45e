/* fcntl (Linux's fs/fcntl.c). */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/syscalls.h"
#include "uapi/linux/fcntl.h"

/*
 * fcntl: descriptor flags (close-on-exec), status flags (O_NONBLOCK is the
 * one that can change), duplication at or above arg (EINVAL past the fd
 * limit, EMFILE when none is free below it, as Linux's f_dupfd).
 */
long sys_fcntl(int fd, int cmd, unsigned long arg)
{
	struct file *f = fget(fd);
	int ret;

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_GETFD:
		return get_close_on_exec(fd) ? FD_CLOEXEC : 0;
	case F_SETFD:
		set_close_on_exec(fd, arg & FD_CLOEXEC);
		return 0;
	case F_GETFL:
		return f->f_flags;
	case F_SETFL:
		f->f_flags = (f->f_flags & ~O_NONBLOCK) | (arg & O_NONBLOCK);
		return 0;
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (arg > 0x7fffffffUL)
			return -EINVAL;
		ret = f_dupfd(arg, f, cmd == F_DUPFD_CLOEXEC);
		if (ret >= 0)
			f->f_count++;
		return ret;
	}
	return -EINVAL;
}
