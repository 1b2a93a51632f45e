/*
 * Host tests of the page cache (mm/filemap.c, mm/truncate.c): adding,
 * finding and removing small and large folios with the cache's
 * references, nrpages and the Cached/Shmem counters; read() through the
 * cache (read_folio, holes); truncation that removes whole folios, zeroes
 * the cut page and splits a large folio cut in the middle; no leak.
 */
#include "linux/errno.h"
#include "linux/pagemap.h"
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include "linux/mm.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

MM_TEST_FIXTURE()

static struct inode inode;
static struct address_space *mapping;

/* A fresh inode with a page cache of size bytes (and no a_ops). */
static struct address_space *cache_init(loff_t size)
{
	memset(&inode, 0, sizeof(inode));
	address_space_init_once(&inode.i_data, &inode);
	inode.i_mapping = &inode.i_data;
	inode.i_size = size;
	return inode.i_mapping;
}

/* A folio of order filled with byte c, added at index; the caller's reference is dropped. */
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

static void test_add_get_remove(void **state)
{
	struct folio *small, *large, *f;

	(void)state;
	mapping = cache_init(4 << 20);
	small = add_filled(0, 3, 's', false);
	large = add_filled(4, 16, 'L', true);
	assert_int_equal(mapping->nrpages, 17);
	assert_int_equal(folio_ref_count(small), 1);
	assert_int_equal(folio_ref_count(large), 16);          /* one per page for the cache */
	assert_ptr_equal(large->mapping, mapping);
	assert_false(folio_test_anon(large));
	assert_int_equal(global_node_page_state(NR_FILE_PAGES), 17);
	assert_int_equal(global_node_page_state(NR_SHMEM), 16);
	for (pgoff_t i = 16; i < 32; i++)
		assert_ptr_equal(xa_load(&mapping->i_pages, i), large);
	assert_null(filemap_get_folio(mapping, 2));
	assert_null(filemap_get_folio(mapping, 32));
	f = filemap_get_folio(mapping, 21);
	assert_ptr_equal(f, large);
	assert_int_equal(folio_ref_count(large), 17);
	folio_lock(f);                  /* removal is under the folio lock */
	filemap_remove_folio(f);
	folio_unlock(f);
	assert_int_equal(folio_ref_count(large), 1);
	assert_null(large->mapping);
	assert_null(filemap_get_folio(mapping, 16));
	assert_int_equal(mapping->nrpages, 1);
	folio_put(f);
	truncate_inode_pages_final(mapping);
	assert_int_equal(mapping->nrpages, 0);
	assert_true(xa_empty(&mapping->i_pages));
	assert_int_equal(global_node_page_state(NR_FILE_PAGES), 0);
	assert_int_equal(global_node_page_state(NR_SHMEM), 0);
}

/* A folio that finds its range taken stays the caller's, untouched (-EEXIST). */
static void test_add_exist_leaves_folio(void **state)
{
	struct folio *f = folio_alloc(0, 0);

	(void)state;
	mapping = cache_init(PAGE_SIZE);
	add_filled(0, 0, 'a', false);
	assert_int_equal(filemap_add_folio(mapping, f, 0), -EEXIST);
	assert_null(f->mapping);
	assert_int_equal(folio_ref_count(f), 1);
	folio_put(f);
	truncate_inode_pages_final(mapping);
}

/* A 2 MiB shmem folio counts in ShmemHugePages. */
static void test_pmd_folio_counters(void **state)
{
	(void)state;
	mapping = cache_init(2 << 20);
	add_filled(HPAGE_PMD_ORDER, 0, 'H', true);
	assert_int_equal(global_node_page_state(NR_SHMEM_THPS), 512);
	assert_int_equal(global_node_page_state(NR_FILE_PAGES), 512);
	truncate_inode_pages_final(mapping);
	assert_int_equal(global_node_page_state(NR_SHMEM_THPS), 0);
	assert_int_equal(global_node_page_state(NR_SHMEM), 0);
}

static int reads;

/* A file system's read_folio: page i of the file holds byte 'a' + i. */
static int fake_read_folio(struct file *file, struct folio *folio)
{
	assert_true(folio_test_locked(folio));
	memset(page_address(&folio->page), 'a' + (int)folio->index, PAGE_SIZE);
	reads++;
	return 0;
}

static const struct address_space_operations fake_aops = { .read_folio = fake_read_folio };

