/*
 * The system calls of Linux's fs/namei.c that change names: mkdir, rmdir,
 * unlink, rename, link and their *at forms.  Each resolves the parent
 * directory (path_parentat), checks what Linux checks, in its order, and
 * calls the directory's inode_operations (fs/libfs.c and mm/shmem.c for
 * tmpfs); a directory without them is on a read-only file system (EROFS).
 *
 * Locking: one CPU, non-preemptive kernel: none yet (Linux: i_rwsem).
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/namei.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "mm/mm.h"

/* getname() then path_parentat(): 0 or -errno; after 0, path_parent_put(). */
static long user_path_parent(int dirfd, const char *upath, struct path_parent *pp)
{
	long err = 0;
	char *name = getname(upath, 0, &err);

	if (!name)
		return err;
	err = path_parentat(dirfd, name, pp);
	kfree(name);
	return err;
}

/* A directory's inode operation, or NULL: without them its file system is read-only. */
#define DIR_OP(dir, op) ((dir)->i_op ? (dir)->i_op->op : NULL)

/* -EEXIST if a normalized path names something, 0 if not, or a lookup error. */
static long path_exists(const char *path)
{
	struct inode *inode = lookup_path(path);

	if (IS_ERR_OR_NULL(inode))
		return PTR_ERR_OR_ZERO(inode);
	iput(inode);
	return -EEXIST;
}

long sys_mkdirat(int dirfd, const char *upath, int mode)
{
	struct path_parent pp;
	long err = user_path_parent(dirfd, upath, &pp);

	if (err)
		return err;
	err = pp.type != LAST_NORM ? -EEXIST : path_exists(pp.path);
	if (!err && !DIR_OP(pp.dir, mkdir))
		err = -EROFS;
	if (!err)
		err = pp.dir->i_op->mkdir(pp.dir, pp.last,
					  mode & (S_IRWXUGO | S_ISVTX) & ~CURRENT_UMASK);
	path_parent_put(&pp);
	return err;
}

long sys_mkdir(const char *upath, int mode)
{
	return sys_mkdirat(AT_FDCWD, upath, mode);
}

/* rmdir: "." is EINVAL, ".." ENOTEMPTY, "/" EBUSY, as Linux's do_rmdir. */
static long do_rmdir(int dirfd, const char *upath)
{
	static const long dot_err[] = {
		[LAST_ROOT] = -EBUSY, [LAST_DOT] = -EINVAL, [LAST_DOTDOT] = -ENOTEMPTY,
	};
	struct path_parent pp;
	long err = user_path_parent(dirfd, upath, &pp);

	if (err)
		return err;
	if (pp.type != LAST_NORM)
		err = dot_err[pp.type];
	else if (!DIR_OP(pp.dir, rmdir))
		err = -EROFS;
	else
		err = pp.dir->i_op->rmdir(pp.dir, pp.last);
	path_parent_put(&pp);
	return err;
}

long sys_rmdir(const char *upath)
{
	return do_rmdir(AT_FDCWD, upath);
}

/* What unlinking a name that ended in '/' gives: ENOENT, ENOTDIR or EISDIR. */
static long unlink_trailing(const char *path)
{
	struct inode *inode = lookup_path(path);
	long err;

	if (IS_ERR_OR_NULL(inode))
		return inode ? PTR_ERR(inode) : -ENOENT;
	err = S_ISDIR(inode->i_mode) ? -EISDIR : -ENOTDIR;
	iput(inode);
	return err;
}

static long do_unlinkat(int dirfd, const char *upath)
{
	struct path_parent pp;
	long err = user_path_parent(dirfd, upath, &pp);

	if (err)
		return err;
	if (pp.type != LAST_NORM)
		err = -EISDIR;
	else if (!DIR_OP(pp.dir, unlink))
		err = -EROFS;
	else if (pp.trailing)
		err = unlink_trailing(pp.path);
	else
		err = pp.dir->i_op->unlink(pp.dir, pp.last);
	path_parent_put(&pp);
	return err;
}

long sys_unlinkat(int dirfd, const char *upath, int flags)
{
	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	return flags & AT_REMOVEDIR ? do_rmdir(dirfd, upath) : do_unlinkat(dirfd, upath);
}

