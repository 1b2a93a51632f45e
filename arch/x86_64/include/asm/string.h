/*
 * The string functions x86-64 implements itself (arch/x86_64/lib/string.c);
 * lib/string.c leaves out its generic version of each one named here
 * (Linux's __HAVE_ARCH_* scheme).
 */
#ifndef ASM_STRING_H
#define ASM_STRING_H

#define __HAVE_ARCH_MEMSET
#define __HAVE_ARCH_MEMCPY

#endif
