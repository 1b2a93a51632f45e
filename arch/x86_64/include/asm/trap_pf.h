/* The bits of the page-fault error code (Linux's asm/trap_pf.h). */
#ifndef ASM_TRAP_PF_H
#define ASM_TRAP_PF_H

#include "linux/types.h"

#define X86_PF_PROT     BIT(0)  /* 0: not present, 1: protection violation */
#define X86_PF_WRITE    BIT(1)  /* 0: read, 1: write */
#define X86_PF_USER     BIT(2)  /* 0: kernel mode, 1: user mode */
#define X86_PF_RSVD     BIT(3)  /* a reserved bit was set in an entry */
#define X86_PF_INSTR    BIT(4)  /* an instruction fetch */
#define X86_PF_PK       BIT(5)  /* a protection-key violation */

#endif
