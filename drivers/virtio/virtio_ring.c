/*
 * The split virtqueue (Linux's drivers/virtio/virtio_ring.c, virtio 1.0
 * §2.4): the driver hands the device chains of descriptors through the
 * available ring; the device hands back each chain's head, and how many
 * bytes it wrote, through the used ring.
 *
 * One contiguous block from the buddy (zeroed, never moved), laid out as
 * a legacy device would want it too:
 *
 *   +0                 desc[num]          16 bytes each   driver writes
 *   +16*num            avail: flags idx ring[num]          driver writes
 *   ALIGN(.., 4096)    used:  flags idx ring[num]{id,len}  device writes
 *
 * A request of virtio_blk, 2 + n descriptors chained by NEXT (n data
 * segments; a flush has none):
 *
 *   head -> [outhdr 16 B, R] -> [data, R or W] ... -> [status 1 B, W]
 *             type, sector       (W: a read)           device: 0 = OK
 *
 * Free descriptors are a list through desc[].next from free_head (the
 * device never writes the table).  data[head] is the caller's token for
 * the chain at head, NULL while that head is free.
 *
 * Memory order with the device: descriptors and the ring slot are
 * written before avail->idx is published (release); used->ring[slot] is
 * read after used->idx (acquire); the kick reads used->flags only after
 * avail->idx is visible (full barrier), so the device either sees the new
 * entry or asks to be notified.
 *
 * Locks: none of its own.  The driver serializes the calls on one queue
 * with *vq->lock (asserted here), an irq-safe spinlock since its
 * interrupt handler takes it too.
 */
#include "linux/errno.h"
#include "linux/virtio.h"
#include "linux/gfp.h"
#include "linux/mm.h"
#include "linux/slab.h"
#include "linux/panic.h"
#include "uapi/linux/virtio_ring.h"

struct vring_virtqueue {
	struct virtqueue vq;
	unsigned int num;               /* descriptors (a power of two) */
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	u16 free_head;                  /* first free descriptor */
	u16 avail_idx_shadow;           /* avail->idx as the driver last wrote it */
	u16 last_used_idx;              /* the next used entry to take */
	u16 num_added;                  /* chains added since the last kick */
	struct page *pages;             /* the rings' block, of order `order` */
	unsigned int order;
	void *data[];                   /* per head: the caller's token */
};

#define to_vvq(_vq) container_of(_vq, struct vring_virtqueue, vq)

static size_t vring_used_offset(unsigned int num)
{
	return ALIGN_UP(sizeof(struct vring_desc) * num + sizeof(struct vring_avail) +
		     sizeof(u16) * (num + 1), PAGE_SIZE);
}

static size_t vring_size(unsigned int num)
{
	return vring_used_offset(num) + sizeof(struct vring_used) +
	       sizeof(struct vring_used_elem) * num + sizeof(u16);
}

/*
 * A queue of num (a power of two, at most 32768) descriptors for queue
 * index of vdev, all free; NULL without memory.  callback runs from
 * vring_interrupt.  The transport tells the device the three addresses.
 */
struct virtqueue *vring_create_virtqueue(unsigned int index, unsigned int num,
					 struct virtio_device *vdev, vq_callback_t *callback,
					 spinlock_t *lock)
{
	struct vring_virtqueue *vvq = kzalloc(sizeof(*vvq) + num * sizeof(void *));
	unsigned int order = 0;

	if (!vvq)
		return NULL;
	while ((PAGE_SIZE << order) < vring_size(num))
		order++;
	vvq->pages = alloc_pages(__GFP_ZERO, order);
	if (!vvq->pages) {
		kfree(vvq);
		return NULL;
	}
	char *base = page_address(vvq->pages);
	vvq->order = order;
	vvq->num = num;
	vvq->desc = (struct vring_desc *)base;
	vvq->avail = (struct vring_avail *)(base + sizeof(struct vring_desc) * num);
	vvq->used = (struct vring_used *)(base + vring_used_offset(num));
	for (unsigned int i = 0; i + 1 < num; i++)
		vvq->desc[i].next = i + 1;
	vvq->vq = (struct virtqueue){ .vdev = vdev, .index = index, .num_free = num,
				      .callback = callback, .lock = lock };
	return &vvq->vq;
}

/* Free a queue the device was never told of, or was reset from (Linux's vring_del_virtqueue). */
void vring_del_virtqueue(struct virtqueue *vq)
{
	struct vring_virtqueue *vvq = to_vvq(vq);

	__free_pages(vvq->pages, vvq->order);
	kfree(vvq);
}

