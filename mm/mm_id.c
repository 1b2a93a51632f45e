/*
 * The MM ID allocator.  Every mm_struct gets an ID in [MM_ID_MIN, MM_ID_MAX]
 * (31 bits) when it is created and gives it back at teardown, so a folio's
 * MM ID slot can name an mm in 31 bits instead of a pointer.
 *
 * Lock order: ida->lock is innermost (it calls kmalloc, whose locks are
 * innermost too: kmalloc_lock -> zone.lock).
 */
#include "mm/mm_id.h"
#include "mm/folio.h"
#include "mm/mm.h"
#include "kernel/printk.h"
#include "kernel/string.h"

static struct ida mm_ida = IDA_INIT("mm_ida");

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
	unsigned long flags = spin_lock_irqsave(&ida->lock);
	unsigned long id = min;
	int ret = -ENOSPC;

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
	unsigned long flags = spin_lock_irqsave(&ida->lock);
	unsigned long ci = id / IDA_CHUNK_BITS;
	struct ida_chunk *c = ci < ida->nr_chunks ? ida->chunks[ci] : NULL;
	unsigned int bit = id % IDA_CHUNK_BITS;

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

/* Boot-time setup: no MM IDs in use. */
void mm_ids_init(void)
{
	mm_ida = (struct ida)IDA_INIT("mm_ida");
}

/* Give mm an MM ID; 0, or -ENOSPC / -ENOMEM (mm keeps MM_ID_DUMMY). */
int mm_alloc_id(struct mm_struct *mm)
{
	int ret = ida_alloc_range(&mm_ida, MM_ID_MIN, MM_ID_MAX);

	if (ret < 0)
		return ret;
	mm->mm_id = ret;
	return 0;
}

void mm_free_id(struct mm_struct *mm)
{
	const mm_id_t id = mm->mm_id;

	mm->mm_id = MM_ID_DUMMY;
	if (id == MM_ID_DUMMY)
		return;
	if (WARN_ON_ONCE(id < MM_ID_MIN || id > MM_ID_MAX, "mm_free_id: ID out of range"))
		return;
	ida_free(&mm_ida, id);
}

unsigned long mm_ids_in_use(void)
{
	return READ_ONCE(mm_ida.nr_used);
}
