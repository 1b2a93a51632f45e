/* Kernel symbol table (generated at link time by scripts/gen-ksyms.py). */
#ifndef _LINUX_KSYMS_H
#define _LINUX_KSYMS_H

#include "linux/types.h"

/* "name+0xoff/0xsize" for a text address, or "?" when unknown. */
int ksym_format(unsigned long addr, char *buf, size_t size);

#endif
