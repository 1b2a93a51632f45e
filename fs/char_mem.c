/*
 * /dev/null, /dev/zero and /dev/full (Linux's drivers/char/mem.c, 1:3,
 * 1:5, 1:7), and the names of /dev/random and /dev/urandom (1:8, 1:9:
 * kernel/random.c): null reads EOF and swallows writes; full reads zeros
 * and refuses writes (ENOSPC); zero reads zeros, swallows writes, and a private mmap of it is plain anonymous memory (Linux's
 * mmap_zero; a shared one would be shmem, which foliOS does not have yet:
 * mmap refuses MAP_SHARED before it gets here).
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/shmem_fs.h"
#include "linux/mm_types.h"
#include "linux/uaccess.h"
#include "linux/string.h"
#include "linux/random.h"
#include "uapi/linux/stat.h"
#include <asm/page.h>

static long write_null(struct file *f, const char *ubuf, size_t count, loff_t *pos)
{
	return count;
}

static long read_null(struct file *f, char *ubuf, size_t count, loff_t *pos)
{
	return 0;
}

/* Both stay at offset 0 whatever the seek (Linux's null_lseek). */
static loff_t null_lseek(struct file *file, loff_t offset, int whence)
{
	return file->f_pos = 0;
}

/* read(2) of /dev/zero: count zero bytes, a page at a time; a bad buffer stops it. */
static long read_zero(struct file *f, char *ubuf, size_t count, loff_t *pos)
{
	static const char zeros[PAGE_SIZE];
	size_t done = 0;

	while (done < count) {
		size_t n = MIN(count - done, PAGE_SIZE);

		if (copy_to_user(ubuf + done, zeros, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return done;
}

/*
 * A private /dev/zero mapping is anonymous memory: the VMA do_mmap() made,
 * without vm_ops; a shared one is a new shmem object (Linux's mmap_zero).
 */
static int mmap_zero(struct file *file, struct vm_area_struct *vma)
{
	if (vma->vm_flags & VM_SHARED)
		return shmem_zero_setup(vma);
	return 0;
}

const struct file_operations null_fops = {
	.llseek = null_lseek,
	.read = read_null,
	.write = write_null,
};

const struct file_operations zero_fops = {
	.llseek = null_lseek,
	.read = read_zero,
	.write = write_null,
	.mmap = mmap_zero,
};

/* /dev/full: reads zeros, every write fails with ENOSPC (Linux's write_full). */
static long write_full(struct file *f, const char *ubuf, size_t count, loff_t *pos)
{
	return -ENOSPC;
}

const struct file_operations full_fops = {
	.llseek = null_lseek,
	.read = read_zero,
	.write = write_full,
};

/* crw-rw-rw-, each kept for ever by its own reference. */
static struct inode null_inode = {
	.i_mode = S_IFCHR | 0666, .i_nlink = 1, .i_ino = 3, .i_rdev = (1 << 8) | 3,
	.i_count = ATOMIC_INIT(1), .i_fop = &null_fops,
};

static struct inode zero_inode = {
	.i_mode = S_IFCHR | 0666, .i_nlink = 1, .i_ino = 5, .i_rdev = (1 << 8) | 5,
	.i_count = ATOMIC_INIT(1), .i_fop = &zero_fops,
};

static struct inode full_inode = {
	.i_mode = S_IFCHR | 0666, .i_nlink = 1, .i_ino = 7, .i_rdev = (1 << 8) | 7,
	.i_count = ATOMIC_INIT(1), .i_fop = &full_fops,
};

static struct inode random_inode = {
	.i_mode = S_IFCHR | 0666, .i_nlink = 1, .i_ino = 8, .i_rdev = (1 << 8) | 8,
	.i_count = ATOMIC_INIT(1), .i_fop = &random_fops,
};

static struct inode urandom_inode = {
	.i_mode = S_IFCHR | 0666, .i_nlink = 1, .i_ino = 9, .i_rdev = (1 << 8) | 9,
	.i_count = ATOMIC_INIT(1), .i_fop = &random_fops,
};

/* The inode of dev/null, zero, full, random or urandom (a reference), or NULL. */
struct inode *mem_dev_lookup(const char *path)
{
	struct inode *inode = NULL;

	if (!strcmp(path, "dev/null"))
		inode = &null_inode;
	else if (!strcmp(path, "dev/zero"))
		inode = &zero_inode;
	else if (!strcmp(path, "dev/full"))
		inode = &full_inode;
	else if (!strcmp(path, "dev/random"))
		inode = &random_inode;
	else if (!strcmp(path, "dev/urandom"))
		inode = &urandom_inode;
	if (inode)
		ihold(inode);
	return inode;
}
