/*
 * The buddy allocator (Linux's mm/page_alloc.c, one zone, no per-CPU lists).
 *
 * Free memory is kept in blocks of 2^order pages, naturally aligned, for
 * orders 0..MAX_PAGE_ORDER.  The first page of a free block has PG_buddy and
 * its order in page->private.  Two free blocks of one order whose pfns differ
 * only in bit "order" are buddies and merge into one block of order + 1:
 *
 *   order 2:  [ 0 1 2 3 | 4 5 6 7 ]   buddy of pfn 0 is 4 (= 0 ^ (1 << 2))
 *   order 3:  [ 0 1 2 3   4 5 6 7 ]
 *
 * Lock order: see mm/rmap.c; nothing is taken under zone.lock.
 */
#include "linux/mm.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/pgtable.h"
#include "linux/page-flags.h"
#include "mm/deferred_split.h"
#include "linux/fault-inject.h"
#include "linux/vmstat.h"
#include "linux/swap.h"
#include "mm/internal.h"

struct zone zone = { .lock = SPINLOCK_INIT("zone") };
struct page *mem_map;
unsigned long max_pfn;
unsigned long nr_bad_pages;

const char *const pageflag_names[NR_PAGEFLAGS] = {
	[PG_locked] = "locked", [PG_reserved] = "reserved", [PG_buddy] = "buddy",
	[PG_table] = "table", [PG_head] = "head",
	[PG_anon_exclusive] = "anon_exclusive", [PG_slab] = "slab",
	[PG_uptodate] = "uptodate", [PG_dirty] = "dirty", [PG_swapbacked] = "swapbacked", [PG_swapcache] = "swapcache",
	[PG_waiters] = "waiters", [PG_lru] = "lru", [PG_active] = "active", [PG_referenced] = "referenced",
	[PG_unevictable] = "unevictable", [PG_mlocked] = "mlocked",
};

/* Every page starts reserved and unmapped; free_range_to_buddy() frees RAM. */
void mem_map_init(unsigned long nr_pfns, struct page *map)
{
	mem_map = map;
	max_pfn = nr_pfns;
	memset(map, 0, nr_pfns * sizeof(*map));
	for (unsigned long pfn = 0; pfn < nr_pfns; pfn++) {
		map[pfn].flags = BIT(PG_reserved);
		atomic_set(&map[pfn]._mapcount, -1);
	}
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		INIT_LIST_HEAD(&zone.free_area[o].free_list);
}

static inline unsigned int buddy_order(const struct page *page)
{
	return page->private;
}

static void add_to_free_list(struct page *page, unsigned int order)
{
	page->flags |= BIT(PG_buddy);
	page->private = order;
	list_add(&page->lru, &zone.free_area[order].free_list);
	zone.free_area[order].nr_free++;
	zone.free_pages += 1UL << order;
}

static void del_from_free_list(struct page *page, unsigned int order)
{
	list_del(&page->lru);
	page->flags &= ~BIT(PG_buddy);
	page->private = 0;
	zone.free_area[order].nr_free--;
	zone.free_pages -= 1UL << order;
}

/* Free the block at pfn and merge it with free buddies as far as possible. */
static void __free_one_page(unsigned long pfn, unsigned int order)
{
	while (order < MAX_PAGE_ORDER) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);
		struct page *buddy;

		if (!pfn_valid(buddy_pfn))
			break;
		buddy = pfn_to_page(buddy_pfn);
		if (!PageBuddy(buddy) || buddy_order(buddy) != order)
			break;
		del_from_free_list(buddy, order);
		pfn &= buddy_pfn;
		order++;
	}
	add_to_free_list(pfn_to_page(pfn), order);
}

/*
 * Hand the pfn range [start, end) to the buddy in the largest naturally
 * aligned blocks that fit.  The pages must be reserved RAM nobody uses.
 */
void free_range_to_buddy(unsigned long start, unsigned long end)
{
	unsigned long flags;

	spin_lock_irqsave(&zone.lock, flags);
	for (unsigned long pfn = start; pfn < end; pfn++)
		mem_map[pfn].flags &= ~BIT(PG_reserved);
	while (start < end) {
		unsigned int order = MAX_PAGE_ORDER;

		while (order && (!IS_ALIGNED(start, 1UL << order) || start + (1UL << order) > end))
			order--;
		__free_one_page(start, order);
		zone.managed_pages += 1UL << order;
		start += 1UL << order;
	}
	spin_unlock_irqrestore(&zone.lock, flags);
}

