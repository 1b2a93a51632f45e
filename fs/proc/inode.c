/*
 * /proc inodes (Linux's fs/proc/inode.c and generic.c): one per lookup,
 * freed at its last iput() with the mm it bound.  A text file opens as a
 * seq_file of its entry's single_show; a writable one takes a short line.
 */
#include "linux/errno.h"
#include "fs/proc/internal.h"
#include "linux/string.h"
#include "linux/uaccess.h"
#include "linux/mm.h"
#include "linux/err.h"
#include "linux/sched/mm.h"

static void proc_free_inode(struct inode *inode)
{
	struct proc_inode *pi = PROC_I(inode);

	if (pi->mm)
		mmdrop(pi->mm);
	kfree(pi);
}

static const struct super_operations proc_sops = { .destroy_inode = proc_free_inode };
static struct super_block proc_sb = { .s_op = &proc_sops };

int proc_single_open(struct inode *inode, struct file *file)
{
	return single_open(file, PROC_I(inode)->pde->single_show, inode);
}

/* write(2) of a knob: one line under 64 bytes, given NUL-terminated to the entry's write. */
long proc_simple_write(struct file *file, const char *ubuf, size_t count, loff_t *pos)
{
	proc_write_t write = PROC_I(file_inode(file))->pde->write;
	char kbuf[64];
	int ret;

	if (count >= sizeof(kbuf))
		return -EINVAL;
	if (copy_from_user(kbuf, ubuf, count))
		return -EFAULT;
	kbuf[count] = '\0';
	ret = write(file, kbuf, count);
	return ret ? ret : (long)count;
}

static const struct file_operations proc_single_fops = {
	.open = proc_single_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations proc_single_rw_fops = {
	.open = proc_single_open,
	.read = seq_read,
	.write = proc_simple_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static struct proc_inode *proc_alloc_inode(void)
{
	struct proc_inode *pi = kzalloc(sizeof(*pi));

	if (!pi)
		return NULL;
	pi->vfs_inode = (struct inode){ .i_count = ATOMIC_INIT(1), .i_nlink = 1, .i_ino = 1, .i_sb = &proc_sb };
	pi->vfs_inode.i_atime = pi->vfs_inode.i_mtime = pi->vfs_inode.i_ctime =
		current_time(&pi->vfs_inode);   /* as Linux's proc inodes: made at lookup */
	return pi;
}

/*
 * An inode for the file of entry pde about arg (a pid, pfn or order):
 * S_IFREG, 0644 if it can be written, 0444 if not; size 0 as Linux's.
 * A reference for the caller, or ERR_PTR(-ENOMEM).
 */
struct inode *proc_get_inode(const struct proc_dir_entry *pde, long arg)
{
	struct proc_inode *pi = proc_alloc_inode();

	if (!pi)
		return ERR_PTR(-ENOMEM);
	pi->pde = pde;
	pi->arg = arg;
	pi->vfs_inode.i_mode = S_IFREG | (pde->write ? 0644 : 0444);
	pi->vfs_inode.i_fop = pde->proc_fops ? pde->proc_fops :
			      pde->write ? &proc_single_rw_fops : &proc_single_fops;
	return &pi->vfs_inode;
}

/*
 * An inode for the /proc link at path whose text ops->get_link writes
 * (size 0, as Linux's); or ERR_PTR(-ENOMEM).
 */
struct inode *proc_link_inode(const char *path, const struct inode_operations *ops)
{
	struct proc_inode *pi = proc_alloc_inode();

	if (!pi)
		return ERR_PTR(-ENOMEM);
	strlcpy(pi->path, path, sizeof(pi->path));
	pi->vfs_inode.i_mode = S_IFLNK | 0777;
	pi->vfs_inode.i_op = ops;
	return &pi->vfs_inode;
}

/* An inode for the /proc directory at path, listed by fops; or ERR_PTR(-ENOMEM). */
struct inode *proc_dir_inode(const char *path, const struct file_operations *fops)
{
	struct proc_inode *pi = proc_alloc_inode();

	if (!pi)
		return ERR_PTR(-ENOMEM);
	strlcpy(pi->path, path, sizeof(pi->path));
	pi->vfs_inode.i_mode = S_IFDIR | 0755;
	pi->vfs_inode.i_nlink = 2;
	pi->vfs_inode.i_fop = fops;
	pi->vfs_inode.i_private = pi->path;
	return &pi->vfs_inode;
}

/*
 * Read 64-bit records from *pos on: record(inode, index) for index <
 * limit (Linux's pagemap, kpagecount and kpageflags).  A short read at
 * the limit; -EINVAL for a position or count not a multiple of 8.
 */
long proc_read_records(struct file *file, char *ubuf, size_t count, loff_t *pos,
		       unsigned long limit, u64 (*record)(struct inode *inode, unsigned long index))
{
	unsigned long done = 0;

	if ((*pos | count) & 7)
		return -EINVAL;
	while (done < count && (unsigned long)*pos / 8 < limit) {
		u64 e = record(file_inode(file), *pos / 8);

		if (copy_to_user(ubuf + done, &e, 8))
			return done ? (long)done : -EFAULT;
		done += 8;
		*pos += 8;
	}
	return done;
}
