/*
 * Virtio device status bits and the transport-independent feature bits
 * (Linux's uapi/linux/virtio_config.h, virtio 1.0 §2.1 and §6).
 */
#ifndef _UAPI_LINUX_VIRTIO_CONFIG_H
#define _UAPI_LINUX_VIRTIO_CONFIG_H

#define VIRTIO_CONFIG_S_ACKNOWLEDGE     1       /* the guest saw the device */
#define VIRTIO_CONFIG_S_DRIVER          2       /* and has a driver for it */
#define VIRTIO_CONFIG_S_DRIVER_OK       4       /* the driver is ready */
#define VIRTIO_CONFIG_S_FEATURES_OK     8       /* feature negotiation done */
#define VIRTIO_CONFIG_S_NEEDS_RESET     0x40
#define VIRTIO_CONFIG_S_FAILED          0x80    /* the driver gave up */

#define VIRTIO_F_VERSION_1              32      /* virtio 1.0 ("modern") */
#define VIRTIO_F_ACCESS_PLATFORM        33

#endif
