/*
 * Random numbers: the kernel's ChaCha20 CRNG (kernel/random.c; Linux's
 * linux/random.h).  Lock order (the kernel's tree: mm/rmap.c):
 * base_crng.lock (irq: always irqsave) guards the CRNG's key and counter,
 * held briefly, never with a user copy; nothing is taken under it.
 */
#ifndef _LINUX_RANDOM_H
#define _LINUX_RANDOM_H

#include "linux/types.h"
#include "uapi/linux/random.h"

void get_random_bytes(void *buf, size_t len);
void random_init(void);
extern const struct file_operations random_fops;        /* /dev/random, /dev/urandom */

#endif