long sys_unlink(const char *upath)
{
	return do_unlinkat(AT_FDCWD, upath);
}

/* Is path strictly below directory path dir? */
static bool path_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/';
}

/*
 * rename's checks between the two resolved parents, in Linux's order
 * (do_renameat2): EXDEV across file systems, EBUSY for "."/".."/"/" or a
 * mount point (and, foliOS's limit, a directory with mounts below it),
 * EROFS, ENOENT, ENOTDIR for a file named with '/', ENOTEMPTY when the
 * target is an ancestor of the source.
 */
static long may_rename(struct path_parent *old, struct path_parent *new, unsigned int flags)
{
	struct inode *inode;
	bool dir;

	if (old->dir && new->dir && old->dir->i_sb != new->dir->i_sb)
		return -EXDEV;
	if (old->type != LAST_NORM)
		return -EBUSY;
	if (new->type != LAST_NORM)
		return flags & RENAME_NOREPLACE ? -EEXIST : -EBUSY;
	if (!DIR_OP(old->dir, rename))
		return -EROFS;
	inode = lookup_path(old->path);
	if (IS_ERR_OR_NULL(inode))
		return inode ? PTR_ERR(inode) : -ENOENT;
	dir = S_ISDIR(inode->i_mode);
	iput(inode);
	if (!dir && (old->trailing || new->trailing))
		return -ENOTDIR;
	if (path_below(old->path, new->path))
		return -ENOTEMPTY;
	if (path_is_mountpoint(old->path) || path_is_mountpoint(new->path) ||
	    has_submounts(old->path))
		return -EBUSY;          /* mounts are kept by path: they would not follow */
	return 0;
}

/*
 * renameat2 with flags 0 or RENAME_NOREPLACE (RENAME_EXCHANGE and
 * RENAME_WHITEOUT are not supported: EINVAL).
 */
long sys_renameat2(int olddfd, const char *uold, int newdfd, const char *unew, unsigned int flags)
{
	struct path_parent old, new;
	long err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if (flags & (RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	err = user_path_parent(olddfd, uold, &old);
	if (err)
		return err;
	err = user_path_parent(newdfd, unew, &new);
	if (err) {
		path_parent_put(&old);
		return err;
	}
	err = may_rename(&old, &new, flags);
	if (!err)
		err = old.dir->i_op->rename(old.dir, old.last, new.dir, new.last, flags);
	path_parent_put(&new);
	path_parent_put(&old);
	return err;
}

long sys_renameat(int olddfd, const char *uold, int newdfd, const char *unew)
{
	return sys_renameat2(olddfd, uold, newdfd, unew, 0);
}

long sys_rename(const char *uold, const char *unew)
{
	return sys_renameat2(AT_FDCWD, uold, AT_FDCWD, unew, 0);
}

/* link's checks (Linux's do_linkat): EEXIST, EXDEV, EROFS, EPERM for a directory, ENOENT if unlinked. */
static long may_link(struct inode *inode, struct path_parent *new)
{
	long err = new->type != LAST_NORM ? -EEXIST : path_exists(new->path);

	if (err)
		return err;
	if (inode->i_sb != new->dir->i_sb)
		return -EXDEV;
	if (!DIR_OP(new->dir, link))
		return -EROFS;
	if (S_ISDIR(inode->i_mode))
		return -EPERM;
	return inode->i_nlink ? 0 : -ENOENT;
}

long sys_linkat(int olddfd, const char *uold, int newdfd, const char *unew, int flags)
{
	struct path_parent new;
	struct inode *inode;
	long err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(olddfd, uold, 0, &inode);
	if (err)
		return err;
	err = user_path_parent(newdfd, unew, &new);
	if (!err) {
		err = may_link(inode, &new);
		if (!err)
			err = new.dir->i_op->link(inode, new.dir, new.last);
		path_parent_put(&new);
	}
	iput(inode);
	return err;
}

long sys_link(const char *uold, const char *unew)
{
	return sys_linkat(AT_FDCWD, uold, AT_FDCWD, unew, 0);
}
