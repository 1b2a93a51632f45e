/*
 * kmalloc: small objects carved out of order-0 "slab" pages, one size class
 * per page; requests over KMALLOC_MAX_SMALL get whole pages from the buddy.
 *
 *   size classes: 16 32 64 128 256 512 1024 2048 4096 bytes
 *
 * A slab page keeps its free objects in a singly linked list threaded through
 * the objects themselves (page->freelist); a slab whose objects are all free
 * goes back to the buddy at once, so leak checks see every page.
 *
 * Debug builds (CONFIG_SLUB_DEBUG, on with the lock validator) poison
 * free objects as Linux's slub_debug=P: every byte after the freelist
 * link is POISON_FREE while the object is free.  kmalloc checks the poison
 * and the link before it hands an object out, kfree refuses an object
 * already free: a write after free or a double free panics naming the
 * class, the offset and the bytes, near its cause instead of as a wild
 * pointer later.
 *
 * Lock order: see mm/rmap.c; a new slab comes from the buddy under kmalloc_lock.
 */
#include "linux/mm.h"
#include "linux/fault-inject.h"
#include "linux/printk.h"
#include "linux/string.h"

#define KMALLOC_MIN_SHIFT 4
#define KMALLOC_MAX_SHIFT 12
#define KMALLOC_MAX_SMALL (1UL << KMALLOC_MAX_SHIFT)
#define NR_KMALLOC_CLASSES (KMALLOC_MAX_SHIFT - KMALLOC_MIN_SHIFT + 1)

/* Slab bookkeeping overlays the buddy fields of struct page. */
#define slab_freelist(p)  ((p)->mapping)
#define slab_inuse(p)     ((p)->index)
#define slab_class(p)     ((p)->private)

#define POISON_FREE 0x6b                /* Linux's, in include/linux/poison.h */

static spinlock_t kmalloc_lock = SPINLOCK_INIT("kmalloc");
static struct list_head partial[NR_KMALLOC_CLASSES];
unsigned long kmalloc_bytes;

/* Boot-time setup: no slabs yet. */
void kmalloc_init(void)
{
	for (int i = 0; i < NR_KMALLOC_CLASSES; i++)
		INIT_LIST_HEAD(&partial[i]);
	kmalloc_bytes = 0;
}

static unsigned int size_to_class(size_t size)
{
	unsigned int shift = KMALLOC_MIN_SHIFT;

	while ((1UL << shift) < size)
		shift++;
	return shift - KMALLOC_MIN_SHIFT;
}

static size_t class_size(unsigned int cls)
{
	return 1UL << (cls + KMALLOC_MIN_SHIFT);
}

/* A fresh slab for class cls, all objects on its freelist; NULL if no memory. */
static struct page *new_slab(unsigned int cls)
{
	struct page *page = alloc_page(GFP_KERNEL);
	size_t sz = class_size(cls);
	char *base;

	if (!page)
		return NULL;
	base = page_address(page);
	if (IS_ENABLED(CONFIG_SLUB_DEBUG))
		memset(base, POISON_FREE, PAGE_SIZE);
	for (size_t off = 0; off < PAGE_SIZE; off += sz)
		*(void **)(base + off) = off + sz < PAGE_SIZE ? base + off + sz : NULL;
	SetPageSlab(page);
	slab_freelist(page) = base;
	slab_inuse(page) = 0;
	slab_class(page) = cls;
	list_add(&page->lru, &partial[cls]);
	return page;
}

static void *kmalloc_large(size_t size)
{
	unsigned int order = 0;
	struct page *page;

	while ((PAGE_SIZE << order) < size)
		order++;
	page = alloc_pages(__GFP_COMP, order);
	if (!page)
		return NULL;
	page->private = order;
	__atomic_add_fetch(&kmalloc_bytes, PAGE_SIZE << order, __ATOMIC_RELAXED);
	return page_address(page);
}

/*
 * Debug: free object obj of slab page (sz bytes) must still be poisoned
 * after its link, and the link must be NULL or another object of the page.
 * kmalloc_lock held.
 */
