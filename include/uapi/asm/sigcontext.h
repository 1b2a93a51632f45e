/*
 * The registers a signal frame saves (x86-64's uapi asm/sigcontext.h):
 * struct sigcontext, and the software-reserved bytes that mark an
 * XSAVE-format FPU image in the frame.
 */
#ifndef _UAPI_ASM_X86_SIGCONTEXT_H
#define _UAPI_ASM_X86_SIGCONTEXT_H

#include "linux/types.h"

#define FP_XSTATE_MAGIC1        0x46505853U     /* in _fpx_sw_bytes.magic1 */
#define FP_XSTATE_MAGIC2        0x46505845U     /* just after the XSAVE image */
#define FP_XSTATE_MAGIC2_SIZE   sizeof(u32)

/* Bytes 464..511 of the FXSAVE image, which the CPU leaves to software. */
struct _fpx_sw_bytes {
	u32 magic1;
	u32 extended_size;              /* the image plus FP_XSTATE_MAGIC2 */
	u64 xfeatures;                  /* the components in the image */
	u32 xstate_size;                /* the image without MAGIC2 */
	u32 padding[7];
};

struct sigcontext {
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip;
	u64 eflags;
	u16 cs, gs, fs, ss;
	u64 err, trapno, oldmask, cr2;
	u64 fpstate;                    /* user address of the FPU image, or 0 */
	u64 reserved1[8];
};

#endif