/*
 * Take a block of at least "order" from the free lists and split it down:
 * the upper halves go back to the lists of the orders below ("expand").
 */
static struct page *__rmqueue_smallest(unsigned int order)
{
	for (unsigned int cur = order; cur < NR_PAGE_ORDERS; cur++) {
		struct free_area *area = &zone.free_area[cur];
		struct page *page;
		unsigned long pfn;

		if (list_empty(&area->free_list))
			continue;
		page = list_first_entry(&area->free_list, struct page, lru);
		del_from_free_list(page, cur);
		pfn = page_to_pfn(page);
		while (cur > order) {
			cur--;
			add_to_free_list(pfn_to_page(pfn + (1UL << cur)), cur);
		}
		return page;
	}
	return NULL;
}

/* A tail's mapping holds this poison so that stray use is caught at free. */
#define TAIL_MAPPING ((void *)0x400)

static void prep_compound_tail(struct page *head, unsigned long i)
{
	head[i].mapping = TAIL_MAPPING;
	head[i].compound_head = (unsigned long)head | 1;
}

/*
 * The folio fields of page[1] and page[2] (Linux's prep_compound_head):
 * mapcounts at their empty values (stored minus one), both MM ID slots free
 * with a per-MM mapcount of -1, the shared and lock bits clear.
 */
