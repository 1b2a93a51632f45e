/*
 * The name of an open file, as Linux's d_path() gives it (fs/d_path.c).
 * foliOS has no dentries, so a file keeps its name itself (file->f_pathname):
 *
 *   open("/tmp/../tmp/x")            "/tmp/x"     (the normalized path opened)
 *   memfd_create("NAME")             "/memfd:NAME" (shmem_file_setup's name)
 *   mmap(MAP_SHARED|MAP_ANONYMOUS)   "/dev/zero"   (shmem_zero_setup's)
 *
 * and file_path() adds Linux's " (deleted)" once the inode has no link
 * left: an unlinked file, and always the last two, which never had one.
 * A rename after the open is not seen (Linux's dentry would follow it).
 *
 * A directory's path (its i_private) is what relative lookups and getcwd
 * start from; a tmpfs rename rewrites the paths of the subtree it moves
 * under rename_lock (Linux's, a seqlock there), so readers copy a path
 * under it: dir_path().  Lock order: see linux/fs.h.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/err.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "linux/sched.h"
#include "linux/namei.h"
#include "linux/uaccess.h"
#include "linux/syscalls.h"
#include <stdarg.h>

spinlock_t rename_lock = SPINLOCK_INIT("rename_lock");

/* Copy directory dir's path ("" for the root, no leading '/') into buf (size bytes). */
void dir_path(struct inode *dir, char *buf, size_t size)
{
	spin_lock(&rename_lock);
	strlcpy(buf, dir->i_private, size);
	spin_unlock(&rename_lock);
}

/*
 * Is directory new_dir old_dir or below it (Linux's is_subdir)?  By their
 * paths, which only a rename changes: under s_vfs_rename_mutex (and the
 * directories' locks) the answer holds until they are dropped.
 */
bool is_subdir(struct inode *new_dir, struct inode *old_dir)
{
	const char *path, *dir;
	size_t n;
	bool ret;

	spin_lock(&rename_lock);
	path = new_dir->i_private;
	dir = old_dir->i_private;
	n = strlen(dir);
	ret = !strncmp(path, dir, n) && (path[n] == '/' || !path[n] || !n);
	spin_unlock(&rename_lock);
	return ret;
}

/* Name file (printf-style: an absolute path, copied): 0 or -ENOMEM. */
int file_set_name(struct file *file, const char *fmt, ...)
{
	va_list ap;
	int len;
	char *name;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap) + 1;
	va_end(ap);
	name = kmalloc(len);
	if (!name)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(name, len, fmt, ap);
	va_end(ap);
	kfree(file->f_pathname);
	file->f_pathname = name;
	return 0;
}

/*
 * getcwd(2): the working directory's absolute path into ubuf (size
 * bytes), from the caller's root (chroot), "(unreachable)/..." if it is
 * not below it.  Its length with the NUL, -ERANGE if it does not fit,
 * -ENOENT if the directory was removed (Linux's rule), -EFAULT.
 */
long sys_getcwd(char *ubuf, unsigned long size)
{
	char buf[DIR_PATH_MAX + 16] = "/", root[DIR_PATH_MAX], *path = buf;
	struct inode *pwd = get_fs_pwd(current->fs);
	bool removed = pwd && !READ_ONCE(pwd->i_nlink);
	size_t len, rlen;

	if (pwd) {
		dir_path(pwd, buf + 1, DIR_PATH_MAX);
		iput(pwd);
	}
	get_fs_root_path(current->fs, root, sizeof(root));
	rlen = strlen(root);
	if (rlen && !strncmp(buf + 1, root, rlen) && (!buf[1 + rlen] || buf[1 + rlen] == '/')) {
		path = buf + rlen;              /* below the root: its path from there */
		path[0] = '/';
		if (path[1] == '/')
			path++;
	} else if (rlen) {                      /* outside it: Linux's "(unreachable)" */
		memmove(buf + 13, buf, strlen(buf) + 1);
		memcpy(buf, "(unreachable)", 13);
	}
	len = strlen(path) + 1;
	if (removed)
		return -ENOENT;
	if (len > size)
		return -ERANGE;
	return copy_to_user(ubuf, path, len) ? -EFAULT : (long)len;
}

/*
 * Linux's file_path(): file's name into buf (buflen bytes) with
 * " (deleted)" if its inode is unlinked; "" for a file without a name.
 * Returns the name, or ERR_PTR(-ENAMETOOLONG) if it does not fit.
 */
char *file_path(struct file *file, char *buf, int buflen)
{
	const char *name = file->f_pathname ? file->f_pathname : "";
	bool deleted = *name && !file_inode(file)->i_nlink;
	int n = snprintf(buf, buflen, "%s%s", name, deleted ? " (deleted)" : "");

	return n < buflen ? buf : ERR_PTR(-ENAMETOOLONG);
}
