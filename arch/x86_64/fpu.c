/*
 * The FPU, SSE and AVX registers of user tasks (Linux's arch/x86/kernel/fpu/
 * init.c, core.c and xstate.c, reduced to what one CPU and eager switching
 * need).
 *
 * Every task that runs user code owns a struct fpstate: XSAVE's standard
 * form for the components in XCR0 (x87, SSE, and AVX where the CPU has it;
 * the size comes from CPUID leaf 0xD), or FXSAVE's image where there is no
 * XSAVE.  While a task runs, its registers live in the CPU; switch_fpu()
 * saves them when it leaves and loads the next task's (Linux has switched
 * eagerly since 4.6: no CR0.TS, no #NM).  The kernel is compiled not to use
 * these registers (-mno-sse -mno-80387 ..., see the Makefile), so they hold
 * the user's values across system calls and interrupts; only this file
 * executes FPU instructions.
 */
#include "linux/errno.h"
#include <asm/arch.h>
#include <asm/cpu.h>
#include <asm/fpu.h>
#include <asm/trapnr.h>
#include "linux/sched.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "linux/panic.h"
#include "linux/signal.h"
#include "linux/cmdline.h"
#include "mm/mm.h"

#define X86_FEATURE_XSAVE       BIT(26)         /* CPUID.1:ECX */
#define X86_FEATURE_AVX         BIT(28)         /* CPUID.1:ECX */
#define XSTATE_CPUID            0xd

static bool use_xsave;
static u64 xfeatures_mask;                      /* what XCR0 enables */
static unsigned int fpu_kernel_size;            /* bytes of one task's image */

static inline void xsetbv(u32 index, u64 value)
{
	__asm__ __volatile__("xsetbv" : : "c"(index), "a"((u32)value), "d"((u32)(value >> 32)));
}

/*
 * Let this CPU run user FPU code: no emulation and no lazy trap (CR0.EM and
 * TS clear), MP so that WAIT honours TS, NE for native #MF reporting,
 * FXSAVE and #XM enabled (CR4.OSFXSR, OSXMMEXCPT), XSAVE and XCR0 where used.
 */
void fpu__init_cpu(void)
{
	unsigned long cr0 = read_cr0(), cr4 = read_cr4();

	cr4 |= X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT;
	cr4 = use_xsave ? cr4 | X86_CR4_OSXSAVE : cr4 & ~X86_CR4_OSXSAVE;
	write_cr4(cr4);
	cr0 &= ~(X86_CR0_TS | X86_CR0_EM);
	cr0 |= X86_CR0_MP | X86_CR0_NE;
	write_cr0(cr0);
	if (use_xsave)
		xsetbv(0, xfeatures_mask);
	__asm__ __volatile__("fninit");
}

/*
 * Boot: choose XSAVE or FXSAVE and the components, set up the CPU, and
 * size the per-task image.  "noxsave" on the command line forces FXSAVE,
 * as on Linux.
 */
void fpu__init_system(const char *cmdline)
{
	u32 a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	use_xsave = (c & X86_FEATURE_XSAVE) && !cmdline_has(cmdline, "noxsave");
	xfeatures_mask = XFEATURE_MASK_FP | XFEATURE_MASK_SSE;
	fpu_kernel_size = sizeof(struct fxregs_state);
	if (use_xsave) {
		u32 ecx1 = c;

		cpuid(XSTATE_CPUID, 0, &a, &b, &c, &d);
		if ((ecx1 & X86_FEATURE_AVX) && (a & XFEATURE_MASK_YMM))
			xfeatures_mask |= XFEATURE_MASK_YMM;
	}
	fpu__init_cpu();
	if (use_xsave) {
		cpuid(XSTATE_CPUID, 0, &a, &b, &c, &d);  /* EBX: size for XCR0 as set now */
		fpu_kernel_size = b;
		pr_info("x86/fpu: Enabled xstate features %#llx, context size is %u bytes, "
			"using 'standard' format.\n", (unsigned long long)xfeatures_mask,
			fpu_kernel_size);
	} else {
		pr_info("x86/fpu: x87 FPU will use FXSAVE\n");
	}
}

