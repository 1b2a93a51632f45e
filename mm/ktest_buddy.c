/*
 * ktest suite "buddy": the buddy allocator on the live zone.
 * Every case also runs inside the ktest leak check (kernel/ktest.c).
 *
 * Lock order: see mm/rmap.c; only the allocator's calls take zone.lock.
 */
#include "linux/ktest.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/mm.h"
#include <asm/timex.h>

/* Allocate every free block of exactly this order onto a list; returns count. */
static unsigned long grab_all(unsigned int order, struct list_head *held)
{
	unsigned long n = 0;
	struct page *page;

	while (zone.free_area[order].nr_free && (page = alloc_pages(0, order))) {
		list_add(&page->lru, held);
		n++;
	}
	return n;
}

static void release_all(unsigned int order, struct list_head *held)
{
	while (!list_empty(held)) {
		struct page *page = list_first_entry(held, struct page, lru);

		list_del(&page->lru);
		page->lru.next = page->lru.prev = NULL;
		__free_pages(page, order);
	}
}

/* Every order hands out a naturally aligned block we can write in full. */
static void buddy_all_orders(struct ktest *t)
{
	for (unsigned int order = 0; order <= MAX_PAGE_ORDER; order++) {
		struct page *page = alloc_pages(__GFP_ZERO, order);
		unsigned long *words;

		KTEST_ASSERT(t, page);
		KTEST_EXPECT(t, IS_ALIGNED(page_to_pfn(page), 1UL << order));
		KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
		KTEST_EXPECT(t, !PageBuddy(page));
		words = page_address(page);
		KTEST_EXPECT_EQ(t, words[(PAGE_SIZE << order) / 8 - 1], 0);
		memset(words, 0xa5, PAGE_SIZE << order);
		__free_pages(page, order);
	}
	KTEST_EXPECT(t, alloc_pages(0, MAX_PAGE_ORDER + 1) == NULL);
}

/*
 * With no free order-0 block, an order-0 allocation splits the smallest
 * larger block k: one block each of orders 0..k-1 is left over.
 */
static void buddy_split(struct ktest *t)
{
	LIST_HEAD(held);
	unsigned long before[NR_PAGE_ORDERS];
	unsigned int k = 1;
	struct page *page;

	grab_all(0, &held);
	KTEST_EXPECT_EQ(t, zone.free_area[0].nr_free, 0);
	while (k < NR_PAGE_ORDERS && !zone.free_area[k].nr_free)
		k++;
	KTEST_ASSERT(t, k < NR_PAGE_ORDERS);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		before[o] = zone.free_area[o].nr_free;
	page = alloc_page(0);
	KTEST_ASSERT(t, page);
	KTEST_EXPECT_EQ(t, zone.free_area[k].nr_free, before[k] - 1);
	for (unsigned int o = 0; o < k; o++)
		KTEST_EXPECT_EQ(t, zone.free_area[o].nr_free, before[o] + 1);
	/* the leftover order-0 block is our page's buddy */
	KTEST_EXPECT(t, PageBuddy(pfn_to_page(page_to_pfn(page) ^ 1)));
	__free_page(page);
	release_all(0, &held);
}

/*
 * Free the eight pages of an order-3 block one by one, in a scrambled order:
 * the block must come back whole only when the last page is freed.
 */
static void buddy_coalesce(struct ktest *t)
{
	static const int free_order[8] = { 5, 2, 7, 0, 3, 6, 1, 4 };
	struct page *block = alloc_pages(0, 3);
	unsigned long pfn;

	KTEST_ASSERT(t, block);
	pfn = page_to_pfn(block);
	split_page(block, 3);
	for (int i = 0; i < 8; i++) {
		__free_page(block + free_order[i]);
		if (i < 7) {
			for (int j = 0; j < 8; j++)
				KTEST_EXPECT(t, !PageBuddy(block + j) || block[j].private < 3);
		}
	}
	/* now pfn heads a free block of order >= 3, or is inside a larger one */
	for (unsigned int o = 3; o <= MAX_PAGE_ORDER; o++) {
		struct page *head = pfn_to_page(ALIGN_DOWN(pfn, 1UL << o));

		if (PageBuddy(head) && head->private >= o)
			return;
	}
	ktest_fail(t, __FILE__, __LINE__, "pfn %#lx did not coalesce to order >= 3", pfn);
}

/* Drain the zone at order 0: then nothing of any order is left; refill. */
static void buddy_exhaustion(struct ktest *t)
{
	unsigned long free_before = zone.free_pages, n = 0;
	LIST_HEAD(held);
	struct page *page;

	while ((page = alloc_page(0))) {
		list_add(&page->lru, &held);
		n++;
	}
	KTEST_EXPECT_EQ(t, n, free_before);
	KTEST_EXPECT_EQ(t, zone.free_pages, 0);
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++)
		KTEST_EXPECT(t, alloc_pages(0, o) == NULL);
	release_all(0, &held);
	KTEST_EXPECT_EQ(t, zone.free_pages, free_before);
}

/* Take back a block that bad_page() leaked, as a plain (non-compound) one. */
static void recover_leaked(struct page *page, unsigned int order)
{
	for (unsigned long i = 0; i < (1UL << order); i++) {
		atomic_set(&page[i]._mapcount, -1);
		page[i].flags = 0;
		page[i].mapping = NULL;
		page[i].compound_head = 0;
	}
	set_page_count(page, 1);
	__free_pages(page, order);
}

/* Freeing a page in a wrong state is reported by name and the block kept. */
static void buddy_bad_page(struct ktest *t)
{
	struct page *page = alloc_pages(__GFP_COMP, 2);
	unsigned long bad = nr_bad_pages;

	KTEST_ASSERT(t, page);
	atomic_set(&page[1]._mapcount, 0);      /* a "mapped" tail page */
	__free_pages(page, 2);
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad + 1);
	KTEST_EXPECT(t, !PageBuddy(page));      /* leaked, not freed */
	recover_leaked(page, 2);
	page = alloc_pages(__GFP_COMP, 2);
	KTEST_ASSERT(t, page);
	page[3].compound_head = 0;              /* a tail that lost its head */
	__free_pages(page, 2);
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad + 2);
	recover_leaked(page, 2);
	t->expected_bad_pages = 2;
}

/* Cycles per alloc and per free of every free block at one order. */
static void bench_order(struct ktest *t, unsigned int order)
{
	LIST_HEAD(held);
	unsigned long n = 0;
	struct page *page;
	u64 t0, t1, t2;

	t0 = get_cycles();
	while ((page = alloc_pages(0, order))) {
		list_add(&page->lru, &held);
		n++;
	}
	t1 = get_cycles();
	release_all(order, &held);
	t2 = get_cycles();
	KTEST_ASSERT(t, n);
	ktest_diag("buddy bench: order %u: %lu blocks (%lu MiB), alloc %lu cycles/op, free %lu cycles/op",
		   order, n, (n << order) >> 8, (unsigned long)((t1 - t0) / n),
		   (unsigned long)((t2 - t1) / n));
}

/* Allocate and free all free memory at order 0, then at order 9. */
static void buddy_bench(struct ktest *t)
{
	bench_order(t, 0);
	bench_order(t, HPAGE_PMD_ORDER);
}

static const struct ktest_case buddy_cases[] = {
	KTEST_CASE(buddy_all_orders),
	KTEST_CASE(buddy_split),
	KTEST_CASE(buddy_coalesce),
	KTEST_CASE(buddy_exhaustion),
	KTEST_CASE(buddy_bad_page),
	KTEST_CASE(buddy_bench),
};
KTEST_SUITE(buddy, buddy_cases);
