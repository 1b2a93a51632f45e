/* Declarations private to arch/x86_64. */
#ifndef ARCH_X86_64_X86_H
#define ARCH_X86_64_X86_H

#include "linux/types.h"
#include <asm/ptrace.h>
#include <asm/pgtable.h>

#define KERNEL_CS   0x08
#define KERNEL_DS   0x10
#define USER_DS     0x1b
#define USER_CS     0x23
#define TSS_SEL     0x28

#define IRQ_BASE    32
#define IRQ_TIMER   0
#define IRQ_COM1    4
#define NR_VECTORS  48

void gdt_init(void);
void tss_set_rsp0(u64 rsp0);
void pic_init(void);
void pic_eoi(unsigned int irq);
void pic_unmask(unsigned int irq);
void uart_startup(void);
void uart_interrupt(void);
void timer_interrupt(void);
void do_page_fault(struct pt_regs *regs, unsigned long cr2);

extern pgent_t *init_pgd;

#endif
