/*
 * PCI devices (Linux's include/linux/pci.h): what enumeration found of
 * each function on the bus, how a driver reads its configuration space,
 * maps its BARs and takes its MSI-X interrupts, and how a driver claims
 * devices by vendor/device ID (pci_register_driver).
 *
 * drivers/pci/pci.c enumerates and matches; arch/x86_64/pci.c is the
 * hardware: configuration mechanism #1 (ports 0xcf8/0xcfc), uncached
 * mappings of BARs, and the IDT vector + MSI message of an interrupt.
 *
 * Locks: pci_lock (arch/x86_64/pci.c, irq-safe) makes each configuration
 * access (address write + data access) one step.  The device list is built
 * at boot on the boot CPU, before the other CPUs start, and never changes.
 */
#ifndef _LINUX_PCI_H
#define _LINUX_PCI_H

#include "linux/types.h"
#include "linux/list.h"

#define PCI_VENDOR_ID           0x00    /* configuration space header (type 0) */
#define PCI_DEVICE_ID           0x02
#define PCI_COMMAND             0x04
#define  PCI_COMMAND_IO         0x1
#define  PCI_COMMAND_MEMORY     0x2
#define  PCI_COMMAND_MASTER     0x4
#define  PCI_COMMAND_INTX_DISABLE 0x400
#define PCI_STATUS              0x06
#define  PCI_STATUS_CAP_LIST    0x10
#define PCI_CLASS_REVISION      0x08    /* class << 8 | revision */
#define PCI_HEADER_TYPE         0x0e
#define  PCI_HEADER_TYPE_MASK   0x7f
#define  PCI_HEADER_TYPE_BRIDGE 1
#define PCI_BASE_ADDRESS_0      0x10
#define  PCI_BASE_ADDRESS_SPACE_IO      0x1
#define  PCI_BASE_ADDRESS_MEM_TYPE_64   0x4
#define  PCI_BASE_ADDRESS_MEM_MASK      (~0xfUL)
#define  PCI_BASE_ADDRESS_IO_MASK       (~0x3UL)
#define PCI_SUBSYSTEM_ID        0x2e
#define PCI_CAPABILITY_LIST     0x34
#define PCI_INTERRUPT_LINE      0x3c
#define PCI_SECONDARY_BUS       0x19    /* type 1 (bridge) header */

#define PCI_CAP_ID_MSIX         0x11    /* capabilities list */
#define PCI_CAP_ID_VNDR         0x09
#define PCI_MSIX_FLAGS          2       /* MSI-X capability: message control */
#define  PCI_MSIX_FLAGS_QSIZE   0x07ff  /* table size - 1 */
#define  PCI_MSIX_FLAGS_MASKALL 0x4000
#define  PCI_MSIX_FLAGS_ENABLE  0x8000
#define PCI_MSIX_TABLE          4       /* BIR (bits 0-2) and offset */
#define  PCI_MSIX_TABLE_BIR     0x7
#define PCI_MSIX_ENTRY_SIZE     16      /* a table entry: address lo/hi, data, control */
#define PCI_MSIX_ENTRY_LOWER_ADDR       0
#define PCI_MSIX_ENTRY_UPPER_ADDR       4
#define PCI_MSIX_ENTRY_DATA             8
#define PCI_MSIX_ENTRY_VECTOR_CTRL      12
#define  PCI_MSIX_ENTRY_CTRL_MASKBIT    0x1

#define PCI_STD_NUM_BARS        6
#define PCI_DEVFN(slot, func)   ((((slot) & 0x1f) << 3) | ((func) & 0x07))
#define PCI_SLOT(devfn)         (((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn)         ((devfn) & 0x07)

#define IORESOURCE_IO           0x100
#define IORESOURCE_MEM          0x200
#define IORESOURCE_MEM_64       0x100000

struct resource {
	u64 start, end;                 /* bus addresses, end inclusive; start 0: unused */
	unsigned long flags;            /* IORESOURCE_IO or _MEM (| _MEM_64) */
};

struct pci_driver;

struct pci_dev {
	struct list_head bus_list;      /* on pci_devices */
	u8 bus, devfn;
	u16 vendor, device, subsystem_device;
	u32 class;                      /* class << 8 | prog-if, as Linux */
	u8 revision, hdr_type;
	u8 msix_cap;                    /* MSI-X capability offset, 0: none */
	struct resource resource[PCI_STD_NUM_BARS];
	void *msix_base;                /* the MSI-X table, mapped (pci_enable_msix_vector) */
	struct pci_driver *driver;      /* the driver bound to it, or NULL */
	void *driver_data;
};

struct pci_device_id {
	u16 vendor, device;             /* PCI_ANY_ID matches any */
};
#define PCI_ANY_ID 0xffff

struct pci_driver {
	const char *name;
	const struct pci_device_id *id_table;   /* ends with a zero entry */
	int (*probe)(struct pci_dev *dev, const struct pci_device_id *id);
	struct list_head node;
};

typedef void (*irq_handler_t)(void *data);

/* drivers/pci/pci.c */
void pci_subsys_init(void);
int pci_register_driver(struct pci_driver *drv);
u8 pci_find_capability(struct pci_dev *dev, u8 cap);
u8 pci_find_next_capability(struct pci_dev *dev, u8 pos, u8 cap);
void pci_set_master(struct pci_dev *dev);
void *pci_iomap_range(struct pci_dev *dev, int bar, unsigned long offset, unsigned long len);
int pci_msix_vec_count(struct pci_dev *dev);
int pci_enable_msix_vector(struct pci_dev *dev, unsigned int entry, irq_handler_t fn, void *data);
static inline u64 pci_resource_len(const struct pci_dev *dev, int bar)
{
	return dev->resource[bar].start ? dev->resource[bar].end - dev->resource[bar].start + 1 : 0;
}

/* arch/x86_64/pci.c: configuration space (offsets naturally aligned) and the hardware's part */
u32 pci_conf_read(u8 bus, u8 devfn, int where, int size);
void pci_conf_write(u8 bus, u8 devfn, int where, int size, u32 val);
void *pci_arch_ioremap(u64 bus_addr, u64 len);
int arch_setup_msi_vector(irq_handler_t fn, void *data, u64 *addr, u32 *msg_data);

/* Linux's pci_read_config_*: the value through *val; 0 (this bus cannot fail). */
static inline int pci_read_config_byte(struct pci_dev *d, int where, u8 *val)
{
	*val = pci_conf_read(d->bus, d->devfn, where, 1);
	return 0;
}

static inline int pci_read_config_word(struct pci_dev *d, int where, u16 *val)
{
	*val = pci_conf_read(d->bus, d->devfn, where, 2);
	return 0;
}

static inline int pci_read_config_dword(struct pci_dev *d, int where, u32 *val)
{
	*val = pci_conf_read(d->bus, d->devfn, where, 4);
	return 0;
}

static inline int pci_write_config_word(struct pci_dev *d, int where, u16 val)
{
	pci_conf_write(d->bus, d->devfn, where, 2, val);
	return 0;
}

static inline int pci_write_config_dword(struct pci_dev *d, int where, u32 val)
{
	pci_conf_write(d->bus, d->devfn, where, 4, val);
	return 0;
}

#endif
