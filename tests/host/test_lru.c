/*
 * Host tests of the LRU lists and reclaim (mm/swap.c, mm/vmscan_lru.c,
 * mm/vmscan.c, mm/rmap_referenced.c), through the software MMU, which sets
 * the accessed bits as an x86 MMU does, with the host's fake swap device:
 *
 *   batch      a new folio waits in the CPU's batch (a reference, PG_lru
 *              clear) until the batch is full or drained; then it is on the
 *              inactive anon list and the counts say so
 *   isolate    off the list with a reference, once; back by putback
 *   references reclaim keeps what was used since its last look (a first
 *              use: another round; a second: the active list) and sends
 *              the cold pages to swap, whose data faults back intact
 *   split      a THP on the LRU split: every piece on the list, the counts
 *              unchanged
 *   free       a freed folio leaves its list
 *
 * Each test ends with the swap device empty and the machine's leak check.
 */
#include "tests/host/swap_helpers.h"
#include "linux/mm_inline.h"
#include "mm/deferred_split.h"
#include "mm/vmscan.h"

/* The folio addr maps, looked up in its PTE: not through the MMU, which would make it young. */
static struct folio *folio_quiet(unsigned long addr)
{
	return page_folio(pfn_to_page(pte_pfn(pte_of(mm, addr))));
}

static long lru_pages(enum lru_list lru)
{
	return NODE_DATA(0)->__lruvec.nr_pages[lru];
}

