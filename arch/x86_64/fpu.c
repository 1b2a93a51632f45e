/*
 * The FPU, SSE and AVX registers of user tasks (Linux's arch/x86/kernel/fpu/
 * init.c, core.c and xstate.c, reduced to eager switching).
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
 *
 * Locking: none needed.  Each CPU is set up by fpu__init_cpu() (the boot
 * CPU and every AP); a task's fpstate is touched only by the CPU running
 * it, by fork (the parent, copying its own) and by exec and signal
 * delivery (the task itself): never by two CPUs at once.
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
#include "linux/mm.h"
#include "linux/uaccess.h"
#include "uapi/asm/sigcontext.h"

#define X86_FEATURE_XSAVE       BIT(26)         /* CPUID.1:ECX */
#define X86_FEATURE_AVX         BIT(28)         /* CPUID.1:ECX */
#define XSTATE_CPUID            0xd

static bool xsave_enabled;                     /* use_xsave() */
static u32 mxcsr_feature_mask;                  /* MXCSR bits the CPU accepts */
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
	cr4 = xsave_enabled ? cr4 | X86_CR4_OSXSAVE : cr4 & ~X86_CR4_OSXSAVE;
	write_cr4(cr4);
	cr0 &= ~(X86_CR0_TS | X86_CR0_EM);
	cr0 |= X86_CR0_MP | X86_CR0_NE;
	write_cr0(cr0);
	if (xsave_enabled)
		xsetbv(0, xfeatures_mask);
	__asm__ __volatile__("fninit");
}

/* Is the FPU image in XSAVE's format (Linux's use_xsave())? */
bool use_xsave(void)
{
	return xsave_enabled;
}

/*
 * The MXCSR bits FXRSTOR/XRSTOR accept (Linux's mxcsr_feature_mask_init):
 * FXSAVE reports them, 0 meaning the old default 0xffbf.  A signal
 * frame's MXCSR must stay within them.
 */
