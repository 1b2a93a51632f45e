/*
 * Unit tests of the rmap core: one test per row of the state table in
 * docs/large-folio-series.md's table, patch 12's Examples 1 and 2, the per-MM mapcount
 * underflow, the sanity checks, the bad-page names of the free path and
 * the MM ID allocator; the RFC's total of mapped pages (its example in
 * every variant; with CONFIG_MAPCOUNT_PAGES a 4 MiB folio by two PMDs, by
 * a PMD and PTEs, and a partial unmap while shared, which the scheme
 * cannot see).  Built and run in all three variants; each step checks
 * every field.
 */
#include "linux/errno.h"
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#define PM IS_ENABLED(CONFIG_PAGE_MAPCOUNT)

static struct test_mm A, B, C;
static long anon0, thps0;

static int boot(void **state)
{
	(void)state;
	host_machine_boot(64UL << 20);
	test_mm_init(&A, NULL);
	test_mm_init(&B, &A);
	test_mm_init(&C, &A);
	anon0 = anon_pages();
	thps0 = anon_thps();
	return 0;
}

/* A test that provokes warnings on purpose counts them and resets the count. */
static int shutdown(void **state)
{
	(void)state;
	assert_int_equal(nr_warnings, 0);
	host_machine_shutdown();
	return 0;
}

/* Check every field of a folio; -2 in an expectation means "don't check". */
#define EXPECT_FOLIO(f, LM, EM, NPM, ID0, MC0, ID1, MC1, SHARED) do {          \
	struct folio_state s = folio_state(f);                                 \
	assert_int_equal(s.lm, LM);                                            \
	assert_int_equal(s.em, EM);                                            \
	if (PM && (NPM) != -2)                                                 \
		assert_int_equal(s.npm, NPM);                                  \
	assert_int_equal(s.id0, ID0);                                          \
	assert_int_equal(s.mc0, MC0);                                          \
	assert_int_equal(s.id1, ID1);                                          \
	assert_int_equal(s.mc1, MC1);                                          \
	assert_int_equal(s.shared, SHARED);                                    \
} while (0)

/*
 * Per-page mapcounts: expected value with PAGE_MAPCOUNT, untouched without
 * (with MAPCOUNT_PAGES, page[1]'s holds the large mapcount).
 */
static void expect_page_mapcounts(struct folio *f, int from, int to, int mapcount)
{
	for (int i = from; i < to; i++)
		if (!IS_ENABLED(CONFIG_MAPCOUNT_PAGES) || i != 1)
			assert_int_equal(atomic_read(&folio_page(f, i)->_mapcount) + 1, PM ? mapcount : 0);
}

static void expect_exclusive(struct folio *f, int from, int to, bool excl)
{
	for (int i = from; i < to; i++)
		assert_int_equal(PageAnonExclusive(folio_page(f, i)), excl);
}

static struct folio *new_pte_folio(unsigned int order, struct test_mm *t)
{
	struct folio *f = folio_alloc(0, order);

	assert_non_null(f);
	folio_add_new_anon_rmap(f, &t->vma, 0, RMAP_EXCLUSIVE);
	return f;
}

/* Row "new anon mTHP mapped by PTEs". */
static void test_new_mthp(void **state)
{
	struct folio *f;

	(void)state;
	f = new_pte_folio(4, &A);
	EXPECT_FOLIO(f, 16, 0, 16, A.mm->mm_id, 16, 0, 0, false);
	expect_page_mapcounts(f, 0, 16, 1);
	expect_exclusive(f, 0, 16, true);
	assert_int_equal(anon_pages() - anon0, 16);
	assert_false(folio_maybe_mapped_shared(f));
	assert_true(folio_test_anon(f));
}

