/* Host tests of mm/memblock.c and mm/page_alloc.c (the buddy allocator). */
#include "tests/host/hostenv.h"
#include "linux/mm.h"
#include "linux/page-flags.h"
#include "linux/memblock.h"
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define RAM (64UL << 20)

static int boot(void **state)
{
	(void)state;
	host_machine_boot(RAM);
	return 0;
}

static int shutdown(void **state)
{
	(void)state;
	host_machine_shutdown();
	return 0;
}

/* Ranges merge when they touch, and reservations carve allocations out. */
static void test_memblock_merge_and_alloc(void **state)
{
	(void)state;
	memset(&memblock, 0, sizeof(memblock));
	memblock.alloc_limit = ~0UL;
	memblock_add(0x300000, 0x100000);
	memblock_add(0x100000, 0x100000);
	memblock_add(0x200000, 0x100000);       /* bridges the two */
	assert_int_equal(memblock.memory.cnt, 1);
	assert_int_equal(memblock.memory.regions[0].base, 0x100000);
	assert_int_equal(memblock.memory.regions[0].size, 0x300000);
	memblock_reserve(0x100000, 0x1000);
	assert_int_equal(memblock_alloc(0x1000, 0x1000), 0x101000);
	assert_int_equal(memblock_alloc(0x2000, 0x10000), 0x110000);
	assert_true(memblock_is_reserved(0x111fff));
	assert_false(memblock_is_reserved(0x112000));
	assert_int_equal(memblock_alloc(0x400000, 0x1000), 0);  /* too big */
	memblock.alloc_limit = 0x120000;
	assert_int_equal(memblock_alloc(0x8000, 0x1000), 0x102000);
	assert_int_equal(memblock_alloc(0x10000, 0x1000), 0);   /* over the limit */
	assert_int_equal(memblock_phys_mem_size(), 0x300000);
	assert_int_equal(memblock_end_of_ram(), 0x400000);
}

/* Boot gives every free page to the buddy, in maximal aligned blocks. */
static void test_boot_counts(void **state)
{
	unsigned long sum = 0;

	(void)state;
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		sum += zone.free_area[o].nr_free << o;
	assert_int_equal(sum, zone.free_pages);
	assert_int_equal(zone.free_pages, zone.managed_pages);
	/* 64 MiB less the first MiB, the memmap (16384 pages * 64 B = 1 MiB) and the zero page */
	assert_int_equal(zone.free_pages, (RAM - (2UL << 20)) / PAGE_SIZE - 1);
	assert_true(zone.free_area[MAX_PAGE_ORDER].nr_free >= 14);
	assert_true(PageReserved(pfn_to_page(0)));
}

static void test_all_orders_aligned(void **state)
{
	(void)state;
	for (unsigned int order = 0; order <= MAX_PAGE_ORDER; order++) {
		struct page *page = alloc_pages(__GFP_ZERO | __GFP_COMP, order);

		assert_non_null(page);
		assert_true(IS_ALIGNED(page_to_pfn(page), 1UL << order));
		assert_int_equal(page_ref_count(page), 1);
		if (order) {
			assert_true(PageHead(page));
			assert_int_equal(page[(1 << order) - 1].compound_head, (unsigned long)page | 1);
		}
		__free_pages(page, order);
	}
	assert_null(alloc_pages(0, MAX_PAGE_ORDER + 1));
	assert_int_equal(nr_bad_pages, 0);
}

/* A fresh machine has only order-10 blocks at the top: an order-0 allocation
 * splits one into exactly one free block of each order 0..9. */
