/*
 * Host tests of swap (linux/swap.h): anon folios out to the host's fake
 * swap device (tests/host/hostswap.c) by MADV_PAGEOUT and back by faults,
 * through the software MMU, in every mapcount variant.
 *
 *   order 0     pageout leaves an exclusive swap entry (count 1), frees the
 *               page, moves RSS to VmSwap; a read fault reads it back
 *               AnonExclusive, the slot only cached; a write reuses it; a
 *               clean cached folio goes out again without a write; a write
 *               fault frees the slot at once; swap more than half full
 *               frees it on a read too
 *   mTHP, THP   16 (512) slots aligned to 16 (512); one fault maps the
 *               whole folio from the swap cache; once freed, order-0
 *               swap-ins page by page; no aligned run: split, page by page
 *   exit        munmap and exit give every slot back
 *
 * Fork, swap counts and I/O errors: tests/host/test_swap_fork.c.
 * Each test ends with the swap device empty (every slot free but the
 * header's, nothing in the swap cache or swap_cont, no mm on swap_mmlist)
 * and the machine's leak check (mm_test_shutdown).
 */
#include "tests/host/swap_helpers.h"

/* --- order 0 ------------------------------------------------------------- */

/*
 * A 4 KiB page out and back: MADV_COLD only ages it; MADV_PAGEOUT leaves an
 * exclusive entry of count 1 and frees the page; a read fault reads it in
 * AnonExclusive, writable (VM_SOFTDIRTY), the slot kept by the swap cache;
 * a write through the MMU keeps the page (same PFN); the next pageout
 * finds it in the cache, writes it (dirty) and frees it; a write fault
 * reads it and frees the slot at once; munmap of an entry frees its slot.
 */
