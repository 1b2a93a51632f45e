/*
 * Swap I/O (Linux's mm/page_io.c): folios in the swap cache written to,
 * or read from, their slots on the device — slot n is the device's page
 * n, sectors 8n .. 8n + 7, so one bio covers a large folio's consecutive
 * slots.
 *
 * I/O goes in batches (struct swap_iocb, Linux's name for its batched swap
 * I/O; its block plugging is the same idea): every folio of a pageout
 * batch is submitted before the
 * batch waits once for all of them — the disk has them all in flight, and
 * the waiter sleeps once instead of once per page.  Linux's writes are
 * asynchronous (PG_writeback, reclaim moves on); foliOS's callers hold
 * each folio's lock until the batch is done, so nothing sees a folio half
 * written or half read.
 *
 *   swap_iocb_init(sio)
 *   swap_writepage_batch(folio, sio) / swap_read_folio_batch(folio, sio)  ...
 *   swap_iocb_wait(sio)     each folio: written (clean) or still dirty;
 *                           read (uptodate) or not (swap_folio_io_done);
 *                           sio->io[] still lists them, for the caller
 *
 * Counted in /proc/vmstat: pswpout, pswpin (pages).  Locks: the caller
 * holds each folio's lock and the device (its entries keep it swapped on);
 * the completion runs in the disk's interrupt and touches only the batch.
 */
#include "linux/bio.h"
#include "linux/blkdev.h"
#include "linux/errno.h"
#include "linux/page-flags.h"
#include "linux/printk.h"
#include "linux/swap.h"
#include "linux/vmstat.h"

void swap_iocb_init(struct swap_iocb *sio)
{
	init_completion(&sio->done);
	atomic_set(&sio->pending, 1);   /* the submitter's, until it waits */
	sio->nr = 0;
}

/* A bio of the batch ended (hardirq): the last one wakes the waiter. */
static void swap_iocb_endio(struct bio *bio)
{
	struct swap_iocb *sio = bio->bi_private;

	if (atomic_dec_and_test(&sio->pending))
		complete(&sio->done);
}

/*
 * Submit the folio's I/O as part of sio: false if it could not be (no
 * memory for a bio, or the batch is full), and then the folio's I/O
 * failed already (-ENOMEM in its slot of the batch).
 */
static bool swap_folio_submit(struct folio *folio, struct swap_iocb *sio, enum req_op op)
{
	struct swap_info_struct *si = swp_swap_info(folio->swap);
	struct bio *bio;

	if (sio->nr == SWAP_IOCB_MAX)
		return false;
	bio = bio_alloc(si->bdev, 1, op);
	sio->io[sio->nr].folio = folio;
	sio->io[sio->nr].write = op == REQ_OP_WRITE;
	sio->io[sio->nr++].bio = bio;
	if (!bio)
		return false;
	bio->bi_iter.bi_sector = (sector_t)swp_offset(folio->swap) << (PAGE_SHIFT - SECTOR_SHIFT);
	bio_add_page(bio, &folio->page, folio_nr_pages(folio) * PAGE_SIZE, 0);
	bio->bi_private = sio;
	bio->bi_end_io = swap_iocb_endio;
	atomic_inc(&sio->pending);
	submit_bio(bio);
	return true;
}

/*
 * Start writing the locked, dirty folio in the swap cache to its slots
 * (Linux's swap_writepage): it turns clean now, dirty again if the write
 * fails.  False if the batch took nothing (full: wait for it first).
 */
bool swap_writepage_batch(struct folio *folio, struct swap_iocb *sio)
{
	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio) || !folio_test_swapcache(folio), folio);
	if (sio->nr == SWAP_IOCB_MAX)
		return false;
	folio_clear_dirty(folio);
	swap_folio_submit(folio, sio, REQ_OP_WRITE);
	return true;
}

/* Start reading the locked folio in the swap cache from its slots (Linux's swap_read_folio). */
bool swap_read_folio_batch(struct folio *folio, struct swap_iocb *sio)
{
	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio) || !folio_test_swapcache(folio), folio);
	if (sio->nr == SWAP_IOCB_MAX)
		return false;
	swap_folio_submit(folio, sio, REQ_OP_READ);
	return true;
}

/*
 * Wait until every I/O of the batch is over (process context), then bring
 * each folio up to date with its result: a written folio stays clean, a
 * failed write dirties it again; a read one turns uptodate.  The folios
 * stay locked.
 */
void swap_iocb_wait(struct swap_iocb *sio)
{
	if (!atomic_dec_and_test(&sio->pending))
		wait_for_completion(&sio->done);
	for (unsigned int i = 0; i < sio->nr; i++) {
		swap_folio_io_done(sio->io[i].folio, sio->io[i].bio ?
				   blk_status_to_errno(sio->io[i].bio->bi_status) : -ENOMEM,
				   sio->io[i].write);
		if (sio->io[i].bio)
			bio_put(sio->io[i].bio);
	}
}
