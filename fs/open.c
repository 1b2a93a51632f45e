/*
 * open, close, access, truncate and fallocate (Linux's fs/open.c).  The
 * initrd is read-only: a write open of one of its files is -EROFS (a
 * directory: -EISDIR); tmpfs files (mm/shmem.c), the console and the
 * writable /proc and /sys knobs can be written.  O_CREAT creates through
 * the parent directory's inode_operations, O_TMPFILE makes a nameless
 * file in a directory, O_TRUNC empties a regular file.
 *
 * Locking: O_CREAT looks the name up and creates it under the parent's
 * i_rwsem (as fs/namei_ops.c); the working directory is under fs->lock
 * (linux/sched.h).  Lock order: see linux/fs.h.
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/sched.h"
#include "linux/syscalls.h"
#include "uapi/linux/falloc.h"
#include "linux/mm.h"

/* A stream: no lseek, no pread (consoles and pipes). */
int nonseekable_open(struct inode *inode, struct file *file)
{
	file->f_mode &= ~(FMODE_LSEEK | FMODE_PREAD);
	return 0;
}

/* May inode be opened with flags: 0, -ELOOP (a link: O_NOFOLLOW), -EISDIR, -EROFS or -ENOTDIR. */
static long may_open(const struct inode *inode, int flags)
{
	bool writes = (flags & O_ACCMODE) != O_RDONLY || (flags & (O_TRUNC | O_APPEND));

	if (S_ISLNK(inode->i_mode))
		return -ELOOP;
	/*
	 * A control file without write (debugfs's gup_test) opens O_RDWR for
	 * its ioctls; a device node gets its driver's operations at open, a
	 * FIFO its ring's.
	 */
	if (writes && (S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode)) && !inode->i_fop->write &&
	    !inode->i_fop->unlocked_ioctl)
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
	struct file *f;

	if ((S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode)) && inode->i_sb &&
	    (READ_ONCE(inode->i_sb->s_flags) & SB_NODEV)) {
		*err = -EACCES;         /* a device on a nodev mount (Linux's may_open) */
		iput(inode);
		return NULL;
	}
	f = alloc_file(inode, flags);
	*err = f ? 0 : -ENOMEM;
	if (!f) {
		iput(inode);
		return NULL;
	}
	if (S_ISREG(inode->i_mode) && (f->f_mode & FMODE_WRITE)) {
		*err = get_write_access(inode);         /* a running program's file: ETXTBSY */
		f->f_mode |= *err ? 0 : FMODE_WRITER;
	}
	f->f_flags |= flags & O_EXCL;   /* for ->open alone (a disk's exclusive open), as Linux's */
	if (!*err && f->f_op->open)
		*err = f->f_op->open(inode, f);
	f->f_flags &= ~O_EXCL;
	if (*err) {                             /* not opened: nothing to release */
		if (f->f_mode & FMODE_WRITER)
			put_write_access(inode);
		if (inode->i_sb)
			atomic_dec(&inode->i_sb->s_nr_files);   /* alloc_file counted it */
		iput(inode);
		kfree(f);
		return NULL;
	}
	return f;
}

/*
 * The existing file an O_CREAT open names (Linux's do_open checks):
 * -EEXIST with O_EXCL, -EISDIR for a directory; else 0 with *inode.
 */
static long open_existing(struct inode *found, int flags, struct inode **inode)
{
	if (!(flags & O_EXCL) && !S_ISDIR(found->i_mode)) {
		*inode = found;
		return 0;
	}
	iput(found);
	return flags & O_EXCL ? -EEXIST : -EISDIR;
}

/*
 * O_CREAT in a directory that has create (Linux's lookup_open): under its
 * i_rwsem, so that of two opens creating one name at once one creates it
 * and the other opens it.  Else as open_create.
 */
static long create_locked(struct inode *dir, const char *name, int flags, umode_t mode,
			  struct inode **inode)
{
	struct inode *found;
	long err;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	found = dir->i_op->lookup(dir, name);
	if (found)
		err = open_existing(found, flags, inode);
	else if (IS_DEADDIR(dir))
		err = -ENOENT;
	else
		err = dir->i_op->create(dir, name, mode, inode);
	inode_unlock(dir);
	return err;
}