static void prep_compound_head(struct page *page, unsigned int order)
{
	struct folio *folio = (struct folio *)page;

	folio->_flags_1 = (folio->_flags_1 & ~FOLIO_ORDER_MASK) | order;
	folio->_nr_pages = 1U << order;
	atomic_set(folio_large_mapcount_ptr(folio), -1);
	if (IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		atomic_long_set(&folio->_total_mapped_pages, 0);
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		atomic_set(&folio->_nr_pages_mapped, 0);
	folio->_mm_ids = 0;
	folio->_mm_id_mapcount[0] = -1;
	folio->_mm_id_mapcount[1] = -1;
	atomic_set(&folio->_pincount, 0);
	if (!IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		atomic_set(&folio->_entire_mapcount, -1);
	if (order > 1)
		INIT_LIST_HEAD(&folio->_deferred_list);
}

/* Turn a block into a compound page (Linux's prep_compound_page; the folio split too). */
void prep_compound_page(struct page *head, unsigned int order)
{
	SetPageHead(head);
	for (unsigned long i = 1; i < (1UL << order); i++)
		prep_compound_tail(head, i);
	prep_compound_head(head, order);
}

/* Linux's int_sqrt: the integer square root, bit by bit. */
static unsigned long int_sqrt(unsigned long x)
{
	unsigned long m = 1UL << (sizeof(long) * 8 - 2), y = 0;

	while (m > x)
		m >>= 2;
	for (; m; m >>= 2) {
		unsigned long b = y + m;

		y >>= 1;
		if (x >= b) {
			x -= b;
			y += m;
		}
	}
	return y;
}

int min_free_kbytes;

/*
 * The zone's watermarks from its size (Linux's init_per_zone_wmark_min
 * and __setup_per_zone_wmarks): min is sqrt(16 x RAM in KiB) KiB, within
 * [128 KiB, 256 MiB]; low and high lie a quarter of min, or 0.1 % of RAM
 * if more (watermark_scale_factor 10), and twice that above it.
 */
void setup_per_zone_wmarks(void)
{
	unsigned long kbytes = zone.managed_pages * (PAGE_SIZE / 1024), min, step;

	min_free_kbytes = MIN(MAX(int_sqrt(kbytes * 16), 128UL), 262144UL);
	min = (unsigned long)min_free_kbytes >> (PAGE_SHIFT - 10);
	step = MAX(min / 4, zone.managed_pages * 10 / 10000);
	zone._watermark[WMARK_MIN] = min;
	zone._watermark[WMARK_LOW] = min + step;
	zone._watermark[WMARK_HIGH] = min + 2 * step;
}

/*
 * A block from the free lists if that leaves at least reserve pages free
 * (Linux's get_page_from_freelist and its watermark check); kswapd woken
 * when free memory is, or would be, below the low watermark — unless gfp
 * is a THP's that only takes what is free (GFP_TRANSHUGE_LIGHT: Linux's
 * has no __GFP_KSWAPD_RECLAIM; reclaim makes free pages, not free 2 MiB
 * blocks).  NULL if none.  Takes zone.lock.
 */
struct page *get_page_from_freelist(gfp_t gfp, unsigned int order, unsigned long reserve)
{
	struct page *page = NULL;
	unsigned long flags, free;

	spin_lock_irqsave(&zone.lock, flags);
	if (zone.free_pages >= reserve + (1UL << order))
		page = __rmqueue_smallest(order);
	free = zone.free_pages;
	spin_unlock_irqrestore(&zone.lock, flags);
	if ((!page || free < low_wmark_pages(&zone)) && (gfp & GFP_HIGHUSER_MOVABLE) != GFP_TRANSHUGE_LIGHT)
		wakeup_kswapd(order);
	return page;
}

/*
 * Allocate 2^order contiguous pages.  Returns the first page with refcount 1,
 * or NULL when no block of that order is free.  User memory (gfp:
 * __GFP_MOVABLE) leaves the min watermark's pages to the kernel, and with
 * __GFP_DIRECT_RECLAIM reclaims rather than fail (the caller may sleep and
 * holds no spinlock).  Takes zone.lock.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page *page;

	if (order > MAX_PAGE_ORDER || should_fail(&fail_page_alloc))
		return NULL;
	page = get_page_from_freelist(gfp, order, gfp & __GFP_MOVABLE ? min_wmark_pages(&zone) : 0);
	if (!page && (gfp & __GFP_DIRECT_RECLAIM))
		page = __alloc_pages_slowpath(gfp, order);
	if (!page)
		return NULL;
	set_page_count(page, 1);
	if (order && (gfp & __GFP_COMP))
		prep_compound_page(page, order);
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
	return page;
}

/*
 * A folio of any order 0..MAX_PAGE_ORDER, refcount 1; large ones may go on
 * the deferred split queue (large_rmappable).  NULL when out of memory.
 */
struct folio *folio_alloc(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp | __GFP_COMP, order);
	struct folio *folio = (struct folio *)page;

	if (folio && order > 1)
		folio_set_large_rmappable(folio);
	return folio;
}

/*
 * Turn a non-compound block of 2^order pages into 2^order order-0 pages,
 * each with its own reference, so they can be freed one by one.
 */
void split_page(struct page *page, unsigned int order)
{
	for (unsigned long i = 1; i < (1UL << order); i++)
		set_page_count(page + i, 1);
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

/* The page-cache state a freed folio may keep (Linux does not check it either). */
#define PAGE_FLAGS_CLEARED_AT_FREE (BIT(PG_uptodate) | BIT(PG_dirty) | BIT(PG_swapbacked) | \
				    BIT(PG_active) | BIT(PG_referenced) | BIT(PG_unevictable))

/* Name what is wrong with a head or single page about to be freed, or NULL. */
static const char *page_bad_reason(const struct page *page)
{
	if (atomic_read(&page->_mapcount) != -1)
		return "nonzero mapcount";
	if (page->mapping)
		return "non-NULL mapping";
	if (page_ref_count(page))
		return "nonzero _refcount";
	if (page->flags & ~(BIT(PG_head) | BIT(PG_anon_exclusive) | PAGE_FLAGS_CLEARED_AT_FREE))
		return "PAGE_FLAGS_CHECK_AT_FREE flag(s) set";
	return NULL;
}

/*
 * What every tail must look like when freed: pointing at its head, no
 * mapcount or reference of its own, no flags but those allowed.  NULL if
 * so, else what is wrong.
 */
static const char *tail_page_bad_reason(const struct page *head, const struct page *page,
					unsigned long allowed_flags)
{
	if (page->compound_head != ((unsigned long)head | 1))
		return PageTail(page) ? "compound_head not consistent" : "PageTail not set";
	if ((atomic_read(&page->_mapcount) + 1) | page_ref_count(page))
		return "nonzero mapcount or refcount in tail page";
	if (page->flags & ~allowed_flags)
		return "PAGE_FLAGS_CHECK_AT_FREE flag(s) set on tail";
	return NULL;
}

/* What is wrong with page[1], which carries the folio's mapcounts and MM ID slots; or NULL. */
static const char *folio_second_page_bad_reason(const struct folio *folio)
{
	if (atomic_read(folio_large_mapcount_ptr(folio)) != -1)
		return "nonzero large_mapcount";
	if (IS_ENABLED(CONFIG_MAPCOUNT_PAGES) && atomic_long_read(&folio->_total_mapped_pages))
		return "nonzero total_mapped_pages";
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT) && atomic_read(&folio->_nr_pages_mapped))
		return "nonzero nr_pages_mapped";
	if (folio->_mm_id_mapcount[0] != -1)
		return "nonzero mm mapcount 0";
	if (folio->_mm_id_mapcount[1] != -1)
		return "nonzero mm mapcount 1";
	if (folio->_mm_ids)
		return "MM ID slot or shared bit still set";
	if (!IS_ENABLED(CONFIG_MAPCOUNT_PAGES) && atomic_read(&folio->_entire_mapcount) != -1)
		return "nonzero entire_mapcount";
	if (atomic_read(&folio->_pincount))
		return "nonzero pincount";
	return NULL;
}

