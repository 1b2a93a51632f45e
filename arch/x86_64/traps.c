/*
 * IDT and trap dispatch.  Vectors 0-31 are CPU exceptions, 32-47 the ISA
 * IRQs (through the IOAPIC), 0x30-0x3f PCI devices' MSI-X (pci.c), 0xec-0xff the local APIC's (asm/irq_vectors.h).
 * One IDT serves every CPU.  A CPU exception in kernel mode is a kernel bug
 * unless the faulting instruction has an exception-table fixup (asm/uaccess.h).
 *
 * Locks: every CPU takes its own traps, interrupts off until the handler
 * enables them; the tick's scheduler work takes run queue locks (irq-safe,
 * kernel/sched/core.c).  Order: mm/rmap.c.
 */
#include "linux/entry-common.h"
#include "linux/errno.h"
#include "arch/x86_64/x86.h"
#include "linux/mmap_lock.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/uaccess.h>
#include <asm/irqflags.h>
#include <asm/fpu.h>
#include <asm/trapnr.h>
#include <asm/trap_pf.h>
#include "linux/printk.h"
#include "linux/panic.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/smp.h"
#include "linux/uaccess.h"
#include "linux/mm.h"
#include "linux/oom.h"

struct idt_gate {
	u16 offset_lo, selector;
	u8 ist, type_attr;
	u16 offset_mid;
	u32 offset_hi, zero;
} __attribute__((packed));

static struct idt_gate idt[256];
extern const u64 trap_stubs[NR_VECTORS];

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow", "bound range",
	"invalid opcode", "device not available", "double fault",
	"coprocessor segment overrun", "invalid TSS", "segment not present",
	"stack-segment fault", "general protection fault", "page fault",
	"reserved 15", "x87 floating-point error", "alignment check",
	"machine check", "SIMD floating-point error", "virtualization exception",
	"control protection", "reserved 22", "reserved 23", "reserved 24",
	"reserved 25", "reserved 26", "reserved 27", "hypervisor injection",
	"VMM communication", "security exception", "reserved 31",
};

static void set_gate(int vec, u64 handler, u8 ist)
{
	idt[vec] = (struct idt_gate){
		.offset_lo = handler & 0xffff, .selector = KERNEL_CS, .ist = ist,
		.type_attr = 0x8e,      /* present, DPL 0, 64-bit interrupt gate */
		.offset_mid = (handler >> 16) & 0xffff, .offset_hi = handler >> 32,
	};
}

/* Point this CPU at the shared IDT. */
void load_current_idt(void)
{
	struct { u16 limit; u64 base; } __attribute__((packed)) idtr = { sizeof(idt) - 1, (u64)idt };

	__asm__ __volatile__("lidt %0" : : "m"(idtr));
}

/* The boot CPU's GDT and the IDT; the 8259s masked (the IOAPIC replaces them). */
void trap_init(void)
{
	gdt_init(0);
	for (int v = 0; v < NR_VECTORS; v++)
		set_gate(v, trap_stubs[v], v == X86_TRAP_DF ? 1 : 0);
	load_current_idt();
	mask_8259A();
}

/* Continue at the exception-table fixup of regs->rip, if it has one. */
static bool fixup_exception(struct pt_regs *regs)
{
	const struct exception_table_entry *e = search_exception_tables(regs->rip);

	if (!e)
		return false;
	regs->rip = e->fixup;
	return true;
}

/* Decode a page-fault error code (asm/trap_pf.h) into words. */
static int pf_error_decode(unsigned long ec, char *buf, size_t size)
{
	return snprintf(buf, size, "%s %s %s%s%s",
			ec & X86_PF_PROT ? "protection-violation" : "not-present",
			ec & X86_PF_WRITE ? "write" : "read",
			ec & X86_PF_USER ? "user" : "kernel",
			ec & X86_PF_RSVD ? " reserved-bit" : "",
			ec & X86_PF_INSTR ? " instruction-fetch" : "");
}

/*
 * Does vma forbid the access the error code describes (Linux's
 * access_error)?  A write wants VM_WRITE, an instruction fetch VM_EXEC,
 * a read any access (a PROT_NONE mapping allows none).
 */
static bool access_error(unsigned long error_code, const struct vm_area_struct *vma)
{
	if (error_code & X86_PF_WRITE)
		return !(vma->vm_flags & VM_WRITE);
	if (error_code & X86_PF_INSTR)
		return !(vma->vm_flags & VM_EXEC);
	return !(vma->vm_flags & VM_ACCESS_FLAGS);
}

/*
 * What the mm could not do, as do_user_addr_fault reports it (Linux's
 * mm_fault_error): out of memory is -ENOMEM (the OOM killer's, below), no
 * page behind a file mapping is SIGBUS, an entry no fault resolves SIGSEGV.
 */
static int mm_fault_error(vm_fault_t fault)
{
	if (fault & VM_FAULT_OOM)
		return -ENOMEM;
	if (fault & VM_FAULT_SIGBUS)
		return -ENXIO;
	return fault & VM_FAULT_SIGSEGV ? -EFAULT : 0;
}

