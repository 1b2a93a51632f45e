/*
 * The ID allocator (Linux's IDA): the lowest free ID in a range, for MM IDs
 * (mm/mm_id.c) and whatever else needs small unique integers.
 *
 * Lock order: see linux/idr.h; ida_alloc_range() calls kmalloc under ida->lock.
 */
#include "linux/errno.h"
#include "linux/idr.h"
#include "linux/printk.h"
#include "linux/slab.h"
#include "linux/string.h"

/* Make chunks[] at least n long; false when out of memory. */
static bool ida_grow(struct ida *ida, unsigned long n)
{
	unsigned long len = ida->nr_chunks ? ida->nr_chunks : 4;
	struct ida_chunk **bigger;

	while (len < n)
		len *= 2;
	if (len == ida->nr_chunks)
		return true;
	bigger = kzalloc(len * sizeof(*bigger));
	if (!bigger)
		return false;
	if (ida->chunks)
		memcpy(bigger, ida->chunks, ida->nr_chunks * sizeof(*bigger));
	kfree(ida->chunks);
	ida->chunks = bigger;
	ida->nr_chunks = len;
	return true;
}

/* The first clear bit >= from in a chunk, or IDA_CHUNK_BITS. */
static unsigned int chunk_find_free(const struct ida_chunk *c, unsigned int from)
{
	for (unsigned int bit = from; bit < IDA_CHUNK_BITS; bit++) {
		if (!(bit & 63) && c->bits[bit / 64] == ~0UL) {
			bit += 63;
			continue;
		}
		if (!(c->bits[bit / 64] & BIT(bit & 63)))
			return bit;
	}
	return IDA_CHUNK_BITS;
}

/*
 * Allocate the lowest free ID in [min, max].  Returns it, -ENOSPC when the
 * range is used up, or -ENOMEM.  Takes ida->lock.
 */
int ida_alloc_range(struct ida *ida, unsigned int min, unsigned int max)
{
	unsigned long id = min, flags;
	int ret = -ENOSPC;

	spin_lock_irqsave(&ida->lock, flags);
	while (id <= max) {
		unsigned long ci = id / IDA_CHUNK_BITS;
		struct ida_chunk *c;
		unsigned int bit;

		if (ci >= ida->nr_chunks && !ida_grow(ida, ci + 1)) {
			ret = -ENOMEM;
			break;
		}
		c = ida->chunks[ci];
		if (!c && !(c = ida->chunks[ci] = kzalloc(sizeof(*c)))) {
			ret = -ENOMEM;
			break;
		}
		bit = c->used == IDA_CHUNK_BITS ? IDA_CHUNK_BITS
			: chunk_find_free(c, id % IDA_CHUNK_BITS);
		if (bit < IDA_CHUNK_BITS && ci * IDA_CHUNK_BITS + bit <= max) {
			c->bits[bit / 64] |= BIT(bit & 63);
			c->used++;
			ida->nr_used++;
			ret = ci * IDA_CHUNK_BITS + bit;
			break;
		}
		id = (ci + 1) * IDA_CHUNK_BITS;
	}
	spin_unlock_irqrestore(&ida->lock, flags);
	return ret;
}

/* Give an ID back; freeing an ID that is not allocated is warned about. */
void ida_free(struct ida *ida, unsigned int id)
{
	unsigned long ci = id / IDA_CHUNK_BITS, flags;
	unsigned int bit = id % IDA_CHUNK_BITS;
	struct ida_chunk *c;

	spin_lock_irqsave(&ida->lock, flags);
	c = ci < ida->nr_chunks ? ida->chunks[ci] : NULL;
	if (WARN_ON_ONCE(!c || !(c->bits[bit / 64] & BIT(bit & 63)), "ida_free: ID not allocated")) {
		spin_unlock_irqrestore(&ida->lock, flags);
		return;
	}
	c->bits[bit / 64] &= ~BIT(bit & 63);
	ida->nr_used--;
	if (!--c->used) {
		ida->chunks[ci] = NULL;
		kfree(c);
	}
	if (!ida->nr_used) {
		kfree(ida->chunks);
		ida->chunks = NULL;
		ida->nr_chunks = 0;
	}
	spin_unlock_irqrestore(&ida->lock, flags);
}

/* Free all of an IDA's memory (its IDs must not be used any more). */
void ida_destroy(struct ida *ida)
{
	for (unsigned long i = 0; i < ida->nr_chunks; i++)
		kfree(ida->chunks[i]);
	kfree(ida->chunks);
	ida->chunks = NULL;
	ida->nr_chunks = 0;
	ida->nr_used = 0;
}