/* Clear what made page a tail (Linux's clear_compound_head and the poison). */
static void tail_page_reset(struct page *page)
{
	page->mapping = NULL;
	page->compound_head = 0;
	page->flags = 0;
}

/*
 * Is this ordinary tail (page[3] on) exactly as a tail must be freed?  One
 * test of all its words, so that the per-page cost of freeing a large folio
 * stays small; tail_page_bad_reason() names what is wrong only if not.
 */
static bool ordinary_tail_is_clean(const struct page *head, const struct page *page)
{
	return !(((unsigned long)page->mapping ^ (unsigned long)TAIL_MAPPING) |
		 (page->compound_head ^ ((unsigned long)head | 1)) |
		 (unsigned int)(atomic_read(&page->_mapcount) + 1) |
		 (unsigned int)page_ref_count(page) | (page->flags & ~BIT(PG_anon_exclusive)));
}

/*
 * Check one tail page of a compound page being freed (Linux's
 * free_tail_page_prepare): page[1] carries the folio's mapcounts and MM ID
 * slots, page[2] the deferred list, the others the TAIL_MAPPING poison.
 * A bad tail is reported (with its folio) before the tail is reset, which
 * happens either way.  Returns true if the tail was bad.
 */
static bool free_tail_page_prepare(struct page *head, struct page *page)
{
	struct folio *folio = (struct folio *)head;
	unsigned long allowed_flags = BIT(PG_anon_exclusive);
	const char *why;

	if (likely(page > head + 2)) {
		if (likely(ordinary_tail_is_clean(head, page))) {
			tail_page_reset(page);
			return false;
		}
		why = page->mapping == TAIL_MAPPING ? NULL : "corrupted mapping in tail page";
	} else if (page == head + 1) {
		why = folio_second_page_bad_reason(folio);
		allowed_flags |= FOLIO_ORDER_MASK | BIT(FOLIO_PF_partially_mapped) |
				 BIT(FOLIO_PF_large_rmappable);
	} else {
		why = list_empty(&folio->_deferred_list) ? NULL : "on deferred list";
		page->lru.prev = NULL;          /* _deferred_list.next; .prev is mapping */
	}
	if (!why)
		why = tail_page_bad_reason(head, page, allowed_flags);
	if (why)
		bad_page(page, why);
	if (page == &folio->page + 1)
		folio->_nr_pages = 0;
	tail_page_reset(page);
	return why != NULL;
}

/*
 * Check and reset the pages of a block being freed; false (and a
 * bad_page() report) if one of them is in a wrong state.  Only compound
 * pages have tail state to check, as in Linux.
 */
