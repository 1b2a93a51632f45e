/*
 * The xarray (Linux's include/linux/xarray.h, a radix tree underneath):
 * a sparse array of pointers indexed by unsigned long, here the page
 * cache's index -> folio map (struct address_space's i_pages).
 *
 *   index bits:  ... | 6 bits | 6 bits | 6 bits      one level per 6 bits
 *   xa_head ->  node (64 slots) -> node -> entry     levels grow on demand
 *
 * A node has XA_CHUNK_SIZE slots; a tree of height h covers indices below
 * 64^h.  Entries are kernel pointers (never NULL, bit 0 clear).  A large
 * folio is stored in every slot it covers (xa_store_range), so a lookup of
 * any of its indices finds it, as Linux's multi-index entries do.
 *
 * Locking: the caller's (the mapping's i_pages lock; one CPU today).
 * Nodes come from kmalloc; an operation that must allocate may fail with
 * -ENOMEM and then leaves the tree as it was.
 */
#ifndef _LINUX_XARRAY_H
#define _LINUX_XARRAY_H

#include "linux/types.h"

#define XA_CHUNK_SHIFT  6
#define XA_CHUNK_SIZE   (1UL << XA_CHUNK_SHIFT)

struct xa_node;

struct xarray {
	void *xa_head;                  /* an entry (height 0) or the root node */
	unsigned int xa_height;         /* levels of nodes below xa_head */
};

#define XARRAY_INIT     { .xa_head = NULL, .xa_height = 0 }

static inline void xa_init(struct xarray *xa)
{
	xa->xa_head = NULL;
	xa->xa_height = 0;
}

static inline bool xa_empty(const struct xarray *xa)
{
	return !xa->xa_head;
}

void *xa_load(const struct xarray *xa, unsigned long index);
int xa_store(struct xarray *xa, unsigned long index, void *entry);
int xa_store_range(struct xarray *xa, unsigned long first, unsigned long last, void *entry);
void *xa_erase(struct xarray *xa, unsigned long index);
void *xa_find(const struct xarray *xa, unsigned long *index, unsigned long max);
void xa_destroy(struct xarray *xa);

/* Each present entry at index >= start, <= max, in order (entry and index set). */
#define xa_for_each_range(xa, index, entry, start, max)                       \
	for ((index) = (start), (entry) = xa_find((xa), &(index), (max)); (entry); \
	     (entry) = ++(index) ? xa_find((xa), &(index), (max)) : NULL)

#endif