/* read() through the cache: filled once by read_folio, then from the cache, up to i_size. */
static void test_read_folio(void **state)
{
	struct file file = { .f_inode = &inode };
	char buf[3 * 4096];
	loff_t pos = 4000;
	struct folio *f;

	(void)state;
	mapping = cache_init(2 * PAGE_SIZE + 100);
	mapping->a_ops = &fake_aops;
	file.f_mapping = mapping;
	reads = 0;
	assert_int_equal(filemap_read(&file, buf, sizeof(buf), &pos), 2 * PAGE_SIZE + 100 - 4000);
	assert_int_equal(pos, 2 * PAGE_SIZE + 100);
	assert_int_equal(buf[0], 'a');
	assert_int_equal(buf[96], 'b');
	assert_int_equal(buf[96 + PAGE_SIZE], 'c');
	assert_int_equal(reads, 3);
	assert_int_equal(mapping->nrpages, 3);
	f = filemap_get_folio(mapping, 1);
	assert_true(folio_test_uptodate(f));
	folio_put(f);
	pos = 0;
	assert_int_equal(filemap_read(&file, buf, 10, &pos), 10);
	assert_int_equal(reads, 3);
	assert_int_equal(filemap_read(&file, buf, 10, &pos), 10);
	pos = 3 * PAGE_SIZE;
	assert_int_equal(filemap_read(&file, buf, 10, &pos), 0);
	truncate_inode_pages_final(mapping);
}

/* generic_file_mmap needs read_folio; its fault reads the page in, SIGBUS past EOF. */
static void test_fault(void **state)
{
	struct file file = { .f_inode = &inode };
	struct vm_area_struct vma = { .vm_file = &file };
	struct vm_fault vmf = { .vma = &vma, .pgoff = 1 };

	(void)state;
	mapping = cache_init(PAGE_SIZE + 1);
	file.f_mapping = mapping;
	assert_int_equal(generic_file_mmap(&file, &vma), -ENOEXEC);
	mapping->a_ops = &fake_aops;
	assert_int_equal(generic_file_mmap(&file, &vma), 0);
	assert_ptr_equal(vma.vm_ops, &generic_file_vm_ops);
	assert_int_equal(vma.vm_ops->fault(&vmf), 0);
	assert_int_equal(*(char *)page_address(vmf.page), 'b');
	assert_int_equal(page_ref_count(vmf.page), 2);          /* the cache's and the fault's */
	folio_put(page_folio(vmf.page));
	vmf.pgoff = 2;
	assert_int_equal(filemap_fault(&vmf), VM_FAULT_SIGBUS);
	assert_int_equal(mapping->nrpages, 1);
	truncate_inode_pages_final(mapping);
}

/* Without read_folio (shmem), a hole reads as zeros and stays a hole. */
static void test_read_hole(void **state)
{
	struct file file = { .f_inode = &inode };
	char buf[2 * 4096];
	loff_t pos = 0;

	(void)state;
	mapping = cache_init(2 * PAGE_SIZE);
	file.f_mapping = mapping;
	add_filled(0, 1, 'x', true);
	memset(buf, 0x55, sizeof(buf));
	assert_int_equal(filemap_read(&file, buf, sizeof(buf), &pos), 2 * PAGE_SIZE);
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[PAGE_SIZE - 1], 0);
	assert_int_equal(buf[PAGE_SIZE], 'x');
	assert_int_equal(mapping->nrpages, 1);
	truncate_inode_pages_final(mapping);
}

/*
 * Truncate to the middle of an order-4 folio: it is split, the pages past
 * the cut go back to the buddy, the cut page's tail is zeroed, the pages
 * before stay with the data, one reference each.
 */
