/*
 * File system calls on the console and the read-only initrd.  The console
 * reads lines (echo, backspace) and writes whole buffers; initrd files can
 * be read, seeked and stat'ed, directories listed with getdents64.
 */
#include "kernel/syscalls.h"
#include "kernel/uaccess.h"
#include "kernel/printk.h"
#include "kernel/task.h"
#include "kernel/console.h"
#include "mm/mm.h"
#include "kernel/file.h"
#include "kernel/string.h"

#define CONSOLE_CHUNK 4096
#define TIOCGWINSZ 0x5413
#define TCGETS     0x5401
#define ENODEV     19

/*
 * Write count bytes from the user to the console, 4 KiB at a time, each
 * chunk copied in full before any of it is printed (a bad buffer prints
 * nothing and gives -EFAULT, as Linux's tty does).
 */
long sys_write(int fd, const char *buf, unsigned long count)
{
	unsigned long done = 0;
	char *chunk;
	struct file *f = fget(fd);

	if (f && f->type == FILE_PIPE_WRITE)
		return pipe_write(f, buf, count);
	if (f && f->type == FILE_PROC)
		return proc_write(f, buf, count);
	if (!f || f->type != FILE_CONSOLE)
		return -EBADF;
	chunk = kmalloc(CONSOLE_CHUNK);
	if (!chunk)
		return -ENOMEM;
	while (done < count) {
		unsigned long n = MIN(count - done, CONSOLE_CHUNK);

		if (copy_from_user(chunk, buf + done, n))
			break;
		console_write(chunk, n);
		done += n;
	}
	kfree(chunk);
	return done ? (long)done : count ? -EFAULT : 0;
}

struct iovec {
	void *iov_base;
	unsigned long iov_len;
};

/*
 * readv/writev: one read or write per iovec, stopping at the first short
 * one; an error after some bytes returns the bytes.
 */
static long do_iov(int fd, const void *uiov, int iovcnt,
		   long (*rw)(int fd, char *buf, unsigned long count))
{
	long total = 0;

	if (iovcnt < 0 || iovcnt > 1024)
		return -EINVAL;
	for (int i = 0; i < iovcnt; i++) {
		struct iovec iov;
		long n;

		if (copy_from_user(&iov, (const struct iovec *)uiov + i, sizeof(iov)))
			return total ? total : -EFAULT;
		if (!iov.iov_len)
			continue;
		n = rw(fd, iov.iov_base, iov.iov_len);
		if (n < 0)
			return total ? total : n;
		total += n;
		if ((unsigned long)n < iov.iov_len)
			break;
	}
	return total;
}

long sys_writev(int fd, const void *uiov, int iovcnt)
{
	return do_iov(fd, uiov, iovcnt, (long (*)(int, char *, unsigned long))sys_write);
}

long sys_readv(int fd, const void *uiov, int iovcnt)
{
	return do_iov(fd, uiov, iovcnt, sys_read);
}

/* Read at an offset without moving the file position (initrd and /proc files). */
long sys_pread64(int fd, char *buf, unsigned long count, long off)
{
	struct file *f = fget(fd);
	unsigned long saved;
	long n;

	if (!f)
		return -EBADF;
	if (f->type != FILE_REGULAR && f->type != FILE_PROC && f->type != FILE_PROC_BIN)
		return f->type == FILE_DIR ? -EISDIR : -ESPIPE;
	if (off < 0)
		return -EINVAL;
	saved = f->pos;
	f->pos = off;
	n = sys_read(fd, buf, count);
	f->pos = saved;
	return n;
}

/* Read a line (console) or bytes at the file position (initrd file). */
long sys_read(int fd, char *buf, unsigned long count)
{
	struct file *f = fget(fd);
	char line[256];
	long n;

	if (!f || f->type == FILE_PIPE_WRITE)
		return -EBADF;
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
	if (!count)
		return 0;
	n = console_read_line(line, MIN(count, sizeof(line)));
	if (copy_to_user(buf, line, n))
		return -EFAULT;
	return n;
}

/*
 * Resolve a user path in the initrd into f (type and contents).  Paths are
 * absolute or relative to "/" (there is no cwd yet).  0 or -errno.
 */
