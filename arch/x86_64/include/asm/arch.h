/* What kernel/ calls in arch/x86_64 (boot-time setup, console, power). */
#ifndef ASM_ARCH_H
#define ASM_ARCH_H

#include "linux/types.h"
#include <asm/ptrace.h>

#define HZ 100

struct boot_module {
	phys_addr_t start, end;
	const char *name;
};

struct boot_info {
	const char *cmdline;
	const void *acpi_rsdp;          /* the loader's copy of the ACPI RSDP, or NULL */
	unsigned int nr_modules;
	struct boot_module modules[8];
};

extern struct boot_info boot_info;
extern volatile unsigned long jiffies;
extern unsigned long tsc_khz;
extern bool cpu_has_smep, cpu_has_smap;

void uart_init(void);
void uart_putc(char c);
void uart_write(const char *s, size_t n);
void uart_write_raw(const char *s, size_t n);
void uart_flush(void);
void trap_init(void);
void multiboot_cmdline(unsigned long magic, unsigned long info_pa);
void multiboot_parse(unsigned long magic, unsigned long info_pa);
void mmu_init(void);
void mmu_early_done(void);
void cpu_features_init(void);
void acpi_boot_init(void);
void apic_intr_mode_init(void);
void uart_startup(void);
void timer_init(void);
void tsc_mark_boot(void);
u64 ktime_get_ns(void);
void vdso_init(void);
void setup_getcpu(unsigned int cpu);

/* Ends the QEMU run: status goes to the debug console for run-qemu.sh. */
__noreturn void arch_power_off(int status);
__noreturn void arch_panic_power_off(void);
void arch_backtrace(unsigned long rbp, unsigned long rip);
void arch_save_regs(struct pt_regs *regs);
void arch_crash_stack_overflow(void);
void arch_crash_divide(void);

#endif