/*
 * O_CREAT (Linux's open_last_lookups): the parent resolved, a name ending
 * in '/' (or ".", "/") is -EISDIR, an existing file is opened (see
 * open_existing), a new one made through the parent's create op with mode
 * less the umask (-EROFS without one).  *inode a reference, path
 * (PATH_MAX bytes) its absolute name; 0 or -errno.
 */
static long open_create_one(int dirfd, const char *name, int flags, int mode,
			    struct inode **inode, char *path)
{
	struct path_parent pp;
	struct inode *found = NULL;
	long err = path_parentat(dirfd, name, &pp);
	bool create = !err && pp.dir && pp.dir->i_op && pp.dir->i_op->create;

	if (!err && pp.last_err) {
		err = pp.last_err;
		path_parent_put(&pp);
	}
	if (err)
		return err;
	if (pp.type == LAST_NORM && !pp.trailing && !create)
		found = lookup_path(pp.path);           /* a read-only tree's, or a mount's root */
	if (pp.type != LAST_NORM || pp.trailing)
		err = -EISDIR;
	else if (create)
		err = create_locked(pp.dir, pp.last, flags, mode & S_IALLUGO & ~current_umask(), inode);
	else if (IS_ERR(found))
		err = PTR_ERR(found);
	else
		err = found ? open_existing(found, flags, inode) : -EROFS;
	if (!err)
		snprintf(path, PATH_MAX, "/%s", pp.path);
	path_parent_put(&pp);
	return err;
}

/*
 * Where the link at path (its absolute name) points, as an absolute name
 * in buf (PATH_MAX bytes): its text, after its directory if relative.
 * 0, -ENAMETOOLONG or get_link's error.
 */
static long link_target(struct inode *link, const char *path, char *buf)
{
	const char *target = inode_get_link(link, buf);
	size_t dir = strrchr(path, '/') - path;

	if (IS_ERR(target))
		return PTR_ERR(target);
	if (target[0] == '/')
		return target == buf ? 0 : strlcpy(buf, target, PATH_MAX) < PATH_MAX ? 0 : -ENAMETOOLONG;
	if (target != buf)
		return snprintf(buf, PATH_MAX, "%.*s/%s", (int)dir, path, target) < PATH_MAX ?
			0 : -ENAMETOOLONG;
	if (dir + 1 + strlen(buf) >= PATH_MAX)
		return -ENAMETOOLONG;
	memmove(buf + dir + 1, buf, strlen(buf) + 1);
	memcpy(buf, path, dir);
	buf[dir] = '/';
	return 0;
}

/*
 * O_CREAT on a name that may be a link (Linux's open_last_lookups and its
 * trailing-link loop): without O_EXCL or O_NOFOLLOW a link is followed,
 * and its target created if missing, up to MAXSYMLINKS links (ELOOP).
 */
static long open_create(int dirfd, const char *name, int flags, int mode, struct inode **inode,
			char *path)
{
	char *buf = NULL, root[DIR_PATH_MAX];
	size_t rlen;
	long err;

	err = get_fs_root_path(current->fs, root, sizeof(root));
	rlen = strlen(root);
	for (int links = 0; !err; links++) {
		err = open_create_one(dirfd, name, flags, mode, inode, path);
		if (err || !S_ISLNK((*inode)->i_mode) || (flags & (O_EXCL | O_NOFOLLOW)))
			break;
		if ((*inode)->i_op && (*inode)->i_op->jump_link) {     /* a magic link: its file */
			struct inode *target = (*inode)->i_op->jump_link(*inode, path);

			iput(*inode);
			if (IS_ERR(target))
				return PTR_ERR(target);
			return open_existing(target, flags, inode);
		}
		err = links == MAXSYMLINKS ? -ELOOP : buf || (buf = kmalloc(PATH_MAX)) ? 0 : -ENOMEM;
		if (!err)       /* path is the real one: the target is named from the root (chroot) */
			err = link_target(*inode, rlen && !strncmp(path + 1, root, rlen) &&
					  path[1 + rlen] == '/' ? path + 1 + rlen : path, buf);
		iput(*inode);
		if (err)
			break;
		name = buf;
	}
	kfree(buf);
	return err;
}

