/*
 * swapon(2), swapoff(2) and /proc/swaps (Linux's mm/swapfile.c): a disk
 * prepared by mkswap becomes a swap device — its header read and
 * checked, its slots counted in a swap map, its priority set — and stops
 * being one, once every page on it is back in memory (try_to_unuse).
 * Slots and counts: mm/swapfile_alloc.c.
 * Only block devices can be swapped on: swap files need a file
 * system that maps file offsets to disk blocks, which foliOS has not
 * (tmpfs and the initrd get Linux's EINVAL).
 *
 * While a device is swapped on, writes through its block special files
 * get ETXTBSY and an O_EXCL open EBUSY, as on Linux (block/fops.c).
 *
 * Locks: see linux/swap.h (swapon_mutex, then swap_lock).  The header is
 * read, and swapoff's file closed, with no spinlock held.
 */
#include "linux/bio.h"
#include "linux/blkdev.h"
#include "linux/capability.h"
#include "linux/err.h"
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/gfp.h"
#include "linux/mm.h"
#include "linux/mutex.h"
#include "linux/namei.h"
#include "linux/printk.h"
#include "linux/seq_file.h"
#include "linux/slab.h"
#include "linux/spinlock.h"
#include "linux/string.h"
#include "linux/swap.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/wait.h"
#include "uapi/linux/fcntl.h"

static struct mutex swapon_mutex = MUTEX_INIT("swapon_mutex");
static int least_priority = -1;         /* the next default priority is one below it */

/*
 * Check a swap header (Linux's read_swap_header) for a device of
 * dev_pages pages: the number of slots it describes (its last page + 1),
 * or 0 if it is no swap area foliOS can use.
 */
static unsigned int read_swap_header(const union swap_header *h, unsigned long dev_pages)
{
	if (memcmp(h->magic.magic, "SWAPSPACE2", 10)) {
		pr_err("Unable to find swap-space signature\n");
		return 0;
	}
	if (h->info.version != 1) {
		pr_warn("Unable to handle swap header version %u\n", h->info.version);
		return 0;
	}
	if (!h->info.last_page) {
		pr_warn("Empty swap-file\n");
		return 0;
	}
	if (h->info.last_page + 1UL > dev_pages) {
		pr_warn("Swap area shorter than signature indicates\n");
		return 0;
	}
	if (h->info.nr_badpages > MAX_SWAP_BADPAGES)
		return 0;
	return MIN(h->info.last_page + 1UL, (unsigned long)BIT(__SWP_OFFSET_BITS));
}

/*
 * The swap map of a header that read_swap_header() accepted, max slots:
 * the header's slot and the bad pages marked SWAP_MAP_BAD, *good set to
 * the slots left.  NULL with *err set (a bad page out of range, or none
 * left: EINVAL; ENOMEM).
 */
static unsigned char *setup_swap_map(const union swap_header *h, unsigned int max,
				     unsigned int *good, long *err)
{
	unsigned char *map = kzalloc(max);

	*err = -ENOMEM;
	if (!map)
		return NULL;
	map[0] = SWAP_MAP_BAD;
	*good = max - 1;
	*err = -EINVAL;
	for (unsigned int i = 0; i < h->info.nr_badpages; i++) {
		u32 bad = h->info.badpages[i];

		if (!bad || bad >= max)
			goto fail;
		*good -= map[bad] != SWAP_MAP_BAD;
		map[bad] = SWAP_MAP_BAD;
	}
	if (*good)
		return map;
	pr_warn("Empty swap-file\n");
fail:
	kfree(map);
	return NULL;
}

