/*
 * File system calls on the console and the read-only initrd.  The console
 * is a tty (fs/tty_io.c); initrd files can be read, seeked and stat'ed,
 * directories listed with getdents64.
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "linux/printk.h"
#include "linux/sched.h"
#include "linux/tty.h"
#include "mm/mm.h"
#include "linux/fs.h"
#include "linux/string.h"
#include "linux/namei.h"
#include "uapi/linux/fs.h"
#include "uapi/linux/stat.h"
#include "uapi/linux/uio.h"
#include "uapi/linux/ioctls.h"

/*
 * What read and write check first (Linux's fdget + rw_verify_area): fd is
 * open for this direction (else -EBADF) and the whole buffer is user
 * memory (else -EFAULT); *count is clamped to MAX_RW_COUNT.  Returns the
 * file, or NULL with the error in *err.
 */
static struct file *rw_verify_area(int fd, const void *buf, unsigned long *count, bool write,
				   long *err)
{
	struct file *f = fget_rw(fd, write);

	*err = !f ? -EBADF : !access_ok((unsigned long)buf, *count) ? -EFAULT : 0;
	if (*err)
		return NULL;
	*count = MIN(*count, MAX_RW_COUNT);
	return f;
}

/*
 * Write count bytes: to a pipe, a writable /proc or /sys file, or the
 * console (tty_write).  Checks in Linux's order: fd opened for writing,
 * then the range.
 */
long sys_write(int fd, const char *buf, unsigned long count)
{
	long err;
	struct file *f = rw_verify_area(fd, buf, &count, true, &err);

	if (!f)
		return err;
	if (f->type == FILE_PIPE_WRITE)
		return pipe_write(f, buf, count);
	if (f->type == FILE_PROC)
		return proc_write(f, buf, count);
	return tty_write(f, buf, count);
}

/*
 * Copy in and check an iovec array as Linux's import_iovec: EINVAL for
 * more than UIO_MAXIOV entries or a negative length, EFAULT for an
 * unreadable array or a segment outside user space.  Returns a kmalloc'ed
 * copy, NULL with *err set (or with *err 0 when iovcnt is 0).
 */
static struct iovec *import_iovec(const void *uiov, unsigned long iovcnt, long *err)
{
	struct iovec *iov;

	*err = iovcnt > UIO_MAXIOV ? -EINVAL : 0;
	if (*err || !iovcnt)
		return NULL;
	iov = kmalloc(iovcnt * sizeof(*iov));
	*err = !iov ? -ENOMEM : copy_from_user(iov, uiov, iovcnt * sizeof(*iov)) ? -EFAULT : 0;
	for (unsigned long i = 0; !*err && i < iovcnt; i++) {
		if ((long)iov[i].iov_len < 0)
			*err = -EINVAL;
		else if (!access_ok((unsigned long)iov[i].iov_base, iov[i].iov_len))
			*err = -EFAULT;
	}
	if (!*err)
		return iov;
	kfree(iov);
	return NULL;
}

/*
 * readv/writev: one read or write per iovec, stopping at the first short
 * one; an error after some bytes returns the bytes.
 */
static long do_iov(int fd, const void *uiov, unsigned long iovcnt, bool write)
{
	struct iovec *iov;
	long total = 0, err;

	if (!fget_rw(fd, write))
		return -EBADF;
	iov = import_iovec(uiov, iovcnt, &err);
	if (!iov)
		return err;
	for (unsigned long i = 0; i < iovcnt && (unsigned long)total < MAX_RW_COUNT; i++) {
		unsigned long len = MIN(iov[i].iov_len, MAX_RW_COUNT - total);
		long n;

		if (!len)
			continue;
		n = write ? sys_write(fd, iov[i].iov_base, len) : sys_read(fd, iov[i].iov_base, len);
		if (n < 0) {
			total = total ? total : n;
			break;
		}
		total += n;
		if ((unsigned long)n < len)
			break;
	}
	kfree(iov);
	return total;
}

long sys_writev(int fd, const void *uiov, unsigned long iovcnt)
{
	return do_iov(fd, uiov, iovcnt, true);
}

long sys_readv(int fd, const void *uiov, unsigned long iovcnt)
{
	return do_iov(fd, uiov, iovcnt, false);
}

/* Read at an offset without moving the file position (initrd and /proc files). */
long sys_pread64(int fd, char *buf, unsigned long count, long off)
{
	struct file *f;
	unsigned long saved;
	long n;

	if (off < 0)                            /* before the fd, as Linux */
		return -EINVAL;
	f = fget(fd);
	if (!f)
		return -EBADF;
	if (f->type != FILE_REGULAR && f->type != FILE_PROC && f->type != FILE_PROC_BIN)
		return f->type == FILE_DIR ? -EISDIR : -ESPIPE;
	saved = f->pos;
	f->pos = off;
	n = sys_read(fd, buf, count);
	f->pos = saved;
	return n;
}