/* Row "new anon PMD THP". */
static void test_new_pmd_thp(void **state)
{
	struct folio *f = folio_alloc(0, HPAGE_PMD_ORDER);

	(void)state;
	folio_add_new_anon_rmap(f, &A.vma, 0, RMAP_EXCLUSIVE);
	EXPECT_FOLIO(f, 1, 1, 0, A.mm->mm_id, 1, 0, 0, false);
	if (PM)
		assert_int_equal(atomic_read(&f->_nr_pages_mapped), ENTIRELY_MAPPED);
	assert_true(PageAnonExclusive(&f->page));
	expect_exclusive(f, 1, 512, false);
	expect_page_mapcounts(f, 0, 512, 0);
	assert_int_equal(anon_pages() - anon0, 512);
	assert_int_equal(anon_thps() - thps0, 512);
}

/* Rows "add PTEs" (same mm again) and "remove PTEs" down to nothing. */
static void test_add_remove_ptes_one_mm(void **state)
{
	struct folio *f = new_pte_folio(4, &A);

	(void)state;
	for (int i = 0; i < 16; i++)
		ClearPageAnonExclusive(folio_page(f, i));
	folio_add_anon_rmap_ptes(f, folio_page(f, 4), 4, &A.vma, 4 * PAGE_SIZE, RMAP_NONE);
	EXPECT_FOLIO(f, 20, 0, 16, A.mm->mm_id, 20, 0, 0, false);
	expect_page_mapcounts(f, 4, 8, 2);
	assert_int_equal(anon_pages() - anon0, 16);     /* nothing newly mapped */
	folio_remove_rmap_ptes(f, folio_page(f, 0), 16, &A.vma);
	EXPECT_FOLIO(f, 4, 0, 4, A.mm->mm_id, 4, 0, 0, false);
	expect_page_mapcounts(f, 0, 4, 0);
	expect_page_mapcounts(f, 4, 8, 1);
	/* PM: 12 pages newly unmapped; NO_PM: the folio counts until fully unmapped */
	assert_int_equal(anon_pages() - anon0, PM ? 4 : 16);
	assert_true(folio_test_partially_mapped(f));
	assert_int_equal(deferred_split_count(), 1);
	folio_remove_rmap_ptes(f, folio_page(f, 4), 4, &A.vma);
	EXPECT_FOLIO(f, 0, 0, 0, 0, 0, 0, 0, false);
	assert_int_equal(anon_pages() - anon0, 0);
	folio_put(f);
	assert_int_equal(deferred_split_count(), 0);
	assert_int_equal(nr_bad_pages, 0);
}

/* Row "fork: dup PTEs", then the child unmaps: exclusive again. */
static void test_fork_dup_ptes(void **state)
{
	struct folio *f = new_pte_folio(4, &A);

	(void)state;
	assert_int_equal(folio_try_dup_anon_rmap_ptes(f, folio_page(f, 0), 16, &B.vma, &A.vma), 0);
	EXPECT_FOLIO(f, 32, 0, 16, A.mm->mm_id, 16, B.mm->mm_id, 16, true);
	expect_page_mapcounts(f, 0, 16, 2);
	expect_exclusive(f, 0, 16, false);
	assert_true(folio_maybe_mapped_shared(f));
	assert_int_equal(anon_pages() - anon0, 16);
	folio_remove_rmap_ptes(f, folio_page(f, 0), 16, &B.vma);
	EXPECT_FOLIO(f, 16, 0, 16, A.mm->mm_id, 16, 0, 0, false);
	assert_false(folio_maybe_mapped_shared(f));
	assert_false(folio_test_partially_mapped(f));
}

/* Row "fork: dup PMD", and removal of the PMDs. */
static void test_fork_dup_pmd(void **state)
{
	struct folio *f = folio_alloc(0, HPAGE_PMD_ORDER);

	(void)state;
	folio_add_new_anon_rmap(f, &A.vma, 0, RMAP_EXCLUSIVE);
	assert_int_equal(folio_try_dup_anon_rmap_pmd(f, &f->page, &B.vma, &A.vma), 0);
	EXPECT_FOLIO(f, 2, 2, 0, A.mm->mm_id, 1, B.mm->mm_id, 1, true);
	assert_false(PageAnonExclusive(&f->page));
	assert_int_equal(anon_thps() - thps0, 512);
	folio_remove_rmap_pmd(f, &f->page, &A.vma);
	EXPECT_FOLIO(f, 1, 1, 0, 0, 0, B.mm->mm_id, 1, false);
	assert_int_equal(anon_pages() - anon0, 512);
	folio_remove_rmap_pmd(f, &f->page, &B.vma);
	EXPECT_FOLIO(f, 0, 0, 0, 0, 0, 0, 0, false);
	assert_int_equal(anon_pages() - anon0, 0);
	assert_int_equal(anon_thps() - thps0, 0);
	assert_false(folio_test_partially_mapped(f));   /* fully unmapped: no queue */
	folio_put(f);
	assert_int_equal(nr_bad_pages, 0);
}

