/* Declarations private to arch/x86_64. */
#ifndef ARCH_X86_64_X86_H
#define ARCH_X86_64_X86_H

#include "linux/types.h"
#include "linux/cpumask.h"
#include <asm/ptrace.h>
#include "linux/pgtable_types.h"
#include <asm/irq_vectors.h>

#define KERNEL_CS   0x08
#define KERNEL_DS   0x10
#define USER_DS     0x1b
#define USER_CS     0x23
#define TSS_SEL     0x28

#define IRQ_COM1    4

void gdt_init(unsigned int cpu);
void load_current_idt(void);
void tss_set_rsp0(u64 rsp0);
void percpu_init(unsigned int cpu);
void uart_interrupt(void);
void timer_interrupt(void);
void do_page_fault(struct pt_regs *regs, unsigned long cr2);
void *ioremap_prot(phys_addr_t pa, size_t size, pgprot_t prot);
void udelay(unsigned long us);

/* acpi.c: what the MADT says */
struct acpi_madt_info {
	unsigned int nr_lapics;
	u8 lapic_id[NR_CPUS];           /* the enabled CPUs' local APIC IDs, in MADT order */
	phys_addr_t lapic_addr, ioapic_addr;
	u32 ioapic_gsi_base;
	u32 isa_gsi[16];                /* interrupt source overrides: ISA IRQ -> GSI */
	u16 isa_flags[16];              /* their MPS INTI flags (polarity, trigger) */
};
extern struct acpi_madt_info acpi_madt;

/* apic.c: the local APIC */
void setup_local_APIC(void);
void apic_timer_count_start(void);
u32 apic_timer_count(void);
void setup_boot_APIC_clock(u32 period);
void setup_secondary_APIC_clock(void);
void apic_eoi(void);
u32 read_apic_id(void);
void apic_send_IPI(u32 apicid, u32 icr_low);
void apic_wait_icr_idle(void);

#define APIC_DM_FIXED           0x000
#define APIC_DM_INIT            0x500
#define APIC_DM_STARTUP         0x600
#define APIC_INT_ASSERT         0x4000
#define APIC_INT_LEVELTRIG      0x8000

/* smpboot.c */
extern u8 cpu_apicid[NR_CPUS];
void prefill_possible_map(u32 boot_apicid);

/* cpuinfo.c */
void identify_cpu(unsigned int cpu);

/* ioapic.c: the legacy 8259 masked, ISA IRQs through the IOAPIC */
void mask_8259A(void);
void setup_IO_APIC(void);
void ioapic_unmask_isa_irq(unsigned int irq);

/* pci.c: PCI devices' MSI-X vectors */
bool handle_device_irq(unsigned long v);

extern pgd_t *init_pgd;

#endif
