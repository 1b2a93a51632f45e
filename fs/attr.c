/*
 * An inode's attributes — mode, owner, times — and how they change
 * (Linux's fs/attr.c: notify_change, setattr_copy; fs/inode.c: the time
 * stamps; and the system calls Linux keeps in fs/open.c: chmod, chown,
 * umask).
 *
 *   atime   last read (relatime, tmpfs's default: only when older than
 *           mtime or ctime, or a day old), a readdir, or utimensat
 *   mtime   last change of the data: write, truncate; a directory's
 *           entries: create, unlink, rename, link, symlink
 *   ctime   last change of the inode: all of the above and chmod, chown,
 *           link count, utimensat
 *
 * Every change goes through notify_change() under inode_lock, which sets
 * ctime and calls the file system's setattr; a file system without one
 * (the initrd, /proc, /sys, the devices) is read-only: EROFS.  foliOS
 * runs everything as root, so the owner checks always pass: a chown
 * changes the numbers only (and clears setuid, and setgid if group-
 * executable, as Linux's for root too).
 *
 * Locking: inode_lock (i_rwsem) for every writer of the attributes;
 * readers (stat) take none, as Linux's.  The umask is fs->lock's.
 */
#include "linux/capability.h"
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/sched.h"
#include "linux/syscalls.h"
#include "linux/time64.h"

/* Now, as an inode's time stamp (Linux's current_time). */
struct timespec64 current_time(struct inode *inode)
{
	u64 ns = ktime_get_real_ns();

	return (struct timespec64){ .tv_sec = ns / NSEC_PER_SEC, .tv_nsec = ns % NSEC_PER_SEC };
}

/* A change of data or of a directory's entries: mtime and ctime are now.  inode_lock held. */
void inode_touch_mtime(struct inode *inode)
{
	inode->i_mtime = inode->i_ctime = current_time(inode);
}

/* A change of the inode alone (a link count): ctime is now.  inode_lock held. */
void inode_touch_ctime(struct inode *inode)
{
	inode->i_ctime = current_time(inode);
}

