/*
 * The system calls of Linux's fs/namei.c that change names: mkdir, rmdir,
 * unlink, rename, link, symlink and their *at forms.  Each resolves the parent
 * directory (path_parentat), checks what Linux checks, in its order, and
 * calls the directory's inode_operations (fs/libfs.c and mm/shmem.c for
 * tmpfs); a directory without them is on a read-only file system (EROFS).
 *
 * Locking, as Linux's: the checks on paths come first, unlocked; then the
 * parent's i_rwsem is taken (I_MUTEX_PARENT), the name looked up again
 * under it, and the operation done: a name another thread made or removed
 * meanwhile gives EEXIST or ENOENT, and nothing is made in a removed
 * directory (ENOENT).  The inode of a name that goes, or of a file that
 * gains one, is locked too (its i_nlink).  A rename takes both parents
 * with lock_rename; rmdir and rename hold namespace_sem for reading
 * across their mount-point checks.  Lock order: see linux/fs.h.
 */
#include "linux/capability.h"
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/namei.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/mm.h"

/*
 * getname() then path_parentat(): 0 or -errno; after 0, path_parent_put().
 * A last component too long is -ENAMETOOLONG here unless the caller
 * checks pp->last_err itself (check_last false: rename's order).
 */
static long user_path_parent(int dirfd, const char *upath, struct path_parent *pp,
			     bool check_last)
{
	long err = 0;
	char *name = getname(upath, 0, &err);

	if (!name)
		return err;
	err = path_parentat(dirfd, name, pp);
	kfree(name);
	if (!err && check_last && pp->last_err) {
		err = pp->last_err;
		path_parent_put(pp);
	}
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

/*
 * May name be made in dir, whose i_rwsem the caller holds (Linux's
 * may_create after its lookup)?  0, -ENOENT (dir was removed) or -EEXIST.
 */
static long may_create(struct inode *dir, const char *name)
{
	struct inode *found;

	if (IS_DEADDIR(dir))
		return -ENOENT;
	found = dir->i_op->lookup(dir, name);
	if (!found)
		return 0;
	iput(found);                            /* not the last: the entry holds one */
	return -EEXIST;
}

/*
 * Make name in dir under its lock (Linux's vfs_mkdir, vfs_symlink,
 * vfs_create, vfs_mknod): a directory (S_IFDIR mode), a link to target
 * (S_IFLNK), a regular file, or a FIFO, device or socket (rdev: its
 * number).  0 or -errno.
 */
static long vfs_make(struct inode *dir, const char *name, umode_t mode, const char *target,
		     unsigned long rdev)
{
	struct inode *made;
	long err;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	err = may_create(dir, name);
	if (!err && S_ISDIR(mode))
		err = dir->i_op->mkdir(dir, name, mode & ~S_IFMT);
	else if (!err && S_ISLNK(mode))
		err = dir->i_op->symlink(dir, name, target);
	else if (!err && S_ISREG(mode) && !(err = dir->i_op->create(dir, name, mode & ~S_IFMT, &made)))
		iput(made);
	else if (!err)
		err = dir->i_op->mknod(dir, name, mode, rdev);
	inode_unlock(dir);
	return err;
}

long sys_mkdirat(int dirfd, const char *upath, int mode)
{
	struct path_parent pp;
	long err = user_path_parent(dirfd, upath, &pp, true);

	if (err)
		return err;
	err = pp.type != LAST_NORM ? -EEXIST : path_exists(pp.path);
	if (!err && !DIR_OP(pp.dir, mkdir))
		err = -EROFS;
	if (!err)
		err = vfs_make(pp.dir, pp.last, S_IFDIR | (mode & (S_IRWXUGO | S_ISVTX) & ~current_umask()),
			       NULL, 0);
	path_parent_put(&pp);
	return err;
}

/* Is dir a mount point?  Only directories can be; the caller holds namespace_sem. */
static bool is_mountpoint(struct inode *dir)
{
	char path[DIR_PATH_MAX];

	if (!S_ISDIR(dir->i_mode))
		return false;
	dir_path(dir, path, sizeof(path));
	return path_is_mountpoint(path);
}

/*
 * Remove name from dir under the locks Linux's vfs_unlink and vfs_rmdir
 * take: dir's, then the victim's (its i_nlink changes); a directory also
 * under namespace_sem, so no mount lands on it meanwhile (-EBUSY if one
 * is there).  0 or -errno.
 */
static long vfs_remove(struct inode *dir, const char *name, bool rmdir)
{
	struct inode *victim;
	long err = -ENOENT;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	victim = dir->i_op->lookup(dir, name);
	if (victim) {
		inode_lock(victim);
		if (!rmdir) {
			err = dir->i_op->unlink(dir, name);
		} else {
			down_read(&namespace_sem);
			err = is_mountpoint(victim) ? -EBUSY : dir->i_op->rmdir(dir, name);
			up_read(&namespace_sem);
		}
		inode_unlock(victim);
	}
	inode_unlock(dir);
	if (victim)
		iput(victim);
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
	long err = user_path_parent(dirfd, upath, &pp, true);

	if (err)
		return err;
	if (pp.type != LAST_NORM)
		err = dot_err[pp.type];
	else if (!DIR_OP(pp.dir, rmdir))
		err = -EROFS;
	else
		err = vfs_remove(pp.dir, pp.last, true);
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
	long err = user_path_parent(dirfd, upath, &pp, true);

	if (err)
		return err;
	if (pp.type != LAST_NORM)
		err = -EISDIR;
	else if (!DIR_OP(pp.dir, unlink))
		err = -EROFS;
	else if (pp.trailing)
		err = unlink_trailing(pp.path);
	else
		err = vfs_remove(pp.dir, pp.last, false);
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
 * target is an ancestor of the source (EINVAL for an exchange: neither
 * may be above the other).
 */
static long may_rename(struct path_parent *old, struct path_parent *new, unsigned int flags)
{
	bool exchange = flags & RENAME_EXCHANGE;
	struct inode *inode;
	bool dir, new_dir;

	if (old->dir && new->dir && old->dir->i_sb != new->dir->i_sb)
		return -EXDEV;
	if (old->type != LAST_NORM)
		return -EBUSY;
	if (new->type != LAST_NORM)
		return flags & RENAME_NOREPLACE ? -EEXIST : -EBUSY;
	if (!DIR_OP(old->dir, rename))
		return -EROFS;
	if (old->last_err)
		return old->last_err;
	inode = lookup_path(old->path);
	if (IS_ERR_OR_NULL(inode))
		return inode ? PTR_ERR(inode) : -ENOENT;
	if (new->last_err) {
		iput(inode);
		return new->last_err;
	}
	dir = S_ISDIR(inode->i_mode);
	iput(inode);
	new_dir = dir;
	if (exchange) {                 /* the target must be there too */
		inode = lookup_path(new->path);
		if (IS_ERR_OR_NULL(inode))
			return inode ? PTR_ERR(inode) : -ENOENT;
		new_dir = S_ISDIR(inode->i_mode);
		iput(inode);
	}
	if ((!dir && old->trailing) || ((exchange ? !new_dir : !dir) && new->trailing))
		return -ENOTDIR;
	if (path_below(old->path, new->path))
		return exchange ? -EINVAL : -ENOTEMPTY;
	return exchange && path_below(new->path, old->path) ? -EINVAL : 0;
}

/*
 * Lock the two directories of a rename (Linux's lock_rename): one is
 * locked once; across directories s_vfs_rename_mutex first, so that no
 * other rename changes which is above which, then an ancestor before
 * its descendant (I_MUTEX_PARENT, I_MUTEX_CHILD), else the lower address
 * first (I_MUTEX_PARENT, I_MUTEX_PARENT2).
 */
static void lock_rename(struct inode *p1, struct inode *p2)
{
	if (p1 == p2) {
		inode_lock_nested(p1, I_MUTEX_PARENT);
		return;
	}
	mutex_lock(&p1->i_sb->s_vfs_rename_mutex);
	if (is_subdir(p1, p2) || (!is_subdir(p2, p1) && p2 < p1)) {
		struct inode *t = p1;

		p1 = p2;
		p2 = t;
	}
	inode_lock_nested(p1, I_MUTEX_PARENT);
	inode_lock_nested(p2, is_subdir(p2, p1) ? I_MUTEX_CHILD : I_MUTEX_PARENT2);
}

static void unlock_rename(struct inode *p1, struct inode *p2)
{
	inode_unlock(p1);
	if (p1 != p2) {
		inode_unlock(p2);
		mutex_unlock(&p1->i_sb->s_vfs_rename_mutex);
	}
}

/*
 * rename's checks before the target is locked (Linux's do_renameat2 and
 * its trap): ENOENT without a source or into a removed directory (or,
 * for an exchange, without a target), EEXIST for RENAME_NOREPLACE and a
 * target (the source itself too), ENOTEMPTY when the target is the
 * source's directory or above it (EINVAL for an exchange, either way).
 */
static long rename_trap(struct inode *old_dir, struct inode *source, struct inode *new_dir,
			struct inode *target, unsigned int flags)
{
	bool exchange = flags & RENAME_EXCHANGE;

	if (!source || IS_DEADDIR(new_dir) || (exchange && (!target || IS_DEADDIR(old_dir))))
		return -ENOENT;
	if (target && (flags & RENAME_NOREPLACE))
		return -EEXIST;
	if (target && S_ISDIR(target->i_mode) && is_subdir(old_dir, target))
		return exchange ? -EINVAL : -ENOTEMPTY;
	if (exchange && S_ISDIR(source->i_mode) && is_subdir(new_dir, source))
		return -EINVAL;
	return 0;
}

/*
 * EBUSY for a mount point, or a directory with mounts below it (mounts
 * are kept by path: they would not follow); namespace_sem held.
 */
static long rename_busy(struct inode *source, struct inode *target)
{
	char path[DIR_PATH_MAX];

	if (is_mountpoint(source) || (target && is_mountpoint(target)))
		return -EBUSY;
	if (S_ISDIR(source->i_mode)) {
		dir_path(source, path, sizeof(path));
		if (has_submounts(path))
			return -EBUSY;
	}
	if (target && S_ISDIR(target->i_mode)) {        /* an exchange moves it too */
		dir_path(target, path, sizeof(path));
		if (has_submounts(path))
			return -EBUSY;
	}
	return 0;
}

/*
 * Lock the non-directories of a and b (either may be NULL), the lower
 * address first (Linux's lock_two_nondirectories).
 */
static void lock_two_nondirectories(struct inode *a, struct inode *b)
{
	if (a > b) {
		struct inode *t = a;

		a = b;
		b = t;
	}
	if (a && !S_ISDIR(a->i_mode))
		inode_lock(a);
	if (b && b != a && !S_ISDIR(b->i_mode))
		inode_lock_nested(b, I_MUTEX_NONDIR2);
}

static void unlock_two_nondirectories(struct inode *a, struct inode *b)
{
	if (a && !S_ISDIR(a->i_mode))
		inode_unlock(a);
	if (b && b != a && !S_ISDIR(b->i_mode))
		inode_unlock(b);
}

/*
 * rename under the locks (Linux 6.1's vfs_rename): both directories
 * (lock_rename); a non-directory source and the target if they are not
 * directories, or for an exchange whichever are not (else a directory
 * target alone); and namespace_sem for reading across the checks and the
 * move.  A name renamed onto another for the same inode is left as it is
 * (0), mount points or not.  0 or -errno.
 */
static long vfs_rename(struct inode *old_dir, const char *old_name, struct inode *new_dir,
		       const char *new_name, unsigned int flags)
{
	struct inode *source, *target;
	bool both = false, locked;
	long err;

	lock_rename(old_dir, new_dir);
	source = old_dir->i_op->lookup(old_dir, old_name);
	target = new_dir->i_op->lookup(new_dir, new_name);
	err = rename_trap(old_dir, source, new_dir, target, flags);
	locked = !err && target != source;
	if (locked) {
		both = !S_ISDIR(source->i_mode) || (flags & RENAME_EXCHANGE);
		if (both)
			lock_two_nondirectories(source, target);
		else if (target)
			inode_lock(target);
	}
	down_read(&namespace_sem);
	if (locked)
		err = rename_busy(source, target);
	if (locked && !err)
		err = old_dir->i_op->rename(old_dir, old_name, new_dir, new_name, flags);
	up_read(&namespace_sem);
	if (locked && both)
		unlock_two_nondirectories(source, target);
	else if (locked && target)
		inode_unlock(target);
	unlock_rename(old_dir, new_dir);
	if (source)
		iput(source);
	if (target)
		iput(target);
	return err;
}

/*
 * renameat2 with flags 0, RENAME_NOREPLACE or RENAME_EXCHANGE (both names
 * must exist; they trade places, a file with a directory too).
 * RENAME_WHITEOUT (overlayfs's) is not supported: EINVAL.
 */
long sys_renameat2(int olddfd, const char *uold, int newdfd, const char *unew, unsigned int flags)
{
	struct path_parent old, new;
	long err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & RENAME_EXCHANGE) && (flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)))
		return -EINVAL;
	if (flags & RENAME_WHITEOUT)
		return -EINVAL;
	err = user_path_parent(olddfd, uold, &old, false);
	if (err)
		return err;
	err = user_path_parent(newdfd, unew, &new, false);
	if (err) {
		path_parent_put(&old);
		return err;
	}
	err = may_rename(&old, &new, flags);
	if (!err)
		err = vfs_rename(old.dir, old.last, new.dir, new.last, flags);
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
	return S_ISDIR(inode->i_mode) ? -EPERM : 0;
}

