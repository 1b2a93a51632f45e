/*
 * The PCI bus (Linux's drivers/pci/probe.c, pci.c, pci-driver.c and the
 * MSI-X part of msi/msi.c), generic: configuration space comes from
 * arch/x86_64/pci.c.
 *
 * pci_subsys_init() scans bus 0 and every bus behind a PCI-to-PCI bridge:
 * each function's IDs, class, BARs (the firmware assigned them; sizes
 * found by writing all ones, as Linux's __pci_read_base) and the offset
 * of its MSI-X capability.  pci_register_driver() binds a driver to every
 * device its id_table names and runs its probe.
 *
 * A BAR (type 0 header, offsets 0x10-0x24):
 *
 *   memory:  31          4  3   2 1  0      I/O:  31        2  1  0
 *           | base address |P| type |0|          | base      | 0 |1|
 *            type 2: 64-bit, the next BAR holds bits 63-32
 *
 * An MSI-X table entry (in the BAR the capability's BIR names):
 *
 *   +0 message address low | +4 high | +8 message data | +12 control (bit 0: masked)
 *
 * Locks: none of its own.  Everything here runs at boot on the boot CPU
 * before smp_init (pci_subsys_init, then each driver's init): the device
 * and driver lists are never written after that.
 */
#include "linux/errno.h"
#include "linux/pci.h"
#include "linux/slab.h"
#include "linux/printk.h"
#include "linux/panic.h"
#include "linux/string.h"
#include <asm/io.h>

static LIST_HEAD(pci_devices);
static LIST_HEAD(pci_drivers);