/* Read the first page of bdev into page: 0 or -errno. */
static int read_header_page(struct block_device *bdev, struct page *page)
{
	struct bio *bio = bio_alloc(bdev, 1, REQ_OP_READ);
	int err;

	if (!bio)
		return -ENOMEM;
	bio->bi_iter.bi_sector = 0;
	bio_add_page(bio, page, PAGE_SIZE, 0);
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/* The device a file opens, if it is a disk; NULL for anything else. */
static struct block_device *file_swap_bdev(struct file *file)
{
	struct gendisk *disk;

	if (!S_ISBLK(file_inode(file)->i_mode))
		return NULL;
	disk = get_gendisk(file_inode(file)->i_rdev);
	return disk ? disk->part0 : NULL;
}

/* The entry of bdev if it is swapped on, else NULL.  swap_lock held. */
static struct swap_info_struct *swap_info_of(struct block_device *bdev)
{
	lockdep_assert_held(&swap_lock);
	for (int type = 0; type < MAX_SWAPFILES; type++)
		if ((swap_info[type].flags & SWP_USED) && swap_info[type].bdev == bdev)
			return &swap_info[type];
	return NULL;
}

/*
 * Make file's disk a swap device of prio (< 0: the next default) from
 * its header: 0, or EINVAL (no disk, no usable header), EBUSY (swapped
 * on already), EPERM (MAX_SWAPFILES in use), ENOMEM, EIO.  swapon_mutex
 * held; takes over file on success.
 */
static long enable_swap(struct file *file, int prio)
{
	struct block_device *bdev = file_swap_bdev(file);
	struct page *page = alloc_page(0);
	struct swap_info_struct *si = NULL;
	unsigned int max, good;
	unsigned char *map;
	long err = -ENOMEM;

	if (!page)
		return -ENOMEM;
	err = -EINVAL;
	if (!bdev)
		goto out;
	spin_lock(&swap_lock);
	err = swap_info_of(bdev) ? -EBUSY : -EPERM;
	for (int type = 0; err == -EPERM && type < MAX_SWAPFILES; type++) {
		if (!(swap_info[type].flags & SWP_USED)) {
			si = &swap_info[type];  /* ours: swapon_mutex keeps other swapons out */
			err = 0;
		}
	}
	spin_unlock(&swap_lock);
	if (err)
		goto out;
	err = read_header_page(bdev, page);
	if (err)
		goto out;
	max = read_swap_header(page_address(page), bdev_nr_sectors(bdev) >> (PAGE_SHIFT - SECTOR_SHIFT));
	err = -EINVAL;
	if (!max)
		goto out;
	map = setup_swap_map(page_address(page), max, &good, &err);
	if (!map)
		goto out;
	err = 0;
	spin_lock_init(&si->lock, "si->lock");
	xa_init(&si->swap_cont, "si->swap_cont");
	swap_cache_init(si - swap_info);
	spin_lock(&swap_lock);
	/* Field by field: users may be moved by a stale entry's get_swap_device() */
	si->prio = prio >= 0 ? prio : --least_priority;
	si->type = si - swap_info;
	si->max = max;
	si->pages = good;
	si->inuse_pages = 0;
	si->cluster_next = 1;
	si->swap_map = map;
	si->bdev = bdev;
	si->swap_file = file;
	WRITE_ONCE(si->flags, SWP_USED | SWP_WRITEOK | SWP_VALID);
	WRITE_ONCE(bdev->bd_swap, true);
	total_swap_pages += good;
	atomic_long_add(good, &nr_swap_pages);
	spin_unlock(&swap_lock);
	pr_info("Adding %uk swap on %s.  Priority:%d extents:1 across:%luk\n",
		good << (PAGE_SHIFT - 10), bdev->bd_disk->disk_name, si->prio,
		(unsigned long)max << (PAGE_SHIFT - 10));
out:
	__free_page(page);
	return err;
}

long sys_swapon(const char *specialfile, int swap_flags)
{
	struct file *file;
	long err;

	if (swap_flags & ~SWAP_FLAGS_VALID)
		return -EINVAL;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	file = file_open_user(specialfile, O_RDWR);
	if (IS_ERR(file))
		return PTR_ERR(file);
	mutex_lock(&swapon_mutex);
	err = enable_swap(file, swap_flags & SWAP_FLAG_PREFER ? swap_flags & SWAP_FLAG_PRIO_MASK : -1);
	mutex_unlock(&swapon_mutex);
	if (err)
		fput(file);
	return err;
}

/*
 * Wait until no get_swap_device() holder is left on si, whose SWP_VALID
 * is clear: a fault that read one of its entries before swapoff took it
 * away finds the PTE changed once it gets there.
 */
static void wait_swap_users(struct swap_info_struct *si)
{
	smp_mb();       /* SWP_VALID cleared before users read: see get_swap_device() */
	wait_var_event(&si->users, !atomic_read(&si->users));
}

/*
 * The swapped-on device of a path for swapoff, SWP_WRITEOK cleared so no
 * slot is given out any more and its pages leave the totals; NULL if the
 * path is no such device.  swapon_mutex held.
 */
static struct swap_info_struct *swapoff_begin(struct block_device *bdev)
{
	struct swap_info_struct *si;

	spin_lock(&swap_lock);
	si = bdev ? swap_info_of(bdev) : NULL;
	if (si) {
		spin_lock(&si->lock);
		si->flags &= ~SWP_WRITEOK;
		spin_unlock(&si->lock);
		total_swap_pages -= si->pages;
		atomic_long_add(-(long)si->pages, &nr_swap_pages);
	}
	spin_unlock(&swap_lock);
	return si;
}

/* try_to_unuse() failed: si takes pages again (Linux's reinsert_swap_info). */
static void swapoff_undo(struct swap_info_struct *si)
{
	spin_lock(&swap_lock);
	spin_lock(&si->lock);
	si->flags |= SWP_WRITEOK;
	spin_unlock(&si->lock);
	total_swap_pages += si->pages;
	atomic_long_add(si->pages, &nr_swap_pages);
	spin_unlock(&swap_lock);
}

/*
 * swapoff: the device stops taking pages, every page on it is read back
 * and mapped again (try_to_unuse, mm/swapfile_unuse.c), then it is
 * forgotten.  EINVAL if the path is no swapped-on device, ENOMEM if
 * memory ran out bringing pages back (the device stays on, as Linux's),
 * EINTR if a fatal signal came meanwhile.
 */
long sys_swapoff(const char *specialfile)
{
	struct swap_info_struct *si;
	struct block_device *bdev;
	struct file *victim, *file;
	unsigned char *map;
	int err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	victim = file_open_user(specialfile, O_RDWR);
	if (IS_ERR(victim))
		return PTR_ERR(victim);
	bdev = file_swap_bdev(victim);
	fput(victim);
	mutex_lock(&swapon_mutex);
	si = swapoff_begin(bdev);
	if (!si) {
		mutex_unlock(&swapon_mutex);
		return -EINVAL;
	}
	err = try_to_unuse(si->type);
	if (err) {
		swapoff_undo(si);
		mutex_unlock(&swapon_mutex);
		return err;
	}
	spin_lock(&swap_lock);
	WRITE_ONCE(si->flags, si->flags & ~SWP_VALID);
	spin_unlock(&swap_lock);
	wait_swap_users(si);
	spin_lock(&swap_lock);
	VM_WARN_ON_ONCE(si->inuse_pages, "swapoff: slots still in use after try_to_unuse");
	if (si->prio < 0)
		least_priority++;       /* Linux gives the default priorities back in order */
	map = si->swap_map;
	file = si->swap_file;
	WRITE_ONCE(bdev->bd_swap, false);
	si->swap_map = NULL;
	si->swap_file = NULL;
	si->bdev = NULL;
	si->max = si->pages = 0;
	WRITE_ONCE(si->flags, 0);
	spin_unlock(&swap_lock);
	mutex_unlock(&swapon_mutex);
	xa_lock(&si->swap_cont);
	xa_destroy(&si->swap_cont);
	xa_unlock(&si->swap_cont);
	kfree(map);
	fput(file);
	return 0;
}

/*
 * /proc/swaps, in Linux's columns: the device's path, "partition", its
 * size and use in KiB, its priority.
 */
int swaps_show(struct seq_file *m, void *v)
{
	char *buf = kmalloc(PATH_MAX);

	if (!buf)
		return -ENOMEM;
	seq_printf(m, "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	mutex_lock(&swapon_mutex);
	for (int type = 0; type < MAX_SWAPFILES; type++) {
		struct swap_info_struct *si = &swap_info[type];
		unsigned long size = (unsigned long)si->pages << (PAGE_SHIFT - 10);
		unsigned long used = (unsigned long)READ_ONCE(si->inuse_pages) << (PAGE_SHIFT - 10);
		const char *path;
		int len;

		if (!(si->flags & SWP_USED))
			continue;
		path = file_path(si->swap_file, buf, PATH_MAX);
		if (IS_ERR(path))
			path = "";
		len = strlen(path);
		seq_printf(m, "%s%*s%s\t%lu\t%s%lu\t%s%d\n", path, len < 40 ? 40 - len : 1, " ",
			   "partition", size, size < 10000000 ? "\t" : "", used,
			   used < 10000000 ? "\t" : "", si->prio);
	}
	mutex_unlock(&swapon_mutex);
	kfree(buf);
	return 0;
}