static bool free_pages_prepare(struct page *page, unsigned int order)
{
	bool compound = PageHead(page), ok = true;
	const char *why;

	if ((unsigned long)page->mapping & PAGE_MAPPING_ANON) {
		mod_mthp_stat(order, MTHP_STAT_NR_ANON, -1);
		page->mapping = NULL;
	}
	/* last tail first: page[1] keeps the order for reports until the end */
	for (unsigned long i = (1UL << order) - 1; compound && i >= 1; i--)
		if (free_tail_page_prepare(page, page + i))
			ok = false;
	why = page_bad_reason(page);
	if (why) {
		bad_page(page, why);
		return false;
	}
	page->flags = 0;
	return ok;
}

static void free_one_block(struct page *page, unsigned int order)
{
	unsigned long flags;

	if (!free_pages_prepare(page, order))
		return;
	spin_lock_irqsave(&zone.lock, flags);
	__free_one_page(page_to_pfn(page), order);
	spin_unlock_irqrestore(&zone.lock, flags);
}

/*
 * Drop a reference to a block of 2^order pages; the last one frees it.
 * A block with a bad page is reported and leaked.  A lockless page-cache
 * lookup may hold a passing reference to any page (mm/filemap.c): if that
 * one is last, its folio_put() frees the first page alone, unless the
 * block is a compound page, so the rest of a plain block goes back here,
 * in the largest pieces that fit (Linux's __free_pages does the same).
 */
void __free_pages(struct page *page, unsigned int order)
{
	bool head = PageHead(page);     /* before the put: the last one resets the flags */

	if (put_page_testzero(page))
		free_one_block(page, order);
	else if (!head)
		while (order-- > 0)
			free_one_block(page + (1UL << order), order);
}

/*
 * The last reference to a folio went: off its LRU list, its mlock count
 * gone, off the deferred split queue, back to the buddy.
 */
static void __folio_put(struct folio *folio)
{
	if (folio_test_lru(folio))
		lru_del_freed_folio(folio);
	if (unlikely(folio_test_mlocked(folio)))
		folio_free_mlocked(folio);
	if (folio_test_large(folio) && folio_test_large_rmappable(folio))
		folio_unqueue_deferred_split(folio);
	free_one_block(&folio->page, folio_order(folio));
}

/* Drop a folio reference; the last one frees it. */
void folio_put(struct folio *folio)
{
	if (put_page_testzero(&folio->page))
		__folio_put(folio);
}

/* Drop refs references at once (one per PTE of an unmapped batch). */
void folio_put_refs(struct folio *folio, int refs)
{
	if (atomic_sub_and_test(refs, &folio->_refcount))
		__folio_put(folio);
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr)
		__free_pages(virt_to_page((void *)addr), order);
}

/*
 * The counts a leak check compares, once the per-CPU LRU batches have let
 * go of the folios they hold (a freed folio's last reference may be a
 * batch's).
 */
void mem_counts_snapshot(struct mem_counts *c)
{
	unsigned long flags;

	lru_add_drain_all();

	spin_lock_irqsave(&zone.lock, flags);
	c->free_pages = zone.free_pages;
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		c->nr_free[o] = zone.free_area[o].nr_free;
	spin_unlock_irqrestore(&zone.lock, flags);
	c->pagetable_pages = READ_ONCE(nr_pagetable_pages);
	c->kmalloc_bytes = READ_ONCE(kmalloc_bytes);
}

bool mem_counts_equal(const struct mem_counts *a, const struct mem_counts *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Print each count that differs, as "name: before -> after". */
void mem_counts_print_diff(const struct mem_counts *a, const struct mem_counts *b)
{
	if (a->free_pages != b->free_pages)
		pr_err("leak: free pages %lu -> %lu\n", a->free_pages, b->free_pages);
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		if (a->nr_free[o] != b->nr_free[o])
			pr_err("leak: free blocks of order %d: %lu -> %lu\n", o,
			       a->nr_free[o], b->nr_free[o]);
	if (a->pagetable_pages != b->pagetable_pages)
		pr_err("leak: page-table pages %lu -> %lu\n", a->pagetable_pages,
		       b->pagetable_pages);
	if (a->kmalloc_bytes != b->kmalloc_bytes)
		pr_err("leak: kmalloc bytes %lu -> %lu\n", a->kmalloc_bytes, b->kmalloc_bytes);
}
