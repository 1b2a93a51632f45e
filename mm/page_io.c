/*
 * Swap I/O (Linux's mm/page_io.c): a folio in the swap cache written to,
 * or read from, its slots on the device — slot n is the device's page n,
 * sectors 8n .. 8n + 7, so one bio covers a large folio's consecutive
 * slots.
 *
 * Both wait for the disk (submit_bio_wait).  Linux's are asynchronous — a
 * write sets PG_writeback and reclaim moves on, a read's completion
 * unlocks the folio — which foliOS leaves for the reclaim work: every
 * caller here holds the folio lock across the I/O, so nothing sees the
 * folio half written or half read.
 *
 * Counted in /proc/vmstat: pswpout, pswpin (pages).  Locks: the caller
 * holds the folio lock and the device (its entries keep it swapped on).
 */
#include "linux/bio.h"
#include "linux/blkdev.h"
#include "linux/errno.h"
#include "linux/page-flags.h"
#include "linux/printk.h"
#include "linux/swap.h"
#include "linux/vmstat.h"

/* Write or read the whole folio at its slots: 0 or -errno. */
static int swap_folio_io(struct folio *folio, enum req_op op)
{
	struct swap_info_struct *si = swp_swap_info(folio->swap);
	unsigned long nr = folio_nr_pages(folio);
	struct bio *bio = bio_alloc(si->bdev, 1, op);
	int err;

	if (!bio)
		return -ENOMEM;
	bio->bi_iter.bi_sector = (sector_t)swp_offset(folio->swap) << (PAGE_SHIFT - SECTOR_SHIFT);
	bio_add_page(bio, &folio->page, nr * PAGE_SIZE, 0);
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/*
 * Write the locked, dirty folio in the swap cache to its slots (Linux's
 * swap_writepage): clean afterwards, or dirty still if the write failed
 * (-EIO: the folio stays in memory, pageout keeps it).
 */
int swap_writepage(struct folio *folio)
{
	int err;

	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio) || !folio_test_swapcache(folio), folio);
	folio_clear_dirty(folio);
	err = swap_folio_io(folio, REQ_OP_WRITE);
	if (err) {
		folio_set_dirty(folio);
		pr_warn("Write-error on swap-device (%d:%lu)\n",
			swp_type(folio->swap), swp_offset(folio->swap));
		return err;
	}
	count_vm_events(PSWPOUT, folio_nr_pages(folio));
	return 0;
}

/*
 * Read the locked folio in the swap cache from its slots (Linux's
 * swap_read_folio): uptodate on success; 0 or -EIO.
 */
int swap_read_folio(struct folio *folio)
{
	int err;

	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio) || !folio_test_swapcache(folio), folio);
	err = swap_folio_io(folio, REQ_OP_READ);
	if (err) {
		pr_warn("Read-error on swap-device (%d:%lu)\n",
			swp_type(folio->swap), swp_offset(folio->swap));
		return err;
	}
	folio_set_uptodate(folio);
	count_vm_events(PSWPIN, folio_nr_pages(folio));
	return 0;
}