/* A folio waits in the batch, then joins the inactive anon list. */
static void test_batch(void **state)
{
	long inactive0 = lru_pages(LRU_INACTIVE_ANON);
	struct folio *f[4];

	(void)state;
	lru_add_batch_size = 15;
	assert_int_equal(do_mmap(mm, NULL, BASE, 4 * PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	for (int i = 0; i < 4; i++) {
		fill_page(mm, BASE + i * PS, i);
		f[i] = folio_of(mm, BASE + i * PS);
		assert_false(folio_test_lru(f[i]));
		assert_int_equal(folio_ref_count(f[i]), 2);     /* the mapping's and the batch's */
	}
	assert_int_equal(lru_pages(LRU_INACTIVE_ANON), inactive0);
	lru_add_drain_all();
	for (int i = 0; i < 4; i++) {
		assert_true(folio_test_lru(f[i]));
		assert_true(folio_test_swapbacked(f[i]));
		assert_false(folio_test_active(f[i]));
		assert_int_equal(folio_ref_count(f[i]), 1);
	}
	assert_int_equal(lru_pages(LRU_INACTIVE_ANON), inactive0 + 4);
	assert_int_equal(global_node_page_state(NR_INACTIVE_ANON), lru_pages(LRU_INACTIVE_ANON));
	lru_add_batch_size = 1;
	assert_int_equal(do_munmap(mm, BASE, 4 * PS), 0);
	assert_int_equal(lru_pages(LRU_INACTIVE_ANON), inactive0);     /* freed: off the list */
}

/* Isolation takes the folio off with a reference, once; putback returns it. */
static void test_isolate_putback(void **state)
{
	long inactive0 = lru_pages(LRU_INACTIVE_ANON);
	struct folio *f;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	fill_page(mm, BASE, 1);
	f = folio_of(mm, BASE);
	assert_true(folio_isolate_lru(f));
	assert_false(folio_test_lru(f));
	assert_int_equal(folio_ref_count(f), 2);
	assert_int_equal(lru_pages(LRU_INACTIVE_ANON), inactive0);
	assert_false(folio_isolate_lru(f));                     /* not on a list: no */
	folio_set_active(f);
	folio_putback_lru(f);
	assert_true(folio_test_lru(f));
	assert_int_equal(folio_ref_count(f), 1);
	assert_int_equal(lru_pages(LRU_ACTIVE_ANON), 1);
	folio_deactivate(f);
	assert_false(folio_test_active(f));
	assert_int_equal(lru_pages(LRU_ACTIVE_ANON), 0);
	folio_mark_accessed(f);                                 /* a first use: referenced */
	assert_true(folio_test_referenced(f));
	folio_mark_accessed(f);                                 /* a second: active */
	assert_true(folio_test_active(f));
	assert_int_equal(lru_pages(LRU_ACTIVE_ANON), 1);
	assert_int_equal(do_munmap(mm, BASE, PS), 0);
	assert_int_equal(lru_pages(LRU_ACTIVE_ANON), 0);
}

/* One pass of reclaim over every list (priority 0), aiming at nr pages; what it freed. */
static unsigned long shrink_all(unsigned long nr)
{
	struct scan_control sc = { .nr_to_reclaim = nr, .priority = 0 };

	shrink_node(&sc);
	return sc.nr_reclaimed;
}

/*
 * Two passes: the first finds every page just used (its fault made it
 * young) and keeps them all, marked referenced; then the first half is
 * used again, and the second pass activates it and sends the other half
 * to swap — then finds the inactive list empty and ages the active list
 * into it (Linux's shrink_active_list: a small list's whole).
 */
static void test_references(void **state)
{
	const unsigned long n = 32;
	long out0 = event(PSWPOUT), scan0 = event(PGSCAN_DIRECT);
	long act0 = event(PGACTIVATE), deact0 = event(PGDEACTIVATE);

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 2 * n * PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	madvise(mm, BASE, 2 * n * PS, MADV_NOHUGEPAGE);
	for (unsigned long i = 0; i < 2 * n; i++)
		fill_page(mm, BASE + i * PS, i);
	assert_int_equal(shrink_all(n), 0);
	for (unsigned long i = 0; i < 2 * n; i++) {
		assert_true(folio_test_referenced(folio_quiet(BASE + i * PS)));
		assert_false(pte_young(pte_of(mm, BASE + i * PS)));
	}
	for (unsigned long i = 0; i < n; i++)                   /* the first half used again */
		assert_true(page_holds(mm, BASE + i * PS, i));
	assert_int_equal(shrink_all(n), n);
	for (unsigned long i = 0; i < n; i++)
		assert_true(pte_present(pte_of(mm, BASE + i * PS)));
	/* activated, then aged back: the inactive list, emptied, fed from the active one */
	assert_int_equal(event(PGACTIVATE) - act0, n);
	assert_int_equal(event(PGDEACTIVATE) - deact0, n);
	assert_int_equal(lru_pages(LRU_INACTIVE_ANON), n);
	for (unsigned long i = n; i < 2 * n; i++)
		assert_false(pte_present(pte_of(mm, BASE + i * PS)));
	assert_int_equal(event(PSWPOUT) - out0, n);
	assert_int_equal(event(PGSCAN_DIRECT) - scan0, 4 * n);     /* each page looked at twice */
	for (unsigned long i = n; i < 2 * n; i++) {             /* the cold half faults back */
		assert_int_equal(fault(mm, BASE + i * PS, false), VM_FAULT_MAJOR);
		assert_true(page_holds(mm, BASE + i * PS, i));
	}
	assert_int_equal(do_munmap(mm, BASE, 2 * n * PS), 0);
}

/* A THP on the LRU split: 512 folios in its place, the counts unchanged. */
static void test_split_on_lru(void **state)
{
	long inactive0 = lru_pages(LRU_INACTIVE_ANON);
	struct folio *f;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	madvise(mm, BASE, PMD_SIZE, MADV_HUGEPAGE);
	fill_page(mm, BASE, 7);
	f = folio_of(mm, BASE);
	assert_int_equal(folio_order(f), HPAGE_PMD_ORDER);
	assert_true(folio_test_lru(f));
	assert_int_equal(lru_pages(LRU_INACTIVE_ANON), inactive0 + HPAGE_PMD_NR);
	folio_get(f);
	assert_true(folio_trylock(f));
	assert_int_equal(split_queued_folio_to_list(f, 0, NULL), 0);
	folio_unlock(f);
	folio_put(f);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
		struct folio *piece = folio_of(mm, BASE + i * PS);

		assert_int_equal(folio_order(piece), 0);
		assert_true(folio_test_lru(piece));
	}
	assert_int_equal(lru_pages(LRU_INACTIVE_ANON), inactive0 + HPAGE_PMD_NR);
	assert_int_equal(global_node_page_state(NR_INACTIVE_ANON), lru_pages(LRU_INACTIVE_ANON));
	assert_true(page_holds(mm, BASE, 7));
	assert_int_equal(do_munmap(mm, BASE, PMD_SIZE), 0);
	assert_int_equal(lru_pages(LRU_INACTIVE_ANON), inactive0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_batch, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_isolate_putback, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_references, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_split_on_lru, boot, shutdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