static void mxcsr_feature_mask_init(void)
{
	static struct fxregs_state fx;

	__asm__ __volatile__("fxsave64 %0" : "=m"(fx));
	mxcsr_feature_mask = fx.mxcsr_mask ? fx.mxcsr_mask : 0xffbf;
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
	xsave_enabled = (c & X86_FEATURE_XSAVE) && !cmdline_has(cmdline, "noxsave");
	xfeatures_mask = XFEATURE_MASK_FP | XFEATURE_MASK_SSE;
	fpu_kernel_size = sizeof(struct fxregs_state);
	if (xsave_enabled) {
		u32 ecx1 = c;

		cpuid(XSTATE_CPUID, 0, &a, &b, &c, &d);
		if ((ecx1 & X86_FEATURE_AVX) && (a & XFEATURE_MASK_YMM))
			xfeatures_mask |= XFEATURE_MASK_YMM;
	}
	fpu__init_cpu();
	mxcsr_feature_mask_init();
	if (xsave_enabled) {
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
	if (xsave_enabled)
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

	if (xsave_enabled)
		__asm__ __volatile__("xsave64 (%0)" : : "r"(&fps->regs), "a"((u32)fps->xfeatures),
				     "d"((u32)(fps->xfeatures >> 32)) : "memory");
	else
		__asm__ __volatile__("fxsave64 (%0)" : : "r"(&fps->regs) : "memory");
}

/* Load the CPU's FPU/SSE/AVX registers from fps. */
static void restore_fpregs_from_fpstate(const struct fpstate *fps)
{
	if (xsave_enabled)
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
 * SIGFPE's si_code for an #XM or #MF (Linux's fpu__exception_code): the
 * first of invalid, divide-by-zero, overflow, underflow (or denormal),
 * precision among the flagged exceptions that are not masked; 0 if none.
 */
static int fpu__exception_code(unsigned long trapnr)
{
	u32 err;

	if (trapnr == X86_TRAP_XF) {
		u32 mxcsr;

		__asm__ __volatile__("stmxcsr %0" : "=m"(mxcsr));
		err = ~(mxcsr >> 7) & mxcsr;
	} else {
		u16 cwd, swd;

		__asm__ __volatile__("fnstcw %0; fnstsw %1" : "=m"(cwd), "=m"(swd));
		err = swd & ~cwd;
	}
	if (err & 0x001)
		return FPE_FLTINV;
	if (err & 0x004)
		return FPE_FLTDIV;
	if (err & 0x008)
		return FPE_FLTOVF;
	if (err & 0x012)
		return FPE_FLTUND;
	return err & 0x020 ? FPE_FLTRES : 0;
}

/*
 * #MF (vector 16, x87) and #XM (19, SSE): an unmasked floating-point
 * exception.  User mode gets SIGFPE (Linux's math_error); the kernel
 * never computes in these registers, so one there is a bug.
 */
void math_error(struct pt_regs *regs, unsigned long trapnr)
{
	if (user_mode(regs)) {
		current->thread.trap_nr = trapnr;
		current->thread.error_code = 0;
		force_sig_fault(SIGFPE, fpu__exception_code(trapnr), regs->rip);
		return;
	}
	panic_regs(regs, "math_error: %s exception in kernel mode",
		   trapnr == X86_TRAP_XF ? "SIMD floating-point (#XM)" : "x87 floating-point (#MF)");
}

/*
 * Signal frames (Linux's arch/x86/kernel/fpu/signal.c).  A frame holds the
 * registers as XSAVE (or FXSAVE) stores them, 64-byte aligned; with XSAVE
 * the FXSAVE part's software bytes 464..511 carry FP_XSTATE_MAGIC1 and
 * the sizes, and FP_XSTATE_MAGIC2 follows the image, so that sigreturn
 * can tell a whole XSAVE image from a legacy 512-byte one.
 */
#define FX_SW_BYTES_OFFSET      464
#define XSAVE_MIN_SIZE          (sizeof(struct fxregs_state) + sizeof(struct xstate_header))

static struct _fpx_sw_bytes *fx_sw_bytes(struct fpstate *fps)
{
	return (struct _fpx_sw_bytes *)((char *)&fps->regs.fxsave + FX_SW_BYTES_OFFSET);
}

/* The size of a signal frame's FPU image (Linux's fpu__get_fpstate_size). */
unsigned long fpu__get_fpstate_size(void)
{
	return xsave_enabled ? fpu_kernel_size + FP_XSTATE_MAGIC2_SIZE : sizeof(struct fxregs_state);
}

/* The frame's FPU image below sp: its 64-byte aligned start, its size; the new sp. */
unsigned long fpu__alloc_mathframe(unsigned long sp, unsigned long *buf_fx, unsigned long *size)
{
	*size = fpu__get_fpstate_size();
	sp = (sp - *size) & ~63UL;
	*buf_fx = sp;
	return sp;
}

/*
 * Store the user's FPU registers at buf_fx in a signal frame (Linux's
 * copy_fpstate_to_sigframe).  true, or false if the frame cannot be written.
 */
bool copy_fpstate_to_sigframe(unsigned long buf_fx)
{
	struct fpstate *fps = current->fpu.fpstate;
	const u32 magic2 = FP_XSTATE_MAGIC2;

	save_fpregs_to_fpstate(&current->fpu);
	if (xsave_enabled) {
		*fx_sw_bytes(fps) = (struct _fpx_sw_bytes){
			.magic1 = FP_XSTATE_MAGIC1, .xfeatures = fps->xfeatures,
			.extended_size = fps->size + FP_XSTATE_MAGIC2_SIZE, .xstate_size = fps->size,
		};
		fps->regs.xsave.header.xfeatures |= XFEATURE_MASK_FP | XFEATURE_MASK_SSE;
	}
	if (copy_to_user((void *)buf_fx, &fps->regs, fps->size))
		return false;
	return !xsave_enabled || !copy_to_user((void *)(buf_fx + fps->size), &magic2, sizeof(magic2));
}

/* A handler starts with the FPU in its init state (Linux's fpu__clear_user_states). */
void fpu__clear_user_states(void)
{
	fpstate_init_user(current->fpu.fpstate);
	restore_fpregs_from_fpstate(current->fpu.fpstate);
}

/*
 * Is the frame at buf a whole XSAVE image (Linux's check_xstate_in_sigframe)?
 * Its software bytes sw must say so, with a size this CPU can take and
 * FP_XSTATE_MAGIC2 after it.
 */
static bool check_xstate_in_sigframe(unsigned long buf, const struct _fpx_sw_bytes *sw)
{
	u32 magic2;

	if (sw->magic1 != FP_XSTATE_MAGIC1 || sw->xstate_size < XSAVE_MIN_SIZE ||
	    sw->xstate_size > fpu_kernel_size ||
	    sw->extended_size < sw->xstate_size + FP_XSTATE_MAGIC2_SIZE)
		return false;
	return !copy_from_user(&magic2, (void *)(buf + sw->xstate_size), sizeof(magic2)) &&
	       magic2 == FP_XSTATE_MAGIC2;
}

/*
 * Complete the image whose FXSAVE part is in fps from the frame at buf:
 * the rest of an XSAVE image, or, for a legacy one, the extended
 * components in their init state.  false for a header XRSTOR would refuse.
 */
static bool fpstate_from_sigframe(struct fpstate *fps, unsigned long buf)
{
	struct _fpx_sw_bytes sw = *fx_sw_bytes(fps);
	struct xstate_header *hdr = &fps->regs.xsave.header;
	u64 keep = XFEATURE_MASK_FP | XFEATURE_MASK_SSE;

	if (!(buf & 63) && check_xstate_in_sigframe(buf, &sw)) {
		memset((char *)&fps->regs + sizeof(struct fxregs_state), 0,
		       fps->size - sizeof(struct fxregs_state));
		if (copy_from_user(hdr, (void *)(buf + sizeof(struct fxregs_state)),
				   sw.xstate_size - sizeof(struct fxregs_state)))
			return false;
		if (hdr->xcomp_bv || hdr->reserved[0])
			return false;
		keep = sw.xfeatures & fps->xfeatures;
		hdr->xfeatures &= keep;
		return true;
	}
	memset(hdr, 0, sizeof(*hdr));
	hdr->xfeatures = keep;
	return true;
}

/*
 * rt_sigreturn: load the user's FPU registers from the frame's image at
 * buf (Linux's fpu__restore_sig); buf 0 means the init state.  false if
 * the image cannot be read or would fault XRSTOR/FXRSTOR (the caller
 * sends SIGSEGV); the registers are then unchanged.
 */
bool fpu__restore_sig(unsigned long buf)
{
	struct fpstate *fps = current->fpu.fpstate;

	if (!buf) {
		fpu__clear_user_states();
		return true;
	}
	if (copy_from_user(&fps->regs.fxsave, (void *)buf, sizeof(struct fxregs_state)))
		return false;
	if (fps->regs.fxsave.mxcsr & ~mxcsr_feature_mask)
		return false;
	if (xsave_enabled && !fpstate_from_sigframe(fps, buf))
		return false;
	restore_fpregs_from_fpstate(fps);
	return true;
}
