/*
 * PCI on x86 (Linux's arch/x86/pci/direct.c and the MSI half of
 * arch/x86/kernel/apic/msi.c): the hardware under drivers/pci/.
 *
 * Configuration mechanism #1: write the address of a dword of a function's
 * configuration space to port 0xcf8, then access it at 0xcfc (+ the byte
 * offset within the dword):
 *
 *   0xcf8:  31      24 23   16 15  11 10  8 7      2 1 0
 *          | E | 0    |  bus  | slot | fn  | dword  |0 0|     E: enable
 *
 * MSI: a device interrupts by writing msg data = the IDT vector to address
 * 0xfee00000 | destination APIC ID << 12 (fixed delivery, physical
 * destination: the boot CPU).  Vectors FIRST_DEVICE_VECTOR.. are handed
 * out at boot (arch_setup_msi_vector) and dispatched by handle_device_irq;
 * the local APIC's EOI is sent by traps.c for every vector.
 *
 * Locks: pci_lock (irq-safe: a handler may read config space) covers the
 * two port accesses of one configuration access.  device_irqs[] is filled
 * at boot, before the device may send the vector, and then only read.
 */
#include "linux/errno.h"
#include "linux/pci.h"
#include "linux/spinlock.h"
#include "linux/printk.h"
#include "arch/x86_64/x86.h"
#include <asm/io.h>
#include <asm/page.h>

#define PCI_CONF1_ADDRESS       0xcf8
#define PCI_CONF1_DATA          0xcfc
#define MSI_ADDR_BASE           0xfee00000UL

static spinlock_t pci_lock = SPINLOCK_INIT("pci_lock");

static u32 pci_conf1_address(u8 bus, u8 devfn, int where)
{
	return 0x80000000u | (u32)bus << 16 | (u32)devfn << 8 | (where & 0xfc);
}

/*
 * Read size (1, 2 or 4) bytes at where (naturally aligned) of function
 * bus:devfn's configuration space.  A function that does not exist reads
 * as all ones.
 */
u32 pci_conf_read(u8 bus, u8 devfn, int where, int size)
{
	u16 port = PCI_CONF1_DATA + (where & 3);
	unsigned long flags;
	u32 v;

	spin_lock_irqsave(&pci_lock, flags);
	outl(PCI_CONF1_ADDRESS, pci_conf1_address(bus, devfn, where));
	v = size == 1 ? inb(port) : size == 2 ? inw(port) : inl(port);
	spin_unlock_irqrestore(&pci_lock, flags);
	return v;
}

/* Write size (1, 2 or 4) bytes at where (naturally aligned) of bus:devfn's configuration space. */
void pci_conf_write(u8 bus, u8 devfn, int where, int size, u32 val)
{
	u16 port = PCI_CONF1_DATA + (where & 3);
	unsigned long flags;

	spin_lock_irqsave(&pci_lock, flags);
	outl(PCI_CONF1_ADDRESS, pci_conf1_address(bus, devfn, where));
	if (size == 1)
		outb(port, val);
	else if (size == 2)
		outw(port, val);
	else
		outl(port, val);
	spin_unlock_irqrestore(&pci_lock, flags);
}

/* A memory BAR's registers, uncached, at their direct-map address (boot only: ioremap_prot). */
void *pci_arch_ioremap(u64 bus_addr, u64 len)
{
	return ioremap_prot(bus_addr, len, PAGE_KERNEL_NOCACHE);
}

static struct {
	irq_handler_t fn;
	void *data;
} device_irqs[NR_DEVICE_VECTORS];
static unsigned int nr_device_irqs;

/*
 * Give fn(data) a vector of its own and say which MSI message raises it
 * on the boot CPU: *addr and *msg_data for an MSI-X table entry.  0, or
 * -ENOSPC when the vectors are used up.  At boot, before the device is
 * told the message.
 */
int arch_setup_msi_vector(irq_handler_t fn, void *data, u64 *addr, u32 *msg_data)
{
	unsigned int i;
	unsigned long flags;

	spin_lock_irqsave(&pci_lock, flags);
	i = nr_device_irqs < NR_DEVICE_VECTORS ? nr_device_irqs++ : NR_DEVICE_VECTORS;
	if (i < NR_DEVICE_VECTORS) {
		device_irqs[i].data = data;
		device_irqs[i].fn = fn;
	}
	spin_unlock_irqrestore(&pci_lock, flags);
	if (i == NR_DEVICE_VECTORS)
		return -ENOSPC;
	*addr = MSI_ADDR_BASE | (u64)cpu_apicid[0] << 12;
	*msg_data = FIRST_DEVICE_VECTOR + i;
	return 0;
}

/* Vector v is a device's: run its handler (hardirq context).  False if v is none of theirs. */
bool handle_device_irq(unsigned long v)
{
	unsigned long i = v - FIRST_DEVICE_VECTOR;

	if (v < FIRST_DEVICE_VECTOR || i >= NR_DEVICE_VECTORS || !READ_ONCE(device_irqs[i].fn))
		return false;
	device_irqs[i].fn(device_irqs[i].data);
	return true;
}
