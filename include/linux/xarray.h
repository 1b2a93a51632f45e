/*
 * The xarray (Linux's include/linux/xarray.h, a radix tree underneath):
 * a sparse array of pointers indexed by unsigned long, here the page
 * cache's index -> folio map (struct address_space's i_pages).
 *
 *   index bits:  ... | 6 bits | 6 bits | 6 bits      one level per 6 bits
 *   xa_head ->  node (64 slots) -> node -> entry     levels grow on demand
 *
 * A node has XA_CHUNK_SIZE slots and knows its shift: its slot for an
 * index is (index >> shift) & 63, so the root's shift says how high the
 * tree is.  Entries are kernel pointers with the two low bits clear (a
 * folio); a slot or xa_head holding a node holds it tagged with bit 1
 * (xa_mk_node), as Linux's internal entries are, so a walk tells the two
 * apart by the value alone.  XA_RETRY_ENTRY, another internal value, is
 * left where an entry was in a node that left the tree: a reader that
 * meets it looks again.  A large folio is stored in every slot it
 * covers (xa_store_range), so a lookup of any of its indices finds it, as
 * Linux's multi-index entries do.
 *
 * Locking: xa_lock, a spinlock in the xarray (Linux's xa_lock), is held
 * by the caller of every change (Linux's __xa_* flavour): stores and
 * erases.  Lookups (xa_load, xa_find, xas_load) need no lock, only
 * rcu_read_lock() (or xa_lock, which also keeps the tree still): a node
 * leaves the tree with one store and is freed a grace period later
 * (call_rcu), and a node's shift never changes, so a walk that started
 * before a change finds either the old or the new entry in each slot,
 * never freed memory.  A node leaves the tree holding no entry, or (the
 * root, when the tree shrinks to its entry at index 0) with that slot set
 * to XA_RETRY_ENTRY: so xas_reload(), which reads again the one slot
 * xas_load() found an entry in, sees every change to that index.
 * Nodes come from kmalloc (which never sleeps) under the lock; an
 * operation that must allocate may fail with -ENOMEM and then leaves the
 * tree as it was.
 */
#ifndef _LINUX_XARRAY_H
#define _LINUX_XARRAY_H

#include "linux/types.h"
#include "linux/spinlock.h"
#include "linux/rcupdate.h"

#define XA_CHUNK_SHIFT  6
#define XA_CHUNK_SIZE   (1UL << XA_CHUNK_SHIFT)

struct xa_node {
	unsigned char shift;            /* index bits below this node's slot number */
	unsigned char count;            /* slots in use (entries and nodes) */
	struct rcu_head rcu_head;       /* its free, a grace period after it left the tree */
	void __rcu *slots[XA_CHUNK_SIZE];
};

struct xarray {
	spinlock_t xa_lock;             /* changes to the tree: see Locking above */
	void __rcu *xa_head;            /* the entry at index 0 alone, or the root node */
};

#define XARRAY_INIT(name) { .xa_lock = SPINLOCK_INIT(name), .xa_head = NULL }

/* An empty xarray whose lock's lockdep class is name. */
static inline void xa_init(struct xarray *xa, const char *name)
{
	spin_lock_init(&xa->xa_lock, name);
	xa->xa_head = NULL;
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
	return !READ_ONCE(xa->xa_head);
}

/* A node as a slot holds it, and back (Linux's internal entries above 4096). */
static inline void *xa_mk_node(const struct xa_node *node)
{
	return (void *)((unsigned long)node | 2);
}

static inline bool xa_is_node(const void *entry)
{
	return ((unsigned long)entry & 3) == 2 && (unsigned long)entry > 4096;
}

/*
 * A value entry (Linux's): an integer stored in a slot, bit 0 set so it
 * is neither a pointer nor a node.  shmem keeps a swapped-out page's swap
 * entry in its page cache this way (swp_to_radix_entry).
 */
static inline void *xa_mk_value(unsigned long v)
{
	return (void *)((v << 1) | 1);
}

static inline bool xa_is_value(const void *entry)
{
	return (unsigned long)entry & 1;
}

static inline unsigned long xa_to_value(const void *entry)
{
	return (unsigned long)entry >> 1;
}

#define XA_RETRY_ENTRY  ((void *)0x402UL)       /* Linux's xa_mk_internal(256) */

static inline bool xa_is_retry(const void *entry)
{
	return entry == XA_RETRY_ENTRY;
}

static inline struct xa_node *xa_to_node(const void *entry)
{
	return (struct xa_node *)((unsigned long)entry - 2);
}

/*
 * A lookup's position (Linux's struct xa_state, reduced to a load's
 * needs): the index, and the node whose slot held the entry (NULL:
 * xa_head).  XA_STATE(xas, xa, index); entry = xas_load(&xas); if it may
 * have changed, xas_reload(&xas) reads that one slot again.
 */
struct xa_state {
	const struct xarray *xa;
	unsigned long xa_index;
	struct xa_node *xa_node;
};

#define XA_STATE(name, array, index) \
	struct xa_state name = { .xa = (array), .xa_index = (index), .xa_node = NULL }

void *xas_load(struct xa_state *xas);

/* The slot xas_load() found its entry in, read again.  Under rcu_read_lock() or xa_lock. */
static inline void *xas_reload(const struct xa_state *xas)
{
	const struct xa_node *node = xas->xa_node;

	if (!node)
		return rcu_dereference(xas->xa->xa_head);
	return rcu_dereference(node->slots[(xas->xa_index >> node->shift) & (XA_CHUNK_SIZE - 1)]);
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
