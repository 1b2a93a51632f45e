/* The ucontext a signal handler's third argument points to (x86-64). */
#ifndef _UAPI_ASM_X86_UCONTEXT_H
#define _UAPI_ASM_X86_UCONTEXT_H

#include "uapi/linux/signal.h"
#include "uapi/asm/sigcontext.h"

#define UC_FP_XSTATE            0x1     /* the FPU image is in XSAVE format */
#define UC_SIGCONTEXT_SS        0x2     /* sigcontext.ss is valid */
#define UC_STRICT_RESTORE_SS    0x4     /* sigreturn restores that ss */

struct ucontext {
	unsigned long uc_flags;
	struct ucontext *uc_link;
	stack_t uc_stack;
	struct sigcontext uc_mcontext;
	u64 uc_sigmask;                 /* last: later sets may grow */
};

#endif
