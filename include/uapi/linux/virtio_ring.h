/*
 * The split virtqueue's layout in guest memory (Linux's
 * uapi/linux/virtio_ring.h, virtio 1.0 §2.4), shared with the device:
 *
 *   descriptor table (16 bytes × num, driver writes)
 *     [i] addr (u64, guest physical) | len (u32) | flags (u16) | next (u16)
 *         flags: NEXT (chain continues at next), WRITE (device writes it)
 *   available ring (driver writes)
 *     flags (u16) | idx (u16) | ring[num] (u16: head descriptor of a chain)
 *   used ring (device writes)
 *     flags (u16) | idx (u16) | ring[num] { id (u32: head), len (u32: bytes written) }
 *
 * idx fields count up for ever (mod 2^16); entry idx % num is the next slot.
 */
#ifndef _UAPI_LINUX_VIRTIO_RING_H
#define _UAPI_LINUX_VIRTIO_RING_H

#include "linux/types.h"

#define VRING_DESC_F_NEXT       1       /* the chain continues in .next */
#define VRING_DESC_F_WRITE      2       /* device-writable (an "in" buffer) */
#define VRING_USED_F_NO_NOTIFY  1       /* the device asks not to be kicked */
#define VRING_AVAIL_F_NO_INTERRUPT 1    /* the driver asks for no interrupt */

struct vring_desc {
	u64 addr;
	u32 len;
	u16 flags;
	u16 next;
};

struct vring_avail {
	u16 flags;
	u16 idx;
	u16 ring[];
};

struct vring_used_elem {
	u32 id;
	u32 len;
};

struct vring_used {
	u16 flags;
	u16 idx;
	struct vring_used_elem ring[];
};

#define VRING_USED_ALIGN_SIZE   4

#endif
