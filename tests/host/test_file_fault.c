/*
 * Host tests of faults on file VMAs (mm/memory_file.c) and of file VMAs'
 * lives (mm/vma.c, mm/mmap.c, mm/fork.c): a fake shmem-like file whose
 * ->fault caches zeroed folios of a chosen order.  MAP_SHARED faults map
 * the cache's folio (a PMD where it fits, all PTEs of a large folio), fork
 * copies no page table of a shared mapping, a MAP_PRIVATE write copies one
 * page into anon memory and leaves the cache's folio alone, a fault past
 * EOF is VM_FAULT_SIGBUS, truncation unmaps every mm.  Both mapcount modes; every
 * page, table, counter and file reference comes back.
 */
#include "linux/errno.h"
#include "linux/pagemap.h"
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include "linux/mm.h"
#include "mm/internal.h"
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
	mm = NULL;
	assert_int_equal(atomic_read(&file.f_count), 1);
	assert_true(list_empty(&inode.i_data.i_mmap));
	assert_int_equal(atomic_read(&inode.i_data.i_mmap_writable), 0);
	assert_int_equal(global_node_page_state(NR_FILE_MAPPED), 0);
	assert_int_equal(global_node_page_state(NR_SHMEM_PMDMAPPED), 0);
	truncate_inode_pages_final(&inode.i_data);
	mm_test_shutdown(NULL, &before);
	return 0;
}

static bool pmd_mapped(struct mm_struct *m, unsigned long addr)
{
	pmd_t *pmd = mm_find_pmd(m, addr);

	return pmd && pmd_trans_huge(*pmd);
}

static void user_read(struct mm_struct *m, unsigned long addr)
{
	if (read_byte(m, addr, ACC_USER) < 0)
		assert_int_equal(handle_mm_fault(find_vma(m, addr), addr, FAULT_FLAG_USER), 0);
}

/*
 * Two processes share a 2 MiB shmem THP through MAP_SHARED: one PMD each,
 * both MM owner slots, the shared bit; fork copied no page table (the
 * child refaulted); the child exits: exclusive again.
 */
static void test_shared_pmd_fork(void **state)
{
	struct mm_struct *child;
	struct folio *f;

	(void)state;
	assert_int_equal(do_mmap(mm, &file, BASE, PMD_SIZE, RW, MAP_SHARED | MAP_FIXED, 0), BASE);
	assert_int_equal(atomic_read(&file.f_count), 2);
	assert_int_equal(atomic_read(&inode.i_data.i_mmap_writable), 1);
	user_write(mm, BASE + 5, 'x');
	assert_true(pmd_mapped(mm, BASE));
	f = folio_at(mm, BASE);
	assert_true(folio_test_dirty(f));
	assert_int_equal(mm->rss_shmem, 512);
	assert_int_equal(global_node_page_state(NR_SHMEM_PMDMAPPED), 512);
	assert_int_equal(global_node_page_state(NR_FILE_MAPPED), 512);
	child = dup_mm(mm);
	assert_non_null(child);
	assert_int_equal(atomic_read(&file.f_count), 3);
	assert_null(folio_at(child, BASE));             /* not copied */
	assert_int_equal(child->rss_shmem, 0);
	user_read(child, BASE + 4096);
	assert_true(pmd_mapped(child, BASE));
	assert_int_equal(read_byte(child, BASE + 5, ACC_USER), 'x');
	assert_int_equal(folio_large_mapcount(f), 2);
	assert_int_equal(folio_entire_mapcount(f), 2);
	assert_true(folio_test_large_maybe_mapped_shared(f));
	assert_int_equal(folio_mm_id(f, 1), child->mm_id);
	assert_int_equal(global_node_page_state(NR_SHMEM_PMDMAPPED), 512);
	mm_exit(child);
	assert_int_equal(atomic_read(&file.f_count), 2);
	assert_false(folio_test_large_maybe_mapped_shared(f));
	assert_int_equal(folio_large_mapcount(f), 1);
	assert_int_equal(folio_ref_count(f), 512 + 1);  /* the cache's and the PMD's */
}

/*
 * Part of a PMD-mapped file THP unmapped: the PMD is zapped (Linux's split
 * of a file PMD), the rest refaults by PTEs, one page per fault where the
 * folio does not fit the shorter VMA.
 */
