/*
 * TLB shootdown and the switch of address spaces (Linux's
 * arch/x86/mm/tlb.c), without PCIDs: loading a CR3 flushes every user
 * translation, so only the CPU that has an mm loaded can cache it.
 *
 *   switch_mm_irqs_off(next)   sets this CPU in mm_cpumask(next), loads
 *                              its CR3; the bit in the old mm stays
 *   flush_tlb_mm_range(mm)     flushes here if mm is loaded here, then IPIs
 *                              the other CPUs of mm_cpumask(mm) and waits
 *   flush_tlb_func() there     flushes if it still has mm loaded, else
 *                              clears its bit (the lazy clearing of Linux)
 *
 * Lazy TLB: a context with no user mm (the idle task, a task in do_exit)
 * keeps the last mm loaded instead of switching to init_pgd, with an
 * mmgrab reference, so the mm's root table lives as long as this CPU may
 * walk it; the reference goes at the next switch to another mm (which may
 * free the mm there: mmdrop takes only the buddy's and kmalloc's irq-safe
 * locks).  A lazy CPU keeps its bit in mm_cpumask and gets every
 * shootdown of the mm (the simple always-IPI, not Linux's tlb_gen
 * skipping); it answers one by leaving the mm for init_pgd, as Linux's
 * does, so page tables freed under it are out of its paging-structure
 * caches before they are reused, and an exiting mm's last flush (the
 * fullmm gather of exit_mmap) takes its reference back.
 *
 * Locking: cpu_tlbstate[cpu] is written only by its CPU with interrupts
 * off (a switch or the IPI handler); mm_cpumask bits are atomic.
 */
#include <asm/tlbflush.h>
#include <asm/mmu_context.h>
#include <asm/cpu.h>
#include "arch/x86_64/x86.h"
#include "linux/hardirq.h"
#include "linux/sched/mm.h"
#include "linux/pgtable.h"

struct tlb_state {
	struct mm_struct *loaded_mm;    /* whose CR3 this CPU has; NULL: init_pgd's */
	bool is_lazy;                   /* loaded_mm kept for a context without mm */
};

static struct tlb_state cpu_tlbstate[NR_CPUS];

/* What to flush, for the CPUs of a shootdown (Linux's struct flush_tlb_info). */
struct flush_tlb_info {
	struct mm_struct *mm;
	unsigned long start, end;       /* end TLB_FLUSH_ALL: everything of mm */
	unsigned int stride_shift;
	bool freed_tables;
};

static inline void invlpg(unsigned long addr)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(addr) : "memory");
}

static void load_cr3(struct mm_struct *mm)
{
	write_cr3(__pa(mm ? (void *)mm->pgd : (void *)init_pgd));
}

/* A context without user mm starts: keep the loaded mm, pinned. */
static void enter_lazy_tlb(struct tlb_state *ts)
{
	if (ts->loaded_mm && !ts->is_lazy) {
		mmgrab(ts->loaded_mm);
		ts->is_lazy = true;
	}
}

/* This CPU leaves lazy mode: drop the reference that pinned loaded mm old. */
static void leave_lazy_tlb(struct tlb_state *ts, struct mm_struct *old)
{
	if (ts->is_lazy) {
		ts->is_lazy = false;
		mmdrop(old);
	}
}

void switch_mm_irqs_off(struct mm_struct *unused, struct mm_struct *next)
{
	unsigned int cpu = smp_processor_id();
	struct tlb_state *ts = &cpu_tlbstate[cpu];
	struct mm_struct *prev = ts->loaded_mm;

	if (!next) {
		enter_lazy_tlb(ts);
		return;
	}
	if (next != prev) {
		/* Before the CR3 load: a flusher that misses the bit changed the tables before it. */
		if (!cpumask_test_cpu(cpu, mm_cpumask(next)))
			cpumask_set_cpu(cpu, mm_cpumask(next));
		load_cr3(next);
		ts->loaded_mm = next;
	}
	leave_lazy_tlb(ts, prev);
}

void leave_mm(void)
{
	struct tlb_state *ts = &cpu_tlbstate[smp_processor_id()];
	struct mm_struct *prev = ts->loaded_mm;

	if (!ts->is_lazy)
		return;
	load_cr3(NULL);
	ts->loaded_mm = NULL;
	leave_lazy_tlb(ts, prev);
}

