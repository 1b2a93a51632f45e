/*
 * Signal frames on x86-64 (Linux's arch/x86/kernel/signal.c and
 * signal_64.c).  A handler is entered with this on its stack, below the
 * interrupted stack pointer less the 128-byte red zone (or at the top of
 * the alternate stack for SA_ONSTACK):
 *
 *   [FPU image, 64-byte aligned]   XSAVE (+ FP_XSTATE_MAGIC2) or FXSAVE
 *   struct rt_sigframe             rsp at entry: rsp + 8 is 16-byte aligned
 *     pretcode                     sa_restorer, where the handler returns
 *     struct ucontext uc           registers, mask, alternate stack
 *     siginfo_t info
 *
 * rdi = sig, rsi = &info, rdx = &uc.  The restorer calls rt_sigreturn,
 * which loads everything back from the frame — only what user mode may
 * hold: CS and SS are the user's, RFLAGS keeps IF and IOPL, RIP is a
 * user address.  A frame that cannot be written or read gets SIGSEGV.
 */
#include "linux/errno.h"
#include "linux/sched.h"
#include "linux/rseq.h"
#include "linux/signal.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "arch/x86_64/x86.h"
#include <asm/cpu.h>
#include <asm/fpu.h>
#include <asm/page.h>
#include <asm/syscall.h>
#include "uapi/asm/ucontext.h"
#include "uapi/asm/unistd_64.h"

#define X86_EFLAGS_CF   BIT(0)
#define X86_EFLAGS_PF   BIT(2)
#define X86_EFLAGS_AF   BIT(4)
#define X86_EFLAGS_ZF   BIT(6)
#define X86_EFLAGS_SF   BIT(7)
#define X86_EFLAGS_TF   BIT(8)
#define X86_EFLAGS_DF   BIT(10)
#define X86_EFLAGS_OF   BIT(11)
#define X86_EFLAGS_RF   BIT(16)
/* The RFLAGS bits a frame may change (Linux's FIX_EFLAGS): no IF, IOPL, NT, VM... */
#define FIX_EFLAGS (X86_EFLAGS_AC | X86_EFLAGS_OF | X86_EFLAGS_DF | X86_EFLAGS_TF | \
		    X86_EFLAGS_SF | X86_EFLAGS_ZF | X86_EFLAGS_AF | X86_EFLAGS_PF | \
		    X86_EFLAGS_CF | X86_EFLAGS_RF)
#define RED_ZONE        128     /* below rsp, the SysV ABI's leaf functions' scratch */

struct rt_sigframe {
	unsigned long pretcode;
	struct ucontext uc;
	siginfo_t info;
};

unsigned long current_user_stack_pointer(void)
{
	return task_pt_regs(current)->rsp;
}

/* The registers, fault details and old mask, as the frame keeps them. */
static void setup_sigcontext(struct sigcontext *sc, const struct pt_regs *regs,
			     unsigned long fpstate, sigset_t mask)
{
	*sc = (struct sigcontext){
		.r8 = regs->r8, .r9 = regs->r9, .r10 = regs->r10, .r11 = regs->r11,
		.r12 = regs->r12, .r13 = regs->r13, .r14 = regs->r14, .r15 = regs->r15,
		.rdi = regs->rdi, .rsi = regs->rsi, .rbp = regs->rbp, .rbx = regs->rbx,
		.rdx = regs->rdx, .rax = regs->rax, .rcx = regs->rcx, .rsp = regs->rsp,
		.rip = regs->rip, .eflags = regs->rflags, .cs = regs->cs, .ss = regs->ss,
		.err = current->thread.error_code, .trapno = current->thread.trap_nr,
		.oldmask = mask, .cr2 = current->thread.cr2, .fpstate = fpstate,
	};
}

/*
 * Where the frame goes (Linux's get_sigframe): below the red zone or on
 * the alternate stack, the FPU image 64-byte aligned under it, the frame
 * below that so that rsp + 8 is 16-byte aligned as after a call.  Saves
 * the FPU registers there.  0 if the alternate stack would overflow or
 * the image cannot be written.
 */
static unsigned long get_sigframe(struct ksignal *ksig, const struct pt_regs *regs,
				  size_t frame_size, unsigned long *fpstate)
{
	unsigned long sp = sigsp(regs->rsp - RED_ZONE, ksig), math_size, buf_fx;
	bool onsigstack = on_sig_stack(sp);

	sp = fpu__alloc_mathframe(sp, &buf_fx, &math_size);
	*fpstate = buf_fx;
	sp = ((sp - frame_size) & ~15UL) - 8;
	if (sp >= TASK_SIZE_MAX || (onsigstack && !on_sig_stack(sp)))
		return 0;
	return copy_fpstate_to_sigframe(buf_fx) ? sp : 0;
}

/*
 * The most a signal frame can take of a stack (Linux's init_sigframe_size,
 * AT_MINSIGSTKSZ): the frame, the FPU image, and what aligning each may
 * skip (15 bytes below the frame, 63 below the image).
 */
unsigned long get_sigframe_size(void)
{
	return ALIGN_UP(sizeof(struct rt_sigframe) + 15 + fpu__get_fpstate_size() + 63, 16);
}

/*
 * Build ksig's frame for the interrupted user state in regs and point
 * regs at the handler (Linux's x64_setup_rt_frame).  x86-64 requires
 * SA_RESTORER.  0, or -EFAULT.
 */