/* Linux's defaults for a new program: everything in its init state but the control words. */
static void fpstate_init_user(struct fpstate *fps)
{
	memset(&fps->regs, 0, fps->size);
	fps->regs.fxsave.cwd = FCW_DEFAULT;
	fps->regs.fxsave.mxcsr = MXCSR_DEFAULT;
	if (use_xsave)
		fps->regs.xsave.header.xfeatures = XFEATURE_MASK_FP | XFEATURE_MASK_SSE;
}

/*
 * Give a new task its register image, in the init state; 0, or -ENOMEM.
 * kmalloc's power-of-two classes align the 64-byte-aligned regs as XSAVE
 * requires.  fpstate_free() gives it back.
 */
int fpstate_alloc(struct fpu *fpu)
{
	struct fpstate *fps = kmalloc(offsetof(struct fpstate, regs) + fpu_kernel_size);

	if (!fps)
		return -ENOMEM;
	BUG_ON((unsigned long)&fps->regs & 63, "fpstate_alloc: XSAVE area not 64-byte aligned");
	fps->size = fpu_kernel_size;
	fps->xfeatures = xfeatures_mask;
	fpstate_init_user(fps);
	fpu->fpstate = fps;
	return 0;
}

void fpstate_free(struct fpu *fpu)
{
	kfree(fpu->fpstate);
	fpu->fpstate = NULL;
}

/* Store the CPU's FPU/SSE/AVX registers into fpu's image (they stay in the CPU too). */
static void save_fpregs_to_fpstate(struct fpu *fpu)
{
	struct fpstate *fps = fpu->fpstate;

	if (use_xsave)
		__asm__ __volatile__("xsave64 (%0)" : : "r"(&fps->regs), "a"((u32)fps->xfeatures),
				     "d"((u32)(fps->xfeatures >> 32)) : "memory");
	else
		__asm__ __volatile__("fxsave64 (%0)" : : "r"(&fps->regs) : "memory");
}

/* Load the CPU's FPU/SSE/AVX registers from fps. */
static void restore_fpregs_from_fpstate(const struct fpstate *fps)
{
	if (use_xsave)
		__asm__ __volatile__("xrstor64 (%0)" : : "r"(&fps->regs), "a"((u32)fps->xfeatures),
				     "d"((u32)(fps->xfeatures >> 32)) : "memory");
	else
		__asm__ __volatile__("fxrstor64 (%0)" : : "r"(&fps->regs) : "memory");
}

/*
 * The context switch's part: prev's registers to memory, next's from it.
 * Linux's switch_fpu() defers the load to the return to user mode
 * (TIF_NEED_FPU_LOAD); here it happens at once.  The idle task has no
 * image.  Interrupts off.
 */
void switch_fpu(struct task_struct *prev, struct task_struct *next)
{
	if (prev->fpu.fpstate)
		save_fpregs_to_fpstate(&prev->fpu);
	if (next->fpu.fpstate)
		restore_fpregs_from_fpstate(next->fpu.fpstate);
}

/* fork: the child starts with current's registers as they are now (MXCSR too). */
void fpu_clone(struct task_struct *dst)
{
	save_fpregs_to_fpstate(&dst->fpu);
}

/* execve: the new program starts with Linux's defaults (MXCSR 0x1f80, x87 CW 0x37f). */
void fpu_flush_thread(void)
{
	fpstate_init_user(current->fpu.fpstate);
	restore_fpregs_from_fpstate(current->fpu.fpstate);
}

/*
 * #MF (vector 16, x87) and #XM (19, SSE): an unmasked floating-point
 * exception.  User mode gets SIGFPE (Linux's math_error); the kernel
 * never computes in these registers, so one there is a bug.
 */
void math_error(struct pt_regs *regs, unsigned long trapnr)
{
	if (user_mode(regs))
		force_sig_fault(SIGFPE, regs->rip);
	panic_regs(regs, "math_error: %s exception in kernel mode",
		   trapnr == X86_TRAP_XF ? "SIMD floating-point (#XM)" : "x87 floating-point (#MF)");
}
