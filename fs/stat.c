/* fstat and newfstatat (Linux's fs/stat.c): struct stat from the inode. */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"

/*
 * Linux's generic_fillattr + cp_new_stat: 4 KiB blocks, root owns all;
 * each tmpfs is a device of its own, the rest device 1.
 */
static long cp_new_stat(const struct inode *inode, void *ubuf)
{
	struct stat st = {
		.st_dev = inode_dev(inode), .st_ino = inode->i_ino, .st_nlink = inode->i_nlink,
		.st_mode = inode->i_mode, .st_rdev = inode->i_rdev, .st_size = inode->i_size,
		.st_blksize = 4096, .st_blocks = inode->i_blocks,
	};

	return copy_to_user(ubuf, &st, sizeof(st)) ? -EFAULT : 0;
}

long sys_fstat(int fd, void *ubuf)
{
	struct fd f = fdget(fd);
	long ret = f.file ? cp_new_stat(file_inode(f.file), ubuf) : -EBADF;

	fdput(f);
	return ret;
}

long sys_newfstatat(int dirfd, const char *upath, void *ubuf, int flags)
{
	struct inode *inode;
	char c;
	long ret;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & AT_EMPTY_PATH) && !copy_from_user(&c, upath, 1) && !c)
		return sys_fstat(dirfd, ubuf);
	ret = user_path_at(dirfd, upath, 0, &inode);
	if (ret)
		return ret;
	ret = cp_new_stat(inode, ubuf);
	iput(inode);
	return ret;
}
