/*
 * Host tests of swap across processes (linux/swap.h): the entry fork
 * shares, the counts that follow it, and the disk's errors, through the
 * host's fake swap device and the software MMU, in every mapcount variant.
 *
 *   fork        the entry shared (exclusive bit cleared in both, count 2),
 *               one folio for both swap-ins, read-only in both, found by
 *               reclaim from either; COW after it; zap of both frees it
 *   counts      continuation above SWAP_MAP_MAX (swap_cont), by
 *               swap_duplicate_nr and by 70 forks; fork under allocation
 *               failure undoes its counts and leaves no mm on swap_mmlist
 *   I/O errors  a failed write leaves the entry and the folio in the swap
 *               cache, dirty, for the next fault and the next pageout; a
 *               failed read is SIGBUS with the entry kept, and a retry
 *               reads again
 *
 * Order 0, large folios and exit: tests/host/test_swap.c.
 */
#include "tests/host/swap_helpers.h"

/* --- fork ------------------------------------------------------------------ */

/* Parent and child both hold entry e at BASE, shared since fork: not exclusive, count 2. */
static void assert_entry_shared(struct mm_struct *child, swp_entry_t e)
{
	assert_int_equal(swap_entry_at(mm, BASE).val, e.val);
	assert_int_equal(swap_entry_at(child, BASE).val, e.val);
	assert_false(pte_swp_exclusive(pte_of(mm, BASE)));
	assert_false(pte_swp_exclusive(pte_of(child, BASE)));
	assert_count(e, 2, false);
}

/*
 * fork of a swap entry: both PTEs hold it, neither exclusive, count 2;
 * the child's swap-in then the parent's give one folio, read-only in both;
 * reclaim of it from the child's side unmaps both (the folio is in the
 * parent's anon_vma tree); after the next swap-ins the child's write
 * copies, the parent's then reuses and frees the slot.
 */
static void test_fork_shares_entry(void **state)
{
	struct mm_struct *child;
	struct folio *f;
	unsigned long free0;
	swp_entry_t e;

	(void)state;
	e = one_swapped_page(0x60);
	assert_true(pte_swp_exclusive(pte_of(mm, BASE)));
	child = dup_mm(mm);
	assert_non_null(child);
	assert_entry_shared(child, e);
	assert_int_equal(child->rss_swap, 1);
	assert_int_equal(child->rss_anon, 0);
	assert_false(list_empty(&child->mmlist));
	assert_int_equal(swap_used(), 1);

	/* the child first: read in, shared; the parent finds it in the cache */
	assert_int_equal(fault(child, BASE, false), VM_FAULT_MAJOR);
	f = folio_of(child, BASE);
	assert_false(PageAnonExclusive(&f->page));
	assert_false(pte_write(pte_of(child, BASE)));
	assert_true(page_holds(child, BASE, 0x60));
	assert_count(e, 1, true);
	assert_int_equal(swap_entry_at(mm, BASE).val, e.val);
	assert_int_equal(fault(mm, BASE, false), 0);
	assert_ptr_equal(folio_of(mm, BASE), f);
	assert_false(pte_write(pte_of(mm, BASE)));
	assert_true(page_holds(mm, BASE, 0x60));
	assert_int_equal(folio_mapcount(f), 2);
	assert_int_equal(folio_ref_count(f), 2 + 1);
	assert_count(e, 0, true);
	assert_int_equal(mm->rss_anon, 1);
	assert_int_equal(child->rss_anon, 1);

	/* reclaim of the shared folio unmaps it from both (MADV_PAGEOUT leaves it: shared) */
	pageout(child, BASE, PS);
	assert_true(pte_present(pte_of(child, BASE)));
	free0 = free_pages_now();
	folio_get(f);
	assert_int_equal(reclaim_pages(&f, 1), 1);
	folio_put(f);
	assert_int_equal(free_pages_now(), free0 + 1);
	assert_entry_shared(child, e);
	assert_int_equal(mm->rss_swap, 1);
	assert_int_equal(child->rss_swap, 1);

	/* in again in both; the child's write copies, the parent's reuses */
	assert_int_equal(fault(child, BASE, false), VM_FAULT_MAJOR);
	assert_int_equal(fault(mm, BASE, false), 0);
	f = folio_of(mm, BASE);
	assert_ptr_equal(folio_of(child, BASE), f);
	write_byte(child, BASE, 'c');
	assert_ptr_not_equal(folio_of(child, BASE), f);
	assert_true(page_holds2(child, BASE, 0x60, 0, 'c'));
	assert_true(page_holds(mm, BASE, 0x60));
	assert_true(folio_test_swapcache(f));
	write_byte(mm, BASE, 'm');
	assert_ptr_equal(folio_of(mm, BASE), f);                /* no copy */
	assert_true(PageAnonExclusive(&f->page));
	assert_false(folio_test_swapcache(f));                  /* the swap copy is stale now */
	assert_int_equal(map_of(e), 0);
	assert_int_equal(swap_used(), 0);
	assert_true(page_holds2(mm, BASE, 0x60, 0, 'm'));
	assert_true(page_holds2(child, BASE, 0x60, 0, 'c'));
	mm_exit_swap(child);
}

