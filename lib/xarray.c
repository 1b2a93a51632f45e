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
 * a node counts its slots in use, so an emptied one is freed at once.
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

/* Does the tree under head (xa_head's value) reach index? */
static bool xa_reaches(const void *head, unsigned long index)
{
	if (!xa_is_node(head))
		return !index;
	return !((index >> xa_to_node(head)->shift) >> XA_CHUNK_SHIFT);
}

/* Which slot of node index goes through. */
static unsigned int xa_offset(unsigned long index, const struct xa_node *node)
{
	return (index >> node->shift) & XA_CHUNK_MASK;
}

/* Set a slot of node (NULL: the slot is xa_head) to v, keeping node->count.  Under xa_lock. */
static void xa_slot_set(struct xa_node *node, void **slot, void *v)
{
	if (node)
		node->count += !!v - !!*slot;
	rcu_assign_pointer(*slot, v);
}

/*
 * Walk to xas->xa_index's slot and return what it holds (NULL if none, or
 * XA_RETRY_ENTRY: walk again); xas remembers the node (Linux's xas_load).
 * A node's slots hold nodes above shift 0 and entries at shift 0, so the
 * walk goes by the shift.  Under rcu_read_lock() or xa_lock.
 */
static __always_inline void *__xas_load(struct xa_state *xas)
{
	void *entry = rcu_dereference(xas->xa->xa_head);
	struct xa_node *node;

	xa_assert_reader();
	xas->xa_node = NULL;
	if (!xa_reaches(entry, xas->xa_index))
		return NULL;
	if (!xa_is_node(entry))
		return entry;
	node = xa_to_node(entry);
	for (;;) {
		entry = rcu_dereference(node->slots[xa_offset(xas->xa_index, node)]);
		if (!node->shift || !entry)
			break;
		node = xa_to_node(entry);
	}
	xas->xa_node = node;
	return entry;
}

void *xas_load(struct xa_state *xas)
{
	return __xas_load(xas);
}

/* The entry at index, or NULL.  Under rcu_read_lock() or xa_lock. */
void *xa_load(const struct xarray *xa, unsigned long index)
{
	XA_STATE(xas, xa, index);
	void *entry;

	do
		entry = __xas_load(&xas);
	while (xa_is_retry(entry));
	return entry;
}

/*
 * Drop root nodes that only use slot 0: what slot 0 holds (a node, or the
 * entry at index 0) becomes xa_head.  An entry leaves XA_RETRY_ENTRY
 * behind, for a reader that found it in the old root (xas_reload).  An
 * empty root was already taken out by xa_clear().
 */