static void test_split_exact(void **state)
{
	unsigned long before[NR_PAGE_ORDERS];
	struct page *held[NR_PAGE_ORDERS][64];
	int nheld[NR_PAGE_ORDERS] = { 0 };
	struct page *page;

	(void)state;
	for (int o = 0; o < MAX_PAGE_ORDER; o++)     /* empty the small orders */
		while (zone.free_area[o].nr_free)
			held[o][nheld[o]++] = alloc_pages(0, o);
	memcpy(before, (unsigned long[NR_PAGE_ORDERS]){ 0 }, sizeof(before));
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		before[o] = zone.free_area[o].nr_free;
	page = alloc_page(0);
	assert_non_null(page);
	assert_int_equal(zone.free_area[MAX_PAGE_ORDER].nr_free, before[MAX_PAGE_ORDER] - 1);
	for (int o = 0; o < MAX_PAGE_ORDER; o++)
		assert_int_equal(zone.free_area[o].nr_free, 1);
	__free_page(page);
	assert_int_equal(zone.free_area[MAX_PAGE_ORDER].nr_free, before[MAX_PAGE_ORDER]);
	for (int o = 0; o < MAX_PAGE_ORDER; o++)
		for (int i = 0; i < nheld[o]; i++)
			__free_pages(held[o][i], o);
}

/* Walk the free lists: blocks aligned, marked, disjoint, and fully merged. */
static void check_free_lists(unsigned char *owner)
{
	unsigned long total = 0;

	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		struct page *page;
		unsigned long n = 0;

		list_for_each_entry(page, &zone.free_area[o].free_list, lru) {
			unsigned long pfn = page_to_pfn(page), buddy = pfn ^ (1UL << o);

			assert_true(PageBuddy(page));
			assert_int_equal(page->private, o);
			assert_true(IS_ALIGNED(pfn, 1UL << o));
			for (unsigned long i = 0; i < (1UL << o); i++)
				assert_int_equal(owner[pfn + i], 0);
			if (o < MAX_PAGE_ORDER && pfn_valid(buddy)) {
				struct page *b = pfn_to_page(buddy);

				assert_false(PageBuddy(b) && b->private == o);
			}
			n++;
		}
		assert_int_equal(n, zone.free_area[o].nr_free);
		total += n << o;
	}
	assert_int_equal(total, zone.free_pages);
}

/*
 * Random allocations and frees against a map of who owns each pfn: no
 * block is handed out twice, the free lists stay consistent, and after
 * freeing everything the zone is exactly as it started.
 */
static void test_random_model(void **state)
{
	enum { SLOTS = 256, STEPS = 20000 };
	struct { struct page *page; unsigned int order; } slot[SLOTS] = { 0 };
	unsigned char *owner = calloc(max_pfn, 1);
	unsigned long start[NR_PAGE_ORDERS];
	unsigned int seed = 12345;

	(void)state;
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		start[o] = zone.free_area[o].nr_free;
	srand(seed);
	for (int step = 0; step < STEPS; step++) {
		int i = rand() % SLOTS;

		if (slot[i].page) {
			unsigned long pfn = page_to_pfn(slot[i].page);

			memset(owner + pfn, 0, 1UL << slot[i].order);
			__free_pages(slot[i].page, slot[i].order);
			slot[i].page = NULL;
		} else {
			unsigned int order = rand() % 4 == 0 ? rand() % NR_PAGE_ORDERS : rand() % 3;
			struct page *page = alloc_pages(0, order);

			if (page) {
				unsigned long pfn = page_to_pfn(page);

				for (unsigned long k = 0; k < (1UL << order); k++) {
					assert_int_equal(owner[pfn + k], 0);
					owner[pfn + k] = 1;
				}
				slot[i].page = page;
				slot[i].order = order;
			}
		}
		if (step % 1000 == 0)
			check_free_lists(owner);
	}
	for (int i = 0; i < SLOTS; i++)
		if (slot[i].page) {
			memset(owner + page_to_pfn(slot[i].page), 0, 1UL << slot[i].order);
			__free_pages(slot[i].page, slot[i].order);
		}
	check_free_lists(owner);
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		assert_int_equal(zone.free_area[o].nr_free, start[o]);
	free(owner);
}

