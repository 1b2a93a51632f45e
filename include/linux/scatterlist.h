/*
 * A scatterlist entry (Linux's include/linux/scatterlist.h, without the
 * chaining): one physically contiguous piece of a buffer a device reads
 * or writes.  Its memory must be RAM the direct map covers (kmalloc or
 * the buddy): its guest physical address is what the device is told.
 */
#ifndef _LINUX_SCATTERLIST_H
#define _LINUX_SCATTERLIST_H

#include "linux/mm.h"

struct scatterlist {
	struct page *page;
	unsigned int offset;            /* in page; offset + length may run into the next pages */
	unsigned int length;
};

static inline void sg_set_page(struct scatterlist *sg, struct page *page, unsigned int len,
			       unsigned int offset)
{
	sg->page = page;
	sg->offset = offset;
	sg->length = len;
}

/* One piece: buf (kmalloc'd or direct-mapped), len bytes, not crossing a page boundary unless contiguous. */
static inline void sg_init_one(struct scatterlist *sg, const void *buf, unsigned int len)
{
	sg_set_page(sg, virt_to_page(buf), len, (unsigned long)buf & (PAGE_SIZE - 1));
}

static inline phys_addr_t sg_phys(const struct scatterlist *sg)
{
	return ((phys_addr_t)page_to_pfn(sg->page) << PAGE_SHIFT) + sg->offset;
}

#endif