/*
 * Read a line (console), from a pipe, or bytes at the file position
 * (initrd and /proc files).  Checks in Linux's order: fd opened for
 * reading, then the range, then what the file is (EISDIR).
 */
long sys_read(int fd, char *buf, unsigned long count)
{
	long n, err;
	struct file *f = rw_verify_area(fd, buf, &count, false, &err);

	if (!f)
		return err;
	if (f->type == FILE_PIPE_READ)
		return pipe_read(f, buf, count);
	if (f->type == FILE_PROC)
		return proc_read(f, buf, count);
	if (f->type == FILE_PROC_BIN)
		return f->proc_read_bin(f, buf, count);
	if (f->type == FILE_DIR)
		return -EISDIR;
	if (f->type == FILE_REGULAR) {
		n = f->pos < f->f.size ? MIN(count, f->f.size - f->pos) : 0;
		if (copy_to_user(buf, f->f.data + f->pos, n))
			return -EFAULT;
		f->pos += n;
		return n;
	}
	return tty_read(f, buf, count);
}

long sys_openat(int dirfd, const char *upath, int flags, int mode)
{
	struct file tmp, *f;
	long ret = user_path_at(dirfd, upath, 0, &tmp);

	if (ret)
		return ret;
	if (((flags & O_ACCMODE) != O_RDONLY || (flags & (O_TRUNC | O_APPEND))) &&
	    !(tmp.type == FILE_PROC && tmp.proc_write) && tmp.type != FILE_CONSOLE)
		ret = tmp.type == FILE_DIR ? -EISDIR : -EROFS;
	else if ((flags & O_DIRECTORY) && tmp.type != FILE_DIR)
		ret = -ENOTDIR;
	f = ret ? NULL : kmalloc(sizeof(*f));
	if (!f) {
		proc_release(&tmp);
		return ret ? ret : -ENOMEM;
	}
	*f = tmp;
	f->refs = 1;
	f->f_flags = flags & (O_ACCMODE | O_NONBLOCK);
	ret = fd_install(f, flags & O_CLOEXEC);
	if (ret < 0) {
		proc_release(f);
		kfree(f);
	}
	return ret;
}

long sys_open(const char *upath, int flags, int mode)
{
	return sys_openat(AT_FDCWD, upath, flags, mode);
}

#define MAX_NON_LFS     0x7fffffffL

/*
 * lseek as each Linux file type does it: consoles and pipes cannot seek
 * (ESPIPE); initrd files as ramfs (generic_file_llseek, with SEEK_DATA and
 * SEEK_HOLE: no holes); sysfs attributes likewise with a size of one page
 * (kernfs); directories (dcache_dir_lseek) and /proc's generated files
 * (seq_lseek) only from the start or the current position.  A position
 * below 0 or past the file system's largest file is EINVAL: what a long
 * holds, but 2 GiB - 1 on sysfs (its super block keeps MAX_NON_LFS).
 */
long sys_lseek(int fd, long off, int whence)
{
	struct file *f = fget(fd);
	bool sized = f && (f->type == FILE_REGULAR || f->f.size);
	long base, pos;

	if (!f)
		return -EBADF;
	if (f->type == FILE_CONSOLE || f->type == FILE_PIPE_READ || f->type == FILE_PIPE_WRITE)
		return -ESPIPE;
	if (whence == SEEK_SET || whence == SEEK_CUR) {
		base = whence == SEEK_SET ? 0 : (long)f->pos;
	} else if (whence == SEEK_END && sized) {
		base = f->f.size;
	} else if ((whence == SEEK_DATA || whence == SEEK_HOLE) && sized) {
		if ((unsigned long)off >= f->f.size)
			return -ENXIO;          /* no data at or after off */
		base = 0;
		off = whence == SEEK_DATA ? off : (long)f->f.size;     /* the hole at the end */
	} else {
		return -EINVAL;
	}
	if (__builtin_add_overflow(base, off, &pos) || pos < 0 ||
	    (f->type == FILE_PROC && sized && pos > MAX_NON_LFS))
		return -EINVAL;
	f->pos = pos;
	return pos;
}

static long stat_file(const struct file *f, void *ubuf)
{
	struct stat st = { .st_dev = 1, .st_nlink = 1, .st_blksize = 4096 };

	if (f->type == FILE_CONSOLE) {
		st.st_mode = 0020620;           /* S_IFCHR, rw--w---- */
		st.st_rdev = (5 << 8) | 1;
	} else if (f->type == FILE_PIPE_READ || f->type == FILE_PIPE_WRITE) {
		st.st_mode = 0010600;           /* S_IFIFO */
	} else if (f->type == FILE_PROC || f->type == FILE_PROC_BIN) {
		st.st_mode = S_IFREG | (f->proc_write ? 0644 : 0444);
		st.st_size = f->f.size;         /* sysfs: a page; /proc: 0, as Linux */
	} else if (f->type == FILE_DIR) {
		st.st_mode = S_IFDIR | 0755;
		st.st_nlink = 2;
	} else {
		st.st_mode = f->f.mode;
		st.st_size = f->f.size;
		st.st_blocks = (f->f.size + 511) / 512;
	}
	st.st_ino = f->type == FILE_REGULAR ? (unsigned long)f->f.data >> 4 : 1;
	return copy_to_user(ubuf, &st, sizeof(st)) ? -EFAULT : 0;
}

