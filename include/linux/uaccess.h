/* User-memory access for system calls (implemented in arch/x86_64/uaccess.c). */
#ifndef _LINUX_UACCESS_H
#define _LINUX_UACCESS_H

#include "linux/types.h"


bool access_ok(unsigned long addr, unsigned long size);
unsigned long copy_from_user(void *dst, const void *usrc, unsigned long n);
unsigned long copy_to_user(void *udst, const void *src, unsigned long n);
long strncpy_from_user(char *dst, const char *usrc, long size);

#endif
