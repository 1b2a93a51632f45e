/*
 * read, write, their vectored and positioned forms, and lseek (Linux's
 * fs/read_write.c): the system calls find the file, the vfs_* helpers
 * check what Linux checks, in its order, then call the file's f_op.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "linux/mm.h"
#include "uapi/linux/fs.h"
#include "uapi/linux/uio.h"

/*
 * Read count bytes at *pos through f_op->read.  Checks in Linux's order:
 * opened for reading (else -EBADF), the whole buffer user memory (else
 * -EFAULT), then count clamped to MAX_RW_COUNT; no read op is -EINVAL.
 */
long vfs_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	if (!access_ok((unsigned long)ubuf, count))
		return -EFAULT;
	if (!file->f_op->read)
		return -EINVAL;
	return file->f_op->read(file, ubuf, MIN(count, MAX_RW_COUNT), pos);
}

/* Write count bytes at *pos through f_op->write; the checks of vfs_read(). */
long vfs_write(struct file *file, const char *ubuf, size_t count, loff_t *pos)
{
	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!access_ok((unsigned long)ubuf, count))
		return -EFAULT;
	if (!file->f_op->write)
		return -EINVAL;
	return file->f_op->write(file, ubuf, MIN(count, MAX_RW_COUNT), pos);
}

long sys_read(int fd, char *buf, unsigned long count)
{
	struct fd f = fdget_pos(fd);
	long ret = f.file ? vfs_read(f.file, buf, count, &f.file->f_pos) : -EBADF;

	fdput_pos(f);
	return ret;
}

long sys_write(int fd, const char *buf, unsigned long count)
{
	struct fd f = fdget_pos(fd);
	long ret = f.file ? vfs_write(f.file, buf, count, &f.file->f_pos) : -EBADF;

	fdput_pos(f);
	return ret;
}

/*
 * fd's file for a read or write at off that leaves the file position
 * alone (pread64, pwrite64), with their errors in Linux's order: EINVAL
 * for a negative offset before EBADF, ESPIPE for a stream.  No file, with
 * *err set, on error; else the caller fdput()s it.
 */
static struct fd fdget_positioned(int fd, long off, long *err)
{
	struct fd f = { NULL, 0 };

	*err = -EINVAL;
	if (off < 0)
		return f;
	f = fdget(fd);
	*err = f.file ? -ESPIPE : -EBADF;
	if (f.file && !(f.file->f_mode & FMODE_PREAD)) {
		fdput(f);
		f = (struct fd){ NULL, 0 };
	}
	return f;
}

long sys_pread64(int fd, char *buf, unsigned long count, long off)
{
	loff_t pos = off;
	long ret;
	struct fd f = fdget_positioned(fd, off, &ret);

	if (!f.file)
		return ret;
	ret = vfs_read(f.file, buf, count, &pos);
	fdput(f);
	return ret;
}

long sys_pwrite64(int fd, const char *buf, unsigned long count, long off)
{
	loff_t pos = off;
	long ret;
	struct fd f = fdget_positioned(fd, off, &ret);

	if (!f.file)
		return ret;
	ret = vfs_write(f.file, buf, count, &pos);
	fdput(f);
	return ret;
}

/*
 * Copy in and check an iovec array as Linux's import_iovec: EINVAL for
 * more than UIO_MAXIOV entries or a negative length, EFAULT for an
 * unreadable array or a segment outside user space.  Returns a kmalloc'ed
 * copy, NULL with *err set (or with *err 0 when iovcnt is 0).
 */
struct iovec *import_iovec(const void *uiov, unsigned long iovcnt, long *err)
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
	struct fd f = fdget_pos(fd);
	struct file *file = f.file;
	struct iovec *iov = NULL;
	long total = 0, err;

	if (!file || !(file->f_mode & (write ? FMODE_WRITE : FMODE_READ))) {
		total = -EBADF;
		goto out;
	}
	iov = import_iovec(uiov, iovcnt, &err);
	if (!iov) {
		total = err;
		goto out;
	}
	for (unsigned long i = 0; i < iovcnt && (unsigned long)total < MAX_RW_COUNT; i++) {
		unsigned long len = MIN(iov[i].iov_len, MAX_RW_COUNT - total);
		long n;

		if (!len)
			continue;
		n = write ? vfs_write(file, iov[i].iov_base, len, &file->f_pos) :
			    vfs_read(file, iov[i].iov_base, len, &file->f_pos);
		if (n < 0) {
			total = total ? total : n;
			break;
		}
		total += n;
		if ((unsigned long)n < len)
			break;
	}
out:
	kfree(iov);
	fdput_pos(f);
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

/* Set the position to offset if 0 <= offset <= maxsize; the position, or -EINVAL. */
loff_t vfs_setpos(struct file *file, loff_t offset, loff_t maxsize)
{
	if (offset < 0 || offset > maxsize)
		return -EINVAL;
	file->f_pos = offset;
	return offset;
}

/*
 * lseek in a file of eof bytes whose file system holds at most maxsize:
 * SEEK_SET, SEEK_CUR, SEEK_END, and SEEK_DATA / SEEK_HOLE without holes
 * (-ENXIO at or past the end).  A sum that overflows is -EINVAL.
 */
loff_t generic_file_llseek_size(struct file *file, loff_t offset, int whence, loff_t maxsize,
				loff_t eof)
{
	loff_t base;

	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = file->f_pos;
		break;
	case SEEK_END:
		base = eof;
		break;
	case SEEK_DATA:
	case SEEK_HOLE:
		if ((unsigned long long)offset >= (unsigned long long)eof)
			return -ENXIO;          /* no data at or after offset */
		return vfs_setpos(file, whence == SEEK_DATA ? offset : eof, maxsize);
	default:
		return -EINVAL;
	}
	if (__builtin_add_overflow(base, offset, &offset))
		return -EINVAL;
	return vfs_setpos(file, offset, maxsize);
}

/* lseek in a file of i_size bytes (ramfs, the initrd). */
loff_t generic_file_llseek(struct file *file, loff_t offset, int whence)
{
	return generic_file_llseek_size(file, offset, whence, MAX_LFS_FILESIZE,
					file_inode(file)->i_size);
}

/* Streams (consoles, pipes) cannot seek: -ESPIPE; else the file's llseek. */
loff_t vfs_llseek(struct file *file, loff_t offset, int whence)
{
	if (!(file->f_mode & FMODE_LSEEK) || !file->f_op->llseek)
		return -ESPIPE;
	return file->f_op->llseek(file, offset, whence);
}

long sys_lseek(int fd, long off, int whence)
{
	struct fd f = fdget_pos(fd);
	long ret = f.file ? vfs_llseek(f.file, off, whence) : -EBADF;

	fdput_pos(f);
	return ret;
}

/* read(2) of a directory. */
long generic_read_dir(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	return -EISDIR;
}
