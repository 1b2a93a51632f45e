/*
 * The host's swap device, for mm/'s swap code (the kernel's swap I/O is
 * mm/page_io.c over virtio-blk, and swapon reads mkswap's header from the
 * disk: mm/swapfile.c).  host_swapon(slots) makes swap_info[0] a device
 * of that many slots, slot 0 the header as on a disk; each slot's page
 * lives in a host buffer.  host_swap_fail_io makes the next reads or
 * writes fail, as a disk error would.
 */
#include "tests/host/hostenv.h"
#include "linux/page-flags.h"
#include "linux/swap.h"
#include "linux/errno.h"
#include <stdlib.h>
#include <string.h>

static unsigned char *host_swap_disk;
int host_swap_fail_io;          /* I/Os to fail from now on */

/* Swap on a device of slots slots (slot 0 never used): priority -2, as Linux's first. */
void host_swapon(unsigned int slots)
{
	struct swap_info_struct *si = &swap_info[0];

	host_swap_disk = calloc(slots, PAGE_SIZE);
	spin_lock_init(&si->lock, "si->lock");
	xa_init(&si->swap_cont, "si->swap_cont");
	swap_cache_init(0);
	si->swap_map = calloc(slots, 1);
	si->swap_map[0] = SWAP_MAP_BAD;
	si->prio = -2;
	si->type = 0;
	si->max = slots;
	si->pages = slots - 1;
	si->inuse_pages = 0;
	si->cluster_next = 1;
	si->flags = SWP_USED | SWP_WRITEOK | SWP_VALID;
	total_swap_pages = slots - 1;
	atomic_long_set(&nr_swap_pages, slots - 1);
	host_swap_fail_io = 0;
}

/* Forget the device (the machine is being torn down: no entry is left). */
void host_swapoff(void)
{
	struct swap_info_struct *si = &swap_info[0];

	xa_lock(&si->swap_cont);
	xa_destroy(&si->swap_cont);
	xa_unlock(&si->swap_cont);
	free(si->swap_map);
	free(host_swap_disk);
	host_swap_disk = NULL;
	si->swap_map = NULL;
	si->flags = 0;
	total_swap_pages = 0;
	atomic_long_set(&nr_swap_pages, 0);
}

/* Copy the folio to (write) or from its slots: 0, or -EIO if an error is injected. */
static int host_swap_io(struct folio *folio, bool write)
{
	unsigned char *slot = host_swap_disk + swp_offset(folio->swap) * PAGE_SIZE;
	size_t bytes = folio_nr_pages(folio) * PAGE_SIZE;

	if (host_swap_fail_io) {
		host_swap_fail_io--;
		return -EIO;
	}
	if (write)
		memcpy(slot, page_address(&folio->page), bytes);
	else
		memcpy(page_address(&folio->page), slot, bytes);
	return 0;
}

/*
 * The batch API of mm/page_io.c, synchronous: each I/O is done when it is
 * queued; swap_iocb_wait() hands the results to swap_folio_io_done().
 */
void swap_iocb_init(struct swap_iocb *sio)
{
	sio->nr = 0;
}

static bool host_swap_queue(struct folio *folio, struct swap_iocb *sio, bool write)
{
	if (sio->nr == SWAP_IOCB_MAX)
		return false;
	sio->io[sio->nr].folio = folio;
	sio->io[sio->nr].write = write;
	/* the result, kept where the kernel keeps its bio: NULL ok, else failed */
	sio->io[sio->nr++].bio = host_swap_io(folio, write) ? (struct bio *)1 : NULL;
	return true;
}

bool swap_writepage_batch(struct folio *folio, struct swap_iocb *sio)
{
	if (sio->nr == SWAP_IOCB_MAX)
		return false;
	folio_clear_dirty(folio);
	return host_swap_queue(folio, sio, true);
}

bool swap_read_folio_batch(struct folio *folio, struct swap_iocb *sio)
{
	return host_swap_queue(folio, sio, false);
}

void swap_iocb_wait(struct swap_iocb *sio)
{
	for (unsigned int i = 0; i < sio->nr; i++)
		swap_folio_io_done(sio->io[i].folio, sio->io[i].bio ? -EIO : 0, sio->io[i].write);
}