/* Is a before b? */
static bool timespec64_before(struct timespec64 a, struct timespec64 b)
{
	return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

/*
 * file was read (Linux's file_accessed and relatime_need_update): atime
 * becomes now if it is not after mtime or ctime, or is a day old; a
 * read-only file system keeps it.  No lock: a racing stamp wins or loses
 * whole seconds at most, as in Linux.
 */
void file_accessed(struct file *file)
{
	struct inode *inode = file_inode(file);
	struct timespec64 now;

	if (!inode->i_op || !inode->i_op->setattr)
		return;
	now = current_time(inode);
	if (!timespec64_before(inode->i_mtime, inode->i_atime) ||
	    !timespec64_before(inode->i_ctime, inode->i_atime) ||
	    now.tv_sec - inode->i_atime.tv_sec >= 24 * 60 * 60)
		inode->i_atime = now;
}

/* Copy attr's mode, owner and times into inode (Linux's setattr_copy).  inode_lock held. */
void setattr_copy(struct inode *inode, const struct iattr *attr)
{
	unsigned int v = attr->ia_valid;

	if (v & ATTR_UID)
		inode->i_uid = attr->ia_uid;
	if (v & ATTR_GID)
		inode->i_gid = attr->ia_gid;
	if (v & ATTR_ATIME)
		inode->i_atime = attr->ia_atime;
	if (v & ATTR_MTIME)
		inode->i_mtime = attr->ia_mtime;
	if (v & ATTR_CTIME)
		inode->i_ctime = attr->ia_ctime;
	if (v & ATTR_MODE)
		inode->i_mode = (inode->i_mode & S_IFMT) | (attr->ia_mode & S_IALLUGO);
}

/*
 * Change inode's attributes as attr says (Linux's notify_change): ctime
 * now, atime/mtime now unless given (ATTR_*_SET), setuid/setgid cleared
 * for ATTR_KILL_*, then the file system's setattr.  The caller holds
 * inode_lock.  0, -EROFS (read-only file system) or setattr's error.
 */
int notify_change(struct inode *inode, struct iattr *attr)
{
	struct timespec64 now = current_time(inode);
	unsigned int v = attr->ia_valid;

	inode_assert_locked(inode);
	if (!inode->i_op || !inode->i_op->setattr)
		return -EROFS;
	if ((v & ATTR_MODE) && S_ISLNK(inode->i_mode))
		return -EOPNOTSUPP;     /* a link's mode is never looked at: 0777 (as the peer's Debian 6.1) */
	if (v & (ATTR_KILL_SUID | ATTR_KILL_SGID)) {
		umode_t mode = v & ATTR_MODE ? attr->ia_mode : inode->i_mode;

		if (mode & S_ISUID)
			mode &= ~S_ISUID;
		if ((v & ATTR_KILL_SGID) && (mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
			mode &= ~S_ISGID;
		if (mode != (v & ATTR_MODE ? attr->ia_mode : inode->i_mode)) {
			attr->ia_mode = mode;
			attr->ia_valid |= ATTR_MODE;
		}
	}
	attr->ia_ctime = now;
	attr->ia_valid |= ATTR_CTIME;
	if ((v & ATTR_ATIME) && !(v & ATTR_ATIME_SET))
		attr->ia_atime = now;
	if ((v & ATTR_MTIME) && !(v & ATTR_MTIME_SET))
		attr->ia_mtime = now;
	return inode->i_op->setattr(inode, attr);
}

/* setattr of an inode with no size to change (a directory, a link: Linux's simple_setattr). */
int simple_setattr(struct inode *inode, struct iattr *attr)
{
	setattr_copy(inode, attr);
	return 0;
}

/* notify_change under inode's lock. */
static long change_locked(struct inode *inode, struct iattr *attr)
{
	long err;

	inode_lock(inode);
	err = notify_change(inode, attr);
	inode_unlock(inode);
	return err;
}

/* chmod's change (Linux's chmod_common): the permission bits, type kept. */
static long chmod_common(struct inode *inode, umode_t mode)
{
	struct iattr attr = { .ia_valid = ATTR_MODE | ATTR_CTIME, .ia_mode = mode & S_IALLUGO };

	return change_locked(inode, &attr);
}

long sys_fchmodat(int dirfd, const char *upath, unsigned int mode)
{
	struct inode *inode;
	long err = user_path_at_flags(dirfd, upath, 0, &inode);

	if (err)
		return err;
	err = chmod_common(inode, mode);
	iput(inode);
	return err;
}

long sys_chmod(const char *upath, unsigned int mode)
{
	return sys_fchmodat(AT_FDCWD, upath, mode);
}

long sys_fchmod(int fd, unsigned int mode)
{
	struct fd f = fdget(fd);
	long err = f.file ? chmod_common(file_inode(f.file), mode) : -EBADF;

	fdput(f);
	return err;
}

/*
 * chown's change (Linux's chown_common): -1 keeps an id; a file (not a
 * directory) loses setuid, and setgid if group-executable.  Giving a file
 * away needs CAP_CHOWN (-EPERM).
 */
static long chown_common(struct inode *inode, unsigned int uid, unsigned int gid)
{
	struct iattr attr = { .ia_valid = ATTR_CTIME, .ia_uid = uid, .ia_gid = gid };
	bool owner = inode->i_uid == 0;         /* the caller (root) owns it */

	/* Linux's chown_ok/chgrp_ok: the owner may keep its uid and pick a group of its own. */
	if ((uid != (unsigned int)-1 && !(owner && uid == inode->i_uid)) ||
	    (gid != (unsigned int)-1 && !(owner && (gid == inode->i_gid || gid == 0))))
		if (!capable(CAP_CHOWN))
			return -EPERM;

	if (uid != (unsigned int)-1)
		attr.ia_valid |= ATTR_UID;
	if (gid != (unsigned int)-1)
		attr.ia_valid |= ATTR_GID;
	if (!S_ISDIR(inode->i_mode))
		attr.ia_valid |= ATTR_KILL_SUID | ATTR_KILL_SGID;
	return change_locked(inode, &attr);
}

/* fchownat(dirfd, path, uid, gid, flags): AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH; else EINVAL. */
long sys_fchownat(int dirfd, const char *upath, unsigned int uid, unsigned int gid, int flags)
{
	struct inode *inode;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at_flags(dirfd, upath, flags, &inode);
	if (err)
		return err;
	err = chown_common(inode, uid, gid);
	iput(inode);
	return err;
}

long sys_chown(const char *upath, unsigned int uid, unsigned int gid)
{
	return sys_fchownat(AT_FDCWD, upath, uid, gid, 0);
}

long sys_lchown(const char *upath, unsigned int uid, unsigned int gid)
{
	return sys_fchownat(AT_FDCWD, upath, uid, gid, AT_SYMLINK_NOFOLLOW);
}

long sys_fchown(int fd, unsigned int uid, unsigned int gid)
{
	struct fd f = fdget(fd);
	long err = f.file ? chown_common(file_inode(f.file), uid, gid) : -EBADF;

	fdput(f);
	return err;
}

/* umask(mask): the process's file-creation mask (shared with CLONE_FS); the old one. */
long sys_umask(int mask)
{
	struct fs_struct *fs = current->fs;
	long old;

	spin_lock(&fs->lock);
	old = fs->umask;
	fs->umask = mask & S_IRWXUGO;
	spin_unlock(&fs->lock);
	return old;
}

/* The caller's umask (Linux's current_umask). */
umode_t current_umask(void)
{
	return READ_ONCE(current->fs->umask);
}