static void test_partial_munmap_pmd(void **state)
{
	struct folio *f;

	(void)state;
	assert_int_equal(do_mmap(mm, &file, BASE, PMD_SIZE, RW, MAP_SHARED | MAP_FIXED, 0), BASE);
	user_write(mm, BASE, 'a');
	user_write(mm, BASE + PMD_SIZE - 1, 'z');
	f = folio_at(mm, BASE);
	assert_int_equal(do_munmap(mm, BASE + PMD_SIZE / 2, PMD_SIZE / 2), 0);
	assert_false(pmd_mapped(mm, BASE));
	assert_false(folio_mapped(f));
	assert_int_equal(mm->rss_shmem, 0);
	assert_int_equal(read_byte(mm, BASE, ACC_USER), -1);
	user_read(mm, BASE + 3 * PAGE_SIZE);
	assert_int_equal(folio_large_mapcount(f), 1);
	assert_int_equal(folio_entire_mapcount(f), 0);
	assert_int_equal(read_byte(mm, BASE + 3 * PAGE_SIZE, ACC_USER), 0);
	user_read(mm, BASE);
	assert_int_equal(read_byte(mm, BASE, ACC_USER), 'a');
	assert_int_equal(mm->rss_shmem, 2);
	assert_int_equal(global_node_page_state(NR_SHMEM_PMDMAPPED), 0);
	/* mprotect of one page: the PTEs stay, the VMA splits */
	assert_int_equal(do_mprotect(mm, BASE, PAGE_SIZE, PROT_READ), 0);
	assert_int_equal(folio_large_mapcount(f), 2);
	/* the other half of the file, mapped again, refaults into the same folio */
	assert_int_equal(do_mmap(mm, &file, BASE + PMD_SIZE / 2, PMD_SIZE / 2, RW,
				 MAP_SHARED | MAP_FIXED, 256), BASE + PMD_SIZE / 2);
	assert_int_equal(read_byte(mm, BASE + PMD_SIZE - 1, ACC_USER), -1);
	user_read(mm, BASE + PMD_SIZE - 1);
	assert_int_equal(read_byte(mm, BASE + PMD_SIZE - 1, ACC_USER), 'z');
	assert_int_equal(folio_large_mapcount(f), 3);
}

/*
 * A 64 KiB shmem folio: one write maps all 16 PTEs; fork copies none; the
 * child's read maps all 16 too: both slots, 16 mappings each.
 */
static void test_shared_ptes_fork(void **state)
{
	struct mm_struct *child;
	struct folio *f;

	(void)state;
	assert_int_equal(do_mmap(mm, &file, BASE, 16 * PAGE_SIZE, RW, MAP_SHARED | MAP_FIXED, 0),
			 BASE);
	user_write(mm, BASE + 7 * PAGE_SIZE, 's');
	f = folio_at(mm, BASE);
	assert_int_equal(folio_order(f), 4);
	assert_int_equal(folio_large_mapcount(f), 16);
	assert_int_equal(mm->rss_shmem, 16);
	assert_int_equal(global_node_page_state(NR_FILE_MAPPED), 16);
	child = dup_mm(mm);
	assert_null(folio_at(child, BASE + 7 * PAGE_SIZE));
	user_read(child, BASE);
	assert_int_equal(read_byte(child, BASE + 7 * PAGE_SIZE, ACC_USER), 's');
	assert_int_equal(folio_large_mapcount(f), 32);
	assert_true(folio_test_large_maybe_mapped_shared(f));
	assert_int_equal(f->_mm_id_mapcount[1] + 1, 16);
	mm_exit(child);
	assert_false(folio_test_large_maybe_mapped_shared(f));
}

/*
 * MAP_PRIVATE: a read maps the cache's page read-only; a write copies it
 * into a new anon page; the cache's folio keeps its data and is unmapped.
 * A fork copies the private VMA's page tables (it has an anon_vma).
 */
static void test_private_cow(void **state)
{
	struct folio *cache, *anon;
	struct mm_struct *child;
	phys_addr_t pa;

	(void)state;
	assert_int_equal(do_mmap(mm, &file, BASE, 4 * PAGE_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0),
			 BASE);
	user_read(mm, BASE);
	cache = folio_at(mm, BASE);
	assert_false(folio_test_anon(cache));
	assert_ptr_equal(cache->mapping, &inode.i_data);
	assert_int_equal(softmmu_translate(mm->pgd, BASE, ACC_USER | ACC_WRITE, &pa),
			 SOFTMMU_PROTECTION);
	assert_int_equal(mm->rss_shmem, 1);
	user_write(mm, BASE + 1, 'p');
	anon = folio_at(mm, BASE);
	assert_ptr_not_equal(anon, cache);
	assert_true(folio_test_anon(anon));
	assert_int_equal(((char *)page_address(&cache->page))[1], 0);
	assert_false(folio_mapped(cache));
	assert_int_equal(mm->rss_shmem, 0);
	assert_int_equal(mm->rss_anon, 1);
	user_read(mm, BASE + PAGE_SIZE);                /* a file page next to it */
	child = dup_mm(mm);
	assert_ptr_equal(folio_at(child, BASE), anon);
	assert_ptr_equal(folio_at(child, BASE + PAGE_SIZE), folio_at(mm, BASE + PAGE_SIZE));
	assert_int_equal(folio_mapcount(folio_at(mm, BASE + PAGE_SIZE)), 2);
	assert_int_equal(child->rss_shmem, 1);
	assert_int_equal(child->rss_anon, 1);
	user_write(child, BASE + PAGE_SIZE, 'c');       /* the child's own copy */
	assert_int_equal(read_byte(mm, BASE + PAGE_SIZE, ACC_USER), 0);
	mm_exit(child);
}

