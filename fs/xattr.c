/*
 * Extended attributes (Linux's fs/xattr.c): foliOS's file systems keep
 * none, so the calls answer as Linux does for a file system without
 * xattr handlers: the file is looked up first (its errors come first),
 * the name is checked (ERANGE if empty or longer than XATTR_NAME_MAX),
 * then get, set and remove are EOPNOTSUPP and a list is empty.  Programs
 * (ls -l asking for "security.selinux", cp -a) take that as "none here".
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"

#define XATTR_NAME_MAX  255

/* The file a path names (lookup follows the last link unless nofollow: there are none yet). */
static long xattr_path_check(const char *upath)
{
	struct inode *inode;
	long ret = user_path_at(AT_FDCWD, upath, 0, &inode);

	if (!ret)
		iput(inode);
	return ret;
}

static long xattr_fd_check(int fd)
{
	struct fd f = fdget(fd);
	long ret = f.file ? 0 : -EBADF;

	fdput(f);
	return ret;
}

/* A name Linux accepts: 1 to XATTR_NAME_MAX bytes; -ERANGE or -EFAULT. */
static long xattr_name_check(const char *uname)
{
	char name[XATTR_NAME_MAX + 1];
	long n = strncpy_from_user(name, uname, sizeof(name));

	if (n < 0)
		return n;
	return !n || n == sizeof(name) ? -ERANGE : 0;
}

static long xattr_get(long looked_up, const char *uname)
{
	long ret = looked_up ? looked_up : xattr_name_check(uname);

	return ret ? ret : -EOPNOTSUPP;
}

long sys_getxattr(const char *path, const char *name, void *value, size_t size)
{
	return xattr_get(xattr_path_check(path), name);
}

long sys_lgetxattr(const char *path, const char *name, void *value, size_t size)
{
	return xattr_get(xattr_path_check(path), name);
}

long sys_fgetxattr(int fd, const char *name, void *value, size_t size)
{
	return xattr_get(xattr_fd_check(fd), name);
}

long sys_setxattr(const char *path, const char *name, const void *value, size_t size, int flags)
{
	return xattr_get(xattr_path_check(path), name);
}

long sys_lsetxattr(const char *path, const char *name, const void *value, size_t size, int flags)
{
	return xattr_get(xattr_path_check(path), name);
}

long sys_fsetxattr(int fd, const char *name, const void *value, size_t size, int flags)
{
	return xattr_get(xattr_fd_check(fd), name);
}

long sys_removexattr(const char *path, const char *name)
{
	return xattr_get(xattr_path_check(path), name);
}

long sys_lremovexattr(const char *path, const char *name)
{
	return xattr_get(xattr_path_check(path), name);
}

long sys_fremovexattr(int fd, const char *name)
{
	return xattr_get(xattr_fd_check(fd), name);
}

/* An empty list: 0 bytes. */
long sys_listxattr(const char *path, char *list, size_t size)
{
	return xattr_path_check(path);
}

long sys_llistxattr(const char *path, char *list, size_t size)
{
	return xattr_path_check(path);
}

long sys_flistxattr(int fd, char *list, size_t size)
{
	return xattr_fd_check(fd);
}