/* Size and place BAR i of dev; the index of the next BAR (i + 2 after a 64-bit one). */
static int pci_read_base(struct pci_dev *dev, int i)
{
	int where = PCI_BASE_ADDRESS_0 + 4 * i;
	u32 lo, sz, hi = 0, szhi = ~0u;
	struct resource *res = &dev->resource[i];
	u64 base, mask;
	u16 cmd;

	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	pci_write_config_word(dev, PCI_COMMAND, cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	pci_read_config_dword(dev, where, &lo);
	pci_write_config_dword(dev, where, ~0u);
	pci_read_config_dword(dev, where, &sz);
	pci_write_config_dword(dev, where, lo);
	bool is64 = !(lo & PCI_BASE_ADDRESS_SPACE_IO) && (lo & 0x6) == PCI_BASE_ADDRESS_MEM_TYPE_64;
	if (is64 && i + 1 < PCI_STD_NUM_BARS) {
		pci_read_config_dword(dev, where + 4, &hi);
		pci_write_config_dword(dev, where + 4, ~0u);
		pci_read_config_dword(dev, where + 4, &szhi);
		pci_write_config_dword(dev, where + 4, hi);
	}
	pci_write_config_word(dev, PCI_COMMAND, cmd);
	if (lo & PCI_BASE_ADDRESS_SPACE_IO) {
		base = lo & PCI_BASE_ADDRESS_IO_MASK;
		mask = (sz & PCI_BASE_ADDRESS_IO_MASK) | 0xffffffffffff0000ULL;     /* 16-bit ports */
		res->flags = IORESOURCE_IO;
	} else {
		base = (u64)hi << 32 | (lo & PCI_BASE_ADDRESS_MEM_MASK);
		mask = (u64)szhi << 32 | (sz & PCI_BASE_ADDRESS_MEM_MASK);
		res->flags = IORESOURCE_MEM | (is64 ? IORESOURCE_MEM_64 : 0);
		if (!is64)
			mask |= 0xffffffff00000000ULL;
	}
	if (sz && sz != ~0u && base) {
		res->start = base;
		res->end = base + ~mask;
	}
	return i + (is64 ? 2 : 1);
}

/* The capability cap in dev's list after the one at pos (0: from the start); 0 if none. */
u8 pci_find_next_capability(struct pci_dev *dev, u8 pos, u8 cap)
{
	u16 status;
	u8 id;

	if (!pos) {
		pci_read_config_word(dev, PCI_STATUS, &status);
		if (!(status & PCI_STATUS_CAP_LIST))
			return 0;
		pci_read_config_byte(dev, PCI_CAPABILITY_LIST, &pos);
	} else {
		pci_read_config_byte(dev, pos + 1, &pos);
	}
	for (int ttl = 48; pos >= 0x40 && ttl--; pci_read_config_byte(dev, pos + 1, &pos)) {
		pos &= ~3;
		pci_read_config_byte(dev, pos, &id);
		if (id == 0xff)
			break;
		if (id == cap)
			return pos;
	}
	return 0;
}

u8 pci_find_capability(struct pci_dev *dev, u8 cap)
{
	return pci_find_next_capability(dev, 0, cap);
}

static void pci_scan_bus(u8 bus);

/* Record function bus:devfn (its vendor ID is not all ones); scan behind it if it is a bridge. */
static void pci_scan_device(u8 bus, u8 devfn)
{
	struct pci_dev *dev = kzalloc(sizeof(*dev));
	u32 class;
	u8 secondary;

	if (!dev)
		panic("pci_scan_device: no memory");
	dev->bus = bus;
	dev->devfn = devfn;
	pci_read_config_word(dev, PCI_VENDOR_ID, &dev->vendor);
	pci_read_config_word(dev, PCI_DEVICE_ID, &dev->device);
	pci_read_config_dword(dev, PCI_CLASS_REVISION, &class);
	dev->class = class >> 8;
	dev->revision = class & 0xff;
	pci_read_config_byte(dev, PCI_HEADER_TYPE, &dev->hdr_type);
	list_add_tail(&dev->bus_list, &pci_devices);
	if ((dev->hdr_type & PCI_HEADER_TYPE_MASK) == PCI_HEADER_TYPE_BRIDGE) {
		pci_read_config_byte(dev, PCI_SECONDARY_BUS, &secondary);
		if (secondary > bus)
			pci_scan_bus(secondary);
		return;
	}
	if ((dev->hdr_type & PCI_HEADER_TYPE_MASK) != 0)
		return;
	pci_read_config_word(dev, PCI_SUBSYSTEM_ID, &dev->subsystem_device);
	for (int i = 0; i < PCI_STD_NUM_BARS;)
		i = pci_read_base(dev, i);
	dev->msix_cap = pci_find_capability(dev, PCI_CAP_ID_MSIX);
	pr_info("pci %02x:%02x.%d: [%04x:%04x] class %06x%s\n", bus, PCI_SLOT(devfn),
		PCI_FUNC(devfn), dev->vendor, dev->device, dev->class, dev->msix_cap ? " MSI-X" : "");
}

/* Every function of every slot of bus (functions 1-7 only of a multi-function device). */
static void pci_scan_bus(u8 bus)
{
	for (int slot = 0; slot < 32; slot++)
		for (int fn = 0; fn < 8; fn++) {
			u8 devfn = PCI_DEVFN(slot, fn);

			if (pci_conf_read(bus, devfn, PCI_VENDOR_ID, 2) == 0xffff) {
				if (!fn)
					break;
				continue;
			}
			pci_scan_device(bus, devfn);
			if (!fn && !(pci_conf_read(bus, devfn, PCI_HEADER_TYPE, 1) & 0x80))
				break;
		}
}

/* Enumerate the PCI bus (Linux's pci_subsys_init).  At boot, before smp_init. */
void pci_subsys_init(void)
{
	pci_scan_bus(0);
}

static const struct pci_device_id *pci_match_id(const struct pci_device_id *ids, struct pci_dev *dev)
{
	for (; ids->vendor; ids++)
		if ((ids->vendor == PCI_ANY_ID || ids->vendor == dev->vendor) &&
		    (ids->device == PCI_ANY_ID || ids->device == dev->device))
			return ids;
	return NULL;
}

/*
 * Bind drv to every unbound device its id_table matches, running its
 * probe (Linux's pci_register_driver + driver_attach); a probe that fails
 * leaves the device unbound.  Returns 0.  At boot, after pci_subsys_init.
 */
int pci_register_driver(struct pci_driver *drv)
{
	struct pci_dev *dev;
	const struct pci_device_id *id;

	list_add_tail(&drv->node, &pci_drivers);
	list_for_each_entry(dev, &pci_devices, bus_list) {
		if (dev->driver || !(id = pci_match_id(drv->id_table, dev)))
			continue;
		dev->driver = drv;
		int err = drv->probe(dev, id);
		if (err) {
			pr_warn("%s %02x:%02x.%d: probe failed (%d)\n", drv->name, dev->bus,
				PCI_SLOT(dev->devfn), PCI_FUNC(dev->devfn), err);
			dev->driver = NULL;
		}
	}
	return 0;
}

/* Let dev master the bus (DMA; an MSI is a DMA write). */
void pci_set_master(struct pci_dev *dev)
{
	u16 cmd;

	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	pci_write_config_word(dev, PCI_COMMAND, cmd | PCI_COMMAND_MASTER | PCI_COMMAND_MEMORY);
}

/*
 * [offset, offset + len) of memory BAR bar, mapped uncached (Linux's
 * pci_iomap_range); NULL if the BAR is no memory BAR or too small.
 */
void *pci_iomap_range(struct pci_dev *dev, int bar, unsigned long offset, unsigned long len)
{
	struct resource *res = &dev->resource[bar];

	if (bar < 0 || bar >= PCI_STD_NUM_BARS || !(res->flags & IORESOURCE_MEM) ||
	    !res->start || offset + len > pci_resource_len(dev, bar))
		return NULL;
	return pci_arch_ioremap(res->start + offset, len);
}

/* The number of MSI-X table entries dev has, or -EINVAL without MSI-X. */
int pci_msix_vec_count(struct pci_dev *dev)
{
	u16 control;

	if (!dev->msix_cap)
		return -EINVAL;
	pci_read_config_word(dev, dev->msix_cap + PCI_MSIX_FLAGS, &control);
	return (control & PCI_MSIX_FLAGS_QSIZE) + 1;
}

/*
 * Make MSI-X table entry `entry` of dev run fn(data) (hardirq context) on
 * the boot CPU, and turn MSI-X on (INTx off).  0, -EINVAL (no MSI-X, no
 * such entry, table not mapped) or -ENOSPC (no vector left).
 */
int pci_enable_msix_vector(struct pci_dev *dev, unsigned int entry, irq_handler_t fn, void *data)
{
	int nvec = pci_msix_vec_count(dev);
	u32 table, msg_data;
	u16 control, cmd;
	u64 addr;
	int err;

	if (nvec < 0 || entry >= (unsigned int)nvec)
		return -EINVAL;
	if (!dev->msix_base) {
		pci_read_config_dword(dev, dev->msix_cap + PCI_MSIX_TABLE, &table);
		dev->msix_base = pci_iomap_range(dev, table & PCI_MSIX_TABLE_BIR,
						 table & ~PCI_MSIX_TABLE_BIR,
						 nvec * PCI_MSIX_ENTRY_SIZE);
		if (!dev->msix_base)
			return -EINVAL;
	}
	err = arch_setup_msi_vector(fn, data, &addr, &msg_data);
	if (err)
		return err;
	char *e = (char *)dev->msix_base + entry * PCI_MSIX_ENTRY_SIZE;
	pci_read_config_word(dev, dev->msix_cap + PCI_MSIX_FLAGS, &control);
	pci_write_config_word(dev, dev->msix_cap + PCI_MSIX_FLAGS,
			      control | PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
	writel(addr, e + PCI_MSIX_ENTRY_LOWER_ADDR);
	writel(addr >> 32, e + PCI_MSIX_ENTRY_UPPER_ADDR);
	writel(msg_data, e + PCI_MSIX_ENTRY_DATA);
	writel(0, e + PCI_MSIX_ENTRY_VECTOR_CTRL);              /* unmasked */
	pci_write_config_word(dev, dev->msix_cap + PCI_MSIX_FLAGS,
			      (control | PCI_MSIX_FLAGS_ENABLE) & ~PCI_MSIX_FLAGS_MASKALL);
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	pci_write_config_word(dev, PCI_COMMAND, cmd | PCI_COMMAND_INTX_DISABLE);
	return 0;
}
