/*
 * Block special files (Linux's block/fops.c and blkdev_ioctl): /dev/vda
 * and any mknod'ed inode of a disk's number read and write the disk at
 * byte granularity, through bios, without a page cache.
 *
 * A read or write is cut into chunks of at most BLK_CHUNK_PAGES pages
 * (fewer if the disk takes fewer segments in one bio: its max_segments);
 * each chunk covers whole logical blocks (512 bytes, or the disk's
 * logical_block_size) in a bounce buffer of separate buddy pages (one
 * bio segment each):
 *
 *   pos                                 pos + len
 *    |<------------- user bytes ----------->|
 *   |sector|sector|sector| ... |sector|sector|     read (or, for a partial
 *   ^ first                            last ^      write, read-modify-write)
 *
 * Linux's rules, checked on Linux 6.1: a read at or past the end returns
 * 0, one across it is short; a write at or past the end is -ENOSPC
 * (0 bytes: 0), one across it is short; lseek beyond the end is -EINVAL;
 * st_size is 0; BLKGETSIZE64 is the size in bytes; fsync flushes the
 * device's write cache.
 *
 * While the disk is swapped on (mm/swapfile.c), a write gets ETXTBSY and
 * an O_EXCL open EBUSY, as on Linux.
 *
 * Locks: blkdev_rmw_sem (an rw_semaphore) keeps a read-modify-write
 * whole: a write that does not cover whole sectors holds it for write
 * from its read to its write, every other write holds it for read, so
 * neither another partial write nor a whole-sector write can land on the
 * chunk's sectors between the read and the write-back and be lost (Linux
 * gets this from the page cache's folio lock).  Reads take nothing.  No
 * spinlock is held across user copies or the wait for a bio.
 */
#include "linux/bio.h"
#include "linux/blkdev.h"
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/gfp.h"
#include "linux/mm.h"
#include "linux/rwsem.h"
#include "linux/sched.h"
#include "linux/string.h"
#include "linux/uaccess.h"
#include "uapi/linux/fs.h"
#include "uapi/linux/fcntl.h"

#define BLK_CHUNK_PAGES 16

static DECLARE_RWSEM(blkdev_rmw_sem, "blkdev_rmw_sem");

static struct block_device *file_bdev(struct file *file)
{
	return file->private_data;
}

static loff_t bdev_nr_bytes(struct block_device *bdev)
{
	return (loff_t)bdev_nr_sectors(bdev) << SECTOR_SHIFT;
}

/* Open of a block special file: its disk's whole device, or -ENXIO if no disk has the number. */
static int blkdev_open(struct inode *inode, struct file *file)
{
	struct gendisk *disk = get_gendisk(inode->i_rdev);

	if (!disk)
		return -ENXIO;
	if (disk->read_only && (file->f_mode & FMODE_WRITE))
		return -EROFS;
	if ((file->f_flags & O_EXCL) && READ_ONCE(disk->part0->bd_swap))
		return -EBUSY;          /* swapon holds it (Linux's exclusive claim) */
	file->private_data = disk->part0;
	return 0;
}

/* Read or write sectors [sector, sector + nr_pages pages' worth) to/from pages: 0 or -EIO. */
static int blkdev_rw_pages(struct block_device *bdev, sector_t sector, struct page **pages,
			   size_t bytes, enum req_op op)
{
	unsigned int n = DIV_ROUND_UP(bytes, PAGE_SIZE);
	struct bio *bio = bio_alloc(bdev, n, op);
	int err;

	if (!bio)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++)
		bio_add_page(bio, pages[i], MIN(PAGE_SIZE, bytes - i * PAGE_SIZE), 0);
	bio->bi_iter.bi_sector = sector;
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/* Copy len bytes between user memory and offset off of the bounce pages: 0 or -EFAULT. */
static int copy_bounce(struct page **pages, size_t off, char *ubuf, size_t len, bool to_user)
{
	while (len) {
		char *kaddr = (char *)page_address(pages[off / PAGE_SIZE]) + off % PAGE_SIZE;
		size_t n = MIN(len, PAGE_SIZE - off % PAGE_SIZE);

		if (to_user ? copy_to_user(ubuf, kaddr, n) : copy_from_user(kaddr, ubuf, n))
			return -EFAULT;
		off += n;
		ubuf += n;
		len -= n;
	}
	return 0;
}

/*
 * One chunk: len bytes at pos (inside the disk, within one
 * blkdev_chunk_bytes span of logical blocks) to or from ubuf.  0 or -errno.
 */
