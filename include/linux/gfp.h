/*
 * The physical page allocator's interface: the zone and its buddy free
 * lists, alloc_pages and its kin, the counts a leak check compares
 * (memmap and the page helpers: linux/mm.h; kmalloc: linux/slab.h).
 *
 * Lock order: see mm/rmap.c.
 */
#ifndef _LINUX_GFP_H
#define _LINUX_GFP_H

#include "linux/types.h"
#include "linux/spinlock.h"
#include "linux/slab.h"
#include "linux/mm_types.h"
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

#endif