/*
 * link under the new name's directory lock and the file's (Linux's
 * vfs_link): EEXIST, ENOENT if the file lost its last name or dir was
 * removed.  0 or -errno.
 */
static long vfs_link(struct inode *inode, struct inode *dir, const char *name)
{
	long err;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	err = may_create(dir, name);
	if (!err) {
		inode_lock(inode);
		err = inode->i_nlink ? dir->i_op->link(inode, dir, name) : -ENOENT;
		inode_unlock(inode);
	}
	inode_unlock(dir);
	return err;
}

long sys_linkat(int olddfd, const char *uold, int newdfd, const char *unew, int flags)
{
	struct path_parent new;
	struct inode *inode;
	long err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at_flags(olddfd, uold, (flags & AT_EMPTY_PATH) |
				 (flags & AT_SYMLINK_FOLLOW ? 0 : AT_SYMLINK_NOFOLLOW), &inode);
	if (err)
		return err;
	err = user_path_parent(newdfd, unew, &new, true);
	if (!err) {
		err = may_link(inode, &new);
		if (!err)
			err = vfs_link(inode, new.dir, new.last);
		path_parent_put(&new);
	}
	iput(inode);
	return err;
}

long sys_link(const char *uold, const char *unew)
{
	return sys_linkat(AT_FDCWD, uold, AT_FDCWD, unew, 0);
}

