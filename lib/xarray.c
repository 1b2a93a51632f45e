/*
 * The xarray (Linux's lib/xarray.c), as a plain radix tree: the contract
 * is in include/linux/xarray.h.
 *
 *   index 0x1042 = 0b 000001 000001 000010, a tree of two levels
 *
 *   xa_head --> node (shift 6)          slot = (index >> 6) & 63 = 1
 *               [0][1][2] ... [63]
 *                   |
 *                   v
 *               node (shift 0)          slot = index & 63 = 2
 *               [0][1][2] ... [63]
 *                      |
 *                      v
 *                    entry (a folio)
 *
 * A node is its shift, an rcu_head and 64 slots (536 bytes: a kmalloc-1024
 * object; Linux's nodes, with a parent, counts and marks, are 576 bytes in
 * a cache of their own).  With nothing but the entry at index 0, the tree
 * is that entry in xa_head itself.  The tree grows a level when an index
 * does not fit and shrinks when the root node uses slot 0 alone, as
 * Linux's does; walks remember their path instead of parent pointers, and
 * a node is found empty by looking at its slots.
 *
 * Lockless readers (rcu_read_lock): every slot and xa_head is read once
 * (rcu_dereference) and written in one store; a new node is filled before
 * the store that links it (rcu_assign_pointer); a node unlinked from the
 * tree is left as it was and freed by call_rcu.  A reader holding an
 * unlinked node therefore still finds, in each slot, what was there at
 * some moment of its walk.
 *
 * Locking: the caller of a change holds xa_lock (include/linux/xarray.h).
 */
#include "linux/xarray.h"
#include "linux/errno.h"
#include "linux/printk.h"
#include "linux/slab.h"

#define XA_CHUNK_MASK   (XA_CHUNK_SIZE - 1)
#define XA_MAX_HEIGHT   ((64 + XA_CHUNK_SHIFT - 1) / XA_CHUNK_SHIFT)

/* A reader holds rcu_read_lock() or xa_lock (debug builds check). */
static void xa_assert_reader(void)
{
	if (IS_ENABLED(CONFIG_LOCKDEP))
		WARN_ON_ONCE(!rcu_read_lock_held(), "xarray: lookup outside rcu_read_lock and xa_lock");
}

static struct xa_node *xa_node_alloc(unsigned int shift)
{
	struct xa_node *node = kzalloc(sizeof(*node));

	if (node)
		node->shift = shift;
	return node;
}

static void xa_node_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct xa_node, rcu_head));
}

/* node has left the tree; readers may still hold it until a grace period ends. */
static void xa_node_free(struct xa_node *node)
{
	call_rcu(&node->rcu_head, xa_node_free_rcu);
}

/* The largest index the tree under head can hold (head: xa_head's value). */
static unsigned long xa_max_index(const void *head)
{
	unsigned int bits;

	if (!xa_is_node(head))
		return 0;
	bits = xa_to_node(head)->shift + XA_CHUNK_SHIFT;
	return bits >= 64 ? ~0UL : (1UL << bits) - 1;
}

/* Which slot of node index goes through. */
static unsigned int xa_offset(unsigned long index, const struct xa_node *node)
{
	return (index >> node->shift) & XA_CHUNK_MASK;
}

static bool xa_node_empty(const struct xa_node *node)
{
	for (int i = 0; i < (int)XA_CHUNK_SIZE; i++)
		if (node->slots[i])
			return false;
	return true;
}

/* The entry at index, or NULL.  Under rcu_read_lock() or xa_lock. */
void *xa_load(const struct xarray *xa, unsigned long index)
{
	void *entry = rcu_dereference(xa->xa_head);

	xa_assert_reader();
	if (index > xa_max_index(entry))
		return NULL;
	while (xa_is_node(entry)) {
		struct xa_node *node = xa_to_node(entry);

		entry = rcu_dereference(node->slots[xa_offset(index, node)]);
	}
	return entry;
}

/*
 * Drop root nodes that only use slot 0: what slot 0 holds (a node, or the
 * entry at index 0) becomes xa_head.  An empty root was already taken out
 * by xa_clear().
 */
static void xa_shrink(struct xarray *xa)
{
	while (xa_is_node(xa->xa_head)) {
		struct xa_node *root = xa_to_node(xa->xa_head);

		for (int i = 1; i < (int)XA_CHUNK_SIZE; i++)
			if (root->slots[i])
				return;
		rcu_assign_pointer(xa->xa_head, root->slots[0]);
		xa_node_free(root);
	}
}

/* The smallest shift of a root node that holds index. */
static unsigned int xa_shift_for(unsigned long index)
{
	unsigned int shift = 0;

	while (shift + XA_CHUNK_SHIFT < 64 && index >> (shift + XA_CHUNK_SHIFT))
		shift += XA_CHUNK_SHIFT;
	return shift;
}

/*
 * Add levels on top until index fits (an empty tree gets one root of the
 * right height); 0 or -ENOMEM (the levels added so far stay).
 */
static int xa_grow(struct xarray *xa, unsigned long index)
{
	while (index > xa_max_index(xa->xa_head)) {
		void *head = xa->xa_head;
		unsigned int shift = 0;
		struct xa_node *root;

		if (!head)
			shift = xa_shift_for(index);
		else if (xa_is_node(head))
			shift = xa_to_node(head)->shift + XA_CHUNK_SHIFT;
		root = xa_node_alloc(shift);
		if (!root)
			return -ENOMEM;
		root->slots[0] = head;
		rcu_assign_pointer(xa->xa_head, xa_mk_node(root));
	}
	return 0;
}

