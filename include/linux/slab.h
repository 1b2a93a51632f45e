/*
 * kmalloc: small kernel allocations (mm/kmalloc.c), for every subsystem.
 */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H

#include "linux/types.h"

void kmalloc_init(void);
void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(const void *p);
extern unsigned long kmalloc_bytes;     /* bytes handed out and not freed */

#endif