static void check_free_object(struct page *page, const char *obj, size_t sz)
{
	unsigned long next = *(const unsigned long *)obj, base = (unsigned long)page_address(page);

	for (size_t i = sizeof(void *); i < sz; i++)
		if ((unsigned char)obj[i] != POISON_FREE) {
			pr_emerg("BUG kmalloc-%zu: poison overwritten at %p+%zu: %016lx %016lx\n",
				 sz, obj, i, *(const unsigned long *)(obj + (i & ~7UL)),
				 i + 8 < sz ? *(const unsigned long *)(obj + (i & ~7UL) + 8) : 0UL);
			panic("kmalloc: a free object was written (use after free)");
		}
	if (next && (next - base >= PAGE_SIZE || (next - base) % sz)) {
		pr_emerg("BUG kmalloc-%zu: free object %p links to %#lx\n", sz, obj, next);
		panic("kmalloc: freelist corrupted (use after free)");
	}
}

/* Debug: p must not be on its slab's freelist already (double free); kmalloc_lock held. */
static void check_not_free(struct page *page, const void *p, size_t sz)
{
	for (void *o = slab_freelist(page); o; o = *(void **)o) {
		check_free_object(page, o, sz);
		if (o == p)
			panic("kfree: double free of %p (kmalloc-%zu)", p, sz);
	}
}

/* Allocate size bytes (16-byte aligned; page aligned from 4 KiB); NULL if none. */
void *kmalloc(size_t size)
{
	unsigned int cls;
	struct page *page;
	unsigned long flags;
	void *obj = NULL;

	if (!size || should_fail(&failslab))
		return NULL;
	if (size > KMALLOC_MAX_SMALL)
		return kmalloc_large(size);
	cls = size_to_class(size);
	spin_lock_irqsave(&kmalloc_lock, flags);
	page = list_empty(&partial[cls]) ? new_slab(cls)
		: list_first_entry(&partial[cls], struct page, lru);
	if (page) {
		obj = slab_freelist(page);
		if (IS_ENABLED(CONFIG_SLUB_DEBUG))
			check_free_object(page, obj, class_size(cls));
		slab_freelist(page) = *(void **)obj;
		slab_inuse(page)++;
		if (!slab_freelist(page))
			list_del(&page->lru);       /* full: off the partial list */
		__atomic_add_fetch(&kmalloc_bytes, class_size(cls), __ATOMIC_RELAXED);
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	return obj;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

/* Free an object from kmalloc(); kfree(NULL) does nothing. */
void kfree(const void *p)
{
	struct page *page;
	unsigned long flags;
	size_t sz;

	if (!p)
		return;
	page = virt_to_page(p);
	if (!PageSlab(page)) {
		unsigned int order = page->private;

		BUG_ON(!PageHead(page), "kfree: not a kmalloc pointer");
		__atomic_sub_fetch(&kmalloc_bytes, PAGE_SIZE << order, __ATOMIC_RELAXED);
		page->private = 0;
		__free_pages(page, order);
		return;
	}
	sz = class_size(slab_class(page));
	BUG_ON((unsigned long)p % sz, "kfree: pointer inside an object");
	spin_lock_irqsave(&kmalloc_lock, flags);
	if (IS_ENABLED(CONFIG_SLUB_DEBUG)) {
		check_not_free(page, p, sz);
		memset((void *)p, POISON_FREE, sz);
	}
	if (!slab_freelist(page))
		list_add(&page->lru, &partial[slab_class(page)]);
	*(void **)p = slab_freelist(page);
	slab_freelist(page) = (void *)p;
	slab_inuse(page)--;
	__atomic_sub_fetch(&kmalloc_bytes, sz, __ATOMIC_RELAXED);    /* large ones change it unlocked */
	if (!slab_inuse(page)) {
		list_del(&page->lru);
		slab_freelist(page) = NULL;
		slab_class(page) = 0;
		ClearPageSlab(page);
	} else {
		page = NULL;
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	if (page)
		__free_page(page);
}