static void xa_shrink(struct xarray *xa)
{
	while (xa_is_node(xa->xa_head)) {
		struct xa_node *root = xa_to_node(xa->xa_head);
		void *child = root->slots[0];

		if (root->count != 1 || !child)
			return;
		rcu_assign_pointer(xa->xa_head, child);
		if (!xa_is_node(child))
			rcu_assign_pointer(root->slots[0], XA_RETRY_ENTRY);
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
	while (!xa_reaches(xa->xa_head, index)) {
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
		root->count = head != NULL;
		rcu_assign_pointer(xa->xa_head, xa_mk_node(root));
	}
	return 0;
}

/* Put a new node one level below node in its empty slot; false if out of memory. */
static noinline_fn bool xa_add_child(struct xa_node *node, void **slot)
{
	struct xa_node *child = xa_node_alloc(node->shift - XA_CHUNK_SHIFT);

	if (child)
		xa_slot_set(node, slot, xa_mk_node(child));
	return child;
}

/*
 * The slot that holds index's entry, creating the nodes on the way (the
 * tree must be high enough), and in *leaf the node it is in (NULL: the
 * slot is xa_head); NULL if out of memory.
 */
static void **xa_create_slot(struct xarray *xa, unsigned long index, struct xa_node **leaf)
{
	struct xa_node *node;
	void **slot;

	*leaf = NULL;
	if (!xa_is_node(xa->xa_head))
		return &xa->xa_head;
	node = xa_to_node(xa->xa_head);
	for (;;) {
		slot = &node->slots[xa_offset(index, node)];
		if (!node->shift)
			break;
		if (!*slot && !xa_add_child(node, slot))
			return NULL;
		node = xa_to_node(*slot);
	}
	*leaf = node;
	return slot;
}

/*
 * Clear index's slot and free the nodes on its path that this leaves
 * empty, bottom up; then shrink the tree.  Returns the old entry.
 */
static void *xa_clear(struct xarray *xa, unsigned long index)
{
	struct xa_node *path[XA_MAX_HEIGHT], *node = NULL;
	void **slot = &xa->xa_head;
	unsigned int depth = 0;
	void *old;

	if (!xa_reaches(*slot, index))
		return NULL;
	while (xa_is_node(*slot)) {
		node = xa_to_node(*slot);
		path[depth++] = node;
		slot = &node->slots[xa_offset(index, node)];
	}
	old = *slot;
	xa_slot_set(node, slot, NULL);
	while (depth && !path[depth - 1]->count) {
		struct xa_node *empty = path[--depth], *parent = depth ? path[depth - 1] : NULL;

		xa_slot_set(parent, parent ? &parent->slots[xa_offset(index, parent)] : &xa->xa_head,
			    NULL);
		xa_node_free(empty);
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

/* Does [index, last] end in index's leaf (64 slots)? */
static bool xa_last_in_leaf(unsigned long index, unsigned long last)
{
	return last - index <= XA_CHUNK_MASK - (index & XA_CHUNK_MASK);
}

/*
 * Store entry at every index of [first, last], first <= last (NULL erases
 * them).  The nodes are made first, one walk per leaf, so that running
 * out of memory (-ENOMEM) leaves the tree as it was; then each leaf's
 * run of slots is filled in one go.  0 on success.
 */
int xa_store_range(struct xarray *xa, unsigned long first, unsigned long last, void *entry)
{
	unsigned long index = first;
	struct xa_node *leaf;
	void **slot;

	xa_assert_locked(xa);
	if (!entry) {
		do
			xa_clear(xa, index);
		while (index++ != last);
		return 0;
	}
	if (xa_grow(xa, last))
		goto nomem;
	for (;; index = (index | XA_CHUNK_MASK) + 1) {
		slot = xa_create_slot(xa, index, &leaf);
		if (!slot)
			goto nomem;
		if (xa_last_in_leaf(index, last))
			break;
	}
	if (!xa_last_in_leaf(first, last))      /* several leaves: back to the first */
		slot = xa_create_slot(xa, first, &leaf);
	for (index = first;; index++) {
		xa_slot_set(leaf, slot, entry);
		if (index == last)
			return 0;
		if ((index + 1) & XA_CHUNK_MASK)
			slot++;
		else                                    /* the next leaf: it exists */
			slot = xa_create_slot(xa, index + 1, &leaf);
	}
nomem:
	/* clearing an empty slot frees the empty nodes made for it */
	for (unsigned long i = first;; i = (i | XA_CHUNK_MASK) + 1) {
		if (!xa_load(xa, i))
			xa_clear(xa, i);
		if (xa_last_in_leaf(i, index))
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
 * *index to it.  base is the first index node covers.  XA_RETRY_ENTRY
 * if the walk met one.
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
		if (entry && shift)
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
	unsigned long start = *index;
	void *head, *entry;

	xa_assert_reader();
	do {
		head = rcu_dereference(xa->xa_head);
		*index = start;
		if (start > max || !xa_reaches(head, start) || !head)
			return NULL;
		if (!xa_is_node(head))
			return head;    /* *index is 0 */
		entry = xa_node_find(xa_to_node(head), 0, index, max);
	} while (xa_is_retry(entry));
	return entry;
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
