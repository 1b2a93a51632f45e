/*
 * Each task's FPU/SSE/AVX registers (Linux's struct fpu and struct fpstate,
 * arch/x86/include/asm/fpu/types.h).  The image is XSAVE's standard form,
 * or FXSAVE's 512 bytes where the CPU has no XSAVE (or "noxsave" is on the
 * command line).  It is switched eagerly: saved when a task leaves the CPU
 * and loaded when it comes back, with no #NM trap in between.
 */
#ifndef ASM_FPU_H
#define ASM_FPU_H

#include "linux/types.h"
#include <asm/ptrace.h>

#define XFEATURE_MASK_FP        BIT(0)          /* x87 */
#define XFEATURE_MASK_SSE       BIT(1)          /* xmm0-15, MXCSR */
#define XFEATURE_MASK_YMM       BIT(2)          /* AVX: upper halves of ymm0-15 */
#define MXCSR_DEFAULT           0x1f80          /* all exceptions masked, round to nearest */
#define FCW_DEFAULT             0x037f          /* the same for x87, 64-bit precision */

/* FXSAVE's image (64-bit form), also the start of XSAVE's. */
struct fxregs_state {
	u16 cwd, swd, twd, fop;
	u64 rip, rdp;
	u32 mxcsr, mxcsr_mask;
	u32 st_space[32];                       /* 8 x87 registers, 16 bytes each */
	u32 xmm_space[64];                      /* 16 xmm registers */
	u32 padding[24];
} __attribute__((aligned(16)));

struct xstate_header {
	u64 xfeatures;                          /* XSTATE_BV: components not in init state */
	u64 xcomp_bv;                           /* 0: standard form */
	u64 reserved[6];
};

/* XSAVE's image; the extended components (AVX…) follow the header. */
struct xregs_state {
	struct fxregs_state i387;
	struct xstate_header header;
} __attribute__((aligned(64)));

struct fpstate {
	unsigned int size;                      /* bytes of regs: CPUID 0xD, or 512 */
	u64 xfeatures;                          /* the components regs holds (XCR0) */
	union {
		struct fxregs_state fxsave;
		struct xregs_state xsave;
	} regs __attribute__((aligned(64)));    /* XSAVE faults unless 64-byte aligned */
};

/* NULL for the idle task, which never runs user code. */
struct fpu {
	struct fpstate *fpstate;
};

struct task_struct;

void fpu__init_system(const char *cmdline);
void fpu__init_cpu(void);
int fpstate_alloc(struct fpu *fpu);
void fpstate_free(struct fpu *fpu);
void fpu_clone(struct task_struct *dst);
void fpu_flush_thread(void);
void switch_fpu(struct task_struct *prev, struct task_struct *next);
void math_error(struct pt_regs *regs, unsigned long trapnr);
bool use_xsave(void);
unsigned long fpu__get_fpstate_size(void);
unsigned long fpu__alloc_mathframe(unsigned long sp, unsigned long *buf_fx, unsigned long *size);
bool copy_fpstate_to_sigframe(unsigned long buf_fx);
void fpu__clear_user_states(void);
bool fpu__restore_sig(unsigned long buf);

#endif
