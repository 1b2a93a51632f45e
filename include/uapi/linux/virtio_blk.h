/*
 * virtio-blk (Linux's uapi/linux/virtio_blk.h, virtio 1.0 §5.2): the
 * device's configuration space and the request header.
 */
#ifndef _UAPI_LINUX_VIRTIO_BLK_H
#define _UAPI_LINUX_VIRTIO_BLK_H

#include "linux/types.h"

#define VIRTIO_BLK_F_SIZE_MAX   1       /* max segment size in size_max */
#define VIRTIO_BLK_F_SEG_MAX    2       /* max segments per request in seg_max */
#define VIRTIO_BLK_F_RO         5       /* read-only disk */
#define VIRTIO_BLK_F_BLK_SIZE   6       /* block size in blk_size */
#define VIRTIO_BLK_F_FLUSH      9       /* VIRTIO_BLK_T_FLUSH works */

/* The start of the device configuration region (le32/le64 fields). */
struct virtio_blk_config {
	u64 capacity;                   /* in 512-byte sectors */
	u32 size_max;
	u32 seg_max;
	u8 geometry[4];
	u32 blk_size;
} __attribute__((packed));

#define VIRTIO_BLK_T_IN         0       /* read */
#define VIRTIO_BLK_T_OUT        1       /* write */
#define VIRTIO_BLK_T_FLUSH      4       /* write the device's cache out */

/* What the driver says first (device-readable). */
struct virtio_blk_outhdr {
	u32 type;                       /* VIRTIO_BLK_T_* */
	u32 ioprio;
	u64 sector;                     /* in 512-byte sectors, whatever blk_size says */
};

/* What the device says last (one device-writable byte). */
#define VIRTIO_BLK_S_OK         0
#define VIRTIO_BLK_S_IOERR      1
#define VIRTIO_BLK_S_UNSUPP     2

#endif
