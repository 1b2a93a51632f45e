/*
 * The xarray (Linux's lib/xarray.c), as a plain radix tree: the contract
 * is in include/linux/xarray.h.
 *
 *   xa_height 2, index 0x1042 = 0b 000001 000001 000010
 *
 *   xa_head --> node (level 2)         slot = (index >> 6) & 63 = 1
 *               [0][1][2] ... [63]
 *                   |
 *                   v
 *               node (level 1)         slot = index & 63 = 2
 *               [0][1][2] ... [63]
 *                      |
 *                      v
 *                    entry (a folio)
 *
 * A node is nothing but its 64 slots (512 bytes, one kmalloc size class);
 * its level is known from the walk that reached it, so a node at level l
 * indexes bit 6*(l-1) and up.  Height 0 holds one entry, at index 0, in
 * xa_head itself.  The tree grows a level when an index does not fit and
 * shrinks when the root node uses slot 0 alone, as Linux's does.  Linux's
 * nodes also carry a parent pointer, a count, marks and value entries;
 * foliOS needs none of that: walks remember their path, and a node is
 * found empty by looking at its slots.
 *
 * Locking: the caller holds xa_lock (see include/linux/xarray.h).
 */
#include "linux/xarray.h"
#include "linux/errno.h"
#include "linux/slab.h"
#include "linux/string.h"

#define XA_CHUNK_MASK   (XA_CHUNK_SIZE - 1)
#define XA_MAX_HEIGHT   ((64 + XA_CHUNK_SHIFT - 1) / XA_CHUNK_SHIFT)

struct xa_node {
	void *slots[XA_CHUNK_SIZE];
};

/* The largest index a tree of this height can hold. */
static unsigned long xa_max_index(unsigned int height)
{
	if (height * XA_CHUNK_SHIFT >= 64)
		return ~0UL;
	return height ? (1UL << (height * XA_CHUNK_SHIFT)) - 1 : 0;
}

/* Which slot of a node at level (>= 1) index goes through. */
static unsigned int xa_offset(unsigned long index, unsigned int level)
{
	return (index >> ((level - 1) * XA_CHUNK_SHIFT)) & XA_CHUNK_MASK;
}

static bool xa_node_empty(const struct xa_node *node)
{
	for (int i = 0; i < (int)XA_CHUNK_SIZE; i++)
		if (node->slots[i])
			return false;
	return true;
}

/* The entry at index, or NULL. */
void *xa_load(const struct xarray *xa, unsigned long index)
{
	void *entry = xa->xa_head;

	if (index > xa_max_index(xa->xa_height))
		return NULL;
	for (unsigned int level = xa->xa_height; level && entry; level--)
		entry = ((struct xa_node *)entry)->slots[xa_offset(index, level)];
	return entry;
}

/*
 * Drop root nodes that only use slot 0 (their subtree becomes the root),
 * and an empty root node.  An empty tree has height 0.
 */
static void xa_shrink(struct xarray *xa)
{
	while (xa->xa_height) {
		struct xa_node *root = xa->xa_head;

		if (!root) {
			xa->xa_height = 0;
			return;
		}
		for (int i = 1; i < (int)XA_CHUNK_SIZE; i++)
			if (root->slots[i])
				return;
		xa->xa_head = root->slots[0];
		xa->xa_height--;
		kfree(root);
	}
}

/* Add levels on top until index fits; 0 or -ENOMEM (the levels added so far stay). */
static int xa_grow(struct xarray *xa, unsigned long index)
{
	while (index > xa_max_index(xa->xa_height)) {
		struct xa_node *root;

		if (!xa->xa_head) {             /* empty: no node needed for the new level */
			xa->xa_height++;
			continue;
		}
		root = kzalloc(sizeof(*root));
		if (!root)
			return -ENOMEM;
		root->slots[0] = xa->xa_head;
		xa->xa_head = root;
		xa->xa_height++;
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

	for (unsigned int level = xa->xa_height; level; level--) {
		if (!*slot) {
			*slot = kzalloc(sizeof(struct xa_node));
			if (!*slot)
				return NULL;
		}
		slot = &((struct xa_node *)*slot)->slots[xa_offset(index, level)];
	}
	return slot;
}

/*
 * Clear index's slot and free the nodes on its path that this leaves
 * empty, bottom up; then shrink the tree.  Returns the old entry.
 */
static void *xa_clear(struct xarray *xa, unsigned long index)
{
	void **path[XA_MAX_HEIGHT + 1];
	void **slot = &xa->xa_head;
	unsigned int depth = 0;
	void *old;

	if (index > xa_max_index(xa->xa_height))
		return NULL;
	for (unsigned int level = xa->xa_height; level && *slot; level--) {
		path[depth++] = slot;
		slot = &((struct xa_node *)*slot)->slots[xa_offset(index, level)];
	}
	old = *slot;
	*slot = NULL;
	while (depth && xa_node_empty(*path[depth - 1])) {
		kfree(*path[depth - 1]);
		*path[--depth] = NULL;
	}
	xa_shrink(xa);
	return old;
}

/* Remove the entry at index; returns it (NULL if there was none). */
void *xa_erase(struct xarray *xa, unsigned long index)
{
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
		*xa_create_slot(xa, index) = entry;
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
 * The first entry under node (at level) whose index is >= *index and
 * <= max; sets *index to it.  base is the first index node covers.
 */
static void *xa_node_find(struct xa_node *node, unsigned int level, unsigned long base,
			  unsigned long *index, unsigned long max)
{
	unsigned int shift = (level - 1) * XA_CHUNK_SHIFT;

	for (unsigned int off = xa_offset(*index, level); off < XA_CHUNK_SIZE; off++) {
		unsigned long start = base + ((unsigned long)off << shift);
		unsigned long from = MAX(start, *index);
		void *entry = node->slots[off];

		if (off > (~0UL >> shift) || start > max)      /* past the top index, or max */
			return NULL;
		if (!entry)
			continue;
		if (level > 1)
			entry = xa_node_find(entry, level - 1, start, &from, max);
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
 * then unspecified).
 */
void *xa_find(const struct xarray *xa, unsigned long *index, unsigned long max)
{
	if (*index > max || *index > xa_max_index(xa->xa_height) || !xa->xa_head)
		return NULL;
	if (!xa->xa_height)
		return xa->xa_head;     /* *index is 0 */
	return xa_node_find(xa->xa_head, xa->xa_height, 0, index, max);
}

static void xa_free_nodes(struct xa_node *node, unsigned int level)
{
	for (int i = 0; level > 1 && i < (int)XA_CHUNK_SIZE; i++)
		if (node->slots[i])
			xa_free_nodes(node->slots[i], level - 1);
	kfree(node);
}

/* Free every node; the entries are the caller's.  The xarray is empty after. */
void xa_destroy(struct xarray *xa)
{
	if (xa->xa_height && xa->xa_head)
		xa_free_nodes(xa->xa_head, xa->xa_height);
	xa->xa_head = NULL;
	xa->xa_height = 0;
}
