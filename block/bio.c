/*
 * bios (Linux's block/bio.c, the submit half of block/blk-core.c, and
 * blk-flush.c's blkdev_issue_flush): making them, handing them to the
 * disk's driver, ending them, and waiting for one.
 *
 *   submitter                      driver (virtio_blk)           interrupt
 *   bio_alloc, bio_add_page ...
 *   submit_bio(bio) ----------->   queue it, kick the device
 *   (returns; more may follow)                                   device done
 *                                  bio_endio(bio) <------------- virtblk_done
 *   bi_end_io(bio)  <-----------   (hardirq context: no sleeping)
 *
 * submit_bio_wait is the synchronous form: its bi_end_io completes a
 * completion on the waiter's stack.
 *
 * Locks: none here; a bio belongs to its submitter until submit_bio, to
 * the driver until bio_endio, and to bi_end_io after.
 */
#include "linux/bio.h"
#include "linux/blkdev.h"
#include "linux/completion.h"
#include "linux/errno.h"
#include "linux/fault-inject.h"
#include "linux/panic.h"
#include "linux/printk.h"
#include "linux/slab.h"
#include "linux/string.h"

/* An empty bio of opf on bdev whose segments go to table[max_vecs]. */
void bio_init(struct bio *bio, struct block_device *bdev, struct bio_vec *table,
	      unsigned short max_vecs, unsigned int opf)
{
	memset(bio, 0, sizeof(*bio));
	bio->bi_bdev = bdev;
	bio->bi_opf = opf;
	bio->bi_io_vec = table;
	bio->bi_max_vecs = max_vecs;
}

/* A kmalloc'd bio with room for nr_vecs segments (freed by bio_put), or NULL. */
struct bio *bio_alloc(struct block_device *bdev, unsigned short nr_vecs, unsigned int opf)
{
	struct bio *bio = kmalloc(sizeof(*bio) + (nr_vecs > BIO_INLINE_VECS ?
						  nr_vecs * sizeof(struct bio_vec) : 0));

	if (!bio)
		return NULL;
	bio_init(bio, bdev, nr_vecs > BIO_INLINE_VECS ? (struct bio_vec *)(bio + 1) :
		 bio->bi_inline_vecs, nr_vecs, opf);
	return bio;
}

void bio_put(struct bio *bio)
{
	kfree(bio);
}

/*
 * Append len bytes at off in page (off + len may run into the following
 * pages of one allocation).  len, or 0 if the bio has no room left.
 */
int bio_add_page(struct bio *bio, struct page *page, unsigned int len, unsigned int off)
{
	if (bio->bi_vcnt >= bio->bi_max_vecs)
		return 0;
	bio->bi_io_vec[bio->bi_vcnt++] = (struct bio_vec){ page, len, off };
	bio->bi_iter.bi_size += len;
	return len;
}

/* The driver is done with bio (bi_status says how it went): hand it back.  Any context. */
void bio_endio(struct bio *bio)
{
	if (bio->bi_end_io)
		bio->bi_end_io(bio);
}

int blk_status_to_errno(blk_status_t status)
{
	switch (status) {
	case BLK_STS_OK:
		return 0;
	case BLK_STS_NOTSUPP:
		return -EOPNOTSUPP;
	case BLK_STS_NOSPC:
		return -ENOSPC;
	case BLK_STS_RESOURCE:
		return -ENOMEM;
	}
	return -EIO;
}

/*
 * Should this read or write fail, by fault injection (Linux's
 * should_fail_bio): the disk asked for it (make-it-fail) and
 * fail_make_request= says this one.
 */
static bool should_fail_bio(struct bio *bio)
{
	return READ_ONCE(bio->bi_bdev->bd_make_it_fail) && should_fail(&fail_make_request);
}

/*
 * Hand bio to its disk's driver (Linux's submit_bio): it ends, by
 * bi_end_io, once the device has done it — maybe before this returns.
 * Reads and writes must be whole logical blocks inside the disk (else it
 * ends at once with BLK_STS_IOERR, as Linux's bio_check_eod and
 * bio_check_alignment) of at most max_segments segments; fault injection
 * may end one so too.  Process
 * context: the driver may sleep for room in its queue.
 */
void submit_bio(struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;
	sector_t nr = bio->bi_iter.bi_size >> SECTOR_SHIFT;
	unsigned int lbs = bdev->bd_disk->logical_block_size;

	if (bio_op(bio) != REQ_OP_FLUSH &&
	    ((bio->bi_iter.bi_size & (lbs - 1)) || !nr ||
	     ((bio->bi_iter.bi_sector << SECTOR_SHIFT) & (lbs - 1)) ||
	     bio->bi_vcnt > bdev->bd_disk->max_segments ||
	     bio->bi_iter.bi_sector >= bdev->bd_nr_sectors ||
	     nr > bdev->bd_nr_sectors - bio->bi_iter.bi_sector ||
	     should_fail_bio(bio))) {
		bio->bi_status = BLK_STS_IOERR;
		bio_endio(bio);
		return;
	}
	bdev->bd_disk->fops->submit_bio(bio);
}

static void submit_bio_wait_endio(struct bio *bio)
{
	complete(bio->bi_private);
}

/* Submit bio and sleep until it ends: 0 or its error (-EIO …).  Process context. */
int submit_bio_wait(struct bio *bio)
{
	struct completion done;

	init_completion(&done);
	bio->bi_private = &done;
	bio->bi_end_io = submit_bio_wait_endio;
	submit_bio(bio);
	wait_for_completion(&done);
	return blk_status_to_errno(bio->bi_status);
}

/* Make what bdev's disk wrote stable (a FLUSH), if it has a write cache.  0 or -EIO. */
int blkdev_issue_flush(struct block_device *bdev)
{
	struct bio bio;

	if (!bdev->bd_disk->flush)
		return 0;
	bio_init(&bio, bdev, NULL, 0, REQ_OP_FLUSH);
	return submit_bio_wait(&bio);
}
