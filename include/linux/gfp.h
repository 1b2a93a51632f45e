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

/*
 * Allocation flags.  User memory (__GFP_MOVABLE) leaves the pages below
 * the zone's min watermark to the kernel, whose own allocations
 * (GFP_KERNEL) may use them: they cannot reclaim — foliOS's kernel
 * allocates under spinlocks in places Linux would not, so none of its
 * allocations sleeps — and kswapd keeps the reserve full.  An allocation
 * that may sleep and reclaim (__GFP_DIRECT_RECLAIM) does so when it
 * would dip below min, and calls the OOM killer when reclaim gets
 * nowhere (mm/page_alloc.c).
 */
typedef unsigned int gfp_t;
#define __GFP_ZERO      BIT(0)  /* zero the memory */
#define __GFP_COMP      BIT(1)  /* make a compound page (head + tails) */
#define __GFP_MOVABLE   BIT(2)  /* user memory: stays above the min watermark */
#define __GFP_DIRECT_RECLAIM BIT(3) /* may sleep to reclaim (no spinlock held) */
#define GFP_KERNEL      0
#define GFP_HIGHUSER_MOVABLE (__GFP_MOVABLE | __GFP_DIRECT_RECLAIM)
#define GFP_TRANSHUGE_LIGHT __GFP_MOVABLE       /* a THP: only if free memory is there */

struct free_area {
	struct list_head free_list;
	unsigned long nr_free;          /* blocks of this order */
};

/*
 * The watermarks, in free pages (Linux's __setup_per_zone_wmarks): below
 * low an allocation wakes kswapd, which reclaims until free memory is
 * back above high; user allocations never take it below min.
 */
enum zone_watermarks { WMARK_MIN, WMARK_LOW, WMARK_HIGH, NR_WMARK };

/* foliOS has one zone: all of RAM. */
struct zone {
	spinlock_t lock;
	unsigned long managed_pages;    /* pages the buddy was given */
	unsigned long free_pages;       /* pages on the free lists now */
	unsigned long _watermark[NR_WMARK];
	struct free_area free_area[NR_PAGE_ORDERS];
};

static inline unsigned long min_wmark_pages(const struct zone *z) { return z->_watermark[WMARK_MIN]; }
static inline unsigned long low_wmark_pages(const struct zone *z) { return z->_watermark[WMARK_LOW]; }
static inline unsigned long high_wmark_pages(const struct zone *z) { return z->_watermark[WMARK_HIGH]; }
extern int min_free_kbytes;
void setup_per_zone_wmarks(void);

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