/*
 * symlink's checks (Linux's do_symlinkat): ENOENT for an empty target,
 * EEXIST if the name exists (a dangling link too), ENOENT for a name
 * ending in '/', EROFS.  The target is kept as text, never resolved here.
 */
long sys_symlinkat(const char *utarget, int newdfd, const char *upath)
{
	struct path_parent pp;
	long err = 0;
	char *target = getname(utarget, 0, &err);

	if (!target)
		return err;
	err = user_path_parent(newdfd, upath, &pp, true);
	if (!err) {
		err = pp.type != LAST_NORM ? -EEXIST : path_exists(pp.path);
		if (!err && pp.trailing)
			err = -ENOENT;
		if (!err && !DIR_OP(pp.dir, symlink))
			err = -EROFS;
		if (!err)
			err = vfs_make(pp.dir, pp.last, S_IFLNK, target, 0);
		path_parent_put(&pp);
	}
	kfree(target);
	return err;
}

long sys_symlink(const char *utarget, const char *upath)
{
	return sys_symlinkat(utarget, AT_FDCWD, upath);
}

/*
 * mknod's checks (Linux's do_mknodat and may_mknod): a regular file (type
 * 0 too), FIFO, character or block device or socket, its permissions less
 * the umask; EPERM for a directory, EINVAL for another type, then EEXIST,
 * EPERM for a device without CAP_MKNOD, and EROFS as for mkdir.
 */
long sys_mknodat(int dirfd, const char *upath, unsigned int mode, unsigned int dev)
{
	struct path_parent pp;
	long err;

	switch (mode & S_IFMT) {
	case 0:
		mode |= S_IFREG;
		break;
	case S_IFREG: case S_IFCHR: case S_IFBLK: case S_IFIFO: case S_IFSOCK:
		break;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
	err = user_path_parent(dirfd, upath, &pp, true);
	if (err)
		return err;
	err = pp.type != LAST_NORM ? -EEXIST : path_exists(pp.path);
	if (!err && (S_ISCHR(mode) || S_ISBLK(mode)) && !capable(CAP_MKNOD))
		err = -EPERM;
	if (!err && !DIR_OP(pp.dir, mknod))
		err = -EROFS;
	if (!err)
		err = vfs_make(pp.dir, pp.last, (mode & S_IFMT) | (mode & S_IALLUGO & ~current_umask()),
			       NULL, dev);     /* Linux's encoding, as stat gives it back */
	path_parent_put(&pp);
	return err;
}

long sys_mknod(const char *upath, unsigned int mode, unsigned int dev)
{
	return sys_mknodat(AT_FDCWD, upath, mode, dev);
}
