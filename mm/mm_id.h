/*
 * MM IDs: a small integer per mm_struct for the MM ID slots of large folios
 * (Linux's mm_alloc_id()/mm_free_id() in kernel/fork.c, on an IDA).
 */
#ifndef MM_MM_ID_H
#define MM_MM_ID_H

#include "kernel/types.h"
#include "kernel/spinlock.h"
#include "mm/mm_types.h"

/*
 * An ID allocator (Linux's IDA): the lowest free ID in a range.  IDs live in
 * chunks of IDA_CHUNK_BITS, each a bitmap with a count of IDs in use,
 * allocated when first needed and freed when empty.
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

void mm_ids_init(void);
int mm_alloc_id(struct mm_struct *mm);
void mm_free_id(struct mm_struct *mm);
unsigned long mm_ids_in_use(void);
struct mm_struct *mm_alloc(void);
extern struct list_head mm_list;
void mm_list_init(void);
void mmdrop(struct mm_struct *mm);
void mmgrab(struct mm_struct *mm);

#endif
