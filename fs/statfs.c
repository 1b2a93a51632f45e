/*
 * statfs and fstatfs (Linux's fs/statfs.c): the file system's numbers
 * (super_operations->statfs; tmpfs's in mm/shmem_fs.c), or for one
 * without them its magic and Linux's defaults.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "uapi/linux/statfs.h"

#define ST_VALID        0x0020          /* f_flags: the flags are valid (Linux's calculate_f_flags) */
#define ST_RELATIME     0x1000          /* every foliOS mount behaves as Linux's default relatime */

/* Fill *buf for inode's file system (Linux's vfs_statfs).  0 or -errno. */
static long vfs_statfs(struct inode *inode, struct statfs *buf)
{
	struct super_block *sb = inode->i_sb;
	long err = 0;

	memset(buf, 0, sizeof(*buf));
	buf->f_bsize = 4096;
	buf->f_namelen = NAME_MAX;
	if (sb && sb->s_op && sb->s_op->statfs)
		err = sb->s_op->statfs(sb, buf);
	else if (sb)
		buf->f_type = sb->s_magic;
	buf->f_frsize = buf->f_frsize ? buf->f_frsize : buf->f_bsize;
	buf->f_fsid.val[0] = sb ? (int)sb->s_dev : 0;
	buf->f_flags = ST_VALID | ST_RELATIME;
	return err;
}

static long do_statfs(struct inode *inode, void *ubuf)
{
	struct statfs st;
	long err = vfs_statfs(inode, &st);

	if (!err && copy_to_user(ubuf, &st, sizeof(st)))
		err = -EFAULT;
	return err;
}

long sys_statfs(const char *upath, void *ubuf)
{
	struct inode *inode;
	long err = user_path_at(AT_FDCWD, upath, LOOKUP_FOLLOW, &inode);

	if (err)
		return err;
	err = do_statfs(inode, ubuf);
	iput(inode);
	return err;
}

long sys_fstatfs(int fd, void *ubuf)
{
	struct fd f = fdget_raw(fd);    /* an O_PATH file too */
	long ret = f.file ? do_statfs(file_inode(f.file), ubuf) : -EBADF;

	fdput(f);
	return ret;
}
