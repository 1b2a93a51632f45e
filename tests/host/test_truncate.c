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
#include "mm/mm_api.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

#define BASE    0x40000000UL    /* 2 MiB aligned */
#define RW      (PROT_READ | PROT_WRITE)

static struct mm_struct *mm;
static struct mem_counts before;
static struct inode inode;
static struct file file;
static unsigned int fault_order;        /* the order of the folios ->fault caches */

/* The tests' file is static: a reference dropped only counts down. */
void fput(struct file *f)
{
	f->f_count--;
}

/* ->fault: the cached folio at pgoff, or a new zeroed one of fault_order; -ENXIO past EOF. */
static int fake_fault(struct vm_fault *vmf)
{
	struct address_space *mapping = vmf->vma->vm_file->f_mapping;
	struct folio *folio;

	if (vmf->pgoff >= DIV_ROUND_UP(mapping->host->i_size, PAGE_SIZE))
		return -ENXIO;
	folio = filemap_get_folio(mapping, vmf->pgoff);
	if (!folio) {
		folio = folio_alloc(__GFP_ZERO, fault_order);
		if (!folio)
			return -ENOMEM;
		__folio_set_swapbacked(folio);
		assert_int_equal(filemap_add_folio(mapping, folio,
						   ALIGN_DOWN(vmf->pgoff, 1UL << fault_order)), 0);
		folio_set_uptodate(folio);
	}
	vmf->page = folio_page(folio, vmf->pgoff - folio->index);
	return 0;
}

static const struct vm_operations_struct fake_vm_ops = { .fault = fake_fault };

static int fake_mmap(struct file *f, struct vm_area_struct *vma)
{
	vma->vm_ops = &fake_vm_ops;
	return 0;
}

static const struct file_operations fake_fops = { .mmap = fake_mmap };

/* A machine, an mm, and a 4 MiB file opened read-write with folios of order. */
static int boot_order(unsigned int order)
{
	mm = mm_test_boot(&before);
	memset(&inode, 0, sizeof(inode));
	address_space_init_once(&inode.i_data, &inode);
	inode.i_mapping = &inode.i_data;
	inode.i_size = 4 << 20;
	file = (struct file){ .f_count = 1, .f_mode = FMODE_READ | FMODE_WRITE,
			      .f_inode = &inode, .f_mapping = &inode.i_data, .f_op = &fake_fops };
	fault_order = order;
	return 0;
}

static int boot0(void **state) { (void)state; return boot_order(0); }
static int boot4(void **state) { (void)state; return boot_order(4); }
static int boot9(void **state) { (void)state; return boot_order(HPAGE_PMD_ORDER); }

/* mm exits, the file's cache goes; then nothing may be left over. */
static int shutdown(void **state)
{
	(void)state;
	mm_exit(mm);
	assert_int_equal(file.f_count, 1);
	assert_int_equal(global_node_page_state(NR_FILE_MAPPED), 0);
	truncate_inode_pages_final(&inode.i_data);
	assert_int_equal(global_node_page_state(NR_FILE_PAGES), 0);
	assert_int_equal(global_node_page_state(NR_SHMEM_THPS), 0);
	mm_test_shutdown(NULL, &before);
	return 0;
}

static struct folio *folio_at(struct mm_struct *m, unsigned long addr)
{
	struct pgwalk w;

	if (!pgtable_lookup(m->pgd, addr, &w))
		return NULL;
	return page_folio(pfn_to_page(w.phys >> PAGE_SHIFT));
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