/* Row "split PMD -> 512 PTEs", then partial unmap queues a deferred split. */
static void test_split_pmd(void **state)
{
	struct folio *f = folio_alloc(0, HPAGE_PMD_ORDER);

	(void)state;
	folio_add_new_anon_rmap(f, &A.vma, 0, RMAP_EXCLUSIVE);
	folio_remap_pmd_as_ptes(f, &f->page, &A.vma, 0);
	assert_int_equal(folio_ref_count(f), 512);
	EXPECT_FOLIO(f, 512, 0, 512, A.mm->mm_id, 512, 0, 0, false);
	expect_page_mapcounts(f, 0, 512, 1);
	expect_exclusive(f, 0, 512, true);
	assert_int_equal(anon_pages() - anon0, 512);
	assert_int_equal(anon_thps() - thps0, 0);
	folio_remove_rmap_ptes(f, folio_page(f, 100), 1, &A.vma);
	EXPECT_FOLIO(f, 511, 0, 511, A.mm->mm_id, 511, 0, 0, false);
	assert_true(folio_test_partially_mapped(f));
	assert_int_equal(anon_pages() - anon0, PM ? 511 : 512);
}

/* PMD removal while pages are also PTE-mapped (mid-split, PAGE_MAPCOUNT view). */
static void test_remove_pmd_with_ptes(void **state)
{
	struct folio *f = folio_alloc(0, HPAGE_PMD_ORDER);

	(void)state;
	__folio_set_locked(f);                /* mapped shared from the start: locked */
	folio_add_new_anon_rmap(f, &A.vma, 0, RMAP_NONE);
	folio_add_anon_rmap_ptes(f, folio_page(f, 0), 8, &A.vma, 0, RMAP_NONE);
	EXPECT_FOLIO(f, 9, 1, 8, A.mm->mm_id, 9, 0, 0, false);
	assert_int_equal(anon_pages() - anon0, 512);   /* PTEs under a PMD map nothing new */
	folio_remove_rmap_pmd(f, &f->page, &A.vma);
	EXPECT_FOLIO(f, 8, 0, 8, A.mm->mm_id, 8, 0, 0, false);
	assert_int_equal(anon_pages() - anon0, PM ? 8 : 512);
	assert_int_equal(anon_thps() - thps0, 0);
	assert_true(folio_test_partially_mapped(f));
}

/* Row "COW copy of one page": the old folio loses one PTE of the child. */
static void test_cow_copy(void **state)
{
	struct folio *f = new_pte_folio(2, &A), *copy;

	(void)state;
	folio_try_dup_anon_rmap_ptes(f, folio_page(f, 0), 4, &B.vma, &A.vma);
	copy = folio_alloc(0, 0);
	folio_add_new_anon_rmap(copy, &B.vma, 0x1000, RMAP_EXCLUSIVE);
	folio_remove_rmap_pte(f, folio_page(f, 1), &B.vma);
	EXPECT_FOLIO(f, 7, 0, 4, A.mm->mm_id, 4, B.mm->mm_id, 3, true);
	expect_page_mapcounts(f, 1, 2, 1);
	assert_int_equal(folio_mapcount(copy), 1);
	assert_true(PageAnonExclusive(&copy->page));
	assert_false(folio_maybe_mapped_shared(copy));
	/* the parent alone still maps all pages: not partially mapped */
	assert_false(folio_test_partially_mapped(f));
}