/*
 * Flush [start, end) from this CPU, which has the mm loaded: one invlpg
 * per 1 << stride_shift bytes up to the ceiling, else all of it (end
 * TLB_FLUSH_ALL too).  Each CPU applies the ceiling itself.
 */
static void flush_tlb_local(unsigned long start, unsigned long end, unsigned int stride_shift)
{
	if (end - start == 1UL << stride_shift) {       /* a fault's one page or PMD: no loop */
		invlpg(start);
		return;
	}
	if (end == TLB_FLUSH_ALL || (end - start) >> stride_shift > TLB_SINGLE_PAGE_FLUSH_CEILING) {
		write_cr3(read_cr3());
		return;
	}
	for (unsigned long addr = start; addr < end; addr += 1UL << stride_shift)
		invlpg(addr);
}

/* The shootdown IPI's work on a CPU in mm_cpumask(f->mm). */
static void flush_tlb_func(void *info)
{
	const struct flush_tlb_info *f = info;
	unsigned int cpu = smp_processor_id();

	inc_irq_stat(irq_tlb_count);
	if (f->mm != cpu_tlbstate[cpu].loaded_mm) {
		cpumask_clear_cpu(cpu, mm_cpumask(f->mm));      /* switched away: nothing cached */
		return;
	}
	if (cpu_tlbstate[cpu].is_lazy) {
		/*
		 * Nothing here uses the mm: leave it rather than flush (Linux's
		 * lazy CPU switches to init_mm), so the last reference to an
		 * exiting mm is not held by an idle CPU until it next switches.
		 */
		cpumask_clear_cpu(cpu, mm_cpumask(f->mm));
		leave_mm();
		return;
	}
	flush_tlb_local(f->start, f->end, f->stride_shift);
}

/* IPI the CPUs of mm_cpumask(f->mm) but this one and wait for them (Linux's flush_tlb_multi). */
static noinline_fn void flush_tlb_multi(const struct flush_tlb_info *f, unsigned int cpu)
{
	struct cpumask others;

	cpumask_copy(&others, mm_cpumask(f->mm));
	others.bits &= ~(1UL << cpu);
	if (!cpumask_empty(&others))
		smp_call_function_many(&others, flush_tlb_func, (void *)f, true);
}

/*
 * As Linux's, an mm no other CPU has in its mask costs no more than the
 * local flush and the look at the mask (a single-threaded process on one
 * CPU never builds the IPI's flush_tlb_info).
 */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			unsigned int stride_shift, bool freed_tables)
{
	unsigned int cpu = smp_processor_id();

	if (mm == cpu_tlbstate[cpu].loaded_mm)
		flush_tlb_local(start, end, stride_shift);
	/* The caller's PTE stores before the read of the mask (switch_mm_irqs_off's pair). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (unlikely(__atomic_load_n(&mm_cpumask(mm)->bits, __ATOMIC_RELAXED) & ~(1UL << cpu))) {
		struct flush_tlb_info info = { mm, start, end, stride_shift, freed_tables };

		flush_tlb_multi(&info, cpu);
	}
}

struct kernel_flush {
	unsigned long start, end;
};

/* A kernel range on this CPU: invlpg drops global entries too. */
static void do_kernel_range_flush(void *info)
{
	const struct kernel_flush *k = info;

	for (unsigned long addr = k->start; addr < k->end; addr += PAGE_SIZE)
		invlpg(addr);
}

/* Everything on this CPU, global entries too: toggle CR4.PGE. */
static void do_flush_tlb_all(void *info)
{
	unsigned long cr4 = read_cr4();

	write_cr4(cr4 & ~X86_CR4_PGE);
	write_cr4(cr4);
}

void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	struct kernel_flush k = { start, end };

	if ((end - start) >> PAGE_SHIFT > TLB_SINGLE_PAGE_FLUSH_CEILING)
		on_each_cpu_mask(cpu_online_mask, do_flush_tlb_all, NULL, true);
	else
		on_each_cpu_mask(cpu_online_mask, do_kernel_range_flush, &k, true);
}

void flush_tlb_all(void)
{
	on_each_cpu_mask(cpu_online_mask, do_flush_tlb_all, NULL, true);
}
