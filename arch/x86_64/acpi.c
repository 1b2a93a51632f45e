/*
 * ACPI, as much as SMP needs (Linux's drivers/acpi/tables.c and
 * arch/x86/kernel/acpi/boot.c): the RSDP (GRUB hands a copy in a Multiboot2
 * tag), the RSDT or XSDT it points to, and in it the MADT ("APIC"): the
 * local APIC of every CPU, the IOAPIC, and the interrupt source overrides
 * that move ISA IRQs to other IOAPIC pins (QEMU: IRQ 0 -> GSI 2).
 *
 * Runs once at boot on the boot CPU; acpi_madt is read-only afterwards.
 */
#include "arch/x86_64/x86.h"
#include <asm/arch.h>
#include "linux/printk.h"
#include "linux/string.h"

struct acpi_table_rsdp {
	char signature[8];              /* "RSD PTR " */
	u8 checksum;
	char oem_id[6];
	u8 revision;                    /* 0: ACPI 1.0 (RSDT only), 2: has the XSDT */
	u32 rsdt_physical_address;
	u32 length;
	u64 xsdt_physical_address;
	u8 extended_checksum;
	u8 reserved[3];
} __attribute__((packed));

struct acpi_table_header {
	char signature[4];
	u32 length;                     /* of the whole table, header included */
	u8 revision, checksum;
	char oem_id[6], oem_table_id[8];
	u32 oem_revision, asl_compiler_id, asl_compiler_revision;
} __attribute__((packed));

struct acpi_table_madt {
	struct acpi_table_header header;
	u32 address;                    /* the local APICs' MMIO address */
	u32 flags;
} __attribute__((packed));

enum { ACPI_MADT_TYPE_LOCAL_APIC = 0, ACPI_MADT_TYPE_IO_APIC = 1,
       ACPI_MADT_TYPE_INTERRUPT_OVERRIDE = 2, ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE = 5 };
#define ACPI_MADT_ENABLED 1

struct acpi_subtable_header { u8 type, length; } __attribute__((packed));
struct acpi_madt_local_apic {
	struct acpi_subtable_header header;
	u8 processor_id, id;
	u32 lapic_flags;
} __attribute__((packed));
struct acpi_madt_io_apic {
	struct acpi_subtable_header header;
	u8 id, reserved;
	u32 address, global_irq_base;
} __attribute__((packed));
struct acpi_madt_interrupt_override {
	struct acpi_subtable_header header;
	u8 bus, source_irq;
	u32 global_irq;
	u16 inti_flags;
} __attribute__((packed));
struct acpi_madt_local_apic_override {
	struct acpi_subtable_header header;
	u16 reserved;
	u64 address;
} __attribute__((packed));

struct acpi_madt_info acpi_madt;

/* Map a firmware table at pa, header first, then its whole length. */
static const struct acpi_table_header *acpi_map_table(phys_addr_t pa)
{
	const struct acpi_table_header *h = ioremap_prot(pa, sizeof(*h), PAGE_KERNEL_RO);

	return ioremap_prot(pa, h->length, PAGE_KERNEL_RO);
}

static bool acpi_checksum_ok(const void *p, size_t len)
{
	u8 sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += ((const u8 *)p)[i];
	return sum == 0;
}

/* The table with this signature in the XSDT (8-byte entries) or RSDT (4-byte), or NULL. */
static const struct acpi_table_header *acpi_get_table(const struct acpi_table_rsdp *rsdp,
						      const char *sig)
{
	bool xsdt = rsdp->revision >= 2 && rsdp->xsdt_physical_address;
	const struct acpi_table_header *root =
		acpi_map_table(xsdt ? rsdp->xsdt_physical_address : rsdp->rsdt_physical_address);
	size_t size = xsdt ? 8 : 4, n = (root->length - sizeof(*root)) / size;
	const u8 *entries = (const u8 *)(root + 1);

	for (size_t i = 0; i < n; i++) {
		phys_addr_t pa = xsdt ? *(const u64 *)(entries + i * 8) :
					*(const u32 *)(entries + i * 4);
		const struct acpi_table_header *t = acpi_map_table(pa);

		if (!memcmp(t->signature, sig, 4) && acpi_checksum_ok(t, t->length))
			return t;
	}
	return NULL;
}

