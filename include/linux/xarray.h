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
 * Locking: xa_lock, a spinlock in the xarray (Linux's xa_lock), taken
 * by the caller around every call (Linux's __xa_* flavour): stores,
 * erases, finds and loads.  Linux's lookups walk the tree under RCU and
 * its nodes are freed by RCU; foliOS has no RCU, so a node may be freed
 * the moment a store empties it and a reader must hold xa_lock too.
 * Nodes come from kmalloc (which never sleeps) under the lock; an
 * operation that must allocate may fail with -ENOMEM and then leaves the
 * tree as it was.
 */
#ifndef _LINUX_XARRAY_H
#define _LINUX_XARRAY_H

#include "linux/types.h"
#include "linux/spinlock.h"

#define XA_CHUNK_SHIFT  6
#define XA_CHUNK_SIZE   (1UL << XA_CHUNK_SHIFT)

struct xa_node;

struct xarray {
	spinlock_t xa_lock;             /* the tree: see Locking above */
	void *xa_head;                  /* an entry (height 0) or the root node */
	unsigned int xa_height;         /* levels of nodes below xa_head */
};

#define XARRAY_INIT(name) { .xa_lock = SPINLOCK_INIT(name), .xa_head = NULL, .xa_height = 0 }

/* An empty xarray whose lock's lockdep class is name. */
static inline void xa_init(struct xarray *xa, const char *name)
{
	spin_lock_init(&xa->xa_lock, name);
	xa->xa_head = NULL;
	xa->xa_height = 0;
}

static inline void xa_lock(struct xarray *xa)
{
	spin_lock(&xa->xa_lock);
}

static inline void xa_unlock(struct xarray *xa)
{
	spin_unlock(&xa->xa_lock);
}

#define xa_assert_locked(xa)    lockdep_assert_held(&(xa)->xa_lock)

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