/* Each bad state is named in the report, and the page is not freed. */
static void test_bad_page_reasons(void **state)
{
	struct page *page;

	(void)state;
	page = alloc_page(0);
	atomic_set(&page->_mapcount, 2);
	__free_page(page);
	assert_non_null(strstr(host_log(), "nonzero mapcount"));
	assert_false(PageBuddy(page));
	atomic_set(&page->_mapcount, -1);
	page->mapping = (void *)0x10;
	set_page_count(page, 1);
	__free_page(page);
	assert_non_null(strstr(host_log(), "non-NULL mapping"));
	page->mapping = NULL;
	SetPageTable(page);
	set_page_count(page, 1);
	__free_page(page);
	assert_non_null(strstr(host_log(), "PAGE_FLAGS_CHECK_AT_FREE"));
	ClearPageTable(page);
	set_page_count(page, 1);
	__free_page(page);
	assert_int_equal(nr_bad_pages, 3);
	assert_true(PageBuddy(page) || zone.free_pages == zone.managed_pages);
	assert_int_equal(zone.free_pages, zone.managed_pages);
}

/*
 * Free an order-4 folio with one thing wrong in one of its tails: the
 * report must name it, once.  (The block is kept back, as Linux keeps a
 * bad page; the machine is discarded after the test.)
 */
static void expect_bad_tail(int tail, void (*corrupt)(struct page *), const char *reason)
{
	struct folio *folio = folio_alloc(0, 4);
	unsigned long bad = nr_bad_pages;

	assert_non_null(folio);
	host_log_clear();
	corrupt(folio_page(folio, tail));
	__free_pages(&folio->page, 4);          /* not folio_put: that would unqueue it */
	assert_int_equal(nr_bad_pages, bad + 1);
	assert_non_null(strstr(host_log(), reason));
}

static void poison_mapping(struct page *p)   { p->mapping = (void *)0x10; }
static void other_head(struct page *p)       { p->compound_head += 64; }
static void not_tail(struct page *p)         { p->compound_head = 0; }
static void mapped_tail(struct page *p)      { atomic_set(&p->_mapcount, 0); }
static void referenced_tail(struct page *p)  { set_page_count(p, 1); }
static void flagged_tail(struct page *p)     { SetPageTable(p); }
static void pinned_folio(struct page *p)     { atomic_set(&page_folio(p)->_pincount, 1); }
static void queued_folio(struct page *p)     { page_folio(p)->_deferred_list.next = (void *)p; }

/* Every tail of a large folio is checked at free, and each wrong state named. */
static void test_bad_tail_reasons(void **state)
{
	(void)state;
	expect_bad_tail(3, poison_mapping, "corrupted mapping in tail page");
	expect_bad_tail(15, poison_mapping, "corrupted mapping in tail page");
	expect_bad_tail(7, other_head, "compound_head not consistent");
	expect_bad_tail(7, not_tail, "PageTail not set");
	expect_bad_tail(9, mapped_tail, "nonzero mapcount or refcount in tail page");
	expect_bad_tail(9, referenced_tail, "nonzero mapcount or refcount in tail page");
	expect_bad_tail(4, flagged_tail, "PAGE_FLAGS_CHECK_AT_FREE flag(s) set on tail");
	expect_bad_tail(1, flagged_tail, "PAGE_FLAGS_CHECK_AT_FREE flag(s) set on tail");
	expect_bad_tail(1, pinned_folio, "nonzero pincount");
	expect_bad_tail(2, queued_folio, "on deferred list");
	expect_bad_tail(2, referenced_tail, "nonzero mapcount or refcount in tail page");
}

/* A page still referenced is not freed by one put. */
static void test_refcount(void **state)
{
	struct page *page = alloc_page(0);
	unsigned long free_before = zone.free_pages;

	(void)state;
	get_page(page);
	__free_page(page);
	assert_int_equal(zone.free_pages, free_before);
	__free_page(page);
	assert_int_equal(zone.free_pages, free_before + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memblock_merge_and_alloc),
		cmocka_unit_test_setup_teardown(test_boot_counts, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_all_orders_aligned, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_split_exact, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_random_model, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_bad_page_reasons, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_bad_tail_reasons, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_refcount, boot, shutdown),
	};

	return cmocka_run_group_tests_name("buddy", tests, NULL, NULL);
}
