/*
 * The block layer's types (Linux's include/linux/blk_types.h): a bio is
 * one I/O on one block device — an operation, a first sector, and a
 * vector of (page, offset, length) segments — with the callback that
 * runs when the device has done it.
 *
 *   struct bio
 *     bi_opf     REQ_OP_READ | REQ_OP_WRITE | REQ_OP_FLUSH
 *     bi_iter    .bi_sector (512-byte units) .bi_size (bytes, the sum of the segments)
 *     bi_io_vec  [0] page+offset,len  [1] ...  [bi_vcnt - 1]
 *     bi_end_io  called once, with bi_status set, in any context (an interrupt)
 */
#ifndef _LINUX_BLK_TYPES_H
#define _LINUX_BLK_TYPES_H

#include "linux/types.h"

struct page;
struct bio;
struct block_device;

typedef u64 sector_t;
typedef u8 blk_status_t;

#define SECTOR_SHIFT    9
#define SECTOR_SIZE     (1 << SECTOR_SHIFT)

#define BLK_STS_OK      0
#define BLK_STS_NOTSUPP 1
#define BLK_STS_NOSPC   3
#define BLK_STS_RESOURCE 9
#define BLK_STS_IOERR   10

enum req_op {
	REQ_OP_READ = 0,
	REQ_OP_WRITE = 1,
	REQ_OP_FLUSH = 2,
};

struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
};

struct bvec_iter {
	sector_t bi_sector;             /* the device sector of the first byte */
	unsigned int bi_size;           /* bytes left */
};

typedef void (bio_end_io_t)(struct bio *bio);

#define BIO_INLINE_VECS 4

struct bio {
	struct block_device *bi_bdev;
	unsigned int bi_opf;            /* enum req_op */
	blk_status_t bi_status;
	struct bvec_iter bi_iter;
	unsigned short bi_vcnt;         /* segments in bi_io_vec */
	unsigned short bi_max_vecs;
	bio_end_io_t *bi_end_io;
	void *bi_private;               /* the submitter's (submit_bio_wait: its completion) */
	struct bio_vec *bi_io_vec;
	struct bio_vec bi_inline_vecs[BIO_INLINE_VECS];
};

static inline enum req_op bio_op(const struct bio *bio)
{
	return (enum req_op)bio->bi_opf;
}

#endif