/* Row "add PMD": a PTE-mapped THP mapped again by a PMD. */
static void test_add_pmd(void **state)
{
	struct folio *f = folio_alloc(0, HPAGE_PMD_ORDER);

	(void)state;
	__folio_set_locked(f);                /* mapped shared from the start: locked */
	folio_add_new_anon_rmap(f, &A.vma, 0, RMAP_NONE);
	folio_remap_pmd_as_ptes(f, &f->page, &A.vma, 0);
	assert_int_equal(anon_thps() - thps0, 0);
	folio_add_anon_rmap_pmd(f, &f->page, &B.vma, 0, RMAP_NONE);
	EXPECT_FOLIO(f, 513, 1, 512, A.mm->mm_id, 512, B.mm->mm_id, 1, true);
	if (PM)
		assert_int_equal(atomic_read(&f->_nr_pages_mapped), ENTIRELY_MAPPED + 512);
	assert_int_equal(anon_pages() - anon0, 512);    /* nothing newly mapped */
	assert_int_equal(anon_thps() - thps0, 512);     /* but now PMD-mapped */
}

/* The average page mapcount (kpagecount without per-page mapcounts). */
static void test_average_page_mapcount(void **state)
{
	struct folio *f = new_pte_folio(3, &A), *small = folio_alloc(0, 0), *pmd;

	(void)state;
	assert_int_equal(folio_average_page_mapcount(f), 1);
	folio_try_dup_anon_rmap_ptes(f, folio_page(f, 0), 3, &B.vma, &A.vma);
	assert_int_equal(folio_average_page_mapcount(f), 1);    /* 11 / 8 rounds to 1 */
	folio_try_dup_anon_rmap_ptes(f, folio_page(f, 3), 5, &B.vma, &A.vma);
	assert_int_equal(folio_average_page_mapcount(f), 2);    /* 16 / 8 */
	folio_remove_rmap_ptes(f, folio_page(f, 0), 8, &A.vma);
	folio_remove_rmap_ptes(f, folio_page(f, 1), 7, &B.vma);
	assert_int_equal(folio_average_page_mapcount(f), 1);    /* 1 / 8: at least 1 */
	folio_remove_rmap_pte(f, folio_page(f, 0), &B.vma);
	assert_int_equal(folio_average_page_mapcount(f), 0);
	folio_add_new_anon_rmap(small, &A.vma, 0, RMAP_EXCLUSIVE);
	folio_try_dup_anon_rmap_pte(small, &small->page, &B.vma, &A.vma);
	assert_int_equal(folio_average_page_mapcount(small), 2);
	pmd = folio_alloc(0, HPAGE_PMD_ORDER);
	__folio_set_locked(pmd);              /* mapped shared from the start: locked */
	folio_add_new_anon_rmap(pmd, &A.vma, 0, RMAP_NONE);
	folio_try_dup_anon_rmap_pmd(pmd, &pmd->page, &B.vma, &A.vma);
	assert_int_equal(folio_average_page_mapcount(pmd), 2);  /* two PMDs */
	folio_add_anon_rmap_ptes(pmd, folio_page(pmd, 0), 256, &C.vma, 0, RMAP_NONE);
	assert_int_equal(folio_average_page_mapcount(pmd), 3);  /* 2 + 256/512 rounded */
	assert_int_equal(folio_precise_page_mapcount(pmd, folio_page(pmd, 0)), PM ? 3 : -1);
	assert_int_equal(folio_precise_page_mapcount(pmd, folio_page(pmd, 300)), PM ? 2 : -1);
}

/* Patch 12, Example 1: two mms, the first unmaps: "mapped exclusively". */
static void test_example_1(void **state)
{
	struct folio *f = new_pte_folio(4, &A);

	(void)state;
	for (int i = 0; i < 16; i++)
		ClearPageAnonExclusive(folio_page(f, i));
	folio_add_anon_rmap_pte(f, folio_page(f, 3), &B.vma, 3 * PAGE_SIZE, RMAP_NONE);
	assert_true(folio_maybe_mapped_shared(f));
	folio_remove_rmap_ptes(f, folio_page(f, 0), 16, &A.vma);
	EXPECT_FOLIO(f, 1, 0, 1, 0, 0, B.mm->mm_id, 1, false);
	assert_false(folio_maybe_mapped_shared(f));
}