/*
 * Find (or with O_CREAT make) what an open names (Linux's path_openat).
 * *inode a reference, path (PATH_MAX bytes) the absolute name the open
 * file keeps (fs/d_path.c).
 */
static long open_lookup(int dirfd, const char *upath, int flags, int mode, struct inode **inode,
			char *path)
{
	long err = 0;
	char *name = getname(upath, 0, &err);

	if (!name)
		return err;
	err = flags & O_CREAT ? open_create(dirfd, name, flags, mode, inode, path) :
				filename_lookup(dirfd, name, flags & O_NOFOLLOW ? 0 : LOOKUP_FOLLOW,
						inode, path);
	kfree(name);
	return err;
}

/*
 * O_TMPFILE: a nameless regular file in the directory upath names, which
 * goes with its last close.  Linux's rules: O_DIRECTORY with it, no
 * O_CREAT, and opened for writing (else -EINVAL); -EOPNOTSUPP where the
 * file system cannot.  Its name is Linux's "DIR/#INO".
 */
static long open_tmpfile(int dirfd, const char *upath, int flags, int mode, struct inode **inode,
			 char *path)
{
	struct inode *dir;
	char *name;
	long err = 0;

	if ((flags & (O_TMPFILE | O_CREAT)) != O_TMPFILE || (flags & O_ACCMODE) == O_RDONLY)
		return -EINVAL;
	name = getname(upath, 0, &err);
	if (!name)
		return err;
	err = filename_lookup(dirfd, name, LOOKUP_FOLLOW, &dir, path);
	kfree(name);
	if (err)
		return err;
	if (!S_ISDIR(dir->i_mode))
		err = -ENOTDIR;
	else if (!dir->i_op || !dir->i_op->tmpfile)
		err = -EOPNOTSUPP;
	else
		err = dir->i_op->tmpfile(dir, mode & S_IALLUGO & ~current_umask(), inode);
	if (!err)
		snprintf(path + strlen(path), PATH_MAX - strlen(path), "%s#%lu",
			 path[1] ? "/" : "", (*inode)->i_ino);
	iput(dir);
	return err;
}

/*
 * Truncate a regular file to length with write access of its own (Linux's
 * handle_truncate and vfs_truncate), so that a running program's file is
 * ETXTBSY, untouched: O_TRUNC once the file is open, truncate(2).
 */
static long handle_truncate(struct inode *inode, loff_t length)
{
	long ret = get_write_access(inode);

	if (!ret) {
		ret = do_truncate(inode, length);
		put_write_access(inode);
	}
	return ret;
}

static const struct file_operations path_fops;   /* an O_PATH file does nothing */

/*
 * O_PATH (Linux's do_o_path): a file that only names the inode — a link
 * itself with O_NOFOLLOW, a device without its driver, a FIFO without
 * waiting, whatever its mode.  No I/O: fdget() refuses it (EBADF); dup,
 * fcntl's fd calls, fstat, fstatfs, fchdir and *at calls take it.
 */
static struct file *open_path(struct inode *inode, int flags, long *err)
{
	struct file *f = NULL;

	*err = -ENOTDIR;
	if (!(flags & O_DIRECTORY) || S_ISDIR(inode->i_mode)) {
		f = alloc_file(inode, O_RDONLY);
		*err = f ? 0 : -ENOMEM;
	}
	if (!f) {
		iput(inode);
		return NULL;
	}
	f->f_mode = FMODE_PATH;
	f->f_flags = flags & (O_PATH | O_DIRECTORY | O_NOFOLLOW);
	f->f_op = &path_fops;
	return f;
}

/* Open the inode (a reference, taken over) named path: the file, or NULL and *err. */
static struct file *open_inode(struct inode *inode, const char *path, int flags, long *err)
{
	long ret = flags & O_PATH ? 0 :
		   may_open(inode, flags & __O_TMPFILE ? flags & ~O_TMPFILE : flags);
	struct file *f;

