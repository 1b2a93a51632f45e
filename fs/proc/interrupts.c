/*
 * /proc/interrupts in Linux's layout (kernel/irq/proc.c show_interrupts
 * and arch/x86/kernel/irq.c arch_show_interrupts): a header naming each
 * online CPU, then one line per kind of interrupt with its count on every
 * CPU.  foliOS shows the per-CPU counts of include/linux/hardirq.h only.
 */
#include "fs/proc/internal.h"
#include "linux/hardirq.h"

irq_cpustat_t irq_stat[NR_CPUS];

/* Linux's first-column width for fewer than 1000 IRQ numbers. */
#define IRQ_PREC 3

static const struct {
	const char *name;               /* what Linux calls the line */
	size_t offset;                  /* of the count in irq_cpustat_t */
	const char *desc;
} irq_lines[] = {
	{ "TLB", offsetof(irq_cpustat_t, irq_tlb_count), "TLB shootdowns" },
};

static int show_interrupts(struct seq_file *m, void *v)
{
	unsigned int cpu;

	seq_printf(m, "%*s", IRQ_PREC + 8, "");
	for_each_online_cpu(cpu)
		seq_printf(m, "CPU%-8u", cpu);
	seq_printf(m, "\n");
	for (size_t i = 0; i < ARRAY_SIZE(irq_lines); i++) {
		seq_printf(m, "%*s: ", IRQ_PREC, irq_lines[i].name);
		for_each_online_cpu(cpu)
			seq_printf(m, "%10u ", *(const unsigned int *)((const char *)&irq_stat[cpu] +
								    irq_lines[i].offset));
		seq_printf(m, "  %s\n", irq_lines[i].desc);
	}
	return 0;
}

const struct proc_dir_entry proc_interrupts = { "interrupts", show_interrupts };