/* Patch 12, Example 2: a third mm gets no slot; two unmap: "maybe shared". */
static void test_example_2(void **state)
{
	struct folio *f = new_pte_folio(4, &A);

	(void)state;
	for (int i = 0; i < 16; i++)
		ClearPageAnonExclusive(folio_page(f, i));
	folio_add_anon_rmap_pte(f, folio_page(f, 3), &B.vma, 3 * PAGE_SIZE, RMAP_NONE);
	folio_add_anon_rmap_ptes(f, folio_page(f, 5), 2, &C.vma, 5 * PAGE_SIZE, RMAP_NONE);
	EXPECT_FOLIO(f, 19, 0, 16, A.mm->mm_id, 16, B.mm->mm_id, 1, true);
	folio_remove_rmap_ptes(f, folio_page(f, 0), 16, &A.vma);
	folio_remove_rmap_pte(f, folio_page(f, 3), &B.vma);
	EXPECT_FOLIO(f, 2, 0, 2, 0, 0, 0, 0, true);
	assert_true(folio_maybe_mapped_shared(f));      /* the false positive */
	folio_remove_rmap_ptes(f, folio_page(f, 5), 2, &C.vma);
	EXPECT_FOLIO(f, 0, 0, 0, 0, 0, 0, 0, false);    /* unmapped: bit cleared */
}

/*
 * Underflow of a per-MM count: C maps pages while no slot is free, takes a
 * slot later, then unmaps all of them: its slot count would go below zero,
 * so the slot is freed instead (no warning: a valid corner case).
 */
static void test_underflow(void **state)
{
	struct folio *f = new_pte_folio(4, &A);
	unsigned long warns = nr_warnings;

	(void)state;
	for (int i = 0; i < 16; i++)
		ClearPageAnonExclusive(folio_page(f, i));
	folio_add_anon_rmap_pte(f, folio_page(f, 0), &B.vma, 0, RMAP_NONE);
	folio_add_anon_rmap_ptes(f, folio_page(f, 1), 2, &C.vma, PAGE_SIZE, RMAP_NONE);   /* no slot */
	folio_remove_rmap_ptes(f, folio_page(f, 0), 16, &A.vma);                   /* slot 0 free */
	folio_add_anon_rmap_pte(f, folio_page(f, 3), &C.vma, 3 * PAGE_SIZE, RMAP_NONE); /* takes slot 0 */
	EXPECT_FOLIO(f, 4, 0, 4, C.mm->mm_id, 1, B.mm->mm_id, 1, true);
	folio_remove_rmap_ptes(f, folio_page(f, 1), 3, &C.vma);                    /* 1 - 3 < 0 */
	EXPECT_FOLIO(f, 1, 0, 1, 0, 0, B.mm->mm_id, 1, false);
	assert_int_equal(nr_warnings, warns);
}

/* Sanity checks name the broken invariant. */
static void test_sanity_checks(void **state)
{
	struct folio *f = new_pte_folio(2, &A);
	struct mm_struct bogus = { .mm_id = MM_ID_MAX + 1 };
	struct vm_area_struct bogus_vma = { .vm_end = 1UL << 40, .vm_mm = &bogus };
	struct folio *small;

	(void)state;
	host_log_clear();
	folio_add_large_mapcount(f, 5, 5, &A.vma);              /* 5 pages of a 4-page folio */
	assert_non_null(strstr(host_log(), "mapped pages > folio pages"));
	folio_add_large_mapcount(f, 1, 1, &bogus_vma);
	assert_non_null(strstr(host_log(), "MM ID out of range"));
	assert_int_equal(nr_warnings, 2);
	small = folio_alloc(0, 0);
	folio_add_new_anon_rmap(small, &A.vma, 5 * PAGE_SIZE, RMAP_EXCLUSIVE);
	folio_add_anon_rmap_pte(small, &small->page, &B.vma, 5 * PAGE_SIZE, RMAP_EXCLUSIVE);
	assert_non_null(strstr(host_log(), "exclusive small folio mapped more than once"));
	folio_add_anon_rmap_pte(small, &small->page, &C.vma, 9 * PAGE_SIZE, RMAP_NONE);
	assert_non_null(strstr(host_log(), "anon page mapped away from its index"));
	nr_warnings = 0;                                        /* expected ones */
}

