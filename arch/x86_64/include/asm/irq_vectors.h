/*
 * The IDT's vectors (Linux's asm/irq_vectors.h):
 *
 *   0x00-0x1f  CPU exceptions
 *   0x20-0x2f  the legacy ISA IRQs 0-15, routed by the IOAPIC (ioapic.c)
 *   0x30-0x3f  PCI devices' MSI-X interrupts, one vector each (pci.c)
 *   0xec       the local APIC timer (apic.c): jiffies on CPU 0, every CPU's tick
 *   0xfc       call-function IPI (kernel/smp.c's queue)
 *   0xfd       reschedule IPI (scheduler_ipi)
 *   0xfe       local APIC error
 *   0xff       local APIC spurious interrupt (no EOI)
 */
#ifndef ASM_IRQ_VECTORS_H
#define ASM_IRQ_VECTORS_H

#define ISA_IRQ_VECTOR(irq)     (0x20 + (irq))
#define FIRST_DEVICE_VECTOR     0x30
#define NR_DEVICE_VECTORS       16
#define LOCAL_TIMER_VECTOR      0xec
#define CALL_FUNCTION_VECTOR    0xfc
#define RESCHEDULE_VECTOR       0xfd
#define ERROR_APIC_VECTOR       0xfe
#define SPURIOUS_APIC_VECTOR    0xff
#define NR_VECTORS              256

#endif