/* A fault past the end of the file is SIGBUS; truncation unmaps every mm. */
static void test_sigbus_truncate(void **state)
{
	struct mm_struct *child;

	(void)state;
	assert_int_equal(do_mmap(mm, &file, BASE, 4 * PAGE_SIZE, RW, MAP_SHARED | MAP_FIXED, 0),
			 BASE);
	user_write(mm, BASE + 2 * PAGE_SIZE, 't');
	child = dup_mm(mm);
	user_read(child, BASE + 2 * PAGE_SIZE);
	inode.i_size = PAGE_SIZE;
	truncate_pagecache(&inode, inode.i_size);
	assert_int_equal(read_byte(mm, BASE + 2 * PAGE_SIZE, ACC_USER), -1);
	assert_int_equal(read_byte(child, BASE + 2 * PAGE_SIZE, ACC_USER), -1);
	assert_int_equal(handle_mm_fault(find_vma(mm, BASE), BASE + 2 * PAGE_SIZE,
					 FAULT_FLAG_USER), VM_FAULT_SIGBUS);
	assert_int_equal(inode.i_data.nrpages, 0);             /* the memory went back */
	assert_int_equal(global_node_page_state(NR_FILE_MAPPED), 0);
	user_read(mm, BASE);                            /* inside the file: a page */
	assert_int_equal(inode.i_data.nrpages, 1);
	mm_exit(child);
}

/* mmap's checks of the file: read-only shared writable EACCES, mprotect too; write-only EACCES. */
static void test_mmap_checks(void **state)
{
	(void)state;
	file.f_mode = FMODE_READ;
	assert_int_equal(do_mmap(mm, &file, BASE, PAGE_SIZE, RW, MAP_SHARED, 0), -EACCES);
	assert_int_equal(do_mmap(mm, &file, BASE, PAGE_SIZE, PROT_READ, MAP_SHARED | MAP_FIXED, 0),
			 BASE);
	assert_false(find_vma(mm, BASE)->vm_flags & (VM_SHARED | VM_MAYWRITE));
	assert_int_equal(atomic_read(&inode.i_data.i_mmap_writable), 0);
	assert_int_equal(do_mprotect(mm, BASE, PAGE_SIZE, RW), -EACCES);
	assert_int_equal(do_mmap(mm, &file, BASE + PAGE_SIZE, PAGE_SIZE, RW,
				 MAP_PRIVATE | MAP_FIXED, 0), BASE + PAGE_SIZE);
	file.f_mode = FMODE_WRITE;
	assert_int_equal(do_mmap(mm, &file, BASE, PAGE_SIZE, PROT_READ, MAP_PRIVATE, 0), -EACCES);
	file.f_mode = FMODE_READ | FMODE_WRITE;
	assert_int_equal(do_mmap(mm, &file, BASE, PAGE_SIZE, RW, MAP_SHARED_VALIDATE | 0x800000, 0),
			 -EOPNOTSUPP);
	assert_int_equal(do_mmap(mm, &file, BASE, PAGE_SIZE, RW, MAP_TYPE, 0), -EINVAL);
	/* shared anonymous memory needs shmem, which the host has not: its error, no VMA */
	assert_int_equal(do_mmap(mm, NULL, BASE + 8 * PAGE_SIZE, PAGE_SIZE, RW,
				 MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, 0), -ENOMEM);
	assert_null(find_vma(mm, BASE + 8 * PAGE_SIZE));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_shared_pmd_fork, boot9, shutdown),
		cmocka_unit_test_setup_teardown(test_partial_munmap_pmd, boot9, shutdown),
		cmocka_unit_test_setup_teardown(test_shared_ptes_fork, boot4, shutdown),
		cmocka_unit_test_setup_teardown(test_private_cow, boot0, shutdown),
		cmocka_unit_test_setup_teardown(test_sigbus_truncate, boot0, shutdown),
		cmocka_unit_test_setup_teardown(test_mmap_checks, boot0, shutdown),
	};

	return cmocka_run_group_tests_name(VARIANT_LABEL("file faults"), tests, NULL, NULL);
}
