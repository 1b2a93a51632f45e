/*
 * GDT and TSS.  Selector layout (fixed by SYSCALL/SYSRET for user space):
 *
 *   0x00 null   0x08 kernel code   0x10 kernel data
 *   0x18 user data (0x1b)   0x20 user code (0x23)   0x28 TSS (16 bytes)
 *
 * The TSS holds the stacks the CPU switches to: rsp0 for traps from user
 * mode, and IST1, the double-fault stack, so a kernel stack overflow still
 * reaches a handler that can report it.
 *
 * Each CPU has its own GDT, TSS and double-fault stack (a TSS is marked
 * busy by ltr, and rsp0 is the task running on that CPU); the IDT is shared.
 */
#include "arch/x86_64/x86.h"
#include "linux/smp.h"
#include "linux/string.h"

struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iopb_offset;
} __attribute__((packed));

static u64 gdt_page[NR_CPUS][7];
static struct tss cpu_tss[NR_CPUS];
static u8 df_stack[NR_CPUS][8192] __attribute__((aligned(16)));

static u64 seg_desc(u32 access, u32 flags)
{
	return 0xffffULL | ((u64)access << 40) | ((u64)flags << 52) | (0xfULL << 48);
}

/* Load CPU cpu's GDT and TSS (at boot, on that CPU). */
void gdt_init(unsigned int cpu)
{
	u64 *gdt = gdt_page[cpu];
	struct tss *tss = &cpu_tss[cpu];
	u64 base = (u64)tss, limit = sizeof(*tss) - 1;
	struct { u16 limit; u64 base; } __attribute__((packed)) gdtr = { sizeof(gdt_page[0]) - 1,
									 (u64)gdt };

	gdt[1] = seg_desc(0x9a, 0xa);       /* kernel code: P, DPL0, exec/read; L */
	gdt[2] = seg_desc(0x92, 0xc);       /* kernel data */
	gdt[3] = seg_desc(0xf2, 0xc);       /* user data: DPL3 */
	gdt[4] = seg_desc(0xfa, 0xa);       /* user code: DPL3, L */
	gdt[5] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ULL << 40) |
		 (((base >> 24) & 0xff) << 56);
	gdt[6] = base >> 32;
	tss->ist[0] = (u64)df_stack[cpu] + sizeof(df_stack[0]);
	tss->iopb_offset = sizeof(*tss);
	__asm__ __volatile__(
		"lgdt %0\n"
		"mov %1, %%ds\n mov %1, %%es\n mov %1, %%ss\n"
		"xor %%eax, %%eax\n mov %%eax, %%fs\n mov %%eax, %%gs\n"
		"pushq %2\n leaq 1f(%%rip), %%rax\n pushq %%rax\n lretq\n"
		"1:\n"
		"ltr %w3\n"
		: : "m"(gdtr), "r"((u64)KERNEL_DS), "i"(KERNEL_CS), "r"(TSS_SEL) : "rax", "memory");
}

/* The stack this CPU loads on a trap from user mode. */
void tss_set_rsp0(u64 rsp0)
{
	cpu_tss[smp_processor_id()].rsp[0] = rsp0;
}