/*
 * The slot that holds index's entry, creating the nodes on the way
 * (the tree must be high enough); NULL if out of memory.
 */
static void **xa_create_slot(struct xarray *xa, unsigned long index)
{
	void **slot = &xa->xa_head;

	while (xa_is_node(*slot)) {
		struct xa_node *node = xa_to_node(*slot);

		slot = &node->slots[xa_offset(index, node)];
		if (!*slot && node->shift) {
			struct xa_node *child = xa_node_alloc(node->shift - XA_CHUNK_SHIFT);

			if (!child)
				return NULL;
			rcu_assign_pointer(*slot, xa_mk_node(child));
		}
	}
	return slot;
}

/*
 * Clear index's slot and free the nodes on its path that this leaves
 * empty, bottom up; then shrink the tree.  Returns the old entry.
 */
static void *xa_clear(struct xarray *xa, unsigned long index)
{
	void **path[XA_MAX_HEIGHT];
	void **slot = &xa->xa_head;
	unsigned int depth = 0;
	void *old;

	if (index > xa_max_index(*slot))
		return NULL;
	while (xa_is_node(*slot)) {
		struct xa_node *node = xa_to_node(*slot);

		path[depth++] = slot;
		slot = &node->slots[xa_offset(index, node)];
	}
	old = *slot;
	WRITE_ONCE(*slot, NULL);
	while (depth && xa_node_empty(xa_to_node(*path[depth - 1]))) {
		struct xa_node *node = xa_to_node(*path[--depth]);

		WRITE_ONCE(*path[depth], NULL);
		xa_node_free(node);
	}
	xa_shrink(xa);
	return old;
}

/* Remove the entry at index; returns it (NULL if there was none). */
void *xa_erase(struct xarray *xa, unsigned long index)
{
	xa_assert_locked(xa);
	return xa_clear(xa, index);
}

/*
 * Store entry at every index of [first, last], first <= last (NULL erases them).  The
 * nodes are made first, so that running out of memory (-ENOMEM) leaves
 * the tree as it was; 0 on success.
 */
int xa_store_range(struct xarray *xa, unsigned long first, unsigned long last, void *entry)
{
	unsigned long index = first;

	xa_assert_locked(xa);
	if (!entry) {
		do
			xa_clear(xa, index);
		while (index++ != last);
		return 0;
	}
	if (xa_grow(xa, last))
		goto nomem;
	do
		if (!xa_create_slot(xa, index))
			goto nomem;
	while (index++ != last);
	index = first;
	do
		rcu_assign_pointer(*xa_create_slot(xa, index), entry);
	while (index++ != last);
	return 0;
nomem:
	/* clearing an empty slot frees the empty nodes made for it */
	for (unsigned long i = first;; i++) {
		if (!xa_load(xa, i))
			xa_clear(xa, i);
		if (i == index)
			break;
	}
	xa_shrink(xa);
	return -ENOMEM;
}

/* Store entry at index (NULL erases it); 0 or -ENOMEM (nothing changed). */
int xa_store(struct xarray *xa, unsigned long index, void *entry)
{
	return xa_store_range(xa, index, index, entry);
}

/*
 * The first entry under node whose index is >= *index and <= max; sets
 * *index to it.  base is the first index node covers.
 */
static void *xa_node_find(const struct xa_node *node, unsigned long base,
			  unsigned long *index, unsigned long max)
{
	unsigned int shift = node->shift;

	for (unsigned int off = xa_offset(*index, node); off < XA_CHUNK_SIZE; off++) {
		unsigned long start = base + ((unsigned long)off << shift);
		unsigned long from = MAX(start, *index);
		void *entry;

		if (off > (~0UL >> shift) || start > max)      /* past the top index, or max */
			return NULL;
		entry = rcu_dereference(node->slots[off]);
		if (xa_is_node(entry))
			entry = xa_node_find(xa_to_node(entry), start, &from, max);
		if (entry) {
			*index = from;
			return entry;
		}
	}
	return NULL;
}

/*
 * The first present entry at an index >= *index and <= max (Linux's
 * xa_find with XA_PRESENT); sets *index to it.  NULL if none (*index is
 * then unspecified).  Under rcu_read_lock() or xa_lock.
 */
void *xa_find(const struct xarray *xa, unsigned long *index, unsigned long max)
{
	void *head = rcu_dereference(xa->xa_head);

	xa_assert_reader();
	if (*index > max || *index > xa_max_index(head) || !head)
		return NULL;
	if (!xa_is_node(head))
		return head;            /* *index is 0 */
	return xa_node_find(xa_to_node(head), 0, index, max);
}

static void xa_free_nodes(struct xa_node *node)
{
	for (int i = 0; i < (int)XA_CHUNK_SIZE; i++)
		if (xa_is_node(node->slots[i]))
			xa_free_nodes(xa_to_node(node->slots[i]));
	xa_node_free(node);
}

/*
 * Free every node (a grace period later); the entries are the caller's.
 * The xarray is empty after.  Under xa_lock.
 */
void xa_destroy(struct xarray *xa)
{
	void *head = xa->xa_head;

	xa_assert_locked(xa);
	WRITE_ONCE(xa->xa_head, NULL);
	if (xa_is_node(head))
		xa_free_nodes(xa_to_node(head));
}