/* The free path reports a folio freed with rmap state left, by name. */
static void test_free_checks(void **state)
{
	static const char *const reasons[] = {
		"nonzero large_mapcount", "nonzero mm mapcount 0",
		IS_ENABLED(CONFIG_MAPCOUNT_PAGES) ? "nonzero total_mapped_pages" : "nonzero entire_mapcount",
		"nonzero pincount", "on deferred list",
	};

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(reasons); i++) {
		struct folio *f = folio_alloc(0, 3);

		switch (i) {
		case 0: atomic_set(folio_large_mapcount_ptr(f), 0); break;
		case 1: f->_mm_id_mapcount[0] = 0; break;
		case 2:
			if (IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
				atomic_long_set(&f->_total_mapped_pages, 1);
			else
				atomic_set(&f->_entire_mapcount, 0);
			break;
		case 3: atomic_set(&f->_pincount, 1); break;
		case 4: list_add(&f->_deferred_list, &f->_deferred_list); f->_deferred_list.next = &f->lru; break;
		}
		host_log_clear();
		f->_flags_1 &= ~BIT(FOLIO_PF_large_rmappable);  /* keep it off the real queue */
		folio_put(f);
		if (!strstr(host_log(), reasons[i]))
			fail_msg("case %u: no '%s' in: %s", i, reasons[i], host_log());
		assert_int_equal(nr_bad_pages, i + 1);
	}
}

/* A freshly allocated folio of every order is in the empty rmap state. */
static void test_fresh_folio_all_orders(void **state)
{
	(void)state;
	for (unsigned int order = 1; order <= MAX_PAGE_ORDER; order++) {
		struct folio *f = folio_alloc(0, order);

		assert_non_null(f);
		assert_int_equal(folio_order(f), order);
		assert_int_equal(folio_nr_pages(f), 1L << order);
		assert_ptr_equal(page_folio(folio_page(f, (1 << order) - 1)), f);
		EXPECT_FOLIO(f, 0, 0, 0, 0, 0, 0, 0, false);
		assert_false(folio_mapped(f));
		folio_put(f);
	}
	assert_int_equal(nr_bad_pages, 0);
	assert_int_equal(zone.free_pages + 3 * 0, zone.free_pages);
}

/* MM IDs: lowest free first, reuse after free, exhaustion is -ENOSPC. */
static void test_mm_ids(void **state)
{
	struct ida ida = IDA_INIT("test");
	unsigned long kbytes = kmalloc_bytes;

	(void)state;
	assert_int_equal(A.mm->mm_id, 1);
	assert_int_equal(B.mm->mm_id, 2);
	assert_int_equal(C.mm->mm_id, 3);
	test_mm_exit(&B);
	test_mm_init(&B, &A);
	assert_int_equal(B.mm->mm_id, 2);                       /* reused */
	for (int i = 1; i <= 10000; i++)
		assert_int_equal(ida_alloc_range(&ida, 1, 10000), i);
	assert_int_equal(ida_alloc_range(&ida, 1, 10000), -ENOSPC);
	ida_free(&ida, 4097);
	assert_int_equal(ida_alloc_range(&ida, 1, 10000), 4097);
	for (int i = 1; i <= 10000; i++)
		ida_free(&ida, i);
	assert_int_equal(kmalloc_bytes, kbytes);                /* chunks freed */
	assert_int_equal(ida_alloc_range(&ida, 5, 4), -ENOSPC);
	ida_free(&ida, 77);                                     /* not allocated: warns */
	assert_int_equal(nr_warnings, 1);
	nr_warnings = 0;
}