	if (ret) {
		iput(inode);
		*err = ret;
		return NULL;
	}
	f = flags & O_PATH ? open_path(inode, flags, err) : vfs_open(inode, flags, err);
	if (!f)
		return NULL;
	if ((flags & O_TRUNC) && S_ISREG(inode->i_mode) && inode->i_op && inode->i_op->setattr)
		ret = handle_truncate(inode, 0);
	if (!ret)
		ret = file_set_name(f, "%s", path);
	if (ret) {
		fput(f);
		*err = ret;
		return NULL;
	}
	return f;
}

/* Open the inode (a reference, taken over) named path: an fd or -errno. */
static long do_open(struct inode *inode, const char *path, int flags)
{
	long ret;
	struct file *f = open_inode(inode, path, flags, &ret);

	if (!f)
		return ret;
	ret = fd_install(f, flags & O_CLOEXEC);
	if (ret < 0)
		fput(f);
	return ret;
}

/*
 * Open the file a user's path names for the kernel's own use, with no fd
 * (Linux's file_open_name, as swapon opens its device): the file, or an
 * ERR_PTR.
 */
struct file *file_open_user(const char *upath, int flags)
{
	char *path = kmalloc(PATH_MAX);
	struct inode *inode;
	struct file *f = NULL;
	long ret = path ? open_lookup(AT_FDCWD, upath, flags | O_LARGEFILE, 0, &inode, path) :
			  -ENOMEM;

	if (!ret)
		f = open_inode(inode, path, flags | O_LARGEFILE, &ret);
	kfree(path);
	return f ? f : ERR_PTR(ret);
}

long sys_openat(int dirfd, const char *upath, int flags, int mode)
{
	char *path = kmalloc(PATH_MAX);
	struct inode *inode;
	long ret;

	if (flags & O_PATH)
		flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;      /* Linux's O_PATH_FLAGS */
	else
		flags |= O_LARGEFILE;   /* Linux's force_o_largefile: F_GETFL and fdinfo show it */
	ret = !path ? -ENOMEM :
		   flags & __O_TMPFILE ? open_tmpfile(dirfd, upath, flags, mode, &inode, path) :
		   open_lookup(dirfd, upath, flags, mode, &inode, path);

	if (!ret)
		ret = do_open(inode, path, flags);
	kfree(path);
	return ret;
}

long sys_open(const char *upath, int flags, int mode)
{
	return sys_openat(AT_FDCWD, upath, flags, mode);
}