static int blkdev_rw_chunk(struct block_device *bdev, char *ubuf, loff_t pos, size_t len,
			   bool write)
{
	unsigned int lbs = bdev->bd_disk->logical_block_size;
	size_t head = pos & (lbs - 1);
	sector_t first = (pos - head) >> SECTOR_SHIFT;
	size_t bytes = ALIGN_UP(head + len, lbs);
	bool partial = head || ((head + len) & (lbs - 1));
	struct page *pages[BLK_CHUNK_PAGES] = { NULL };
	unsigned int n = DIV_ROUND_UP(bytes, PAGE_SIZE);
	int err = 0;

	for (unsigned int i = 0; i < n && !err; i++)
		if (!(pages[i] = alloc_page(GFP_KERNEL)))
			err = -ENOMEM;
	if (write && partial)
		down_write(&blkdev_rmw_sem);
	else if (write)
		down_read(&blkdev_rmw_sem);
	if (!err && (!write || partial))
		err = blkdev_rw_pages(bdev, first, pages, bytes, REQ_OP_READ);
	if (!err)
		err = copy_bounce(pages, head, ubuf, len, !write);
	if (!err && write)
		err = blkdev_rw_pages(bdev, first, pages, bytes, REQ_OP_WRITE);
	if (write && partial)
		up_write(&blkdev_rmw_sem);
	else if (write)
		up_read(&blkdev_rmw_sem);
	for (unsigned int i = 0; i < n; i++)
		if (pages[i])
			__free_page(pages[i]);
	return err;
}

/* The bytes of one chunk: as many pages as one bio of the disk may have. */
static size_t blkdev_chunk_bytes(struct block_device *bdev)
{
	return MIN(BLK_CHUNK_PAGES, bdev->bd_disk->max_segments) * PAGE_SIZE;
}

/* count bytes at *pos, chunk by chunk: the bytes done, or -errno if none were. */
static long blkdev_rw(struct file *file, char *ubuf, size_t count, loff_t *pos, bool write)
{
	struct block_device *bdev = file_bdev(file);
	loff_t size = bdev_nr_bytes(bdev);
	size_t done = 0;

	if (!count)
		return 0;
	if (*pos >= size)
		return write ? -ENOSPC : 0;
	count = MIN(count, (size_t)(size - *pos));
	while (done < count) {
		loff_t p = *pos + done;
		size_t n = MIN(count - done, blkdev_chunk_bytes(bdev) -
				 (size_t)(p & (bdev->bd_disk->logical_block_size - 1)));
		int err;

		if (fatal_signal_pending(current)) {    /* a killed task stops (Linux's filemap_read) */
			if (!done)
				return -EINTR;
			break;
		}
		err = blkdev_rw_chunk(bdev, ubuf + done, p, n, write);
		if (err) {
			if (!done)
				return err;
			break;
		}
		done += n;
	}
	*pos += done;
	return done;
}

static long blkdev_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	return blkdev_rw(file, ubuf, count, pos, false);
}

static long blkdev_write(struct file *file, const char *ubuf, size_t count, loff_t *pos)
{
	if (READ_ONCE(file_bdev(file)->bd_swap))
		return -ETXTBSY;        /* swapped on: its slots are the kernel's */
	return blkdev_rw(file, (char *)ubuf, count, pos, true);
}

/* lseek inside the disk: beyond its end is -EINVAL (Linux's fixed_size_llseek). */
static loff_t blkdev_llseek(struct file *file, loff_t offset, int whence)
{
	loff_t size = bdev_nr_bytes(file_bdev(file));

	return generic_file_llseek_size(file, offset, whence, size, size);
}

/* BLKGETSIZE64, BLKGETSIZE, BLKSSZGET; anything else -ENOTTY (Linux's blkdev_ioctl). */
static long blkdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct block_device *bdev = file_bdev(file);

	switch (cmd) {
	case BLKGETSIZE64: {
		u64 bytes = bdev_nr_bytes(bdev);

		return copy_to_user((void *)arg, &bytes, sizeof(bytes)) ? -EFAULT : 0;
	}
	case BLKGETSIZE: {
		unsigned long sectors = bdev_nr_sectors(bdev);

		return copy_to_user((void *)arg, &sectors, sizeof(sectors)) ? -EFAULT : 0;
	}
	case BLKSSZGET: {
		int ssz = bdev->bd_disk->logical_block_size;

		return copy_to_user((void *)arg, &ssz, sizeof(ssz)) ? -EFAULT : 0;
	}
	}
	return -ENOTTY;
}

/* fsync/fdatasync: nothing is cached here; the device's write cache is flushed. */
static int blkdev_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	return blkdev_issue_flush(file_bdev(file));
}

const struct file_operations def_blk_fops = {
	.open = blkdev_open,
	.read = blkdev_read,
	.write = blkdev_write,
	.llseek = blkdev_llseek,
	.unlocked_ioctl = blkdev_ioctl,
	.fsync = blkdev_fsync,
};

/* The inode of dev/<disk name> (a reference), or NULL. */
struct inode *bdev_dev_lookup(const char *path)
{
	struct gendisk *disk;

	if (strncmp(path, "dev/", 4) || !(disk = disk_by_name(path + 4)))
		return NULL;
	ihold(disk->part0->bd_inode);
	return disk->part0->bd_inode;
}