static int setup_rt_frame(struct ksignal *ksig, struct pt_regs *regs)
{
	struct rt_sigframe frame = { .pretcode = ksig->ka.restorer };
	struct rt_sigframe *uframe;
	sigset_t set = sigmask_to_save();
	unsigned long fp;

	if (!(ksig->ka.flags & SA_RESTORER) || ksig->ka.handler >= TASK_SIZE_MAX)
		return -EFAULT;
	uframe = (struct rt_sigframe *)get_sigframe(ksig, regs, sizeof(frame), &fp);
	if (!uframe)
		return -EFAULT;
	frame.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS |
			    (use_xsave() ? UC_FP_XSTATE : 0);
	setup_sigcontext(&frame.uc.uc_mcontext, regs, fp, set);
	frame.uc.uc_sigmask = set;
	if (ksig->ka.flags & SA_SIGINFO)
		frame.info = ksig->info;
	if (copy_to_user(uframe, &frame, sizeof(frame)) ||
	    __save_altstack(&uframe->uc.uc_stack, regs->rsp))
		return -EFAULT;
	regs->rdi = ksig->sig;
	regs->rax = 0;
	regs->rsi = (unsigned long)&uframe->info;
	regs->rdx = (unsigned long)&uframe->uc;
	regs->rip = ksig->ka.handler;
	regs->rsp = (unsigned long)uframe;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->rflags &= ~(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
	return 0;
}

/* Back up to the SYSCALL instruction so that it runs again with rax = nr. */
static void restart_syscall_insn(struct pt_regs *regs, unsigned long nr)
{
	regs->rax = nr;
	regs->rip -= 2;
}

/*
 * An interrupted call meets a handler (Linux's handle_signal): -EINTR, or
 * a restart after the handler for -ERESTARTSYS with SA_RESTART and for
 * -ERESTARTNOINTR.  Then the frame; the handler runs with the FPU in its
 * init state.  A frame that cannot be built kills with SIGSEGV (Linux's
 * force_sigsegv: a SIGSEGV handler that failed is reset first).
 */
static void handle_signal(struct ksignal *ksig, struct pt_regs *regs)
{
	if (syscall_needs_restart(regs)) {
		long ret = regs->rax;

		if (ret == -ERESTARTNOINTR || (ret == -ERESTARTSYS && (ksig->ka.flags & SA_RESTART)))
			restart_syscall_insn(regs, syscall_get_nr(current, regs));
		else
			regs->rax = -EINTR;
	}
	if (rseq_signal_deliver(regs) || setup_rt_frame(ksig, regs)) {
		if (ksig->sig == SIGSEGV)
			current->sighand->action[SIGSEGV - 1].handler = SIG_DFL;
		force_sig_fault(SIGSEGV, SI_KERNEL, 0);
		return;
	}
	fpu__clear_user_states();
	signal_delivered(ksig);
}

/*
 * On the way back to user mode with work to do (Linux's
 * arch_do_signal_or_restart): run the next handler, or, with none, restart
 * an interrupted call and put back a mask sigsuspend replaced.
 */
void arch_do_signal_or_restart(struct pt_regs *regs)
{
	struct ksignal ksig;

	if (get_signal(&ksig)) {
		handle_signal(&ksig, regs);
		return;
	}
	if (syscall_needs_restart(regs)) {
		if (regs->rax == (u64)-ERESTART_RESTARTBLOCK)
			restart_syscall_insn(regs, __NR_restart_syscall);
		else
			restart_syscall_insn(regs, syscall_get_nr(current, regs));
	}
	restore_saved_sigmask();
}

/*
 * The frame's registers back into regs (Linux's restore_sigcontext), with
 * user CS/SS and only the FIX_EFLAGS bits of RFLAGS taken; a RIP outside
 * user space is refused (false).  No restart check follows: orig_ax = -1.
 */
static bool restore_sigcontext(struct pt_regs *regs, const struct sigcontext *sc)
{
	if (sc->rip >= TASK_SIZE_MAX)
		return false;
	regs->r8 = sc->r8, regs->r9 = sc->r9, regs->r10 = sc->r10, regs->r11 = sc->r11;
	regs->r12 = sc->r12, regs->r13 = sc->r13, regs->r14 = sc->r14, regs->r15 = sc->r15;
	regs->rdi = sc->rdi, regs->rsi = sc->rsi, regs->rbp = sc->rbp, regs->rbx = sc->rbx;
	regs->rdx = sc->rdx, regs->rax = sc->rax, regs->rcx = sc->rcx, regs->rsp = sc->rsp;
	regs->rip = sc->rip;
	regs->rflags = (regs->rflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS);
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->error_code = (u64)-1;
	return fpu__restore_sig(sc->fpstate);
}

/*
 * rt_sigreturn: the handler returned through its restorer, rsp just above
 * pretcode.  Restores registers, mask and alternate stack from the frame
 * and returns the restored rax; a bad frame gets SIGSEGV.
 */
long sys_rt_sigreturn(void)
{
	struct pt_regs *regs = task_pt_regs(current);
	struct rt_sigframe *uframe = (struct rt_sigframe *)(regs->rsp - sizeof(long));
	struct rt_sigframe frame;

	if (copy_from_user(&frame, uframe, sizeof(frame)))
		goto badframe;
	set_current_blocked(frame.uc.uc_sigmask);
	if (!restore_sigcontext(regs, &frame.uc.uc_mcontext) ||
	    restore_altstack(&uframe->uc.uc_stack))
		goto badframe;
	return regs->rax;
badframe:
	force_sig_fault(SIGSEGV, SI_KERNEL, 0);
	return 0;
}