/*
 * A fault on a user address, from user mode or from a uaccess copy: let
 * the mm resolve it (Linux's do_user_addr_fault).  0 if the access can be
 * retried; -EFAULT if nothing is mapped there (SEGV_MAPERR), -EACCES if
 * the mapping forbids the access (SEGV_ACCERR), -ENXIO if the mapped file
 * has no page there (SIGBUS, BUS_ADRERR), -ENOMEM from a uaccess copy.
 * Out of memory in a user-mode fault runs the OOM killer once the
 * mmap_lock is dropped (Linux's mm_fault_error): 0, the fault is retried
 * by the return to user mode — or current dies there, if it was chosen.
 */
static int do_user_addr_fault(struct pt_regs *regs, unsigned long addr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned int flags = 0;
	int ret;

	if (!mm || addr >= TASK_SIZE_MAX)
		return -EFAULT;
	if (regs->error_code & X86_PF_WRITE)
		flags |= FAULT_FLAG_WRITE;
	if (regs->error_code & X86_PF_INSTR)
		flags |= FAULT_FLAG_INSTRUCTION;
	if (user_mode(regs))
		flags |= FAULT_FLAG_USER;
	mmap_read_lock(mm);             /* Linux's lock_mm_and_find_vma */
	vma = find_vma(mm, addr);
	if (!vma || addr < vma->vm_start)
		ret = -EFAULT;          /* bad_area */
	else if (access_error(regs->error_code, vma))
		ret = -EACCES;          /* bad_area_access_error */
	else
		ret = mm_fault_error(handle_mm_fault(vma, addr, flags));
	mmap_read_unlock(mm);
	if (ret == -ENOMEM && user_mode(regs)) {
		pagefault_out_of_memory();
		return 0;
	}
	return ret;
}

/*
 * The protection ktest (arch/x86_64/ktest_protection.c) calls into a page
 * that must not be executable; an instruction fetch fault at exactly that
 * address returns to its caller instead of oopsing, and is counted.
 */
unsigned long exec_probe_addr;
int exec_probe_faults;

static bool exec_probe_fault(struct pt_regs *regs, unsigned long cr2)
{
	if (!exec_probe_addr || cr2 != exec_probe_addr || user_mode(regs) ||
	    !(regs->error_code & X86_PF_INSTR))
		return false;
	regs->rip = *(unsigned long *)regs->rsp;        /* the call's return address */
	regs->rsp += 8;
	exec_probe_faults++;
	return true;
}

/* A kernel access to a user page outside stac/clac: a bug, never resolved by the mm. */
static bool smap_violation(const struct pt_regs *regs, unsigned long cr2)
{
	return cpu_has_smap && cr2 < TASK_SIZE_MAX && !user_mode(regs) &&
	       !(regs->rflags & X86_EFLAGS_AC);
}

/* What a handler's sigcontext reports of a user-mode fault (Linux's set_signal_archinfo). */
static void set_signal_archinfo(const struct pt_regs *regs, unsigned long addr)
{
	current->thread.cr2 = addr;
	current->thread.trap_nr = regs->vector;
	current->thread.error_code = regs->error_code;
}

/* The signal a user-mode fault the mm could not resolve raises (Linux's do_sigbus, bad_area). */
static void user_fault_signal(const struct pt_regs *regs, unsigned long cr2, int ret)
{
	set_signal_archinfo(regs, cr2);
	if (ret == -ENXIO)
		force_sig_fault(SIGBUS, BUS_ADRERR, cr2);
	else
		force_sig_fault(SIGSEGV, ret == -EACCES ? SEGV_ACCERR : SEGV_MAPERR, cr2);
}

/*
 * May a uaccess copy's fault on a user address call the mm, which sleeps?
 * Not with page faults disabled: the caller asked for the fixup (Linux's
 * faulthandler_disabled()).  Nor under a spinlock or with interrupts off:
 * might_fault() should have caught that caller already; lockdep reports
 * it here too (interrupts are off in the handler, so might_sleep() always
 * does), and the copy fails rather than sleep.
 */
static bool uaccess_fault_may_sleep(const struct pt_regs *regs)
{
	if (!faulthandler_disabled() && (regs->rflags & X86_EFLAGS_IF))
		return true;
	if (!pagefault_disabled())
		might_sleep();
	return false;
}

/*
 * Page faults.  User addresses go to the mm; what it cannot resolve sends
 * a user task SIGSEGV (SIGBUS past the end of a mapped file; out of memory
 * is the OOM killer's), or makes a uaccess copy return -EFAULT.  A uaccess copy
 * with page faults disabled (pagefault_disable, linux/uaccess.h) goes to
 * its fixup without the mm.  User mode touching a kernel address gets
 * SIGSEGV.  Other kernel faults are fatal.
 * Never inlined: GDB's pfbreak helper stops here.
 */