/*
 * The parent swaps in first and writes: the child's entry still needs the
 * swap copy, so the write copies; the child then gets the cached folio,
 * and its write reuses it.  Then a fork of an entry and the zap of both
 * mms' entries gives the slot back.
 */
static void test_fork_parent_first_and_zap(void **state)
{
	struct mm_struct *child;
	struct folio *f;
	swp_entry_t e;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 2 * PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	fill_page(mm, BASE, 0x70);
	fill_page(mm, BASE + PS, 0x71);
	pageout(mm, BASE, 2 * PS);
	e = swap_entry_at(mm, BASE);
	child = dup_mm(mm);
	assert_non_null(child);
	assert_count(e, 2, false);

	assert_int_equal(fault(mm, BASE, false), VM_FAULT_MAJOR);
	f = folio_of(mm, BASE);
	assert_false(PageAnonExclusive(&f->page));
	assert_false(pte_write(pte_of(mm, BASE)));
	assert_count(e, 1, true);
	write_byte(mm, BASE, 'P');
	assert_ptr_not_equal(folio_of(mm, BASE), f);           /* copied: the child's entry needs it */
	assert_true(PageAnonExclusive(pfn_to_page(pfn_of(mm, BASE))));
	assert_true(folio_test_swapcache(f));
	assert_false(folio_mapped(f));
	assert_count(e, 1, true);

	assert_int_equal(fault(child, BASE, false), 0);        /* from the cache */
	assert_ptr_equal(folio_of(child, BASE), f);
	assert_true(page_holds(child, BASE, 0x70));
	write_byte(child, BASE, 'C');
	assert_ptr_equal(folio_of(child, BASE), f);             /* the last user: reused */
	assert_false(folio_test_swapcache(f));
	assert_int_equal(map_of(e), 0);
	assert_true(page_holds2(mm, BASE, 0x70, 0, 'P'));
	assert_true(page_holds2(child, BASE, 0x70, 0, 'C'));

	/* the second page: entries in both, zapped in both */
	e = swap_entry_at(mm, BASE + PS);
	assert_count(e, 2, false);
	assert_int_equal(do_munmap(mm, BASE + PS, PS), 0);
	assert_count(e, 1, false);
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(swap_used(), 1);
	mm_exit_swap(child);
	assert_int_equal(map_of(e), 0);
	assert_int_equal(swap_used(), 0);
}

/* --- swap counts ----------------------------------------------------------- */

/*
 * Counts past SWAP_MAP_MAX continue in swap_cont: 100 more on one slot
 * (count 101: 62 in the byte, 39 in swap_cont, COUNT_CONTINUED), and back
 * down to 1, swap_cont empty again; then the same by 70 forks, with the
 * swap cache's bit beside the continuation while a child has it in.
 */
