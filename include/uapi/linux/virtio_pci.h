/*
 * The virtio-pci modern transport (Linux's uapi/linux/virtio_pci.h,
 * virtio 1.0 §4.1): vendor-specific PCI capabilities, each naming a BAR
 * region, and the common configuration structure in one of them.
 *
 *   struct virtio_pci_cap (in PCI config space, cap_vndr = 0x09)
 *     cap_vndr | cap_next | cap_len | cfg_type | bar | padding[3] | offset (u32) | length (u32)
 *     + notify_off_multiplier (u32) for VIRTIO_PCI_CAP_NOTIFY_CFG
 */
#ifndef _UAPI_LINUX_VIRTIO_PCI_H
#define _UAPI_LINUX_VIRTIO_PCI_H

#include "linux/types.h"

#define VIRTIO_PCI_CAP_COMMON_CFG       1
#define VIRTIO_PCI_CAP_NOTIFY_CFG       2
#define VIRTIO_PCI_CAP_ISR_CFG          3
#define VIRTIO_PCI_CAP_DEVICE_CFG       4
#define VIRTIO_PCI_CAP_PCI_CFG          5

/* offsets in struct virtio_pci_cap */
#define VIRTIO_PCI_CAP_CFG_TYPE         3
#define VIRTIO_PCI_CAP_BAR              4
#define VIRTIO_PCI_CAP_OFFSET           8
#define VIRTIO_PCI_CAP_LENGTH           12
#define VIRTIO_PCI_NOTIFY_CAP_MULT      16

#define VIRTIO_MSI_NO_VECTOR            0xffff

/* The common configuration structure (all little-endian, in the COMMON_CFG region). */
struct virtio_pci_common_cfg {
	u32 device_feature_select;      /* read-write */
	u32 device_feature;             /* read-only: 32 feature bits of the select */
	u32 guest_feature_select;
	u32 guest_feature;
	u16 msix_config;                /* the config-change MSI-X entry */
	u16 num_queues;                 /* read-only */
	u8 device_status;
	u8 config_generation;           /* read-only */
	u16 queue_select;               /* the queue the fields below describe */
	u16 queue_size;
	u16 queue_msix_vector;
	u16 queue_enable;
	u16 queue_notify_off;           /* read-only */
	u32 queue_desc_lo, queue_desc_hi;
	u32 queue_avail_lo, queue_avail_hi;
	u32 queue_used_lo, queue_used_hi;
};

#endif
