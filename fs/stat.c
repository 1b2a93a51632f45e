/*
 * fstat, newfstatat and statx (Linux's fs/stat.c): struct stat or struct
 * statx from the inode; readlink, which Linux keeps here too.
 */
#include "linux/err.h"
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"

/*
 * Linux's generic_fillattr + cp_new_stat: 4 KiB blocks; each tmpfs is a
 * device of its own, the rest device 1.
 */
static long cp_new_stat(const struct inode *inode, void *ubuf)
{
	struct stat st = {
		.st_dev = inode_dev(inode), .st_ino = inode->i_ino, .st_nlink = inode->i_nlink,
		.st_mode = inode->i_mode, .st_uid = inode->i_uid, .st_gid = inode->i_gid,
		.st_rdev = inode->i_rdev, .st_size = inode->i_size,
		.st_blksize = 4096, .st_blocks = inode->i_blocks,
		.st_atime = inode->i_atime.tv_sec, .st_atime_nsec = inode->i_atime.tv_nsec,
		.st_mtime = inode->i_mtime.tv_sec, .st_mtime_nsec = inode->i_mtime.tv_nsec,
		.st_ctime = inode->i_ctime.tv_sec, .st_ctime_nsec = inode->i_ctime.tv_nsec,
	};

	return copy_to_user(ubuf, &st, sizeof(st)) ? -EFAULT : 0;
}

long sys_fstat(int fd, void *ubuf)
{
	struct fd f = fdget_raw(fd);    /* an O_PATH file too */
	long ret = f.file ? cp_new_stat(file_inode(f.file), ubuf) : -EBADF;

	fdput(f);
	return ret;
}

/* A time stamp as statx has it. */
static struct statx_timestamp statx_ts(struct timespec64 t)
{
	return (struct statx_timestamp){ .tv_sec = t.tv_sec, .tv_nsec = t.tv_nsec };
}

/* Linux's cp_statx, from the same attributes as cp_new_stat (no birth time: not in the mask). */
static long cp_statx(const struct inode *inode, void *ubuf)
{
	unsigned long dev = inode_dev(inode), rdev = inode->i_rdev;
	struct statx stx = {
		.stx_mask = STATX_BASIC_STATS, .stx_blksize = 4096, .stx_nlink = inode->i_nlink,
		.stx_mode = inode->i_mode, .stx_ino = inode->i_ino, .stx_size = inode->i_size,
		.stx_blocks = inode->i_blocks, .stx_uid = inode->i_uid, .stx_gid = inode->i_gid,
		.stx_atime = statx_ts(inode->i_atime), .stx_mtime = statx_ts(inode->i_mtime),
		.stx_ctime = statx_ts(inode->i_ctime),
		.stx_rdev_major = (rdev >> 8) & 0xfff, .stx_rdev_minor = (rdev & 0xff) | ((rdev >> 12) & 0xfff00),
		.stx_dev_major = (dev >> 8) & 0xfff, .stx_dev_minor = (dev & 0xff) | ((dev >> 12) & 0xfff00),
	};

	return copy_to_user(ubuf, &stx, sizeof(stx)) ? -EFAULT : 0;
}

/* The inode a *at call names, copied out by cp. */
static long stat_at(int dirfd, const char *upath, int flags, void *ubuf,
		    long (*cp)(const struct inode *inode, void *ubuf))
{
	struct inode *inode;
	long ret = user_path_at_flags(dirfd, upath, flags, &inode);

	if (ret)
		return ret;
	ret = cp(inode, ubuf);
	iput(inode);
	return ret;
}

long sys_newfstatat(int dirfd, const char *upath, void *ubuf, int flags)
{
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	return stat_at(dirfd, upath, flags, ubuf, cp_new_stat);
}

/* statx(dirfd, path, flags, mask, buf): every basic field, whatever mask asks (as Linux may). */
long sys_statx(int dirfd, const char *upath, int flags, unsigned int mask, void *ubuf)
{
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE) ||
	    (flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & STATX__RESERVED))
		return -EINVAL;
	return stat_at(dirfd, upath, flags, ubuf, cp_statx);
}

/*
 * readlinkat(dirfd, path, buf, bufsiz): the link's text, cut to bufsiz
 * bytes, no NUL added; its length.  EINVAL for bufsiz <= 0 or not a
 * link; "" names dirfd's file (EBADF for a bad one), ENOENT when that
 * is not a link (Linux's do_readlinkat: LOOKUP_EMPTY).
 */
long sys_readlinkat(int dirfd, const char *upath, char *ubuf, int bufsiz)
{
	struct inode *inode;
	const char *text;
	char *buf;
	long ret;

	if (bufsiz <= 0)
		return -EINVAL;
	ret = user_path_at_flags(dirfd, upath, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, &inode);
	if (ret)
		return ret;
	if (!S_ISLNK(inode->i_mode)) {
		char c = 1;

		iput(inode);
		return get_user(c, (char *)upath) || c ? -EINVAL : -ENOENT;
	}
	buf = kmalloc(PATH_MAX);
	text = !buf ? ERR_PTR(-ENOMEM) : inode_get_link(inode, buf);
	ret = PTR_ERR_OR_ZERO(text);
	if (!ret) {
		ret = MIN(strlen(text), (size_t)bufsiz);
		if (copy_to_user(ubuf, text, ret))
			ret = -EFAULT;
	}
	kfree(buf);
	iput(inode);
	return ret;
}

long sys_readlink(const char *upath, char *ubuf, int bufsiz)
{
	return sys_readlinkat(AT_FDCWD, upath, ubuf, bufsiz);
}
