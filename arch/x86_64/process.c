/*
 * x86-64 side of tasks: the per-CPU area (GS base), SYSCALL MSRs, what a
 * switch must change (CR3, TSS.rsp0, the syscall stack, FS base), the
 * register frame a task starts user mode with, and fork's and exec's CPU
 * state (copy_thread, flush_thread); arch_prctl.
 *
 *   per-CPU area, %gs:offset in kernel mode (swapgs on every user entry):
 *     0  kernel_rsp   top of the current task's kernel stack (syscall entry)
 *     8  user_rsp     scratch: user rsp while the syscall entry switches stacks
 *    16  current      the running task
 *    24  cpu_number   smp_processor_id()
 *    28  preempt_count  <asm/preempt.h>
 *
 * Each CPU has its own area (percpu_area[cpu]); only that CPU writes it.
 */
#include "linux/entry-common.h"
#include "linux/errno.h"
#include "arch/x86_64/x86.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/mmu_context.h>
#include <asm/preempt.h>
#include "linux/sched.h"
#include "linux/smp.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "linux/pgtable.h"
#include "uapi/asm/prctl.h"
#include "uapi/linux/sched.h"

#define MSR_STAR            0xc0000081
#define MSR_LSTAR           0xc0000082
#define MSR_FMASK           0xc0000084
#define MSR_FS_BASE         0xc0000100
#define MSR_GS_BASE         0xc0000101
#define MSR_KERNEL_GS_BASE  0xc0000102
#define EFER_SCE            BIT(0)
#define RFLAGS_MASK_ON_SYSCALL (BIT(8) | BIT(9) | BIT(10) | BIT(18)) /* TF IF DF AC */

struct percpu {
	unsigned long kernel_rsp;
	unsigned long user_rsp;
	struct task_struct *curr;
	unsigned int cpu_number;
	int preempt_count;
} __attribute__((aligned(64)));         /* a cache line each: no false sharing */

struct percpu percpu_area[NR_CPUS];
_Static_assert(offsetof(struct percpu, curr) == PERCPU_CURR, "asm/current.h reads curr there");
_Static_assert(offsetof(struct percpu, cpu_number) == PERCPU_CPU_NUMBER,
	       "asm/smp.h reads cpu_number there");
_Static_assert(offsetof(struct percpu, preempt_count) == PERCPU_PREEMPT_COUNT,
	       "asm/preempt.h reads preempt_count there");
extern char syscall_entry[], ret_from_fork_asm[];

static struct percpu *this_cpu_area(void)
{
	return &percpu_area[smp_processor_id()];
}

/* Point this CPU's GS base at percpu_area[cpu] and set up SYSCALL (Linux's syscall_init). */
void percpu_init(unsigned int cpu)
{
	percpu_area[cpu].cpu_number = cpu;
	wrmsr(MSR_GS_BASE, (u64)&percpu_area[cpu]);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	wrmsr(MSR_STAR, ((u64)(USER_DS - 8) << 48) | ((u64)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (u64)syscall_entry);
	wrmsr(MSR_FMASK, RFLAGS_MASK_ON_SYSCALL);
	setup_getcpu(cpu);
}

/* The boot CPU's per-CPU area, before anything reads current. */
void arch_cpu_init(void)
{
	percpu_init(0);
}

void arch_set_current(struct task_struct *t)
{
	this_cpu_area()->curr = t;
}

/* Everything the CPU must know about the next task before it runs. */
void arch_switch_mm_and_stack(struct task_struct *next)
{
	unsigned long top = (unsigned long)next->kstack + KSTACK_SIZE;

	switch_mm_irqs_off(current->mm, next->mm);
	tss_set_rsp0(top);
	this_cpu_area()->kernel_rsp = top;
	wrmsr(MSR_FS_BASE, next->thread.fsbase);
	wrmsr(MSR_KERNEL_GS_BASE, next->thread.gsbase);      /* the user's, until swapgs */
	this_cpu_area()->curr = next;
}

/*
 * A new task's first run, from ret_from_fork_asm (Linux's ret_from_fork):
 * schedule_tail() finishes the switch from prev and stores the TID with
 * interrupts on; then a kernel thread runs its function (for ever), a
 * user task the return to user mode every system call makes (interrupts
 * off for good, a reschedule or signal asked for meanwhile taken, no lock
 * held), into the registers regs holds.
 */
void ret_from_fork(struct task_struct *prev, struct pt_regs *regs)
{
	schedule_tail(prev);
	if (unlikely(current->kthread_fn)) {
		current->kthread_fn(current->kthread_arg);
		panic("ret_from_fork: kernel thread %s returned", current->comm);
	}
	exit_to_user_mode_prepare(regs);
}

/* Point a new task's saved stack at ret_from_fork_asm above its pt_regs. */
void arch_prepare_new_stack(struct task_struct *t)
{
	unsigned long *sp = (unsigned long *)task_pt_regs(t);

	*--sp = (unsigned long)ret_from_fork_asm;
	for (int i = 0; i < 6; i++)             /* rbx rbp r12-r15 of __switch_to */
		*--sp = 0;
	t->sp = (unsigned long)sp;
}

/*
 * Fork's CPU side: the child p returns 0 from the same system call as
 * current, with current's TLS bases and a copy of its FPU registers.
 */
void copy_thread(struct task_struct *p, unsigned long clone_flags, unsigned long sp,
		 unsigned long tls)
{
	fpu_clone(p);
	*task_pt_regs(p) = *task_pt_regs(current);
	task_pt_regs(p)->rax = 0;
	if (sp)
		task_pt_regs(p)->rsp = sp;
	p->thread = current->thread;
	if (clone_flags & CLONE_SETTLS)
		p->thread.fsbase = tls;
}

/* Exec's CPU side: no TLS bases, FPU registers in their initial state. */
void flush_thread(void)
{
	current->thread.fsbase = current->thread.gsbase = 0;
	fpu_flush_thread();
}

/* Set up a register frame that enters user mode at ip with stack sp. */
void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp)
{
	memset(regs, 0, sizeof(*regs));
	regs->rip = ip;
	regs->rsp = sp;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->rflags = X86_EFLAGS_IF;
}

/*
 * ARCH_SET_FS / ARCH_SET_GS: a user address only (EPERM otherwise, as
 * Linux).  In the kernel the user's GS base sits in KERNEL_GS_BASE.
 */
static int set_base(bool gs, unsigned long addr)
{
	if (addr >= TASK_SIZE_MAX)
		return -EPERM;
	if (gs) {
		current->thread.gsbase = addr;
		wrmsr(MSR_KERNEL_GS_BASE, addr);
	} else {
		current->thread.fsbase = addr;
		wrmsr(MSR_FS_BASE, addr);
	}
	return 0;
}

/* arch_prctl(code, addr): set or read the user's FS and GS bases. */
long sys_arch_prctl(int code, unsigned long addr)
{
	switch (code) {
	case ARCH_SET_FS:
	case ARCH_SET_GS:
		return set_base(code == ARCH_SET_GS, addr);
	case ARCH_GET_FS:
		return copy_to_user((void *)addr, &current->thread.fsbase, 8) ? -EFAULT : 0;
	case ARCH_GET_GS:
		return copy_to_user((void *)addr, &current->thread.gsbase, 8) ? -EFAULT : 0;
	}
	return -EINVAL;
}
