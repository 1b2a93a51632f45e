/*
 * The RFC's total of mapped pages ("mm/rmap: support arbitrary folio
 * mappings"), on the rmap calls alone.  In every variant: the total and
 * the average mapcount of the RFC's example (2 PMDs + 1 PTE), which the
 * seeds' schemes give too.  With CONFIG_MAPCOUNT_PAGES only: a 4 MiB folio
 * mapped by two PMDs, by a PMD and PTEs, and a partial unmap while
 * shared, which the scheme cannot see.
 */
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include <setjmp.h>
#include <cmocka.h>

#define MCP IS_ENABLED(CONFIG_MAPCOUNT_PAGES)

static struct test_mm A, B;
static long anon0, thps0;

static int boot(void **state)
{
	(void)state;
	host_machine_boot(64UL << 20);
	test_mm_init(&A, NULL);
	test_mm_init(&B, &A);
	anon0 = anon_pages();
	thps0 = anon_thps();
	return 0;
}

static int shutdown(void **state)
{
	(void)state;
	assert_int_equal(nr_warnings, 0);
	host_machine_shutdown();
	return 0;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rfc_example, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_4m_two_pmds, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_4m_pmd_and_ptes, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_partial_while_shared, boot, shutdown),
	};

	/* The seeds' schemes cannot map a folio larger than a PMD: the first test only. */
	return _cmocka_run_group_tests(VARIANT_LABEL("mapcount pages"), tests,
				       MCP ? ARRAY_SIZE(tests) : 1, NULL, NULL);
}
