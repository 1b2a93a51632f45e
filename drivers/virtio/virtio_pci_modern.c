/*
 * The virtio-pci modern transport (Linux's drivers/virtio/virtio_pci_modern.c
 * and virtio_pci_modern_dev.c, virtio 1.0 §4.1).  A virtio PCI function
 * lists vendor-specific capabilities (uapi/linux/virtio_pci.h), each a
 * window into one of its BARs:
 *
 *   COMMON_CFG  struct virtio_pci_common_cfg: features, status, queues
 *   NOTIFY_CFG  doorbells: queue q's at + queue_notify_off(q) * multiplier
 *   ISR_CFG     one byte, for INTx only (unused: MSI-X says which queue)
 *   DEVICE_CFG  the device type's own (struct virtio_blk_config)
 *
 * Bring-up (§3.1.1), split between probe and the driver:
 *
 *   virtio_pci_modern_probe: reset -> ACKNOWLEDGE -> DRIVER, device features read
 *   driver: keeps the features it knows; finalize_features: write them,
 *           FEATURES_OK, check that it stuck (VIRTIO_F_VERSION_1 required)
 *   driver: setup_vq for each queue (size, MSI-X entry, ring addresses, enable)
 *   driver: virtio_device_ready -> DRIVER_OK
 *
 * QEMU's `-drive if=virtio` on the pc machine is a transitional device
 * (0x1af4:0x1001) with both the legacy I/O BAR and these capabilities;
 * foliOS speaks only the modern interface to it.
 *
 * Locks: bring-up runs at boot in the probe, on the boot CPU.  After it,
 * only the notify doorbell is written (under the driver's queue lock) and
 * the device configuration read; neither needs a lock of its own.
 */
#include "linux/errno.h"
#include "linux/pci.h"
#include "linux/printk.h"
#include "linux/panic.h"
#include "linux/string.h"
#include "linux/slab.h"
#include "linux/virtio.h"
#include "uapi/linux/virtio_config.h"
#include "uapi/linux/virtio_pci.h"
#include <asm/io.h>

#define VP_MAX_QUEUE_SIZE 128           /* descriptors per queue: the rings fit in 2 pages */

struct virtio_pci_device {
	struct pci_dev *pci_dev;
	struct virtio_pci_common_cfg *common;
	void *notify_base;
	u32 notify_len;                 /* bytes mapped at notify_base */
	u32 notify_off_multiplier;
	void *device;                   /* the device configuration region */
	u32 device_len;
};

#define vp_common(vdev) (((struct virtio_pci_device *)(vdev)->transport)->common)

/*
 * Map the region of the first vendor capability of type cfg_type; NULL
 * if dev has none.  *len gets its length, *cap its offset in config space.
 */
static void *vp_map_capability(struct pci_dev *dev, u8 cfg_type, u32 *len, u8 *cap)
{
	for (u8 pos = pci_find_capability(dev, PCI_CAP_ID_VNDR); pos;
	     pos = pci_find_next_capability(dev, pos, PCI_CAP_ID_VNDR)) {
		u8 type, bar;
		u32 offset, length;

		pci_read_config_byte(dev, pos + VIRTIO_PCI_CAP_CFG_TYPE, &type);
		if (type != cfg_type)
			continue;
		pci_read_config_byte(dev, pos + VIRTIO_PCI_CAP_BAR, &bar);
		pci_read_config_dword(dev, pos + VIRTIO_PCI_CAP_OFFSET, &offset);
		pci_read_config_dword(dev, pos + VIRTIO_PCI_CAP_LENGTH, &length);
		if (bar >= PCI_STD_NUM_BARS || !length)
			continue;
		*len = length;
		*cap = pos;
		return pci_iomap_range(dev, bar, offset, length);
	}
	return NULL;
}

static u8 vp_get_status(struct virtio_device *vdev)
{
	return readb(&vp_common(vdev)->device_status);
}