/* One MADT entry into acpi_madt (Linux's acpi_parse_lapic, _ioapic, _int_src_ovr). */
static void acpi_parse_madt_entry(const struct acpi_subtable_header *h)
{
	const struct acpi_madt_local_apic *lapic = (const void *)h;
	const struct acpi_madt_io_apic *ioapic = (const void *)h;
	const struct acpi_madt_interrupt_override *iso = (const void *)h;

	switch (h->type) {
	case ACPI_MADT_TYPE_LOCAL_APIC:
		if (!(lapic->lapic_flags & ACPI_MADT_ENABLED))
			return;
		if (acpi_madt.nr_lapics == NR_CPUS) {
			pr_warn("acpi: APIC ID %u: more than %d CPUs, ignored\n", lapic->id, NR_CPUS);
			return;
		}
		acpi_madt.lapic_id[acpi_madt.nr_lapics++] = lapic->id;
		return;
	case ACPI_MADT_TYPE_IO_APIC:
		if (acpi_madt.ioapic_addr)
			return;                 /* the first serves the ISA IRQs */
		acpi_madt.ioapic_addr = ioapic->address;
		acpi_madt.ioapic_gsi_base = ioapic->global_irq_base;
		return;
	case ACPI_MADT_TYPE_INTERRUPT_OVERRIDE:
		if (iso->bus == 0 && iso->source_irq < 16) {
			acpi_madt.isa_gsi[iso->source_irq] = iso->global_irq;
			acpi_madt.isa_flags[iso->source_irq] = iso->inti_flags;
		}
		return;
	case ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE:
		acpi_madt.lapic_addr = ((const struct acpi_madt_local_apic_override *)h)->address;
		return;
	}
}

/*
 * Find the MADT and fill acpi_madt.  foliOS needs the local APICs and an
 * IOAPIC (every PC since the 2000s, and QEMU, has them): without, it panics.
 */
void acpi_boot_init(void)
{
	const struct acpi_table_rsdp *rsdp = boot_info.acpi_rsdp;
	const struct acpi_table_madt *madt;
	const u8 *p, *end;

	if (!rsdp || memcmp(rsdp->signature, "RSD PTR ", 8) || !acpi_checksum_ok(rsdp, 20))
		panic("acpi_boot_init: no ACPI RSDP from the boot loader");
	madt = (const void *)acpi_get_table(rsdp, "APIC");
	if (!madt)
		panic("acpi_boot_init: no MADT");
	for (unsigned int irq = 0; irq < 16; irq++)
		acpi_madt.isa_gsi[irq] = irq;   /* identity, unless overridden */
	acpi_madt.lapic_addr = madt->address;
	p = (const u8 *)(madt + 1);
	end = (const u8 *)madt + madt->header.length;
	for (; p + 2 <= end && ((const struct acpi_subtable_header *)p)->length;
	     p += ((const struct acpi_subtable_header *)p)->length)
		acpi_parse_madt_entry((const void *)p);
	if (!acpi_madt.nr_lapics || !acpi_madt.ioapic_addr)
		panic("acpi_boot_init: the MADT lists no local APIC or no IOAPIC");
	pr_info("ACPI: MADT: %u CPUs, local APIC at %#lx, IOAPIC at %#lx (GSI %u-)\n",
		acpi_madt.nr_lapics, (unsigned long)acpi_madt.lapic_addr,
		(unsigned long)acpi_madt.ioapic_addr, acpi_madt.ioapic_gsi_base);
}
