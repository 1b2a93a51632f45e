/*
 * Setting a file's times (Linux's fs/utimes.c): utimensat (and futimens,
 * which is utimensat on an fd with a NULL path), utimes, futimesat, utime.
 * Each gives atime and mtime, "now" for both (no times), or per time
 * UTIME_NOW / UTIME_OMIT; ctime becomes now (fs/attr.c's notify_change).
 * Everything runs as root: no permission can be missing.  Locking: see
 * fs/attr.c.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/syscalls.h"
#include "linux/time64.h"
#include "linux/uaccess.h"

#define UTIME_NOW       ((1L << 30) - 1L)
#define UTIME_OMIT      ((1L << 30) - 2L)

static bool nsec_valid(long nsec)
{
	return nsec == UTIME_OMIT || nsec == UTIME_NOW || (nsec >= 0 && nsec < NSEC_PER_SEC);
}

/*
 * Set inode's times from times (NULL: both now) under its lock (Linux's
 * vfs_utimes).  0, -EINVAL (a bad tv_nsec) or notify_change's error.
 */
static long vfs_utimes(struct inode *inode, const struct timespec64 *times)
{
	struct iattr attr = { .ia_valid = ATTR_CTIME | ATTR_MTIME | ATTR_ATIME };
	long err;

	if (times) {
		if (!nsec_valid(times[0].tv_nsec) || !nsec_valid(times[1].tv_nsec))
			return -EINVAL;
		if (times[0].tv_nsec == UTIME_OMIT)
			attr.ia_valid &= ~ATTR_ATIME;
		else if (times[0].tv_nsec != UTIME_NOW) {
			attr.ia_atime = times[0];
			attr.ia_valid |= ATTR_ATIME_SET;
		}
		if (times[1].tv_nsec == UTIME_OMIT)
			attr.ia_valid &= ~ATTR_MTIME;
		else if (times[1].tv_nsec != UTIME_NOW) {
			attr.ia_mtime = times[1];
			attr.ia_valid |= ATTR_MTIME_SET;
		}
	}
	inode_lock(inode);
	err = notify_change(inode, &attr);
	inode_unlock(inode);
	return err;
}

/*
 * The times of the file dirfd and upath name (upath NULL: dirfd itself,
 * futimens), with flags AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH (Linux's
 * do_utimes).  0 or -errno: EINVAL for other flags (any, with a NULL path).
 */
static long do_utimes(int dirfd, const char *upath, const struct timespec64 *times, int flags)
{
	struct inode *inode;
	struct fd f;
	long err;

	if (!upath && dirfd != AT_FDCWD) {
		if (flags)
			return -EINVAL;
		f = fdget(dirfd);
		if (!f.file)
			return -EBADF;
		err = vfs_utimes(file_inode(f.file), times);
		fdput(f);
		return err;
	}
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at_flags(dirfd, upath, flags, &inode);
	if (err)
		return err;
	err = vfs_utimes(inode, times);
	iput(inode);
	return err;
}

/* utimensat(dirfd, path, times[2], flags): both UTIME_OMIT is 0 at once, the path not even looked at. */
long sys_utimensat(int dirfd, const char *upath, const struct timespec64 *utimes, int flags)
{
	struct timespec64 t[2];

	if (utimes) {
		if (copy_from_user(t, utimes, sizeof(t)))
			return -EFAULT;
		if (t[0].tv_nsec == UTIME_OMIT && t[1].tv_nsec == UTIME_OMIT)
			return 0;
	}
	return do_utimes(dirfd, upath, utimes ? t : NULL, flags);
}

/* A struct timeval pair (utimes, futimesat) as timespecs: EINVAL for usec outside [0, 10^6). */
static long timevals_in(const long *utv, struct timespec64 *t)
{
	long tv[4];

	if (copy_from_user(tv, utv, sizeof(tv)))
		return -EFAULT;
	for (int i = 0; i < 2; i++) {
		if (tv[2 * i + 1] < 0 || tv[2 * i + 1] >= 1000000)
			return -EINVAL;
		t[i] = (struct timespec64){ tv[2 * i], tv[2 * i + 1] * NSEC_PER_USEC };
	}
	return 0;
}

long sys_futimesat(int dirfd, const char *upath, const long *utimes)
{
	struct timespec64 t[2];
	long err = utimes ? timevals_in(utimes, t) : 0;

	return err ? err : do_utimes(dirfd, upath, utimes ? t : NULL, 0);
}

long sys_utimes(const char *upath, const long *utimes)
{
	return sys_futimesat(AT_FDCWD, upath, utimes);
}

/* utime(path, struct utimbuf { actime, modtime }): whole seconds. */
long sys_utime(const char *upath, const long *ubuf)
{
	struct timespec64 t[2];
	long secs[2];

	if (ubuf) {
		if (copy_from_user(secs, ubuf, sizeof(secs)))
			return -EFAULT;
		t[0] = (struct timespec64){ secs[0], 0 };
		t[1] = (struct timespec64){ secs[1], 0 };
	}
	return do_utimes(AT_FDCWD, upath, ubuf ? t : NULL, 0);
}
