/* The auxiliary vector's keys, at the top of a new program's stack (linux/auxvec.h). */
#ifndef _UAPI_LINUX_AUXVEC_H
#define _UAPI_LINUX_AUXVEC_H

#define AT_NULL         0
#define AT_PHDR         3
#define AT_PHENT        4
#define AT_PHNUM        5
#define AT_PAGESZ       6
#define AT_BASE         7       /* the interpreter's load address */
#define AT_FLAGS        8
#define AT_ENTRY        9
#define AT_UID          11
#define AT_EUID         12
#define AT_GID          13
#define AT_EGID         14
#define AT_PLATFORM     15      /* a string naming the CPU: "x86_64" */
#define AT_HWCAP        16      /* CPUID 1's EDX, as Linux on x86 */
#define AT_CLKTCK       17      /* times()'s ticks per second */
#define AT_SECURE       23
#define AT_RANDOM       25
#define AT_HWCAP2       26      /* more CPU features the kernel enabled for user mode */
#define AT_EXECFN       31
#define AT_SYSINFO_EHDR 33      /* the vDSO's ELF header */
#define AT_MINSIGSTKSZ  51      /* the largest signal frame this CPU makes */

#endif
