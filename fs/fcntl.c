/* fcntl (Linux's fs/fcntl.c). */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/pipe_fs_i.h"
#include "linux/syscalls.h"
#include "linux/shmem_fs.h"
#include "uapi/linux/fcntl.h"
#include "asm/page.h"

#define SETFL_MASK      (O_APPEND | O_NONBLOCK)    /* the status flags F_SETFL changes */

/*
 * fcntl: descriptor flags (close-on-exec), status flags (O_APPEND and
 * O_NONBLOCK can change), a shmem file's seals (mm/memfd.c), record locks
 * (fs/locks.c), a pipe's capacity (F_GETPIPE_SZ; EBADF for another file), duplication
 * at or above arg (EINVAL past the fd limit, EMFILE when none is free
 * below it, as Linux's f_dupfd).
 */
static long do_fcntl(int fd, int cmd, unsigned long arg, struct file *f)
{
	int ret;

	switch (cmd) {
	case F_GETFD:
		return get_close_on_exec(fd) ? FD_CLOEXEC : 0;
	case F_SETFD:
		set_close_on_exec(fd, arg & FD_CLOEXEC);
		return 0;
	case F_GETFL:
		return f->f_flags;
	case F_SETFL:
		f->f_flags = (f->f_flags & ~SETFL_MASK) | (arg & SETFL_MASK);
		return 0;
	case F_ADD_SEALS:
	case F_GET_SEALS:
		return memfd_fcntl(f, cmd, arg);
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		return fcntl_lock(fd, f, cmd, arg);
	case F_GETPIPE_SZ:
		return get_pipe_info(f) ? (long)(PIPE_DEF_BUFFERS * PAGE_SIZE) : -EBADF;
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (arg > 0x7fffffffUL)
			return -EINVAL;
		ret = f_dupfd(arg, get_file(f), cmd == F_DUPFD_CLOEXEC);
		if (ret < 0)
			fput(f);
		return ret;
	}
	return -EINVAL;
}

/* The commands an O_PATH file takes (Linux's check_fcntl_cmd); others are EBADF. */
static bool path_fcntl_cmd(int cmd)
{
	return cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC || cmd == F_GETFD || cmd == F_SETFD ||
	       cmd == F_GETFL;
}

long sys_fcntl(int fd, int cmd, unsigned long arg)
{
	struct fd f = fdget_raw(fd);
	long ret;

	if (!f.file)
		return -EBADF;
	if ((f.file->f_mode & FMODE_PATH) && !path_fcntl_cmd(cmd))
		ret = -EBADF;
	else
		ret = do_fcntl(fd, cmd, arg, f.file);
	fdput(f);
	return ret;
}
