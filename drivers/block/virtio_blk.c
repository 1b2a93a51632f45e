/*
 * virtio-blk (Linux's drivers/block/virtio_blk.c): a disk behind one
 * virtqueue.  Each bio becomes one request, a descriptor chain of a
 * header the device reads, the bio's segments, and a status byte the
 * device writes:
 *
 *   struct virtblk_req (kmalloc'd, until the device is done)
 *   +------------------------------+
 *   | out_hdr: type, ioprio, sector| --> desc: 16 B, device-readable
 *   | status (1 byte)              | --> desc:  1 B, device-writable (last)
 *   | bio                          |
 *   | sg[]: out_hdr, segments..., status; sgs[]: pointers to them
 *   +------------------------------+
 *   bio->bi_io_vec[i] (page, off, len) --> desc: R for a write, W for a read
 *
 * Several requests are in flight at once: virtblk_submit_bio queues and
 * kicks, then returns; the device's MSI-X interrupt runs virtblk_done,
 * which takes every used chain off the ring and ends its bio.  A full
 * ring makes the submitter sleep (vq_wait) until virtblk_done frees
 * descriptors.
 *
 * Locks: vblk->vq_lock (spinlock, irq-safe: virtblk_done takes it in
 * hardirq context) serializes every call on the virtqueue (virtio_ring.c
 * asserts it).  bio_endio runs after it is dropped.  vq_wait's own lock
 * nests in nothing.
 */
#include "linux/bio.h"
#include "linux/blkdev.h"
#include "linux/errno.h"
#include "linux/pci.h"
#include "linux/printk.h"
#include "linux/sched.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "linux/virtio.h"
#include "linux/wait.h"
#include "uapi/linux/virtio_blk.h"
#include "uapi/linux/virtio_config.h"

#define VIRTBLK_MAJOR   254     /* Linux's virtblk gets the first dynamic block major: 254 */
#define PART_BITS       4       /* 16 minors per disk: vda 0, vdb 16 (Linux's) */

struct virtio_blk {
	struct virtio_device vdev;
	struct virtqueue *vq;
	spinlock_t vq_lock;             /* every virtqueue_* call on vq */
	struct wait_queue_head vq_wait; /* submitters waiting for free descriptors */
	unsigned int sg_elems;          /* data segments a request may have */
	unsigned int blk_size;          /* the device's logical block size */
	struct gendisk *disk;
};

struct virtblk_req {
	struct virtio_blk_outhdr out_hdr;
	u8 status;
	struct bio *bio;
	struct virtblk_req *next;       /* virtblk_done's list of finished requests */
	unsigned int nsg;
	struct scatterlist sg[];        /* nsg entries, then nsg pointers (sgs) */
};

static int nr_virtblk;

static struct scatterlist **virtblk_sgs(struct virtblk_req *req)
{
	return (struct scatterlist **)&req->sg[req->nsg];
}

/*
 * A request for bio: header (type, sector), the segments, the status
 * byte, as scatterlist pieces; NULL without memory.
 */
static struct virtblk_req *virtblk_setup_req(struct bio *bio)
{
	unsigned int nsg = bio->bi_vcnt + 2;
	struct virtblk_req *req = kmalloc(sizeof(*req) + nsg * (sizeof(struct scatterlist) +
							      sizeof(struct scatterlist *)));
	static const u32 types[] = { [REQ_OP_READ] = VIRTIO_BLK_T_IN,
				     [REQ_OP_WRITE] = VIRTIO_BLK_T_OUT,
				     [REQ_OP_FLUSH] = VIRTIO_BLK_T_FLUSH };

	if (!req)
		return NULL;
	req->out_hdr = (struct virtio_blk_outhdr){
		.type = types[bio_op(bio)],
		.sector = bio_op(bio) == REQ_OP_FLUSH ? 0 : bio->bi_iter.bi_sector,
	};
	req->status = VIRTIO_BLK_S_IOERR;       /* what a device that wrote nothing means */
	req->bio = bio;
	req->nsg = nsg;
	sg_init_one(&req->sg[0], &req->out_hdr, sizeof(req->out_hdr));
	for (unsigned int i = 0; i < bio->bi_vcnt; i++)
		sg_set_page(&req->sg[1 + i], bio->bi_io_vec[i].bv_page, bio->bi_io_vec[i].bv_len,
			    bio->bi_io_vec[i].bv_offset);
	sg_init_one(&req->sg[nsg - 1], &req->status, sizeof(req->status));
	for (unsigned int i = 0; i < nsg; i++)
		virtblk_sgs(req)[i] = &req->sg[i];
	return req;
}

