#ifndef _LINUX_IDR_H
#define _LINUX_IDR_H

#include "linux/types.h"
#include "linux/spinlock.h"

/*
 * An ID allocator (Linux's IDA): the lowest free ID in a range.  IDs live in
 * chunks of IDA_CHUNK_BITS, each a bitmap with a count of IDs in use,
 * allocated when first needed and freed when empty.
 *
 * Lock order (the kernel's tree: mm/rmap.c): ida->lock (irq: always
 * irqsave) guards one IDA's bitmap (lib/ida.c; mm_ida); ida_alloc_range()
 * calls kmalloc under it, so kmalloc_lock and zone.lock come below.
 */
#define IDA_CHUNK_BITS  4096

struct ida_chunk {
	unsigned int used;
	unsigned long bits[IDA_CHUNK_BITS / 64];
};

struct ida {
	spinlock_t lock;
	struct ida_chunk **chunks;      /* chunks[i] covers IDs i*4096 .. */
	unsigned long nr_chunks;        /* length of chunks[] */
	unsigned long nr_used;
};

#define IDA_INIT(name) { .lock = SPINLOCK_INIT(name) }

int ida_alloc_range(struct ida *ida, unsigned int min, unsigned int max);
void ida_free(struct ida *ida, unsigned int id);
void ida_destroy(struct ida *ida);

#endif
