/*
 * Host tests of what split_huge_page_test's file cases use in mm:
 * split_huge_pages_in_file (mm/huge_memory_debugfs.c, the debugfs path
 * form) splits the large folios of a page-cache range and leaves the
 * rest; invalidate_mapping_pages (mm/truncate.c, drop_caches) drops only
 * clean, unused folios of a file with a backing store.  No leak.
 */
#include "linux/pagemap.h"
#include "linux/huge_mm.h"
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include "linux/mm.h"
#include "linux/vmstat.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

MM_TEST_FIXTURE()

static struct inode inode;
static struct address_space *mapping;

static int read_zeros(struct file *file, struct folio *folio)
{
	return 0;
}

static const struct address_space_operations backed_aops = { .read_folio = read_zeros };

/* A fresh inode with an empty page cache; aops NULL: no backing store (shmem). */
static struct address_space *cache_init(const struct address_space_operations *aops)
{
	memset(&inode, 0, sizeof(inode));
	address_space_init_once(&inode.i_data, &inode);
	inode.i_mapping = &inode.i_data;
	inode.i_data.a_ops = aops;
	return inode.i_mapping;
}

/* A folio of order filled with byte c, cached at index; the caller's reference is dropped. */
static struct folio *add_filled(unsigned int order, pgoff_t index, int c, bool shmem)
{
	struct folio *folio = folio_alloc(0, order);

	assert_non_null(folio);
	memset(page_address(&folio->page), c, PAGE_SIZE << order);
	if (shmem)
		__folio_set_swapbacked(folio);
	assert_int_equal(filemap_add_folio(mapping, folio, index), 0);
	folio_set_uptodate(folio);
	folio_put(folio);
	return folio;
}

/* Is every page of [first, first + nr) cached in a folio of order, its bytes still c? */
static void assert_cached_as(pgoff_t first, unsigned long nr, unsigned int order, int c)
{
	for (pgoff_t i = first; i < first + nr; i++) {
		struct folio *folio = xa_load(&mapping->i_pages, i);
		const char *data = page_address(folio_page(folio, i - folio->index));

		assert_non_null(folio);
		assert_int_equal(folio_order(folio), order);
		assert_int_equal(folio->index, i & ~((1UL << order) - 1));
		assert_int_equal(data[0], c);
		assert_int_equal(data[PAGE_SIZE - 1], c);
	}
}

/* The path form's walk: the folios in the range to order 2; ShmemHugePages follows. */
static void test_split_in_file(void **state)
{
	(void)state;
	mapping = cache_init(NULL);
	add_filled(HPAGE_PMD_ORDER, 0, 'P', true);
	add_filled(4, HPAGE_PMD_NR, 'Q', true);
	add_filled(4, HPAGE_PMD_NR + 16, 'R', true);
	assert_int_equal(global_node_page_state(NR_SHMEM_THPS), HPAGE_PMD_NR);
	split_huge_pages_in_file(mapping, HPAGE_PMD_NR + 32, ~0UL, 0);
	assert_cached_as(HPAGE_PMD_NR + 16, 16, 4, 'R');
	split_huge_pages_in_file(mapping, 7, HPAGE_PMD_NR + 1, 2);
	assert_cached_as(0, HPAGE_PMD_NR, 2, 'P');
	assert_cached_as(HPAGE_PMD_NR, 16, 2, 'Q');
	assert_cached_as(HPAGE_PMD_NR + 16, 16, 4, 'R');
	assert_int_equal(global_node_page_state(NR_SHMEM_THPS), 0);
	assert_int_equal(mapping->nrpages, HPAGE_PMD_NR + 32);
	split_huge_pages_in_file(mapping, 0, ~0UL, 0);
	assert_cached_as(0, HPAGE_PMD_NR, 0, 'P');
	assert_cached_as(HPAGE_PMD_NR, 16, 0, 'Q');
	assert_cached_as(HPAGE_PMD_NR + 16, 16, 0, 'R');
	truncate_inode_pages_final(mapping);
}

/* A folio someone holds locked, or holds another reference to, stays whole. */
static void test_split_in_file_busy(void **state)
{
	struct folio *locked, *held;

	(void)state;
	mapping = cache_init(NULL);
	locked = add_filled(4, 0, 'L', true);
	held = add_filled(4, 16, 'H', true);
	folio_lock(locked);
	folio_get(held);
	split_huge_pages_in_file(mapping, 0, 32, 0);
	assert_cached_as(0, 16, 4, 'L');
	assert_cached_as(16, 16, 4, 'H');
	folio_unlock(locked);
	folio_put(held);
	truncate_inode_pages_final(mapping);
}

/* drop_caches' step for one file: clean unused folios go; dirty or referenced ones stay. */
static void test_invalidate(void **state)
{
	struct folio *dirty, *held;

	(void)state;
	mapping = cache_init(&backed_aops);
	add_filled(0, 0, 'a', false);
	add_filled(4, 16, 'b', false);
	dirty = add_filled(0, 1, 'c', false);
	held = add_filled(2, 4, 'd', false);
	folio_mark_dirty(dirty);
	folio_get(held);
	assert_int_equal(invalidate_mapping_pages(mapping, 0, ~0UL), 17);
	assert_int_equal(mapping->nrpages, 5);
	assert_null(xa_load(&mapping->i_pages, 0));
	assert_null(xa_load(&mapping->i_pages, 20));
	assert_ptr_equal(xa_load(&mapping->i_pages, 1), dirty);
	assert_ptr_equal(xa_load(&mapping->i_pages, 5), held);
	folio_put(held);
	assert_int_equal(invalidate_mapping_pages(mapping, 0, 3), 0);
	assert_int_equal(invalidate_mapping_pages(mapping, 4, 4), 4);
	truncate_inode_pages_final(mapping);
	assert_int_equal(global_node_page_state(NR_FILE_PAGES), 0);
}

/* Without a backing store (shmem) nothing is dropped: the folios are the only copy. */
static void test_invalidate_shmem(void **state)
{
	(void)state;
	mapping = cache_init(NULL);
	add_filled(0, 0, 's', true);
	assert_int_equal(invalidate_mapping_pages(mapping, 0, ~0UL), 0);
	assert_int_equal(mapping->nrpages, 1);
	truncate_inode_pages_final(mapping);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_split_in_file, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_split_in_file_busy, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_invalidate, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_invalidate_shmem, boot, shutdown),
	};

	return cmocka_run_group_tests_name("split_file", tests, NULL, NULL);
}