static void virtblk_fail(struct bio *bio, blk_status_t status)
{
	bio->bi_status = status;
	bio_endio(bio);
}

/*
 * Queue bio on the device and kick it (Linux's virtio_queue_rq); the bio
 * ends later in virtblk_done.  Sleeps while the ring is full.  Process
 * context, no spinlock held.
 */
static void virtblk_submit_bio(struct bio *bio)
{
	struct virtio_blk *vblk = bio->bi_bdev->bd_disk->private_data;
	struct virtblk_req *req;
	unsigned long flags;
	bool notify;
	int err;

	if (bio->bi_vcnt > vblk->sg_elems || bio->bi_vcnt + 2u > virtqueue_get_vring_size(vblk->vq) ||
	    (bio_op(bio) == REQ_OP_WRITE && vblk->disk->read_only)) {
		virtblk_fail(bio, BLK_STS_IOERR);
		return;
	}
	req = virtblk_setup_req(bio);
	if (!req) {
		virtblk_fail(bio, BLK_STS_RESOURCE);
		return;
	}
	for (;;) {
		spin_lock_irqsave(&vblk->vq_lock, flags);
		unsigned int bio_out = bio_op(bio) == REQ_OP_READ ? 0 : bio->bi_vcnt;

		err = virtqueue_add_sgs(vblk->vq, virtblk_sgs(req), 1 + bio_out,
					req->nsg - 1 - bio_out, req);
		if (err != -ENOSPC)
			break;
		spin_unlock_irqrestore(&vblk->vq_lock, flags);
		wait_event(vblk->vq_wait, READ_ONCE(vblk->vq->num_free) >= req->nsg);
	}
	notify = virtqueue_kick_prepare(vblk->vq);
	spin_unlock_irqrestore(&vblk->vq_lock, flags);
	if (notify)
		virtqueue_notify(vblk->vq);
}

static blk_status_t virtblk_result(u8 status)
{
	switch (status) {
	case VIRTIO_BLK_S_OK:
		return BLK_STS_OK;
	case VIRTIO_BLK_S_UNSUPP:
		return BLK_STS_NOTSUPP;
	}
	return BLK_STS_IOERR;
}

/*
 * The queue's interrupt (hardirq context): take every finished request
 * off the ring under vq_lock, then, with it dropped, end their bios and
 * wake submitters waiting for room.
 */
static void virtblk_done(struct virtqueue *vq)
{
	struct virtio_blk *vblk = vq->vdev->priv;
	struct virtblk_req *req, *done = NULL;
	unsigned long flags;
	unsigned int len;

	spin_lock_irqsave(&vblk->vq_lock, flags);
	while ((req = virtqueue_get_buf(vq, &len))) {
		req->next = done;
		done = req;
	}
	spin_unlock_irqrestore(&vblk->vq_lock, flags);
	if (!done)
		return;
	while ((req = done)) {
		struct bio *bio = req->bio;

		done = req->next;
		bio->bi_status = virtblk_result(req->status);
		kfree(req);
		bio_endio(bio);
	}
	wake_up_all(&vblk->vq_wait);
}

static const struct block_device_operations virtblk_fops = {
	.submit_bio = virtblk_submit_bio,
};

/* The features foliOS's driver knows (the rest are declined). */
static const unsigned int virtblk_features[] = {
	VIRTIO_F_VERSION_1, VIRTIO_BLK_F_SEG_MAX, VIRTIO_BLK_F_RO, VIRTIO_BLK_F_BLK_SIZE,
	VIRTIO_BLK_F_FLUSH,
};