noinline_fn void do_page_fault(struct pt_regs *regs, unsigned long cr2)
{
	char why[96];
	int ret;

	if (exec_probe_fault(regs, cr2))
		return;
	if (cr2 < TASK_SIZE_MAX && !smap_violation(regs, cr2) &&
	    (user_mode(regs) || (search_exception_tables(regs->rip) && uaccess_fault_may_sleep(regs)))) {
		if (regs->rflags & X86_EFLAGS_IF)
			local_irq_enable();
		ret = do_user_addr_fault(regs, cr2);
		local_irq_disable();
		if (!ret)
			return;
		if (user_mode(regs)) {
			user_fault_signal(regs, cr2, ret);
			return;
		}
	}
	if (user_mode(regs)) {          /* a kernel address from user mode */
		set_signal_archinfo(regs, cr2);
		force_sig_fault(SIGSEGV, SEGV_MAPERR, cr2);
		return;
	}
	if (fixup_exception(regs))
		return;
	pf_error_decode(regs->error_code, why, sizeof(why));
	pr_emerg("BUG: unable to handle page fault for address: %#lx\n", cr2);
	pr_emerg("#PF: error_code(%#lx) - %s\n", regs->error_code, why);
	panic_regs(regs, "page fault at %#lx in %s mode", cr2,
		   user_mode(regs) ? "user" : "kernel");
}

/*
 * An interrupt.  The local APIC timer ticks on every CPU: the boot CPU's
 * counts jiffies (wakes nanosleep, fires alarms).  The UART hands its bytes
 * to the tty; a PCI device's MSI-X vector runs its driver's handler
 * (pci.c); IPIs run queued cross-CPU calls or ask for a reschedule.  A
 * spurious interrupt gets no EOI; any other vector is unexpected.  The
 * handlers run in hardirq context (irq_enter: in_hardirq(), which lockdep's
 * IRQ-safety check reads).
 */
static void handle_irq_vector(unsigned long v)
{
	switch (v) {
	case LOCAL_TIMER_VECTOR:
		if (smp_processor_id() == 0) {
			timer_interrupt();
			wake_up_var((void *)&jiffies);          /* nanosleep, poll */
			run_itimers();                          /* alarm, setitimer */
		}
		return;
	case ISA_IRQ_VECTOR(IRQ_COM1):
		uart_interrupt();
		return;
	case CALL_FUNCTION_VECTOR:
		generic_smp_call_function_interrupt();
		return;
	case RESCHEDULE_VECTOR:
		scheduler_ipi();
		return;
	case SPURIOUS_APIC_VECTOR:
		return;
	}
	if (handle_device_irq(v))
		return;
	pr_warn("CPU %u: unexpected interrupt, vector %#lx\n", smp_processor_id(), v);
}

/*
 * After the handler (outside hardirq), every tick goes to the scheduler,
 * whether it interrupted user mode, a system call or the idle loop
 * (Linux's scheduler_tick): a task that lives in system calls is asked to
 * give way like any other, at its next return to user mode.
 */
static void handle_irq(struct pt_regs *regs, unsigned long v)
{
	if (v != SPURIOUS_APIC_VECTOR)
		apic_eoi();
	irq_enter();
	handle_irq_vector(v);
	irq_exit();
	if (v == LOCAL_TIMER_VECTOR)
		update_process_times(user_mode(regs));
}

/*
 * The signal a user-mode exception raises (Linux's, per vector), and its
 * si_code and si_addr: the faulting instruction, or none (SI_KERNEL).
 */
static void do_user_trap(struct pt_regs *regs, unsigned long v)
{
	set_signal_archinfo(regs, 0);
	switch (v) {
	case X86_TRAP_DE:
		force_sig_fault(SIGFPE, FPE_INTDIV, regs->rip);
		return;
	case X86_TRAP_UD:
		force_sig_fault(SIGILL, ILL_ILLOPN, regs->rip);
		return;
	case X86_TRAP_SS:
	case X86_TRAP_GP:
		force_sig_fault(SIGSEGV, SI_KERNEL, 0);
		return;
	case X86_TRAP_AC:
		force_sig_fault(SIGBUS, BUS_ADRALN, regs->rip);
		return;
	}
	force_sig_fault(SIGBUS, SI_KERNEL, 0);
}

/* A vector below 32: an exception. */
static void do_exception(struct pt_regs *regs, unsigned long v)
{
	if (v == X86_TRAP_PF) {
		do_page_fault(regs, read_cr2());
		return;
	}
	if (v == X86_TRAP_MF || v == X86_TRAP_XF) {
		math_error(regs, v);
		return;
	}
	if (user_mode(regs)) {
		do_user_trap(regs, v);
		return;
	}
	if (v != X86_TRAP_DF && fixup_exception(regs))
		return;
	panic_regs(regs, "%s (vector %lu, error code %#lx)", exception_names[v], v,
		   regs->error_code);
}

/*
 * Called by trap_common with interrupts off for every vector.  Back to
 * user mode, the signals the trap or an interrupt sent are taken (^C,
 * a fault's SIGSEGV).
 */
void trap_dispatch(struct pt_regs *regs)
{
	unsigned long v = regs->vector;

	if (v >= 32)
		handle_irq(regs, v);
	else
		do_exception(regs, v);
	if (user_mode(regs))
		exit_to_user_mode_prepare(regs);
}
