/*
 * sync, syncfs, fsync and fdatasync (Linux's fs/sync.c).  Linux writes
 * dirty page-cache folios back to their disk here; foliOS has no disk:
 * tmpfs folios live only in memory and the initrd is read-only, so there
 * is never anything to write back.  What stays is Linux's contract: the
 * fd must be open (EBADF), and fsync needs a file whose f_op->fsync says
 * it can be synced (EINVAL for pipes, the console, /proc files), as
 * vfs_fsync_range checks.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/syscalls.h"

/* The fsync of a file system that keeps nothing to write back (Linux's noop_fsync). */
int noop_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	return 0;
}

/* Sync the bytes [start, end] of file (Linux's vfs_fsync_range): 0, or -EINVAL if it cannot be synced. */
int vfs_fsync_range(struct file *file, loff_t start, loff_t end, int datasync)
{
	if (!file->f_op->fsync)
		return -EINVAL;
	return file->f_op->fsync(file, start, end, datasync);
}

static long do_fsync(int fd, int datasync)
{
	struct fd f = fdget(fd);
	long ret = f.file ? vfs_fsync_range(f.file, 0, MAX_LFS_FILESIZE, datasync) : -EBADF;

	fdput(f);
	return ret;
}

long sys_fsync(int fd)
{
	return do_fsync(fd, 0);
}

long sys_fdatasync(int fd)
{
	return do_fsync(fd, 1);
}

/* Write back every file system: nothing to do, and sync(2) cannot fail. */
long sys_sync(void)
{
	return 0;
}

/* Write back the file system of fd: any open fd will do, as in Linux (a pipe's is pipefs). */
long sys_syncfs(int fd)
{
	struct fd f = fdget(fd);

	fdput(f);
	return f.file ? 0 : -EBADF;
}
