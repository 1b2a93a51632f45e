/*
 * getdents64 (Linux's fs/readdir.c): the directory's iterate_shared fills
 * the buffer.  Locking: the file's f_pos_lock (fdget_pos) when it is
 * shared, then a tmpfs directory's i_rwsem shared (iterate_dir) while the
 * records are copied out: a fault there takes mmap_lock, below i_rwsem.
 * Lock order: see linux/fs.h.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"

/* Linux's: d_name at offset 19, sizeof 24 (not packed: a 255-byte name's record, 280 bytes, fits rec). */
struct linux_dirent64 {
	u64 d_ino;
	s64 d_off;
	u16 d_reclen;
	u8 d_type;
	char d_name[];
};

struct getdents_callback64 {
	struct dir_context ctx;
	char *current_dir;              /* user buffer, where the next record goes */
	unsigned long count;            /* bytes left in it */
	unsigned long used;
	long error;
};

/*
 * One linux_dirent64 record into the user buffer (Linux's filldir64):
 * d_off is the position after this entry.  false stops the walk: the
 * buffer is full (-EINVAL if not even the first fits) or a fault.
 */
static bool filldir64(struct dir_context *ctx, const char *name, int namelen, loff_t offset,
		      u64 ino, unsigned int d_type)
{
	struct getdents_callback64 *buf = container_of(ctx, struct getdents_callback64, ctx);
	unsigned short reclen = ALIGN_UP(offsetof(struct linux_dirent64, d_name) + namelen + 1, 8);
	char rec[sizeof(struct linux_dirent64) + 256] __attribute__((aligned(8))) = { 0 };
	struct linux_dirent64 *d = (void *)rec;

	if (reclen > buf->count || reclen > sizeof(rec)) {
		buf->error = buf->used ? 0 : -EINVAL;
		return false;
	}
	d->d_ino = ino;
	d->d_off = offset + 1;
	d->d_reclen = reclen;
	d->d_type = d_type;
	memcpy(d->d_name, name, namelen);
	if (copy_to_user(buf->current_dir, rec, reclen)) {
		buf->error = -EFAULT;
		return false;
	}
	buf->current_dir += reclen;
	buf->count -= reclen;
	buf->used += reclen;
	return true;
}

/*
 * Run file's iterate_shared from its position (Linux's iterate_dir): a
 * directory of a file system that changes its entries (one with
 * inode_operations) under its i_rwsem shared, and -ENOENT once removed;
 * the read-only trees' never change.  Then atime (file_accessed).
 */
static int iterate_dir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file_inode(file);
	bool lock = dir->i_op != NULL;
	int ret = -ENOENT;

	if (lock)
		inode_lock_shared(dir);
	if (!IS_DEADDIR(dir)) {
		ctx->pos = file->f_pos;
		ret = file->f_op->iterate_shared(file, ctx);
		file->f_pos = ctx->pos;
		file_accessed(file);
	}
	if (lock)
		inode_unlock_shared(dir);
	return ret;
}

/* List a directory: struct linux_dirent64 records, as many as fit. */
long sys_getdents64(int fd, void *ubuf, unsigned long count)
{
	struct fd f = fdget_pos(fd);
	struct getdents_callback64 buf = {
		.ctx.actor = filldir64, .current_dir = ubuf, .count = count,
	};
	long ret;

	if (!f.file)
		return -EBADF;
	ret = -ENOTDIR;
	if (!f.file->f_op->iterate_shared)
		goto out;
	ret = iterate_dir(f.file, &buf.ctx);
	if (!ret)
		ret = buf.error ? buf.error : (long)buf.used;
out:
	fdput_pos(f);
	return ret;
}