/* The RFC's example: 2 PMDs and 1 PTE, mapcount 3, 1 025 pages mapped. */
static void test_rfc_example(void **state)
{
	struct folio *f = folio_alloc(0, HPAGE_PMD_ORDER);

	(void)state;
	folio_add_new_anon_rmap(f, &A.vma, 0, RMAP_EXCLUSIVE);
	assert_int_equal(folio_try_dup_anon_rmap_pmd(f, &f->page, &B.vma, &A.vma), 0);
	folio_add_anon_rmap_pte(f, folio_page(f, 7), &B.vma, 7 * PAGE_SIZE, RMAP_NONE);
	assert_int_equal(folio_large_mapcount(f), 3);
	assert_int_equal(folio_total_mapped_pages(f), 1025);
	assert_int_equal(folio_nr_pmd_mappings(f), 2);
	assert_int_equal(folio_entire_mapcount(f), 2);
	assert_int_equal(folio_average_page_mapcount(f), 2);   /* 1025 / 512, rounded */
	assert_int_equal(anon_thps() - thps0, 512);
	folio_remove_rmap_pmd(f, &f->page, &A.vma);
	folio_remove_rmap_pmd(f, &f->page, &B.vma);
	assert_int_equal(folio_total_mapped_pages(f), 1);
	assert_int_equal(folio_average_page_mapcount(f), 1);   /* at least 1 */
	assert_int_equal(anon_thps() - thps0, 0);
	assert_true(folio_test_partially_mapped(f));
	folio_remove_rmap_pte(f, folio_page(f, 7), &B.vma);
	assert_int_equal(folio_total_mapped_pages(f), 0);
	assert_int_equal(folio_average_page_mapcount(f), 0);
	assert_int_equal(anon_pages() - anon0, 0);
}

/* A new 4 MiB folio: two PMD mappings, 1 024 pages, AnonHugePages 4 MiB. */
static struct folio *new_4m_folio(void)
{
	struct folio *f = folio_alloc(0, HPAGE_PMD_ORDER + 1);

	assert_non_null(f);
	folio_add_new_anon_rmap(f, &A.vma, 0, RMAP_EXCLUSIVE);
	return f;
}

static void test_4m_two_pmds(void **state)
{
	struct folio *f;

	(void)state;
	f = new_4m_folio();
	assert_int_equal(folio_large_mapcount(f), 2);
	assert_int_equal(folio_total_mapped_pages(f), 1024);
	assert_int_equal(folio_nr_pmd_mappings(f), 2);
	assert_int_equal(folio_entire_mapcount(f), 0);          /* no PMD maps it whole */
	assert_int_equal(f->_mm_id_mapcount[0] + 1, 2);
	/* One AnonExclusive flag per mapping: its first page. */
	for (int i = 0; i < 1024; i++)
		assert_int_equal(PageAnonExclusive(folio_page(f, i)), i % 512 == 0);
	assert_int_equal(anon_pages() - anon0, 1024);
	assert_int_equal(anon_thps() - thps0, 1024);
	/* The second PMD goes: half the folio unmapped, queued for split. */
	folio_remove_rmap_pmd(f, folio_page(f, 512), &A.vma);
	assert_int_equal(folio_total_mapped_pages(f), 512);
	assert_true(folio_test_partially_mapped(f));
	assert_int_equal(anon_thps() - thps0, 1024);            /* a PMD still maps it */
	folio_remove_rmap_pmd(f, folio_page(f, 0), &A.vma);
	assert_int_equal(folio_large_mapcount(f), 0);
	assert_int_equal(anon_pages() - anon0, 0);
	assert_int_equal(anon_thps() - thps0, 0);
}

/*
 * A PMD split into PTEs: +512 PTE mappings, -1 PMD, the total unchanged;
 * then fork shares the other PMD and the PTEs, and one mm's write reuses
 * nothing while the slots say "shared".
 */
