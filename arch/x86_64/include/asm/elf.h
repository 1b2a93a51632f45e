/* What the ELF loader tells a new program about this CPU (Linux's asm/elf.h). */
#ifndef ASM_ELF_H
#define ASM_ELF_H

#include "linux/types.h"

#define ELF_PLATFORM    "x86_64"        /* AT_PLATFORM */

/* AT_HWCAP: CPUID 1's EDX (Linux's boot_cpu_data.x86_capability[CPUID_1_EDX]). */
extern u32 elf_hwcap;
#define ELF_HWCAP       elf_hwcap
/*
 * AT_HWCAP2: the user-mode features the kernel turned on — FSGSBASE (bit 1)
 * and ring-3 MWAIT (bit 0).  foliOS turns neither on: 0.
 */
#define ELF_HWCAP2      0UL

/* AT_MINSIGSTKSZ: the largest signal frame this CPU's register state makes (signal.c). */
unsigned long get_sigframe_size(void);

#endif
