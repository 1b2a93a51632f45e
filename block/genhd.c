/*
 * Disks (Linux's block/genhd.c, block/bdev.c's whole-disk part and
 * block/partitions' /proc/partitions): add_disk() makes a driver's disk
 * visible — its block_device (part0), the block special file
 * /dev/<name> (block/fops.c), /sys/block/<name>/{size,dev}
 * (fs/sysfs.c reads disk_attr) and a line of /proc/partitions.
 *
 * Locks: none.  add_disk runs at boot, before smp_init (drivers probe
 * then), and a disk is never removed: after boot the list is only read.
 */
#include "linux/blkdev.h"
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/huge_mm.h"
#include "linux/printk.h"
#include "linux/proc_fs.h"
#include "linux/seq_file.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "uapi/linux/stat.h"

static LIST_HEAD(all_disks);
static int nr_disks;

/* A zeroed disk with its part0, for the driver to fill in (Linux's blk_alloc_disk); NULL without memory. */
struct gendisk *blk_alloc_disk(void)
{
	struct gendisk *disk = kzalloc(sizeof(*disk));
	struct block_device *bdev = kzalloc(sizeof(*bdev));
	struct inode *inode = kzalloc(sizeof(*inode));

	if (!disk || !bdev || !inode) {
		kfree(disk);
		kfree(bdev);
		kfree(inode);
		return NULL;
	}
	disk->part0 = bdev;
	disk->max_segments = 128;               /* Linux's BLK_MAX_SEGMENTS */
	disk->logical_block_size = SECTOR_SIZE;
	bdev->bd_disk = disk;
	bdev->bd_inode = inode;
	return disk;
}

/*
 * Make disk (major, first_minor, disk_name, fops set) of capacity
 * sectors visible: /dev/<name> as brw------- (st_size 0, as Linux's
 * block special files), /sys/block/<name>, /proc/partitions.  0.  At boot.
 */
int add_disk(struct gendisk *disk, sector_t capacity)
{
	struct block_device *bdev = disk->part0;
	struct inode *inode = bdev->bd_inode;

	bdev->bd_dev = MKDEV(disk->major, disk->first_minor);
	bdev->bd_nr_sectors = capacity;
	inode->i_mode = S_IFBLK | 0600;
	inode->i_nlink = 1;
	inode->i_ino = 0x1000 + nr_disks;
	inode->i_rdev = bdev->bd_dev;
	atomic_set(&inode->i_count, 1);         /* kept for ever */
	inode->i_fop = &def_blk_fops;
	list_add_tail(&disk->node, &all_disks);
	nr_disks++;
	pr_info("%s: %llu 512-byte logical blocks (%llu MiB)\n", disk->disk_name,
		(unsigned long long)capacity, (unsigned long long)capacity >> 11);
	return 0;
}

/* The disk whose whole-device number is dev, or NULL. */
struct gendisk *get_gendisk(unsigned long dev)
{
	struct gendisk *disk;

	list_for_each_entry(disk, &all_disks, node)
		if (disk->part0->bd_dev == dev)
			return disk;
	return NULL;
}

/* The disk called name, or NULL. */
struct gendisk *disk_by_name(const char *name)
{
	struct gendisk *disk;

	list_for_each_entry(disk, &all_disks, node)
		if (!strcmp(disk->disk_name, name))
			return disk;
	return NULL;
}

/* The nth disk (0 first), or NULL: /sys/block's listing and index. */
struct gendisk *disk_nth(int n)
{
	struct gendisk *disk;

	list_for_each_entry(disk, &all_disks, node)
		if (!n--)
			return disk;
	return NULL;
}

/* The position of the disk called name[0..len) in the list, or -1. */
int disk_index(const char *name, size_t len)
{
	struct gendisk *disk;
	int n = 0;

	list_for_each_entry(disk, &all_disks, node) {
		if (strlen(disk->disk_name) == len && !strncmp(disk->disk_name, name, len))
			return n;
		n++;
	}
	return -1;
}

/* /sys/block/<name>/size: sectors; dev: "major:minor" (Linux's disk_attrs). */
static int disk_attr_show(const struct thp_attr *attr, int n, char *buf, size_t size)
{
	struct gendisk *disk = disk_nth(n);

	if (!disk)
		return snprintf(buf, size, "\n");
	if (attr->item)
		return snprintf(buf, size, "%d:%d\n", disk->major, disk->first_minor);
	return snprintf(buf, size, "%llu\n", (unsigned long long)get_capacity(disk));
}

/* /sys/block/<name>/make-it-fail: "0" or "1", whether fail_make_request applies (Linux's). */
static int disk_fail_show(const struct thp_attr *attr, int n, char *buf, size_t size)
{
	struct gendisk *disk = disk_nth(n);

	return snprintf(buf, size, "%d\n", disk && READ_ONCE(disk->part0->bd_make_it_fail));
}

static int disk_fail_store(const struct thp_attr *attr, int n, const char *buf, size_t len)
{
	struct gendisk *disk = disk_nth(n);

	if (!disk)
		return -ENODEV;
	WRITE_ONCE(disk->part0->bd_make_it_fail, simple_strtoul(buf, NULL, 10) != 0);
	return len;
}

const struct thp_attr disk_attr[] = {
	{ .name = "dev", .show = disk_attr_show, .item = 1 },
	{ .name = "make-it-fail", .show = disk_fail_show, .store = disk_fail_store },
	{ .name = "size", .show = disk_attr_show, .item = 0 },
	{ 0 },
};

/* /proc/partitions: each disk's number, size in KiB and name (Linux's show_partition). */
static int show_partitions(struct seq_file *m, void *v)
{
	struct gendisk *disk;

	seq_printf(m, "major minor  #blocks  name\n\n");
	list_for_each_entry(disk, &all_disks, node)
		seq_printf(m, "%4d  %7d %10llu %s\n", disk->major, disk->first_minor,
			   (unsigned long long)get_capacity(disk) >> 1, disk->disk_name);
	return 0;
}

const struct proc_dir_entry proc_partitions = { "partitions", show_partitions };