/* Negotiate features and read the disk's size and limits into vblk; *capacity in sectors. */
static int virtblk_config(struct virtio_blk *vblk, u64 *capacity)
{
	struct virtio_device *vdev = &vblk->vdev;
	u64 known = 0;
	u32 seg_max = 1, blk_size = SECTOR_SIZE;
	int err;

	for (size_t i = 0; i < ARRAY_SIZE(virtblk_features); i++)
		known |= 1ULL << virtblk_features[i];
	vdev->features &= known;
	err = vdev->config->finalize_features(vdev);
	if (err)
		return err;
	virtio_cread_bytes(vdev, offsetof(struct virtio_blk_config, capacity), capacity,
			   sizeof(*capacity));
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_SEG_MAX))
		virtio_cread_bytes(vdev, offsetof(struct virtio_blk_config, seg_max), &seg_max,
				   sizeof(seg_max));
	vblk->sg_elems = seg_max ? seg_max : 1;
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_BLK_SIZE))
		virtio_cread_bytes(vdev, offsetof(struct virtio_blk_config, blk_size), &blk_size,
				   sizeof(blk_size));
	/* The device refuses I/O not aligned to it (QEMU's logical_block_size). */
	if (blk_size < SECTOR_SIZE || blk_size > PAGE_SIZE || (blk_size & (blk_size - 1)))
		return -EINVAL;
	vblk->blk_size = blk_size;
	return 0;
}

/*
 * A virtio-blk PCI function: bring it up (modern transport), one queue
 * with its MSI-X interrupt, and add disk vd<a + n>.  0 or -errno (the
 * device is then left reset).
 */
static int virtblk_probe(struct pci_dev *pci_dev, const struct pci_device_id *id)
{
	struct virtio_blk *vblk = kzalloc(sizeof(*vblk));
	struct virtio_device *vdev;
	struct gendisk *disk;
	u64 capacity;
	int err;

	if (!vblk)
		return -ENOMEM;
	vdev = &vblk->vdev;
	vdev->id = VIRTIO_ID_BLOCK;
	vdev->priv = vblk;
	spin_lock_init(&vblk->vq_lock, "vblk->vq_lock");
	init_waitqueue_head(&vblk->vq_wait);
	err = virtio_pci_modern_probe(pci_dev, vdev);
	if (!err)
		err = virtblk_config(vblk, &capacity);
	if (!err && !(vblk->vq = vdev->config->setup_vq(vdev, 0, virtblk_done, &vblk->vq_lock)))
		err = -ENODEV;
	if (!err && !(disk = blk_alloc_disk()))
		err = -ENOMEM;
	if (err) {
		if (vdev->config)
			vdev->config->set_status(vdev, VIRTIO_CONFIG_S_FAILED);
		return err;             /* vblk stays: the device may still point at its rings */
	}
	disk->major = VIRTBLK_MAJOR;
	disk->first_minor = nr_virtblk << PART_BITS;
	snprintf(disk->disk_name, sizeof(disk->disk_name), "vd%c", 'a' + nr_virtblk++);
	disk->fops = &virtblk_fops;
	disk->private_data = vblk;
	disk->flush = virtio_has_feature(vdev, VIRTIO_BLK_F_FLUSH);
	disk->read_only = virtio_has_feature(vdev, VIRTIO_BLK_F_RO);
	/* A request is the bio's segments + header + status, all in the ring (no indirect descriptors). */
	disk->max_segments = MIN(vblk->sg_elems, virtqueue_get_vring_size(vblk->vq) - 2);
	disk->logical_block_size = vblk->blk_size;
	vblk->disk = disk;
	pci_dev->driver_data = vblk;
	virtio_device_ready(vdev);
	return add_disk(disk, capacity);
}

static const struct pci_device_id virtblk_id_table[] = {
	{ 0x1af4, 0x1001 },             /* transitional virtio-blk (QEMU's -drive if=virtio) */
	{ 0x1af4, 0x1042 },             /* modern only (disable-legacy=on) */
	{ 0 },
};

static struct pci_driver virtio_blk_driver = {
	.name = "virtio_blk",
	.id_table = virtblk_id_table,
	.probe = virtblk_probe,
};

/* Bind to every virtio-blk PCI function (at boot, after pci_subsys_init). */
int virtio_blk_init(void)
{
	return pci_register_driver(&virtio_blk_driver);
}
