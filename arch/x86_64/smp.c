/*
 * Inter-processor interrupts (Linux's arch/x86/kernel/smp.c): each is a
 * fixed-delivery IPI to one CPU's local APIC at the vector that says what
 * it wants (asm/irq_vectors.h).  Any CPU may send, in any context.
 */
#include "arch/x86_64/x86.h"
#include "linux/smp.h"

/* Make cpu run its queued cross-CPU calls (kernel/smp.c). */
void arch_send_call_function_ipi(unsigned int cpu)
{
	apic_send_IPI(cpu_apicid[cpu], APIC_DM_FIXED | CALL_FUNCTION_VECTOR);
}

/* Ask cpu to reschedule: its handler calls scheduler_ipi(). */
void smp_send_reschedule(unsigned int cpu)
{
	apic_send_IPI(cpu_apicid[cpu], APIC_DM_FIXED | RESCHEDULE_VECTOR);
}
