/*
 * Device special files (Linux's fs/char_dev.c and init_special_inode in
 * fs/inode.c): an inode made by mknod on tmpfs that names a character
 * device by its number opens that device, as Linux's chrdev_open finds
 * the driver by i_rdev.  foliOS's character devices are the ones /dev
 * has, by the numbers Linux gives them; any other number and a socket
 * inode open with ENXIO.  A block device inode opens the disk of its
 * number (block/fops.c), ENXIO if there is none.  No locks: the table
 * never changes.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/blkdev.h"
#include "linux/pipe_fs_i.h"
#include "linux/random.h"
#include "linux/string.h"
#include "linux/tty.h"

/* The devices by number (Linux's cdev_map): each driver's file_operations. */
static const struct {
	unsigned long rdev;
	const struct file_operations *fops;
} chrdevs[] = {
	{ (1 << 8) | 3, &null_fops }, { (1 << 8) | 5, &zero_fops }, { (1 << 8) | 7, &full_fops },
	{ (1 << 8) | 8, &random_fops }, { (1 << 8) | 9, &random_fops }, { (5 << 8) | 0, &tty_current_fops },
	{ (5 << 8) | 1, &console_fops }, { TTYS0_DEV, &ttyS_fops },
};

/*
 * open of a character device inode (Linux's chrdev_open): the file gets
 * the device's file_operations and their open runs.  -ENXIO for a number
 * no device has.
 */
static int chrdev_open(struct inode *inode, struct file *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(chrdevs); i++)
		if (chrdevs[i].rdev == inode->i_rdev) {
			f->f_op = chrdevs[i].fops;
			return f->f_op->open ? f->f_op->open(inode, f) : 0;
		}
	return -ENXIO;
}

/* A socket inode: nothing to open (Linux: ENXIO). */
static int no_device_open(struct inode *inode, struct file *f)
{
	return -ENXIO;
}

static const struct file_operations def_chr_fops = { .open = chrdev_open };
static const struct file_operations no_device_fops = { .open = no_device_open };

/* Give a new inode of type mode its file_operations (Linux's init_special_inode). */
void init_special_inode(struct inode *inode, umode_t mode, unsigned long rdev)
{
	inode->i_mode = mode;
	inode->i_rdev = S_ISCHR(mode) || S_ISBLK(mode) ? rdev : 0;
	if (S_ISCHR(mode))
		inode->i_fop = &def_chr_fops;
	else if (S_ISBLK(mode))
		inode->i_fop = &def_blk_fops;
	else if (S_ISFIFO(mode))
		inode->i_fop = &pipefifo_fops;
	else
		inode->i_fop = &no_device_fops;
}