static void vp_set_status(struct virtio_device *vdev, u8 status)
{
	writeb(status, &vp_common(vdev)->device_status);
}

/* Reset the device: write 0, then wait until it reads 0 (§4.1.4.3.2). */
static void vp_reset(struct virtio_device *vdev)
{
	vp_set_status(vdev, 0);
	while (vp_get_status(vdev))
		cpu_relax();
}

static void vp_add_status(struct virtio_device *vdev, u8 bit)
{
	vp_set_status(vdev, vp_get_status(vdev) | bit);
}

static u64 vp_get_features(struct virtio_device *vdev)
{
	struct virtio_pci_common_cfg *cfg = vp_common(vdev);
	u64 features;

	writel(0, &cfg->device_feature_select);
	features = readl(&cfg->device_feature);
	writel(1, &cfg->device_feature_select);
	return features | (u64)readl(&cfg->device_feature) << 32;
}

/*
 * Offer vdev->features (the device's, less what the driver dropped) and
 * set FEATURES_OK.  0, or -ENODEV if VERSION_1 is missing or the device
 * refuses the set (FEATURES_OK does not stick).
 */
static int vp_finalize_features(struct virtio_device *vdev)
{
	struct virtio_pci_common_cfg *cfg = vp_common(vdev);

	if (!virtio_has_feature(vdev, VIRTIO_F_VERSION_1))
		return -ENODEV;
	writel(0, &cfg->guest_feature_select);
	writel(vdev->features, &cfg->guest_feature);
	writel(1, &cfg->guest_feature_select);
	writel(vdev->features >> 32, &cfg->guest_feature);
	vp_add_status(vdev, VIRTIO_CONFIG_S_FEATURES_OK);
	return vp_get_status(vdev) & VIRTIO_CONFIG_S_FEATURES_OK ? 0 : -ENODEV;
}

/* len bytes at offset of the device configuration, consistent across a config change (generation). */
static void vp_get(struct virtio_device *vdev, unsigned int offset, void *buf, unsigned int len)
{
	struct virtio_pci_device *vp = vdev->transport;
	u8 gen;

	if (offset % 4 || offset + ALIGN_UP(len, 4) > vp->device_len)
		panic("vp_get: offset %u + %u not in the device configuration", offset, len);
	do {
		gen = readb(&vp->common->config_generation);
		for (unsigned int i = 0; i < len; i += 4) {
			u32 v = readl((char *)vp->device + offset + i);

			memcpy((char *)buf + i, &v, MIN(4u, len - i));
		}
	} while (gen != readb(&vp->common->config_generation));
}

/* Ring queue vq's doorbell: write its index at its notify address. */
static bool vp_notify(struct virtqueue *vq)
{
	writew(vq->index, vq->priv);
	return true;
}

/* MSI-X entry 0: the queue's interrupt. */
static void vp_vring_interrupt(void *data)
{
	vring_interrupt(data);
}

/*
 * Set up queue index: its rings (at most VP_MAX_QUEUE_SIZE descriptors),
 * MSI-X entry 0 for its interrupt, then enable it.  The queue, or NULL
 * (no such queue, a notify address outside the notify capability, no
 * memory, no vector; the rings go back).
 */
