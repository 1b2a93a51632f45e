/* arch_prctl(2)'s codes (x86's asm/prctl.h): the FS and GS bases user space may set. */
#ifndef _UAPI_ASM_PRCTL_H
#define _UAPI_ASM_PRCTL_H

#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004

#endif
