/*
 * Host tests of truncation and hole punching of mapped files
 * (mm/truncate.c): a large folio cut in the middle while two mms map it
 * by PTEs, a PMD-mapped 2 MiB folio cut, and a hole punched in a
 * MAP_PRIVATE mapping that keeps the private copies until a truncation
 * takes them too.  A fake shmem-like file caches zeroed folios of a
 * chosen order at each fault.  Both mapcount modes; nothing leaks.
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
#include "tests/host/fake_file.h"

/* mm exits, the file's cache goes; then nothing may be left over. */
static int shutdown(void **state)
{
	(void)state;
	mm_exit(mm);
	assert_int_equal(atomic_read(&file.f_count), 1);
	assert_int_equal(global_node_page_state(NR_FILE_MAPPED), 0);
	truncate_inode_pages_final(&inode.i_data);
	assert_int_equal(global_node_page_state(NR_FILE_PAGES), 0);
	assert_int_equal(global_node_page_state(NR_SHMEM_THPS), 0);
	mm_test_shutdown(NULL, &before);
	return 0;
}

/* Read addr as a user would, faulting it in; the byte, or -ENXIO's SIGBUS as -1. */
static int user_read(struct mm_struct *m, unsigned long addr)
{
	if (read_byte(m, addr, ACC_USER) < 0 &&
	    handle_mm_fault(find_vma(m, addr), addr, FAULT_FLAG_USER))
		return -1;
	return read_byte(m, addr, ACC_USER);
}

/*
 * An order-4 folio mapped by PTEs in two mms, truncated to 5.5 pages:
 * pages 6-15 leave both mms and the cache, the folio is split, page 5
 * keeps its first half; the pages before the cut refault with their data.
 */
static void test_truncate_mapped_large(void **state)
{
	struct mm_struct *child;
	struct folio *f;

	(void)state;
	assert_int_equal(do_mmap(mm, &file, BASE, 16 * PAGE_SIZE, RW, MAP_SHARED | MAP_FIXED, 0),
			 BASE);
	for (int i = 0; i < 16; i++)
		user_write(mm, BASE + i * PAGE_SIZE + PAGE_SIZE / 2 + 1, 'a' + i);
	f = folio_at(mm, BASE);
	assert_int_equal(folio_order(f), 4);
	child = dup_mm(mm);
	assert_int_equal(user_read(child, BASE), 0);
	inode.i_size = 5 * PAGE_SIZE + PAGE_SIZE / 2;
	truncate_pagecache(&inode, inode.i_size);
	assert_int_equal(inode.i_data.nrpages, 6);
	assert_false(folio_test_large(f));
	for (int i = 6; i < 16; i++) {
		assert_int_equal(user_read(mm, BASE + i * PAGE_SIZE), -1);
		assert_int_equal(user_read(child, BASE + i * PAGE_SIZE), -1);
	}
	for (int i = 0; i < 5; i++) {
		assert_int_equal(user_read(child, BASE + i * PAGE_SIZE + PAGE_SIZE / 2 + 1), 'a' + i);
		assert_int_equal(user_read(mm, BASE + i * PAGE_SIZE + PAGE_SIZE / 2 + 1), 'a' + i);
		assert_ptr_equal(folio_at(mm, BASE + i * PAGE_SIZE), folio_page(f, i));
		assert_int_equal(folio_mapcount(folio_at(mm, BASE + i * PAGE_SIZE)), 2);
	}
	assert_int_equal(user_read(mm, BASE + 5 * PAGE_SIZE + PAGE_SIZE / 2 + 1), 0);
	mm_exit(child);
}

/* A PMD-mapped 2 MiB folio cut at 1 MiB + 100: split, the rest refaults by PTEs. */
static void test_truncate_pmd(void **state)
{
	(void)state;
	assert_int_equal(do_mmap(mm, &file, BASE, PMD_SIZE, RW, MAP_SHARED | MAP_FIXED, 0), BASE);
	user_write(mm, BASE + 5, 'x');
	assert_int_equal(global_node_page_state(NR_SHMEM_PMDMAPPED), 512);
	assert_int_equal(global_node_page_state(NR_SHMEM_THPS), 512);
	inode.i_size = (1 << 20) + 100;
	truncate_pagecache(&inode, inode.i_size);
	assert_int_equal(global_node_page_state(NR_SHMEM_PMDMAPPED), 0);
	assert_int_equal(global_node_page_state(NR_SHMEM_THPS), 0);
	assert_int_equal(inode.i_data.nrpages, 257);
	assert_int_equal(user_read(mm, BASE + 5), 'x');
	assert_int_equal(folio_order(folio_at(mm, BASE)), 0);
	assert_int_equal(user_read(mm, BASE + (1 << 20) + 99), 0);
	assert_int_equal(user_read(mm, BASE + (1 << 20) + PAGE_SIZE), -1);
}

/*
 * MAP_PRIVATE: page 1 was written (an anon copy), 0 and 2 only read.
 * Punching a hole over pages 0-2 unmaps the file pages and keeps the copy
 * (even_cows 0); truncating the file to 0 takes the copy too.
 */
static void test_punch_keeps_private_copies(void **state)
{
	(void)state;
	assert_int_equal(do_mmap(mm, &file, BASE, 4 * PAGE_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0),
			 BASE);
	assert_int_equal(user_read(mm, BASE), 0);
	user_write(mm, BASE + PAGE_SIZE, 'p');
	assert_int_equal(user_read(mm, BASE + 2 * PAGE_SIZE), 0);
	truncate_pagecache_range(&inode, 0, 3 * PAGE_SIZE - 1);
	assert_null(folio_at(mm, BASE));
	assert_null(folio_at(mm, BASE + 2 * PAGE_SIZE));
	assert_true(folio_test_anon(folio_at(mm, BASE + PAGE_SIZE)));
	assert_int_equal(read_byte(mm, BASE + PAGE_SIZE, ACC_USER), 'p');
	assert_int_equal(inode.i_data.nrpages, 0);
	inode.i_size = 0;
	truncate_pagecache(&inode, 0);
	assert_null(folio_at(mm, BASE + PAGE_SIZE));
	assert_int_equal(mm->rss_anon, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_truncate_mapped_large, boot4, shutdown),
		cmocka_unit_test_setup_teardown(test_truncate_pmd, boot9, shutdown),
		cmocka_unit_test_setup_teardown(test_punch_keeps_private_copies, boot0, shutdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