static void test_4m_pmd_and_ptes(void **state)
{
	struct folio *f;

	(void)state;
	f = new_4m_folio();
	folio_add_anon_rmap_ptes(f, folio_page(f, 512), 512, &A.vma, 512 * PAGE_SIZE, RMAP_EXCLUSIVE);
	folio_remove_rmap_pmd(f, folio_page(f, 512), &A.vma);
	assert_int_equal(folio_large_mapcount(f), 513);
	assert_int_equal(folio_total_mapped_pages(f), 1024);
	assert_int_equal(folio_nr_pmd_mappings(f), 1);
	assert_false(folio_test_partially_mapped(f));
	assert_int_equal(folio_try_dup_anon_rmap_pmd(f, folio_page(f, 0), &B.vma, &A.vma), 0);
	assert_int_equal(folio_try_dup_anon_rmap_ptes(f, folio_page(f, 512), 512, &B.vma, &A.vma), 0);
	assert_int_equal(folio_large_mapcount(f), 1026);
	assert_int_equal(folio_total_mapped_pages(f), 2048);
	assert_true(folio_maybe_mapped_shared(f));
	assert_int_equal(folio_average_page_mapcount(f), 2);
	/* B goes: A alone maps it again, exclusive by its slot. */
	folio_remove_rmap_pmd(f, folio_page(f, 0), &B.vma);
	folio_remove_rmap_ptes(f, folio_page(f, 512), 512, &B.vma);
	assert_false(folio_maybe_mapped_shared(f));
	assert_int_equal(folio_total_mapped_pages(f), 1024);
	folio_remove_rmap_pmd(f, folio_page(f, 0), &A.vma);
	folio_remove_rmap_ptes(f, folio_page(f, 512), 512, &A.vma);
	assert_int_equal(anon_pages() - anon0, 0);
	assert_int_equal(anon_thps() - thps0, 0);
}

/*
 * What the scheme gives up (the RFC's patch 1, example A): a folio unmapped
 * in part while two mms share it keeps an average mapcount >= 1 and is not
 * queued; once one mm alone maps it, the next unmap queues it.
 */
static void test_partial_while_shared(void **state)
{
	struct folio *f = folio_alloc(0, 4);

	(void)state;
	folio_add_new_anon_rmap(f, &A.vma, 0, RMAP_EXCLUSIVE);
	assert_int_equal(folio_try_dup_anon_rmap_ptes(f, &f->page, 16, &B.vma, &A.vma), 0);
	folio_remove_rmap_ptes(f, folio_page(f, 0), 8, &A.vma);
	folio_remove_rmap_ptes(f, folio_page(f, 0), 8, &B.vma);
	assert_int_equal(folio_total_mapped_pages(f), 16);      /* 8 pages, twice */
	assert_int_equal(folio_average_page_mapcount(f), 1);
	assert_false(folio_test_partially_mapped(f));           /* missed */
	folio_remove_rmap_ptes(f, folio_page(f, 8), 8, &B.vma);
	assert_int_equal(folio_total_mapped_pages(f), 8);
	assert_true(folio_test_partially_mapped(f));            /* B gone: seen */
	folio_remove_rmap_ptes(f, folio_page(f, 8), 8, &A.vma);
	assert_int_equal(anon_pages() - anon0, 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, boot, shutdown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_new_mthp), T(test_new_pmd_thp), T(test_add_pmd), T(test_average_page_mapcount), T(test_add_remove_ptes_one_mm),
		T(test_fork_dup_ptes), T(test_fork_dup_pmd), T(test_split_pmd),
		T(test_remove_pmd_with_ptes), T(test_cow_copy), T(test_example_1),
		T(test_example_2), T(test_underflow), T(test_sanity_checks),
		T(test_free_checks), T(test_fresh_folio_all_orders), T(test_mm_ids),
		T(test_rfc_example),
		/* the RFC's scheme only: the seeds' cannot map part of a folio by a PMD */
		T(test_4m_two_pmds), T(test_4m_pmd_and_ptes), T(test_partial_while_shared),
	};

	return _cmocka_run_group_tests(VARIANT_LABEL("rmap"), tests, ARRAY_SIZE(tests) -
				       (IS_ENABLED(CONFIG_MAPCOUNT_PAGES) ? 0 : 3), NULL, NULL);
}