static void test_count_continuation(void **state)
{
	struct mm_struct *children[70];
	unsigned long off;
	swp_entry_t e;

	(void)state;
	e = one_swapped_page(0x80);
	off = swp_offset(e);
	for (int i = 1; i <= 100; i++) {
		assert_int_equal(swap_duplicate_nr(e, 1), 0);
		assert_int_equal(swp_swapcount(e), 1 + i);
		assert_int_equal(!!(map_of(e) & COUNT_CONTINUED), 1 + i > SWAP_MAP_MAX);
	}
	assert_int_equal(map_of(e), COUNT_CONTINUED | SWAP_MAP_MAX);
	assert_int_equal((unsigned long)xa_load(&si->swap_cont, off) >> 2, 101 - SWAP_MAP_MAX);
	assert_int_equal(si->inuse_pages, 1);
	assert_int_equal(swap_used(), 1);
	for (int i = 99; i >= 0; i--) {
		swap_free_nr(e, 1);
		assert_int_equal(swp_swapcount(e), 1 + i);
	}
	assert_count(e, 1, false);
	assert_true(xa_empty(&si->swap_cont));
	assert_int_equal(swap_used(), 1);

	/* 70 forks: count 71 */
	for (int i = 0; i < 70; i++) {
		children[i] = dup_mm(mm);
		assert_non_null(children[i]);
	}
	assert_int_equal(swp_swapcount(e), 71);
	assert_int_equal(map_of(e), COUNT_CONTINUED | SWAP_MAP_MAX);
	assert_int_equal(fault(children[3], BASE, false), VM_FAULT_MAJOR);
	assert_int_equal(swp_swapcount(e), 70);
	assert_int_equal(map_of(e), COUNT_CONTINUED | SWAP_HAS_CACHE | SWAP_MAP_MAX);
	assert_true(page_holds(children[3], BASE, 0x80));
	for (int i = 0; i < 70; i++)
		mm_exit_swap(children[i]);
	assert_count(e, 1, true);
	assert_true(xa_empty(&si->swap_cont));
	assert_int_equal(fault(mm, BASE, false), 0);            /* the folio the child read */
	assert_true(page_holds(mm, BASE, 0x80));
	assert_count(e, 0, true);
}

/* Is swap_mmlist exactly [m]?  (Reads only the head and m: a stale entry may be freed memory.) */
static bool mmlist_is_only(struct mm_struct *m)
{
	return swap_mmlist.next == &m->mmlist && swap_mmlist.prev == &m->mmlist &&
	       m->mmlist.next == &swap_mmlist && m->mmlist.prev == &swap_mmlist;
}

/*
 * fork under allocation failure, at every point (page and kmalloc): the
 * parent keeps its entries exclusive-cleared or not but counted once, the
 * half-built child's copies are undone, and no freed mm is left on
 * swap_mmlist.  The slot's count sits at SWAP_MAP_MAX, so the child's
 * copy needs a swap_cont node: its failure is among the points.
 */
static void test_fork_failure(void **state)
{
	struct fault_attr *attrs[] = { &fail_page_alloc, &failslab };
	int failures = 0;
	swp_entry_t e;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	assert_int_equal(do_mmap(mm, NULL, BASE + (1UL << 30), PS, RW, MAP_PRIVATE | MAP_FIXED, 0),
			 BASE + (1UL << 30));
	fill_page(mm, BASE, 0x90);
	fill_page(mm, BASE + (1UL << 30), 0x91);       /* copied after the entry: tables to allocate */
	pageout(mm, BASE, PS);
	e = swap_entry_at(mm, BASE);
	assert_true(mmlist_is_only(mm));
	for (int i = 1; i < SWAP_MAP_MAX; i++)                  /* 61 other sharers */
		assert_int_equal(swap_duplicate_nr(e, 1), 0);
	assert_int_equal(map_of(e), SWAP_MAP_MAX);
	for (int k = 0; k < 2; k++) {
		for (int n = 0;; n++) {
			struct mm_struct *child;
			char spec[32];

			snprintf(spec, sizeof(spec), "1,100,%d,1", n);
			assert_int_equal(setup_fault_attr(attrs[k], spec), 0);
			fault_inject_arm(true);
			child = dup_mm(mm);
			fault_inject_arm(false);
			fault_inject_init();
			if (child) {
				assert_int_equal(swp_swapcount(e), SWAP_MAP_MAX + 1);
				assert_int_equal(map_of(e), COUNT_CONTINUED | SWAP_MAP_MAX);
				mm_exit_swap(child);
				break;
			}
			failures++;
			assert_int_equal(swap_entry_at(mm, BASE).val, e.val);
			assert_int_equal(swp_swapcount(e), SWAP_MAP_MAX);
			assert_int_equal(map_of(e), SWAP_MAP_MAX);
			assert_true(xa_empty(&si->swap_cont));
			assert_int_equal(mm->rss_swap, 1);
			assert_true(mmlist_is_only(mm));       /* the failed child is off it */
		}
	}
	print_message("# dup_mm: %d allocation failure points checked\n", failures);
	assert_true(failures >= 4);
	for (int i = 1; i < SWAP_MAP_MAX; i++)
		swap_free_nr(e, 1);
	assert_count(e, 1, false);
	assert_int_equal(fault(mm, BASE, false), VM_FAULT_MAJOR);
	assert_true(page_holds(mm, BASE, 0x90));
}