static void test_small_out_and_in(void **state)
{
	long out0 = event(PSWPOUT), in0 = event(PSWPIN);
	unsigned long free0, maj0, pfn;
	struct folio *f;
	swp_entry_t e;
	pte_t pte;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 2 * PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	fill_page(mm, BASE, 0x11);
	fill_page(mm, BASE + PS, 0x22);
	f = folio_of(mm, BASE);
	assert_int_equal(folio_order(f), 0);
	assert_true(PageAnonExclusive(&f->page));
	assert_int_equal(mm->rss_anon, 2);

	/* MADV_COLD: old, still there, no swap */
	assert_true(pte_young(pte_of(mm, BASE)));
	assert_int_equal(madvise(mm, BASE, PS, MADV_COLD), 0);
	assert_true(pte_present(pte_of(mm, BASE)));
	assert_false(pte_young(pte_of(mm, BASE)));
	assert_int_equal(swap_used(), 0);

	/* out */
	free0 = free_pages_now();
	pageout(mm, BASE, PS);
	e = swap_entry_at(mm, BASE);
	assert_true(pte_swp_exclusive(pte_of(mm, BASE)));
	assert_count(e, 1, false);
	assert_int_equal(free_pages_now(), free0 + 1);         /* the folio went */
	assert_int_equal(mm->rss_swap, 1);
	assert_int_equal(mm->rss_anon, 1);                     /* the other page's */
	assert_int_equal(swap_used(), 1);
	assert_int_equal(si->inuse_pages, 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_int_equal(event(PSWPOUT), out0 + 1);
	assert_false(list_empty(&mm->mmlist));                 /* on swapoff's list */
	assert_int_equal(read_byte(mm, BASE, ACC_USER), -1);
	assert_true(page_holds(mm, BASE + PS, 0x22));          /* the neighbour stayed */

	/* a read fault reads it back: exclusive, the slot kept for the swap cache */
	maj0 = host_maj_flt;
	assert_int_equal(fault(mm, BASE, false), VM_FAULT_MAJOR);
	assert_int_equal(host_maj_flt, maj0 + 1);
	assert_int_equal(event(PSWPIN), in0 + 1);
	pte = pte_of(mm, BASE);
	assert_true(pte_present(pte));
	assert_true(pte_write(pte));                            /* exclusive, VM_SOFTDIRTY: no COW fault */
	assert_false(pte_dirty(pte));
	assert_true(page_holds(mm, BASE, 0x11));
	f = folio_of(mm, BASE);
	pfn = folio_pfn(f);
	assert_true(PageAnonExclusive(&f->page));
	assert_true(folio_test_anon(f));
	assert_true(folio_test_swapcache(f));
	assert_int_equal(f->swap.val, e.val);
	assert_false(folio_test_dirty(f));
	assert_int_equal(folio_ref_count(f), 2);               /* the PTE's, the cache's */
	assert_count(e, 0, true);
	assert_int_equal(swap_used(), 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 1);
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(mm->rss_anon, 2);

	/* a write keeps the page: no copy */
	write_byte(mm, BASE + 5, 0xee);
	assert_int_equal(pfn_of(mm, BASE), pfn);
	assert_true(page_holds2(mm, BASE, 0x11, 5, 0xee));
	assert_true(pte_dirty(pte_of(mm, BASE)));

	/* out again: the cached folio keeps its slot, is written (dirty), freed */
	free0 = free_pages_now();
	pageout(mm, BASE, PS);
	assert_int_equal(swap_entry_at(mm, BASE).val, e.val);
	assert_true(pte_swp_exclusive(pte_of(mm, BASE)));
	assert_count(e, 1, false);
	assert_int_equal(event(PSWPOUT), out0 + 2);
	assert_int_equal(free_pages_now(), free0 + 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);

	/* a write fault reads it and frees the slot at once */
	assert_int_equal(fault(mm, BASE, true), VM_FAULT_MAJOR);
	pte = pte_of(mm, BASE);
	assert_true(pte_present(pte) && pte_write(pte) && pte_dirty(pte));
	f = folio_of(mm, BASE);
	assert_true(PageAnonExclusive(&f->page));
	assert_false(folio_test_swapcache(f));
	assert_int_equal(folio_ref_count(f), 1);
	assert_true(page_holds2(mm, BASE, 0x11, 5, 0xee));    /* the second write-out's data */
	assert_int_equal(map_of(e), 0);
	assert_int_equal(swap_used(), 0);
	assert_int_equal(si->inuse_pages, 0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_int_equal(mm->rss_swap, 0);

	/* munmap of a swap entry frees its slot */
	pageout(mm, BASE, 2 * PS);
	assert_int_equal(mm->rss_swap, 2);
	assert_int_equal(swap_used(), 2);
	e = swap_entry_at(mm, BASE);
	assert_count(e, 1, false);
	assert_int_equal(do_munmap(mm, BASE, PS), 0);
	assert_int_equal(mm->rss_swap, 1);
	assert_int_equal(swap_used(), 1);
	assert_int_equal(map_of(e), 0);
	assert_int_equal(fault(mm, BASE + PS, false), VM_FAULT_MAJOR);
	assert_true(page_holds(mm, BASE + PS, 0x22));
}

/*
 * More than half the swap space in use (vm_swap_full): a read fault frees
 * the slot at once, as a write fault does.
 */
static void test_swap_full_frees_on_read(void **state)
{
	swp_entry_t e;

	(void)state;
	host_swapoff();
	host_swapon(8);                                         /* 7 slots */
	assert_int_equal(do_mmap(mm, NULL, BASE, 4 * PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	for (int i = 0; i < 4; i++)
		fill_page(mm, BASE + i * PS, 0x30 + i);
	pageout(mm, BASE, 4 * PS);
	assert_int_equal(swap_used(), 4);
	assert_true(vm_swap_full());
	e = swap_entry_at(mm, BASE + 2 * PS);
	assert_int_equal(fault(mm, BASE + 2 * PS, false), VM_FAULT_MAJOR);
	assert_true(page_holds(mm, BASE + 2 * PS, 0x32));
	assert_int_equal(map_of(e), 0);                         /* not kept for the cache */
	assert_false(folio_test_swapcache(folio_of(mm, BASE + 2 * PS)));
	assert_int_equal(swap_used(), 3);
	for (int i = 0; i < 4; i++) {
		if (i != 2)
			assert_int_equal(fault(mm, BASE + i * PS, false), VM_FAULT_MAJOR);
		assert_true(page_holds(mm, BASE + i * PS, 0x30 + i));
	}
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 3);   /* swap no longer full: kept */
}

/* --- large folios --------------------------------------------------------- */

/*
 * An mTHP goes out whole: 16 slots in a row, aligned to 16, each PTE the
 * entry of its page, exclusive.  Kept in the swap cache (a reference held
 * across the pageout, as a GUP would), one read fault in its middle maps
 * all 16 pages of it again, not major; out again it is not written (clean)
 * and freed; then each fault reads one order-0 page.
 */
static void test_mthp_out_and_in(void **state)
{
	long out0 = event(PSWPOUT), mthp_out0 = sum_mthp_stat(4, MTHP_STAT_SWPOUT);
	unsigned long free0;
	struct folio *f;
	swp_entry_t e0;

	(void)state;
	f = map_mthp(16 * PS);
	folio_get(f);                                           /* someone else's reference */
	pageout(mm, BASE, 16 * PS);
	e0 = swap_entry_at(mm, BASE);
	assert_int_equal(swp_offset(e0) % 16, 0);
	for (int i = 0; i < 16; i++) {
		pte_t pte = pte_of(mm, BASE + i * PS);

		assert_int_equal(swap_entry_at(mm, BASE + i * PS).val, swp_entry_add(e0, i).val);
		assert_true(pte_swp_exclusive(pte));
		assert_count(swp_entry_add(e0, i), 1, true);
	}
	assert_true(folio_test_swapcache(f));
	assert_int_equal(f->swap.val, e0.val);
	assert_false(folio_mapped(f));
	assert_false(folio_test_dirty(f));                      /* written */
	assert_int_equal(folio_ref_count(f), 1 + 16);
	assert_int_equal(event(PSWPOUT), out0 + 16);
	assert_int_equal(sum_mthp_stat(4, MTHP_STAT_SWPOUT), mthp_out0 + 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 16);
	assert_int_equal(swap_used(), 16);
	assert_int_equal(mm->rss_swap, 16);
	assert_int_equal(mm->rss_anon, 0);
	folio_put(f);

	/* one fault maps the whole folio from the swap cache */
	assert_int_equal(fault(mm, BASE + 5 * PS, false), 0);    /* no I/O */
	for (int i = 0; i < 16; i++) {
		assert_int_equal(pfn_of(mm, BASE + i * PS), folio_pfn(f) + i);
		assert_true(page_holds(mm, BASE + i * PS, 0x40 + i));
		assert_true(PageAnonExclusive(folio_page(f, i)));
		assert_count(swp_entry_add(e0, i), 0, true);
	}
	assert_int_equal(folio_mapcount(f), 16);
	assert_int_equal(folio_ref_count(f), 16 + 16);
	assert_false(folio_maybe_mapped_shared(f));
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(mm->rss_anon, 16);

	/* out again, clean: same slots, not written, freed */
	free0 = free_pages_now();
	pageout(mm, BASE, 16 * PS);
	for (int i = 0; i < 16; i++) {
		assert_int_equal(swap_entry_at(mm, BASE + i * PS).val, swp_entry_add(e0, i).val);
		assert_count(swp_entry_add(e0, i), 1, false);
	}
	assert_int_equal(event(PSWPOUT), out0 + 16);
	assert_int_equal(free_pages_now(), free0 + 16);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);

	/* the folio is gone: order-0 swap-ins, one page per fault */
	assert_int_equal(fault(mm, BASE + 5 * PS, false), VM_FAULT_MAJOR);
	assert_int_equal(folio_order(folio_of(mm, BASE + 5 * PS)), 0);
	assert_true(page_holds(mm, BASE + 5 * PS, 0x45));
	assert_count(swp_entry_add(e0, 5), 0, true);
	assert_int_equal(swap_entry_at(mm, BASE + 4 * PS).val, swp_entry_add(e0, 4).val);
	assert_int_equal(swap_entry_at(mm, BASE + 6 * PS).val, swp_entry_add(e0, 6).val);
	assert_int_equal(mm->rss_swap, 15);
	for (int i = 0; i < 16; i++) {
		if (i != 5)
			assert_int_equal(fault(mm, BASE + i * PS, false), VM_FAULT_MAJOR);
		assert_int_equal(folio_order(folio_of(mm, BASE + i * PS)), 0);
		assert_true(page_holds(mm, BASE + i * PS, 0x40 + i));
		assert_true(PageAnonExclusive(pfn_to_page(pfn_of(mm, BASE + i * PS))));
	}
	assert_int_equal(mm->rss_anon, 16);
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 16);
}

/*
 * No 16 aligned free slots (a device of 16: slot 0 is the header): the
 * mTHP is split and its pages go one by one, as many as there are slots
 * (15); the last stays.  Every page comes back with its data.
 */
static void test_mthp_split_without_slots(void **state)
{
	long fallback0 = sum_mthp_stat(4, MTHP_STAT_SWPOUT_FALLBACK);
	int swapped = 0;

	(void)state;
	host_swapoff();
	host_swapon(16);
	map_mthp(16 * PS);
	pageout(mm, BASE, 16 * PS);
	assert_int_equal(sum_mthp_stat(4, MTHP_STAT_SWPOUT_FALLBACK), fallback0 + 1);
	assert_int_equal(swap_used(), 15);
	for (int i = 0; i < 16; i++) {
		pte_t pte = pte_of(mm, BASE + i * PS);

		if (pte_present(pte)) {
			assert_int_equal(folio_order(folio_of(mm, BASE + i * PS)), 0);
			continue;
		}
		swapped++;
		assert_true(pte_swp_exclusive(pte));
		assert_count(swap_entry_at(mm, BASE + i * PS), 1, false);
	}
	assert_int_equal(swapped, 15);
	assert_int_equal(mm->rss_swap, 15);
	assert_int_equal(mm->rss_anon, 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	for (int i = 0; i < 16; i++) {
		if (!pte_present(pte_of(mm, BASE + i * PS)))
			assert_int_equal(fault(mm, BASE + i * PS, false), VM_FAULT_MAJOR);
		assert_true(page_holds(mm, BASE + i * PS, 0x40 + i));
	}
}

/*
 * A PMD THP: split to PTEs on the way out, 512 slots aligned to 512
 * (thp_swpout); kept in the cache by a failed write, one fault maps all
 * 512 pages back by PTEs.
 */
static void test_thp_out_and_in(void **state)
{
	long thp_out0 = event(THP_SWPOUT);
	struct folio *f;
	swp_entry_t e0;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	fill_page(mm, BASE, 0x50);
	fill_page(mm, BASE + 300 * PS, 0x53);
	f = folio_of(mm, BASE);
	assert_int_equal(folio_order(f), HPAGE_PMD_ORDER);
	assert_true(pmd_trans_huge(*mm_find_pmd(mm, BASE)));

	/* a write error: all 512 entries in place, the folio kept in the swap cache */
	host_swap_fail_io = 1;
	pageout(mm, BASE, PMD_SIZE);
	assert_int_equal(host_swap_fail_io, 0);
	assert_int_equal(event(THP_SWPOUT), thp_out0);
	e0 = swap_entry_at(mm, BASE);
	assert_int_equal(swp_offset(e0) % HPAGE_PMD_NR, 0);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
		assert_int_equal(swap_entry_at(mm, BASE + i * PS).val, swp_entry_add(e0, i).val);
		assert_true(pte_swp_exclusive(pte_of(mm, BASE + i * PS)));
	}
	assert_true(folio_test_swapcache(f) && folio_test_dirty(f));
	assert_int_equal(mm->rss_swap, HPAGE_PMD_NR);
	assert_int_equal(global_node_page_state(NR_ANON_THPS), 0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), HPAGE_PMD_NR);

	/* one fault maps all 512 pages from the cache */
	assert_int_equal(fault(mm, BASE + 300 * PS, false), 0);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++)
		assert_int_equal(pfn_of(mm, BASE + i * PS), folio_pfn(f) + i);
	assert_true(page_holds(mm, BASE, 0x50));
	assert_true(page_holds(mm, BASE + 300 * PS, 0x53));
	assert_int_equal(folio_mapcount(f), HPAGE_PMD_NR);
	assert_int_equal(mm->rss_anon, HPAGE_PMD_NR);
	assert_int_equal(mm->rss_swap, 0);

	/* out again, now written whole; back page by page */
	pageout(mm, BASE, PMD_SIZE);
	assert_int_equal(event(THP_SWPOUT), thp_out0 + 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_int_equal(swap_used(), HPAGE_PMD_NR);
	assert_int_equal(fault(mm, BASE + 300 * PS, true), VM_FAULT_MAJOR);
	assert_int_equal(folio_order(folio_of(mm, BASE + 300 * PS)), 0);
	assert_true(page_holds(mm, BASE + 300 * PS, 0x53));
	assert_int_equal(swap_used(), HPAGE_PMD_NR - 1);        /* the write freed its slot */
	assert_int_equal(fault(mm, BASE, false), VM_FAULT_MAJOR);
	assert_true(page_holds(mm, BASE, 0x50));
}

