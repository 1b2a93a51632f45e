/* Host stand-in for asm/string.h: the host tests use the C library's. */
#ifndef ASM_STRING_H
#define ASM_STRING_H

#endif