u64 virtqueue_get_desc_addr(const struct virtqueue *vq)
{
	return __pa(to_vvq(vq)->desc);
}

u64 virtqueue_get_avail_addr(const struct virtqueue *vq)
{
	return __pa(to_vvq(vq)->avail);
}

u64 virtqueue_get_used_addr(const struct virtqueue *vq)
{
	return __pa(to_vvq(vq)->used);
}

unsigned int virtqueue_get_vring_size(const struct virtqueue *vq)
{
	return to_vvq(vq)->num;
}

/*
 * Expose one chain: out_sgs device-readable pieces, then in_sgs
 * device-writable ones (each sgs[i] is one scatterlist entry), with data
 * (not NULL) as its token for virtqueue_get_buf.  0, or -ENOSPC when too
 * few descriptors are free (the caller waits for used buffers).  The
 * device sees it after virtqueue_kick.
 */
int virtqueue_add_sgs(struct virtqueue *_vq, struct scatterlist *sgs[], unsigned int out_sgs,
		      unsigned int in_sgs, void *data)
{
	struct vring_virtqueue *vq = to_vvq(_vq);
	unsigned int total = out_sgs + in_sgs, head = vq->free_head, i = head;

	lockdep_assert_held(_vq->lock);
	if (!data || !total)
		panic("virtqueue_add_sgs: no token or no buffer");
	if (total > _vq->num_free)
		return -ENOSPC;
	for (unsigned int n = 0; n < total; n++) {
		struct vring_desc *d = &vq->desc[i];

		d->addr = sg_phys(sgs[n]);
		d->len = sgs[n]->length;
		d->flags = (n >= out_sgs ? VRING_DESC_F_WRITE : 0) |
			   (n + 1 < total ? VRING_DESC_F_NEXT : 0);
		i = d->next;
	}
	vq->free_head = i;
	_vq->num_free -= total;
	vq->data[head] = data;
	vq->avail->ring[vq->avail_idx_shadow & (vq->num - 1)] = head;
	vq->avail_idx_shadow++;
	smp_store_release(&vq->avail->idx, vq->avail_idx_shadow);
	vq->num_added++;
	return 0;
}

/* After adding: must the device be notified?  (It may have said it polls.) */
bool virtqueue_kick_prepare(struct virtqueue *_vq)
{
	struct vring_virtqueue *vq = to_vvq(_vq);

	lockdep_assert_held(_vq->lock);
	smp_mb();                       /* avail->idx visible before used->flags is read */
	vq->num_added = 0;
	return !(READ_ONCE(vq->used->flags) & VRING_USED_F_NO_NOTIFY);
}

/* Tell the device there is work (the transport's doorbell).  False if the device is broken. */
bool virtqueue_notify(struct virtqueue *vq)
{
	return vq->vdev->config->notify(vq);
}

/* virtqueue_kick_prepare + virtqueue_notify (Linux's pair). */
bool virtqueue_kick(struct virtqueue *vq)
{
	if (virtqueue_kick_prepare(vq))
		return virtqueue_notify(vq);
	return true;
}

/* Put the chain at head back on the free list. */
static void detach_buf(struct vring_virtqueue *vq, unsigned int head)
{
	unsigned int i = head, n = 1;

	vq->data[head] = NULL;
	while (vq->desc[i].flags & VRING_DESC_F_NEXT) {
		i = vq->desc[i].next;
		n++;
	}
	vq->desc[i].next = vq->free_head;
	vq->free_head = head;
	vq->vq.num_free += n;
}

/*
 * The token of the next chain the device has used, with the bytes it
 * wrote in *len; its descriptors are free again.  NULL if none is used.
 */
void *virtqueue_get_buf(struct virtqueue *_vq, unsigned int *len)
{
	struct vring_virtqueue *vq = to_vvq(_vq);
	struct vring_used_elem e;
	void *data;

	lockdep_assert_held(_vq->lock);
	if (vq->last_used_idx == smp_load_acquire(&vq->used->idx))
		return NULL;
	e = vq->used->ring[vq->last_used_idx & (vq->num - 1)];
	vq->last_used_idx++;
	if (e.id >= vq->num || !vq->data[e.id])
		panic("virtqueue_get_buf: device used bad head %u", e.id);
	data = vq->data[e.id];
	detach_buf(vq, e.id);
	if (len)
		*len = e.len;
	return data;
}

/* The queue's interrupt (hardirq context): the driver's callback takes the used buffers. */
void vring_interrupt(struct virtqueue *vq)
{
	if (vq->callback)
		vq->callback(vq);
}
