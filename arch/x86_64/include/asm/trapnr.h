/* The CPU exception vectors (Linux's asm/trapnr.h). */
#ifndef ASM_TRAPNR_H
#define ASM_TRAPNR_H

#define X86_TRAP_DE     0       /* divide error */
#define X86_TRAP_DB     1       /* debug */
#define X86_TRAP_NMI    2       /* non-maskable interrupt */
#define X86_TRAP_BP     3       /* breakpoint */
#define X86_TRAP_OF     4       /* overflow */
#define X86_TRAP_BR     5       /* bound range exceeded */
#define X86_TRAP_UD     6       /* invalid opcode */
#define X86_TRAP_NM     7       /* device not available */
#define X86_TRAP_DF     8       /* double fault */
#define X86_TRAP_OLD_MF 9       /* coprocessor segment overrun */
#define X86_TRAP_TS     10      /* invalid TSS */
#define X86_TRAP_NP     11      /* segment not present */
#define X86_TRAP_SS     12      /* stack-segment fault */
#define X86_TRAP_GP     13      /* general protection fault */
#define X86_TRAP_PF     14      /* page fault */
#define X86_TRAP_MF     16      /* x87 floating-point error */
#define X86_TRAP_AC     17      /* alignment check */
#define X86_TRAP_MC     18      /* machine check */
#define X86_TRAP_XF     19      /* SIMD floating-point error */

#endif