/* --- no leak ----------------------------------------------------------------- */

/*
 * 64 pages out (two pageout batches), half back in, some written, then
 * munmap: every slot back, nothing cached, no page or table left (the
 * teardown's checks); a second mapping is left swapped for exit_mmap.
 */
static void test_munmap_and_exit(void **state)
{
	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 64 * PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	assert_int_equal(do_mmap(mm, NULL, BASE + PMD_SIZE, 8 * PS, RW, MAP_PRIVATE | MAP_FIXED, 0),
			 BASE + PMD_SIZE);
	for (int i = 0; i < 64; i++)
		fill_page(mm, BASE + i * PS, i);
	for (int i = 0; i < 8; i++)
		fill_page(mm, BASE + PMD_SIZE + i * PS, 0xc0 + i);
	pageout(mm, BASE, 64 * PS);
	pageout(mm, BASE + PMD_SIZE, 8 * PS);
	assert_int_equal(mm->rss_swap, 72);
	assert_int_equal(mm->rss_anon, 0);
	assert_int_equal(swap_used(), 72);
	for (int i = 0; i < 64; i += 2) {
		assert_int_equal(fault(mm, BASE + i * PS, i % 4 == 0), VM_FAULT_MAJOR);
		assert_true(page_holds(mm, BASE + i * PS, i));
	}
	assert_int_equal(mm->rss_swap, 40);
	assert_int_equal(swap_used(), 72 - 16);                 /* the writes freed theirs */
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 16);
	assert_int_equal(do_munmap(mm, BASE, 64 * PS), 0);
	assert_int_equal(swap_used(), 8);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_int_equal(mm->rss_swap, 8);
	assert_int_equal(mm->rss_anon, 0);
	/* the other 8 entries go with the mm (shutdown's exit_mmap) */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_small_out_and_in, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_swap_full_frees_on_read, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_mthp_out_and_in, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_mthp_split_without_slots, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_thp_out_and_in, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_munmap_and_exit, boot, shutdown),
	};

	return cmocka_run_group_tests_name(VARIANT_LABEL("swap"), tests, NULL, NULL);
}
