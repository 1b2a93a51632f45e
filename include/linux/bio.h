/*
 * Making and submitting bios (Linux's include/linux/bio.h, block/bio.c,
 * block/blk-core.c).  A bio is filled by its submitter, handed to the
 * disk's driver by submit_bio(), and ended by the driver with bio_endio()
 * (in its interrupt handler); the submitter's bi_end_io then owns it
 * again.  Several bios may be in flight on one disk: submit_bio returns
 * when the driver has queued the bio, not when it is done.
 */
#ifndef _LINUX_BIO_H
#define _LINUX_BIO_H

#include "linux/blk_types.h"

void bio_init(struct bio *bio, struct block_device *bdev, struct bio_vec *table,
	      unsigned short max_vecs, unsigned int opf);
struct bio *bio_alloc(struct block_device *bdev, unsigned short nr_vecs, unsigned int opf);
void bio_put(struct bio *bio);
int bio_add_page(struct bio *bio, struct page *page, unsigned int len, unsigned int off);
void bio_endio(struct bio *bio);
void submit_bio(struct bio *bio);
int submit_bio_wait(struct bio *bio);
int blk_status_to_errno(blk_status_t status);

#endif