long sys_creat(const char *upath, int mode)
{
	return sys_openat(AT_FDCWD, upath, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

/* fs's directory in *slot (pwd or root) with a reference for the caller (iput); NULL for "/". */
static struct inode *fs_get_dir(struct fs_struct *fs, struct inode *const *slot)
{
	struct inode *dir;

	spin_lock(&fs->lock);
	dir = *slot;
	if (dir)
		ihold(dir);
	spin_unlock(&fs->lock);
	return dir;
}

/* Make dir (the caller's reference, which fs takes) fs's directory in *slot. */
static void fs_set_dir(struct fs_struct *fs, struct inode **slot, struct inode *dir)
{
	struct inode *old;

	spin_lock(&fs->lock);
	old = *slot;
	*slot = dir;
	spin_unlock(&fs->lock);
	if (old)
		iput(old);
}

/* The working directory of fs with a reference for the caller (iput), NULL for "/" (Linux's get_fs_pwd). */
struct inode *get_fs_pwd(struct fs_struct *fs)
{
	return fs_get_dir(fs, &fs->pwd);
}

/* Make dir (the caller's reference, which fs takes) the working directory of fs (Linux's set_fs_pwd). */
void set_fs_pwd(struct fs_struct *fs, struct inode *dir)
{
	fs_set_dir(fs, &fs->pwd, dir);
}

/*
 * The path of fs's root directory ("" for the real root, "tmp/jail" after
 * chroot) into buf: 0, or -ENOENT once that directory was removed (its
 * path may name another one by now: Linux's dead root finds nothing).
 */
int get_fs_root_path(struct fs_struct *fs, char *buf, size_t size)
{
	struct inode *root = fs_get_dir(fs, &fs->root);
	int err = 0;

	buf[0] = '\0';
	if (root) {
		dir_path(root, buf, size);
		err = IS_DEADDIR(root) ? -ENOENT : 0;
		iput(root);
	}
	return err;
}

/*
 * chroot(2): the directory path names becomes the root of the caller's
 * fs_struct, where absolute paths start and ".." stops (Linux's
 * set_fs_root); the working directory stays.  The lookup's errors,
 * -ENOTDIR, then -EPERM without CAP_SYS_CHROOT.
 */
long sys_chroot(const char *upath)
{
	struct inode *dir;
	long err = user_path_at(AT_FDCWD, upath, LOOKUP_FOLLOW, &dir);

	if (err)
		return err;
	err = !S_ISDIR(dir->i_mode) ? -ENOTDIR : IS_DEADDIR(dir) ? -ENOENT :
	      !capable(CAP_SYS_CHROOT) ? -EPERM : 0;
	if (err) {
		iput(dir);
		return err;
	}
	fs_set_dir(current->fs, &current->fs->root, dir);       /* Linux's set_fs_root */
	return 0;
}

/* chdir(2): ENOENT, ENOTDIR, EFAULT... as the lookup gives them. */
long sys_chdir(const char *upath)
{
	struct inode *dir;
	long err = user_path_at(AT_FDCWD, upath, LOOKUP_FOLLOW, &dir);

	if (err)
		return err;
	if (!S_ISDIR(dir->i_mode)) {
		iput(dir);
		return -ENOTDIR;
	}
	set_fs_pwd(current->fs, dir);
	return 0;
}

/* fchdir(2): the directory an fd has open (O_PATH too); EBADF, ENOTDIR. */
long sys_fchdir(int fd)
{
	struct fd f = fdget_raw(fd);
	long ret = -ENOTDIR;

	if (!f.file)
		return -EBADF;
	if (S_ISDIR(file_inode(f.file)->i_mode)) {
		ihold(file_inode(f.file));
		set_fs_pwd(current->fs, file_inode(f.file));
		ret = 0;
	}
	fdput(f);
	return ret;
}

/* close(fd): 0 or -EBADF. */
long sys_close(int fd)
{
	struct file *f = fd < 0 ? NULL : file_close_fd(fd);

	if (!f)
		return -EBADF;
	filp_close(f, current->files);
	return 0;
}

/*
 * access, faccessat, faccessat2 (its flags: AT_EACCESS — the same here,
 * every id is 0 — AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH; others EINVAL):
 * every file exists for everyone (foliOS has one user, root);
 * W_OK is -EROFS but on the console, a character device, and on tmpfs:
 * foliOS mounts the rest read-only (Linux's inode_permission gives EROFS
 * to files, directories and links of a read-only mount, not to devices);
 * X_OK of a regular file on a noexec mount is -EACCES, and of anything
 * but a directory without an execute bit too (root's CAP_DAC_OVERRIDE
 * does not make a file executable: Linux's generic_permission).
 */
long sys_faccessat2(int dirfd, const char *upath, int mode, int flags)
{
	struct inode *inode;
	long ret;

	if (mode & ~7)                          /* not F_OK, R_OK, W_OK, X_OK */
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	ret = user_path_at_flags(dirfd, upath, flags, &inode);
	if (ret)
		return ret;
	ret = (mode & 2) && !S_ISCHR(inode->i_mode) && !inode->i_op ? -EROFS : 0;
	if (!ret && (mode & 1) && S_ISREG(inode->i_mode) && inode_noexec(inode))
		ret = -EACCES;          /* X_OK on a noexec mount */
	if (!ret && (mode & 1) && !S_ISDIR(inode->i_mode) && !(inode->i_mode & 0111))
		ret = -EACCES;          /* X_OK: no one may execute it */
	iput(inode);
	return ret;
}

long sys_faccessat(int dirfd, const char *upath, int mode)
{
	return sys_faccessat2(dirfd, upath, mode, 0);
}

long sys_access(const char *upath, int mode)
{
	return sys_faccessat(AT_FDCWD, upath, mode);
}

/*
 * Set a regular file's size, mtime and ctime through notify_change
 * (Linux's do_truncate), under inode_lock as Linux's: writes, fallocate
 * and other truncations of the file wait.  0 or -errno.
 */
long do_truncate(struct inode *inode, loff_t length)
{
	struct iattr attr = { .ia_valid = ATTR_SIZE | ATTR_MTIME | ATTR_CTIME, .ia_size = length };
	long err;

	if (length < 0)
		return -EINVAL;
	inode_lock(inode);
	err = notify_change(inode, &attr);
	inode_unlock(inode);
	return err;
}

/* ftruncate's checks in Linux's order: EINVAL, EBADF, EINVAL (not a regular file open for writing). */
long sys_ftruncate(int fd, long length)
{
	struct inode *inode;
	struct fd f;
	long ret;

	if (length < 0)
		return -EINVAL;
	f = fdget(fd);
	if (!f.file)
		return -EBADF;
	inode = file_inode(f.file);
	if (!S_ISREG(inode->i_mode) || !(f.file->f_mode & FMODE_WRITE))
		ret = -EINVAL;
	else if (!inode->i_op || !inode->i_op->setattr)
		ret = -EROFS;
	else
		ret = do_truncate(inode, length);
	fdput(f);
	return ret;
}

/* truncate(path): EISDIR, EINVAL (not a regular file), EROFS (not writable), as Linux's vfs_truncate. */
long sys_truncate(const char *upath, long length)
{
	struct inode *inode;
	long err;

	if (length < 0)
		return -EINVAL;
	err = user_path_at(AT_FDCWD, upath, LOOKUP_FOLLOW, &inode);
	if (err)
		return err;
	if (S_ISDIR(inode->i_mode))
		err = -EISDIR;
	else if (!S_ISREG(inode->i_mode))
		err = -EINVAL;
	else if (!inode->i_op || !inode->i_op->setattr)
		err = -EROFS;
	else
		err = handle_truncate(inode, length);
	iput(inode);
	return err;
}

/*
 * fallocate's checks in Linux's order (vfs_fallocate), then the file's
 * op: EINVAL, EOPNOTSUPP (mode), EBADF (not open for writing), ESPIPE,
 * EISDIR, ENODEV, EFBIG, EOPNOTSUPP (no op).
 */
long vfs_fallocate(struct file *file, int mode, loff_t offset, loff_t len)
{
	struct inode *inode = file_inode(file);
	loff_t end;

	if (offset < 0 || len <= 0)
		return -EINVAL;
	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE | FALLOC_FL_NO_HIDE_STALE |
		     FALLOC_FL_COLLAPSE_RANGE | FALLOC_FL_ZERO_RANGE | FALLOC_FL_INSERT_RANGE |
		     FALLOC_FL_UNSHARE_RANGE))
		return -EOPNOTSUPP;
	if ((mode & FALLOC_FL_PUNCH_HOLE) && (mode & FALLOC_FL_ZERO_RANGE))
		return -EOPNOTSUPP;
	if ((mode & FALLOC_FL_PUNCH_HOLE) && !(mode & FALLOC_FL_KEEP_SIZE))
		return -EOPNOTSUPP;
	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (S_ISFIFO(inode->i_mode))
		return -ESPIPE;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode))
		return -ENODEV;
	if (__builtin_add_overflow(offset, len, &end) || !inode->i_sb ||
	    end > inode->i_sb->s_maxbytes)
		return -EFBIG;
	if (!file->f_op->fallocate)
		return -EOPNOTSUPP;
	return file->f_op->fallocate(file, mode, offset, len);
}

long sys_fallocate(int fd, int mode, long offset, long len)
{
	struct fd f = fdget(fd);
	long ret = f.file ? vfs_fallocate(f.file, mode, offset, len) : -EBADF;

	fdput(f);
	return ret;
}