static long resolve(const char *upath, struct file *f)
{
	char path[128], *p = path;
	long n = strncpy_from_user(path, upath, sizeof(path));
	struct initrd_file entry;

	if (n < 0)
		return n;
	for (;;) {                              /* drop leading "/" and "./" */
		if (*p == '/')
			p++;
		else if (p[0] == '.' && (p[1] == '/' || !p[1]))
			p += p[1] ? 2 : 1;
		else
			break;
	}
	n = strlen(p);
	while (n && p[n - 1] == '/')
		p[--n] = '\0';
	memset(f, 0, sizeof(*f));
	if (!*p) {
		f->type = FILE_DIR;
		return 0;
	}
	if (proc_lookup(p, f))
		return 0;
	if (initrd_lookup(p, &entry)) {
		f->type = (entry.mode & S_IFMT) == S_IFDIR ? FILE_DIR : FILE_REGULAR;
		f->f = entry;
		if (f->type == FILE_DIR)
			strlcpy(f->dir, p, sizeof(f->dir));
		return 0;
	}
	return -ENOENT;
}

#define AT_FDCWD -100
#define AT_EMPTY_PATH 0x1000

long sys_openat(int dirfd, const char *upath, int flags, int mode)
{
	struct file tmp, *f;
	long ret = resolve(upath, &tmp);

	if (ret)
		return ret;
	if (((flags & O_ACCMODE) != O_RDONLY || (flags & (O_TRUNC | O_APPEND))) &&
	    !(tmp.type == FILE_PROC && tmp.proc_write))
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

long sys_lseek(int fd, long off, int whence)
{
	struct file *f = fget(fd);
	long base;

	if (!f)
		return -EBADF;
	if (f->type != FILE_REGULAR && f->type != FILE_PROC && f->type != FILE_PROC_BIN)
		return -ESPIPE;
	if (whence == 2 && f->type != FILE_REGULAR)
		return -EINVAL;
	base = whence == 0 ? 0 : whence == 1 ? (long)f->pos : whence == 2 ? (long)f->f.size : -1;
	if (base < 0 || base + off < 0)
		return -EINVAL;
	f->pos = base + off;
	return f->pos;
}

struct kstat {
	unsigned long st_dev, st_ino, st_nlink;
	unsigned int st_mode, st_uid, st_gid, pad0;
	unsigned long st_rdev;
	long st_size, st_blksize, st_blocks;
	long times[6];
	long reserved[3];
};

static long stat_file(const struct file *f, void *ubuf)
{
	struct kstat st = { .st_dev = 1, .st_nlink = 1, .st_blksize = 4096 };

	if (f->type == FILE_CONSOLE) {
		st.st_mode = 0020620;           /* S_IFCHR, rw--w---- */
		st.st_rdev = (5 << 8) | 1;
	} else if (f->type == FILE_PIPE_READ || f->type == FILE_PIPE_WRITE) {
		st.st_mode = 0010600;           /* S_IFIFO */
	} else if (f->type == FILE_PROC || f->type == FILE_PROC_BIN) {
		st.st_mode = S_IFREG | 0444;
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

	if ((flags & AT_EMPTY_PATH) && !copy_from_user(&c, upath, 1) && !c)
		return sys_fstat(dirfd, ubuf);
	ret = resolve(upath, &tmp);
	if (ret)
		return ret;
	ret = stat_file(&tmp, ubuf);
	proc_release(&tmp);
	return ret;
}

long sys_faccessat(int dirfd, const char *upath, int mode)
{
	struct file tmp;
	long ret = resolve(upath, &tmp);

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
	static const unsigned short winsize[4] = { 24, 80, 0, 0 };
	unsigned char termios[60] = { 0 };

	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (f->type != FILE_CONSOLE)
		return -ENOTTY;
	if (cmd == TIOCGWINSZ)
		return copy_to_user((void *)arg, winsize, sizeof(winsize)) ? -EFAULT : 0;
	if (cmd == TCGETS)
		return copy_to_user((void *)arg, termios, sizeof(termios)) ? -EFAULT : 0;
	return -ENOTTY;
}

/*
 * mount: /proc and /sys always exist here, so that programs written as
 * Linux's init run unchanged, mounting them succeeds without effect.
 */
long sys_mount(const char *usource, const char *utarget, const char *ufstype,
	       unsigned long flags, const void *data)
{
	char fstype[16];

	if (strncpy_from_user(fstype, ufstype, sizeof(fstype)) < 0)
		return -EFAULT;
	return !strcmp(fstype, "proc") || !strcmp(fstype, "sysfs") ? 0 : -ENODEV;
}
