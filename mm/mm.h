/*
 * The physical page allocator's interface: memmap, pfn <-> page <-> address,
 * the buddy allocator and kmalloc.
 *
 * Lock order: see mm/rmap.c.
 */
#ifndef MM_MM_H
#define MM_MM_H

#include "linux/types.h"
#include "linux/spinlock.h"
#include "linux/slab.h"
#include "mm/mm_types.h"
#include <asm/page.h>

#define MAX_PAGE_ORDER  10
#define NR_PAGE_ORDERS  (MAX_PAGE_ORDER + 1)
#define HPAGE_PMD_ORDER 9
#define HPAGE_PMD_NR    (1UL << HPAGE_PMD_ORDER)
/*
 * The largest anon THP: 2 MiB as in Linux, or 4 MiB with
 * CONFIG_MAPCOUNT_PAGES, whose rmap lets several PMDs map one folio.
 */
#define THP_MAX_ANON_ORDER (HPAGE_PMD_ORDER + CONFIG_MAPCOUNT_PAGES)

typedef unsigned int gfp_t;
#define __GFP_ZERO      BIT(0)  /* zero the memory */
#define __GFP_COMP      BIT(1)  /* make a compound page (head + tails) */
#define GFP_KERNEL      0

struct free_area {
	struct list_head free_list;
	unsigned long nr_free;          /* blocks of this order */
};

/* foliOS has one zone: all of RAM. */
struct zone {
	spinlock_t lock;
	unsigned long managed_pages;    /* pages the buddy was given */
	unsigned long free_pages;       /* pages on the free lists now */
	struct free_area free_area[NR_PAGE_ORDERS];
};

extern struct zone zone;
extern struct page *mem_map;
extern unsigned long max_pfn;           /* one past the highest RAM pfn */
extern unsigned long nr_bad_pages;      /* bad_page() reports since boot */

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - mem_map);
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return mem_map + pfn;
}

static inline bool pfn_valid(unsigned long pfn)
{
	return pfn < max_pfn;
}

static inline void *page_address(const struct page *page)
{
	return __va((phys_addr_t)page_to_pfn(page) << PAGE_SHIFT);
}

static inline struct page *virt_to_page(const void *va)
{
	return pfn_to_page(__pa(va) >> PAGE_SHIFT);
}

static inline int page_ref_count(const struct page *page)
{
	return atomic_read(&page->_refcount);
}

static inline void set_page_count(struct page *page, int v)
{
	atomic_set(&page->_refcount, v);
}

static inline void page_ref_add(struct page *page, int nr)
{
	atomic_add(nr, &page->_refcount);
}

static inline void get_page(struct page *page)
{
	atomic_inc(&page->_refcount);
}

/* A reference unless the count is 0 (the page is being freed or is frozen). */
static inline bool get_page_unless_zero(struct page *page)
{
	return atomic_add_unless(&page->_refcount, 1, 0);
}

/*
 * Freeze the count at 0 if it is exactly count (Linux's page_ref_freeze):
 * then nobody can take a reference (get_page_unless_zero fails) until
 * page_ref_unfreeze() sets it again.  True if frozen.
 */
static inline bool page_ref_freeze(struct page *page, int count)
{
	return atomic_cmpxchg(&page->_refcount, count, 0) == count;
}

static inline void page_ref_unfreeze(struct page *page, int count)
{
	__atomic_store_n(&page->_refcount.counter, count, __ATOMIC_RELEASE);
}

/* Drop a reference; true when it was the last one. */
static inline bool put_page_testzero(struct page *page)
{
	return atomic_dec_and_test(&page->_refcount);
}

void mem_map_init(unsigned long nr_pfns, struct page *map);
void mem_init(void);
void free_range_to_buddy(unsigned long start_pfn, unsigned long end_pfn);
struct page *alloc_pages(gfp_t gfp, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
void split_page(struct page *page, unsigned int order);
void free_pages(unsigned long addr, unsigned int order);
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
#define alloc_page(gfp)         alloc_pages(gfp, 0)
#define __free_page(page)       __free_pages(page, 0)
#define get_zeroed_page()       __get_free_pages(__GFP_ZERO, 0)
#define free_page(addr)         free_pages(addr, 0)

/* A snapshot of the allocator's counts, for leak checks. */
struct mem_counts {
	unsigned long free_pages;
	unsigned long nr_free[NR_PAGE_ORDERS];
	unsigned long pagetable_pages;
	unsigned long kmalloc_bytes;
};
void mem_counts_snapshot(struct mem_counts *c);
bool mem_counts_equal(const struct mem_counts *a, const struct mem_counts *b);
void mem_counts_print_diff(const struct mem_counts *before, const struct mem_counts *after);

void dump_page(const struct page *page, const char *reason);
void page_flag_names(unsigned long flags, char *buf, size_t size);
void bad_page(const struct page *page, const char *reason);


#endif
