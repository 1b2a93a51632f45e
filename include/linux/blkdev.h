/*
 * Disks and block devices (Linux's include/linux/blkdev.h): a driver
 * describes its disk in a struct gendisk and calls add_disk(); the disk's
 * whole-device struct block_device (part0) is what bios name and what
 * /dev/<name> opens (block/fops.c).  The disk appears in /sys/block/<name>/
 * (size, dev) and /proc/partitions.
 *
 * Locks: all_disks (block/genhd.c) is written only by add_disk, at boot
 * before smp_init, and read after; a disk is never removed.  Drivers
 * state their own locks.
 */
#ifndef _LINUX_BLKDEV_H
#define _LINUX_BLKDEV_H

#include "linux/blk_types.h"
#include "linux/list.h"

#define MINORBITS       20
#define MKDEV(ma, mi)   (((unsigned long)(ma) << 8) | ((mi) & 0xff) | (((unsigned long)(mi) & ~0xffUL) << 12))
#define MAJOR(dev)      (((dev) >> 8) & 0xfff)
#define MINOR(dev)      (((dev) & 0xff) | (((dev) >> 12) & 0xfff00))

struct inode;
struct gendisk;

struct block_device_operations {
	/* Queue bio on the device (process context; may sleep for room), end it later with bio_endio. */
	void (*submit_bio)(struct bio *bio);
};

struct block_device {
	unsigned long bd_dev;           /* MKDEV(major, minor) */
	sector_t bd_nr_sectors;         /* capacity in 512-byte sectors */
	struct gendisk *bd_disk;
	struct inode *bd_inode;         /* the block special file /dev/<name> */
	bool bd_swap;                   /* swapped on: no writes through its files (Linux's S_SWAPFILE) */
	bool bd_make_it_fail;           /* fail_make_request applies (/sys/block/<disk>/make-it-fail) */
};

#define DISK_NAME_LEN   32

struct gendisk {
	int major, first_minor;
	char disk_name[DISK_NAME_LEN];
	const struct block_device_operations *fops;
	void *private_data;             /* the driver's */
	bool flush;                     /* REQ_OP_FLUSH means something (a volatile write cache) */
	unsigned int max_segments;      /* bio segments the driver takes in one bio (>= 1) */
	unsigned int logical_block_size; /* the unit of I/O: 512 .. PAGE_SIZE, a power of two */
	bool read_only;
	struct block_device *part0;
	struct list_head node;          /* on all_disks */
};

static inline sector_t get_capacity(const struct gendisk *disk)
{
	return disk->part0->bd_nr_sectors;
}

static inline sector_t bdev_nr_sectors(const struct block_device *bdev)
{
	return bdev->bd_nr_sectors;
}

/* block/genhd.c */
struct gendisk *blk_alloc_disk(void);
int add_disk(struct gendisk *disk, sector_t capacity);
struct gendisk *get_gendisk(unsigned long dev);
struct gendisk *disk_by_name(const char *name);
struct gendisk *disk_nth(int n);
int disk_index(const char *name, size_t len);

/* block/blk-flush.c-like: write the device's cache out.  0 or -EIO. */
int blkdev_issue_flush(struct block_device *bdev);

/* block/fops.c: the block special files */
extern const struct file_operations def_blk_fops;
struct inode *bdev_dev_lookup(const char *path);

#endif
