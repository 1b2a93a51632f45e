/*
 * Virtio devices and virtqueues (Linux's include/linux/virtio.h,
 * virtio_config.h): what a virtio driver (drivers/block/virtio_blk.c)
 * sees of its device, whatever the transport.  foliOS has one transport,
 * virtio-pci modern (drivers/virtio/virtio_pci_modern.c), and one ring
 * layout, the split ring (drivers/virtio/virtio_ring.c).
 *
 * Locks: a virtqueue has no lock of its own (as in Linux): its driver
 * serializes every call on one queue (virtio_blk: vblk->vq_lock, taken
 * with interrupts off because its interrupt handler calls
 * virtqueue_get_buf too).  The virtqueue_* functions that need it assert
 * it with lockdep (vq->lock names the driver's lock).
 */
#ifndef _LINUX_VIRTIO_H
#define _LINUX_VIRTIO_H

#include "linux/types.h"
#include "linux/spinlock.h"
#include "linux/scatterlist.h"

struct virtio_device;
struct virtqueue;
typedef void vq_callback_t(struct virtqueue *vq);

struct virtqueue {
	struct virtio_device *vdev;
	unsigned int index;             /* the queue's number in its device */
	unsigned int num_free;          /* descriptors not in a chain */
	vq_callback_t *callback;        /* the device used buffers (hardirq context) */
	spinlock_t *lock;               /* the driver's lock that serializes this queue */
	void *priv;                     /* the transport's: its notify register */
};

/* The transport's half (Linux's virtio_config_ops). */
struct virtio_config_ops {
	void (*get)(struct virtio_device *vdev, unsigned int offset, void *buf, unsigned int len);
	u8 (*get_status)(struct virtio_device *vdev);
	void (*set_status)(struct virtio_device *vdev, u8 status);
	void (*reset)(struct virtio_device *vdev);
	u64 (*get_features)(struct virtio_device *vdev);
	int (*finalize_features)(struct virtio_device *vdev);
	struct virtqueue *(*setup_vq)(struct virtio_device *vdev, unsigned int index,
				      vq_callback_t *callback, spinlock_t *lock);
	bool (*notify)(struct virtqueue *vq);
};

struct virtio_device {
	u32 id;                         /* the virtio device type (2: block) */
	u64 features;                   /* negotiated: VIRTIO_F_* and the device's own */
	const struct virtio_config_ops *config;
	void *priv;                     /* the driver's (struct virtio_blk) */
	void *transport;                /* the transport's (struct virtio_pci_device) */
};

#define VIRTIO_ID_BLOCK 2

static inline bool virtio_has_feature(const struct virtio_device *vdev, unsigned int fbit)
{
	return vdev->features & (1ULL << fbit);
}

/* Read len bytes at offset of the device's configuration region (Linux's virtio_cread_bytes). */
static inline void virtio_cread_bytes(struct virtio_device *vdev, unsigned int offset, void *buf,
				      unsigned int len)
{
	vdev->config->get(vdev, offset, buf, len);
}

/* virtio_ring.c: the split ring.  The caller holds *vq->lock (lockdep_assert_held). */
int virtqueue_add_sgs(struct virtqueue *vq, struct scatterlist *sgs[], unsigned int out_sgs,
		      unsigned int in_sgs, void *data);
bool virtqueue_kick(struct virtqueue *vq);
bool virtqueue_kick_prepare(struct virtqueue *vq);
bool virtqueue_notify(struct virtqueue *vq);
void *virtqueue_get_buf(struct virtqueue *vq, unsigned int *len);
unsigned int virtqueue_get_vring_size(const struct virtqueue *vq);
struct virtqueue *vring_create_virtqueue(unsigned int index, unsigned int num,
					 struct virtio_device *vdev, vq_callback_t *callback,
					 spinlock_t *lock);
void vring_del_virtqueue(struct virtqueue *vq);
void vring_interrupt(struct virtqueue *vq);
u64 virtqueue_get_desc_addr(const struct virtqueue *vq);
u64 virtqueue_get_avail_addr(const struct virtqueue *vq);
u64 virtqueue_get_used_addr(const struct virtqueue *vq);

/* virtio_pci_modern.c: bring a virtio PCI function up to the point a driver adds queues. */
struct pci_dev;
int virtio_pci_modern_probe(struct pci_dev *pci_dev, struct virtio_device *vdev);
void virtio_device_ready(struct virtio_device *vdev);

/* drivers/block/virtio_blk.c: bind to the virtio-blk PCI functions (at boot, after pci_subsys_init). */
int virtio_blk_init(void);

#endif