static struct virtqueue *vp_setup_vq(struct virtio_device *vdev, unsigned int index,
				     vq_callback_t *callback, spinlock_t *lock)
{
	struct virtio_pci_device *vp = vdev->transport;
	struct virtio_pci_common_cfg *cfg = vp->common;
	struct virtqueue *vq;
	u32 notify_off;
	u16 num;

	writew(index, &cfg->queue_select);
	num = readw(&cfg->queue_size);
	if (!num || readw(&cfg->queue_enable))
		return NULL;
	while (num & (num - 1))
		num &= num - 1;                 /* a power of two … */
	num = MIN(num, VP_MAX_QUEUE_SIZE);      /* … and not too many */
	notify_off = readw(&cfg->queue_notify_off) * vp->notify_off_multiplier;
	if (notify_off + sizeof(u16) > vp->notify_len)
		return NULL;                    /* the device's numbers do not add up */
	vq = vring_create_virtqueue(index, num, vdev, callback, lock);
	if (!vq)
		return NULL;
	vq->priv = (char *)vp->notify_base + notify_off;
	if (pci_enable_msix_vector(vp->pci_dev, 0, vp_vring_interrupt, vq))
		goto fail;
	writew(VIRTIO_MSI_NO_VECTOR, &cfg->msix_config);
	writew(num, &cfg->queue_size);
	writew(0, &cfg->queue_msix_vector);
	if (readw(&cfg->queue_msix_vector) == VIRTIO_MSI_NO_VECTOR)
		goto fail;      /* (the IDT vector stays taken: there are 16, one per device) */
	writel(virtqueue_get_desc_addr(vq), &cfg->queue_desc_lo);
	writel(virtqueue_get_desc_addr(vq) >> 32, &cfg->queue_desc_hi);
	writel(virtqueue_get_avail_addr(vq), &cfg->queue_avail_lo);
	writel(virtqueue_get_avail_addr(vq) >> 32, &cfg->queue_avail_hi);
	writel(virtqueue_get_used_addr(vq), &cfg->queue_used_lo);
	writel(virtqueue_get_used_addr(vq) >> 32, &cfg->queue_used_hi);
	writew(1, &cfg->queue_enable);
	return vq;
fail:
	vring_del_virtqueue(vq);
	return NULL;
}

static const struct virtio_config_ops virtio_pci_config_ops = {
	.get = vp_get,
	.get_status = vp_get_status,
	.set_status = vp_set_status,
	.reset = vp_reset,
	.get_features = vp_get_features,
	.finalize_features = vp_finalize_features,
	.setup_vq = vp_setup_vq,
	.notify = vp_notify,
};

/*
 * Find pci_dev's virtio capabilities, map them, reset the device and say
 * ACKNOWLEDGE and DRIVER; vdev gets the transport and the device's
 * features.  0, -ENODEV (not a modern virtio device: a capability
 * missing) or -ENOMEM.
 */
int virtio_pci_modern_probe(struct pci_dev *pci_dev, struct virtio_device *vdev)
{
	struct virtio_pci_device *vp = kzalloc(sizeof(*vp));
	u32 len, mult;
	u8 cap, ncap;

	if (!vp)
		return -ENOMEM;
	vp->pci_dev = pci_dev;
	vp->common = vp_map_capability(pci_dev, VIRTIO_PCI_CAP_COMMON_CFG, &len, &cap);
	vp->notify_base = vp_map_capability(pci_dev, VIRTIO_PCI_CAP_NOTIFY_CFG, &vp->notify_len, &ncap);
	vp->device = vp_map_capability(pci_dev, VIRTIO_PCI_CAP_DEVICE_CFG, &vp->device_len, &cap);
	if (!vp->common || !vp->notify_base || !vp->device) {
		kfree(vp);
		return -ENODEV;
	}
	pci_read_config_dword(pci_dev, ncap + VIRTIO_PCI_NOTIFY_CAP_MULT, &mult);
	vp->notify_off_multiplier = mult;
	pci_set_master(pci_dev);
	vdev->transport = vp;
	vdev->config = &virtio_pci_config_ops;
	vp_reset(vdev);
	vp_add_status(vdev, VIRTIO_CONFIG_S_ACKNOWLEDGE);
	vp_add_status(vdev, VIRTIO_CONFIG_S_DRIVER);
	vdev->features = vp_get_features(vdev);
	return 0;
}

/* The driver is ready: the device may use the queues (DRIVER_OK). */
void virtio_device_ready(struct virtio_device *vdev)
{
	vp_add_status(vdev, VIRTIO_CONFIG_S_DRIVER_OK);
}
