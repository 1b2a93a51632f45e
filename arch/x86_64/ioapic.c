/*
 * The ISA IRQs through the IOAPIC (Linux's arch/x86/kernel/apic/io_apic.c
 * and, for the 8259 it replaces, i8259.c).
 *
 * The legacy 8259 PICs are remapped to vectors 0x20-0x2f (so a spurious
 * IRQ from them cannot look like a CPU exception) and masked for good.
 * Each ISA IRQ a driver wants (the UART's) gets one IOAPIC redirection
 * entry: its GSI from the MADT's overrides, vector ISA_IRQ_VECTOR(irq),
 * delivered to the boot CPU.  Set up at boot on the boot CPU only.
 */
#include "arch/x86_64/x86.h"
#include <asm/io.h>
#include "linux/printk.h"

#define PIC1_CMD        0x20
#define PIC1_DATA       0x21
#define PIC2_CMD        0xa0
#define PIC2_DATA       0xa1

#define IO_APIC_REG_VERSION     0x01
#define IO_APIC_REDIR_TABLE(n)  (0x10 + 2 * (n))
#define IO_APIC_REDIR_MASKED    BIT(16)
#define IO_APIC_REDIR_LEVEL     BIT(15)
#define IO_APIC_REDIR_ACTIVE_LOW BIT(13)
/* MPS INTI flags of an interrupt source override */
#define MP_POLARITY_MASK        0x3
#define MP_POLARITY_LOW         0x3
#define MP_TRIGGER_MASK         0xc
#define MP_TRIGGER_LEVEL        0xc

static volatile u32 *ioapic_base;       /* IOREGSEL at 0, IOWIN at 0x10 */
static unsigned int nr_ioapic_registers;

static u32 io_apic_read(u32 reg)
{
	ioapic_base[0] = reg;
	return ioapic_base[4];
}

static void io_apic_write(u32 reg, u32 v)
{
	ioapic_base[0] = reg;
	ioapic_base[4] = v;
}

/* Remap the 8259s to vectors 0x20-0x2f and mask every line (Linux's init_8259A + mask). */
void mask_8259A(void)
{
	outb(PIC1_CMD, 0x11);           /* ICW1: init, expect ICW4 */
	outb(PIC2_CMD, 0x11);
	outb(PIC1_DATA, ISA_IRQ_VECTOR(0));     /* ICW2: vector base */
	outb(PIC2_DATA, ISA_IRQ_VECTOR(8));
	outb(PIC1_DATA, 4);             /* ICW3: slave on IRQ2 */
	outb(PIC2_DATA, 2);
	outb(PIC1_DATA, 1);             /* ICW4: 8086 mode */
	outb(PIC2_DATA, 1);
	outb(PIC1_DATA, 0xff);
	outb(PIC2_DATA, 0xff);
}

/* Map the IOAPIC and mask all its pins until a driver wants one. */
void setup_IO_APIC(void)
{
	ioapic_base = ioremap_prot(acpi_madt.ioapic_addr, PAGE_SIZE, PAGE_KERNEL_NOCACHE);
	nr_ioapic_registers = ((io_apic_read(IO_APIC_REG_VERSION) >> 16) & 0xff) + 1;
	for (unsigned int pin = 0; pin < nr_ioapic_registers; pin++) {
		io_apic_write(IO_APIC_REDIR_TABLE(pin) + 1, 0);
		io_apic_write(IO_APIC_REDIR_TABLE(pin), IO_APIC_REDIR_MASKED);
	}
}

/*
 * Route ISA IRQ irq to the boot CPU at ISA_IRQ_VECTOR(irq): fixed delivery,
 * physical destination, edge/active-high unless the MADT overrides it.
 */
void ioapic_unmask_isa_irq(unsigned int irq)
{
	unsigned int pin = acpi_madt.isa_gsi[irq] - acpi_madt.ioapic_gsi_base;
	u16 flags = acpi_madt.isa_flags[irq];
	u32 low = ISA_IRQ_VECTOR(irq);

	if (pin >= nr_ioapic_registers)
		panic("ioapic_unmask_isa_irq: IRQ %u is GSI %u, not on the IOAPIC", irq,
		      acpi_madt.isa_gsi[irq]);
	if ((flags & MP_POLARITY_MASK) == MP_POLARITY_LOW)
		low |= IO_APIC_REDIR_ACTIVE_LOW;
	if ((flags & MP_TRIGGER_MASK) == MP_TRIGGER_LEVEL)
		low |= IO_APIC_REDIR_LEVEL;
	io_apic_write(IO_APIC_REDIR_TABLE(pin) + 1, (u32)cpu_apicid[0] << 24);
	io_apic_write(IO_APIC_REDIR_TABLE(pin), low);
}
