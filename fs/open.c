/*
 * open, close and access (Linux's fs/open.c).  foliOS's files are
 * read-only except the console and the writable /proc and /sys knobs: a
 * write open of any other file is -EROFS (a directory: -EISDIR).
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/sched.h"
#include "linux/syscalls.h"
#include "mm/mm.h"

/* A stream: no lseek, no pread (consoles and pipes). */
int nonseekable_open(struct inode *inode, struct file *file)
{
	file->f_mode &= ~(FMODE_LSEEK | FMODE_PREAD);
	return 0;
}

/* May inode be opened with flags: 0, -EISDIR, -EROFS or -ENOTDIR. */
static long may_open(const struct inode *inode, int flags)
{
	bool writes = (flags & O_ACCMODE) != O_RDONLY || (flags & (O_TRUNC | O_APPEND));

	/* A control file without write (debugfs's gup_test) opens O_RDWR for its ioctls. */
	if (writes && !inode->i_fop->write && !inode->i_fop->unlocked_ioctl)
		return S_ISDIR(inode->i_mode) ? -EISDIR : -EROFS;
	if ((flags & O_DIRECTORY) && !S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	return 0;
}

/*
 * Open inode (taking over the caller's reference) as Linux's
 * do_dentry_open: a new file, then its f_op->open.  The file, or NULL
 * with *err set (the reference dropped).
 */
static struct file *vfs_open(struct inode *inode, int flags, long *err)
{
	struct file *f = alloc_file(inode, flags);

	*err = f ? 0 : -ENOMEM;
	if (!f) {
		iput(inode);
		return NULL;
	}
	if (f->f_op->open)
		*err = f->f_op->open(inode, f);
	if (*err) {                             /* not opened: nothing to release */
		iput(inode);
		kfree(f);
		return NULL;
	}
	return f;
}

/* open the inode at path, named path (fs/d_path.c): an fd or -errno. */
static long do_open(struct inode *inode, const char *path, int flags)
{
	long ret = may_open(inode, flags);
	struct file *f;

	if (ret) {
		iput(inode);
		return ret;
	}
	f = vfs_open(inode, flags, &ret);
	if (!f)
		return ret;
	ret = file_set_name(f, "%s", path);
	if (!ret)
		ret = fd_install(f, flags & O_CLOEXEC);
	if (ret < 0)
		fput(f);
	return ret;
}

long sys_openat(int dirfd, const char *upath, int flags, int mode)
{
	char *path = kmalloc(PATH_MAX);
	struct inode *inode;
	long ret = path ? user_path_name_at(dirfd, upath, &inode, path) : -ENOMEM;

	if (!ret)
		ret = do_open(inode, path, flags);
	kfree(path);
	return ret;
}

long sys_open(const char *upath, int flags, int mode)
{
	return sys_openat(AT_FDCWD, upath, flags, mode);
}

/* close(fd): 0 or -EBADF. */
long sys_close(int fd)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	current->files.fd[fd] = NULL;
	fput(f);
	return 0;
}

/*
 * access: every file exists for everyone (foliOS has one user, root);
 * W_OK is -EROFS but on the console, a character device: foliOS mounts
 * the rest read-only (Linux's inode_permission gives EROFS to files,
 * directories and links of a read-only mount, not to devices).
 */
long sys_faccessat(int dirfd, const char *upath, int mode)
{
	struct inode *inode;
	long ret;

	if (mode & ~7)                          /* not F_OK, R_OK, W_OK, X_OK */
		return -EINVAL;
	ret = user_path_at(dirfd, upath, 0, &inode);
	if (ret)
		return ret;
	ret = (mode & 2) && !S_ISCHR(inode->i_mode) ? -EROFS : 0;
	iput(inode);
	return ret;
}

long sys_access(const char *upath, int mode)
{
	return sys_faccessat(AT_FDCWD, upath, mode);
}