/* --- I/O errors ------------------------------------------------------------ */

/*
 * A write error: try_to_unmap ran first, so the PTE is the swap entry; the
 * folio stays in the swap cache, dirty, the page not freed; a fault maps
 * it from the cache (no read), data intact; the next pageout writes it.
 * Then the same with an mTHP, left in the cache and zapped by munmap.
 */
static void test_write_error(void **state)
{
	long out0 = event(PSWPOUT), in0 = event(PSWPIN);
	unsigned long free0;
	struct folio *f;
	swp_entry_t e;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	fill_page(mm, BASE, 0xa0);
	f = folio_of(mm, BASE);
	host_swap_fail_io = 1;
	pageout(mm, BASE, PS);
	assert_int_equal(host_swap_fail_io, 0);                 /* the write was tried */
	e = swap_entry_at(mm, BASE);
	assert_true(pte_swp_exclusive(pte_of(mm, BASE)));
	assert_count(e, 1, true);
	assert_true(folio_test_swapcache(f));
	assert_int_equal(f->swap.val, e.val);
	assert_true(folio_test_dirty(f));
	assert_false(folio_test_locked(f));
	assert_false(folio_mapped(f));
	assert_int_equal(folio_ref_count(f), 1);               /* the cache's: not freed */
	assert_int_equal(event(PSWPOUT), out0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 1);
	assert_int_equal(mm->rss_swap, 1);
	assert_int_equal(mm->rss_anon, 0);

	assert_int_equal(fault(mm, BASE, false), 0);  /* from the cache */
	assert_int_equal(event(PSWPIN), in0);
	assert_ptr_equal(folio_of(mm, BASE), f);
	assert_true(page_holds(mm, BASE, 0xa0));
	assert_true(PageAnonExclusive(&f->page));
	assert_count(e, 0, true);

	pageout(mm, BASE, PS);                                  /* still dirty: written now */
	assert_int_equal(event(PSWPOUT), out0 + 1);
	assert_count(e, 1, false);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_int_equal(fault(mm, BASE, false), VM_FAULT_MAJOR);
	assert_true(page_holds(mm, BASE, 0xa0));
	assert_int_equal(do_munmap(mm, BASE, PS), 0);

	/* an mTHP left in the cache by a write error; munmap of its entries frees it */
	f = map_mthp(16 * PS);
	host_swap_fail_io = 1;
	pageout(mm, BASE, 16 * PS);
	assert_true(folio_test_swapcache(f) && folio_test_dirty(f) && !folio_mapped(f));
	assert_int_equal(mm->rss_swap, 16);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 16);
	assert_int_equal(swap_used(), 16);
	free0 = free_pages_now();
	assert_int_equal(do_munmap(mm, BASE, 16 * PS), 0);
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(swap_used(), 0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_true(free_pages_now() >= free0 + 16);            /* and its page table */
}

/*
 * A read error: the fault is SIGBUS, the PTE still the entry, the slot
 * still counted; a retry without the error reads the page in.
 */
static void test_read_error(void **state)
{
	vm_fault_t ret;
	swp_entry_t e;

	(void)state;
	e = one_swapped_page(0xb0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);   /* evicted: the fault must read */
	host_swap_fail_io = 1;
	assert_int_equal(fault(mm, BASE, false), VM_FAULT_SIGBUS);
	assert_int_equal(host_swap_fail_io, 0);
	assert_int_equal(swap_entry_at(mm, BASE).val, e.val);
	assert_true(pte_swp_exclusive(pte_of(mm, BASE)));
	assert_int_equal(swp_swapcount(e), 1);
	assert_int_equal(mm->rss_swap, 1);
	assert_int_equal(mm->rss_anon, 0);
	assert_int_equal(read_byte(mm, BASE, ACC_USER), -1);

	ret = fault(mm, BASE, false);
	assert_int_equal(ret, VM_FAULT_MAJOR);
	assert_true(pte_present(pte_of(mm, BASE)));
	assert_true(page_holds(mm, BASE, 0xb0));
	assert_true(PageAnonExclusive(folio_page(folio_of(mm, BASE), 0)));
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(mm->rss_anon, 1);
	assert_count(e, 0, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fork_shares_entry, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_fork_parent_first_and_zap, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_count_continuation, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_fork_failure, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_write_error, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_read_error, boot, shutdown),
	};

	return cmocka_run_group_tests_name(VARIANT_LABEL("swap fork"), tests, NULL, NULL);
}