long sys_fstat(int fd, void *ubuf)
{
	struct file *f = fget(fd);

	return f ? stat_file(f, ubuf) : -EBADF;
}

long sys_newfstatat(int dirfd, const char *upath, void *ubuf, int flags)
{
	struct file tmp;
	char c;
	long ret;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & AT_EMPTY_PATH) && !copy_from_user(&c, upath, 1) && !c)
		return sys_fstat(dirfd, ubuf);
	ret = user_path_at(dirfd, upath, 0, &tmp);
	if (ret)
		return ret;
	ret = stat_file(&tmp, ubuf);
	proc_release(&tmp);
	return ret;
}

long sys_faccessat(int dirfd, const char *upath, int mode)
{
	struct file tmp;
	long ret;

	if (mode & ~7)                          /* not F_OK, R_OK, W_OK, X_OK */
		return -EINVAL;
	ret = user_path_at(dirfd, upath, 0, &tmp);
	if (ret)
		return ret;
	proc_release(&tmp);
	return (mode & 2) && tmp.type != FILE_CONSOLE ? -EROFS : 0;
}

long sys_access(const char *upath, int mode)
{
	return sys_faccessat(AT_FDCWD, upath, mode);
}

/* Is name a direct child of dir ("" is the root)?  Returns its base name. */
static const char *child_name(const char *name, const char *dir)
{
	size_t n = strlen(dir);

	if (n && (strncmp(name, dir, n) || name[n] != '/'))
		return NULL;
	name += n ? n + 1 : 0;
	return *name && !strchr(name, '/') ? name : NULL;
}

/*
 * The entry of directory f at position f->pos, skipping what is not a
 * child of it (advancing f->pos): its name and DT_ type.  false at the end.
 * /proc lists what procfs makes, other directories the initrd's children.
 */
static bool dir_next(struct file *f, char *name, size_t size, u8 *type)
{
	struct initrd_file e;

	if (!strcmp(f->dir, "proc"))
		return proc_dir_entry(f->pos, name, size, type);
	for (; initrd_entry(f->pos, &e); f->pos++) {
		const char *child = child_name(e.name, f->dir);

		if (!child || !strcmp(e.name, "."))
			continue;
		strlcpy(name, child, size);
		*type = (e.mode & S_IFMT) == S_IFDIR ? 4 : 8;   /* DT_DIR, DT_REG */
		return true;
	}
	return false;
}

/* List a directory: struct linux_dirent64 records, as many as fit. */
long sys_getdents64(int fd, void *ubuf, unsigned long count)
{
	struct file *f = fget(fd);
	unsigned long done = 0;
	struct { u64 ino; s64 off; u16 reclen; u8 type; char name[100]; } __attribute__((packed)) d;

	if (!f)
		return -EBADF;
	if (f->type != FILE_DIR)
		return -ENOTDIR;
	memset(d.name, 0, sizeof(d.name));
	while (dir_next(f, d.name, sizeof(d.name), &d.type)) {
		size_t len = strlen(d.name);

		d.reclen = ALIGN_UP(19 + len + 1, 8);
		if (done + d.reclen > count)
			break;
		d.ino = f->pos + 2;
		d.off = f->pos + 1;
		if (copy_to_user((char *)ubuf + done, &d, d.reclen))
			return -EFAULT;
		memset(d.name, 0, sizeof(d.name));
		done += d.reclen;
		f->pos++;
	}
	if (!done && dir_next(f, d.name, sizeof(d.name), &d.type))
		return -EINVAL;                 /* the buffer cannot hold one record */
	return done;
}

long sys_ioctl(int fd, unsigned long cmd, unsigned long arg)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (f->type != FILE_CONSOLE)
		return -ENOTTY;
	return tty_ioctl(f, cmd, arg);
}

/*
 * mount: /proc and /sys always exist here, so that programs written as
 * Linux's init run unchanged, mounting them succeeds without effect.  The
 * arguments are checked in Linux's order: the type and source strings are
 * copied, the target looked up, then the type must be a known one.
 */
long sys_mount(const char *usource, const char *utarget, const char *ufstype,
	       unsigned long flags, const void *data)
{
	char *fstype, *source = NULL;
	struct file target;
	long ret = 0;

	fstype = getname(ufstype, LOOKUP_EMPTY, &ret);
	if (fstype && usource)
		source = getname(usource, LOOKUP_EMPTY, &ret);
	if (!ret)
		ret = user_path_at(AT_FDCWD, utarget, 0, &target);
	if (!ret) {
		proc_release(&target);
		if (strcmp(fstype, "proc") && strcmp(fstype, "sysfs"))
			ret = -ENODEV;
	}
	kfree(source);
	kfree(fstype);
	return ret;
}