static void test_truncate_splits(void **state)
{
	struct folio *large, *f;
	unsigned char *p;

	(void)state;
	mapping = cache_init(64 * PAGE_SIZE);
	add_filled(0, 0, 'z', true);
	large = add_filled(4, 16, 'L', true);
	add_filled(4, 32, 'M', true);
	inode.i_size = 21 * PAGE_SIZE + 100;
	truncate_pagecache(&inode, inode.i_size);
	assert_int_equal(mapping->nrpages, 1 + 6);
	assert_int_equal(global_node_page_state(NR_FILE_PAGES), 7);
	for (pgoff_t i = 16; i < 22; i++) {
		f = filemap_get_folio(mapping, i);
		assert_ptr_equal(f, (struct folio *)folio_page(large, i - 16));
		assert_false(folio_test_large(f));
		assert_int_equal(f->index, i);
		assert_ptr_equal(f->mapping, mapping);
		assert_true(folio_test_uptodate(f) && folio_test_swapbacked(f));
		assert_false(folio_test_locked(f));
		assert_int_equal(folio_ref_count(f), 2);
		folio_put(f);
	}
	assert_null(filemap_get_folio(mapping, 22));
	assert_null(filemap_get_folio(mapping, 32));
	p = page_address(folio_page(large, 5));
	assert_int_equal(p[99], 'L');
	assert_int_equal(p[100], 0);
	assert_int_equal(p[PAGE_SIZE - 1], 0);
	assert_int_equal(*(unsigned char *)page_address(folio_page(large, 4)), 'L');
	truncate_inode_pages_final(mapping);
	assert_int_equal(global_node_page_state(NR_FILE_PAGES), 0);
}

/* A partial folio that another reference pins cannot be split: its cut part is zeroed. */
static void test_truncate_split_fails(void **state)
{
	struct folio *large, *pin;
	unsigned char *p;

	(void)state;
	mapping = cache_init(16 * PAGE_SIZE);
	large = add_filled(4, 0, 'P', false);
	pin = filemap_get_folio(mapping, 0);
	truncate_inode_pages_range(mapping, 3 * PAGE_SIZE + 5, 9 * PAGE_SIZE - 1);
	assert_true(folio_test_large(large));
	assert_int_equal(mapping->nrpages, 16);
	p = page_address(&large->page);
	assert_int_equal(p[3 * PAGE_SIZE + 4], 'P');
	assert_int_equal(p[3 * PAGE_SIZE + 5], 0);
	assert_int_equal(p[9 * PAGE_SIZE - 1], 0);
	assert_int_equal(p[9 * PAGE_SIZE], 'P');
	folio_put(pin);
	/* a hole punched in the middle, now splittable: pages 4-8 go, 3's tail and the rest stay */
	truncate_pagecache_range(&inode, 3 * PAGE_SIZE + 5, 9 * PAGE_SIZE - 1);
	assert_int_equal(mapping->nrpages, 16 - 5);
	assert_null(xa_load(&mapping->i_pages, 4));
	assert_null(xa_load(&mapping->i_pages, 8));
	assert_non_null(xa_load(&mapping->i_pages, 9));
	truncate_inode_pages_final(mapping);
}

/* A split to order 2: four order-2 folios, each in its four slots, the caller's on the first. */
static void test_split_to_order(void **state)
{
	struct folio *large, *f;

	(void)state;
	mapping = cache_init(16 * PAGE_SIZE);
	large = add_filled(4, 16, 'S', false);
	f = filemap_get_folio(mapping, 16);
	folio_lock(f);
	assert_int_equal(split_file_folio_to_order(f, 4), -EINVAL);
	assert_int_equal(split_file_folio_to_order(f, 2), 0);
	assert_true(folio_test_locked(f));
	for (int i = 0; i < 16; i++) {
		struct folio *piece = (struct folio *)folio_page(large, i & ~3);

		assert_ptr_equal(xa_load(&mapping->i_pages, 16 + i), piece);
		assert_int_equal(folio_order(piece), 2);
		assert_int_equal(piece->index, 16 + (i & ~3));
		assert_int_equal(folio_ref_count(piece), piece == f ? 5 : 4);
	}
	assert_int_equal(mapping->nrpages, 16);
	folio_unlock(f);
	folio_put(f);
	truncate_inode_pages_final(mapping);
}

/* i_mmap: VMAs are linked in and out by vma->shared. */
static void test_i_mmap(void **state)
{
	struct vm_area_struct a = { 0 }, b = { 0 };

	(void)state;
	mapping = cache_init(0);
	vma_interval_tree_insert(&a, mapping);
	vma_interval_tree_insert(&b, mapping);
	assert_ptr_equal(mapping->i_mmap.next, &a.shared);
	vma_interval_tree_remove(&a, mapping);
	assert_ptr_equal(mapping->i_mmap.next, &b.shared);
	vma_interval_tree_remove(&b, mapping);
	assert_true(list_empty(&mapping->i_mmap));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_add_get_remove, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_add_exist_leaves_folio, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_pmd_folio_counters, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_read_folio, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_read_hole, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_fault, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_truncate_splits, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_truncate_split_fails, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_split_to_order, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_i_mmap, boot, shutdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
