/*
 * Host tests of the mmu_gather (mm/mmu_gather.c, mm/tlb.h): an unmap frees
 * its pages and page tables only when the gather flushes, one flush per
 * full batch and one at the end; until then the soft MMU's cached
 * translations (a CPU that has not flushed yet) still reach the old
 * pages, which is why they must not be reused before.
 */
#include "tests/host/hostenv.h"
#include "tests/host/softmmu.h"
#include "tests/host/rmap_helpers.h"
#include "linux/mm.h"
#include "mm/internal.h"
#include "mm/tlb.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

#define BASE 0x10000000UL

MM_TEST_FIXTURE()

/* Map and write n 4 KiB pages at BASE, each its own folio; reads cache them in the MMU. */
static struct vm_area_struct *populate(unsigned long n)
{
	assert_int_equal(do_mmap(mm, NULL, BASE, n * PAGE_SIZE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_FIXED, 0), BASE);
	for (unsigned long i = 0; i < n; i++)
		user_write(mm, BASE + i * PAGE_SIZE, 0x10 + i);
	assert_int_equal(global_node_page_state(NR_ANON_MAPPED), n);
	return find_vma(mm, BASE);
}

/* Nothing is freed and nothing flushed until tlb_finish_mmu. */
static void test_free_at_flush(void **state)
{
	struct vm_area_struct *vma = populate(8);
	unsigned long free_before = zone.free_pages, flushes;
	struct mmu_gather tlb;

	(void)state;
	assert_int_equal(read_byte(mm, BASE + 3 * PAGE_SIZE, ACC_USER), 0x13);
	flushes = softmmu_flushes;
	tlb_gather_mmu(&tlb, mm);
	tlb.free_tables = true;         /* as do_munmap's gather, under the rmap locks */
	take_rmap_locks(vma);
	unmap_page_range(&tlb, vma, BASE, BASE + 8 * PAGE_SIZE);
	drop_rmap_locks(vma);
	assert_int_equal(global_node_page_state(NR_ANON_MAPPED), 0);    /* unmapped... */
	assert_int_equal(zone.free_pages, free_before);                 /* ...not freed */
	assert_int_equal(softmmu_flushes, flushes);
	assert_int_equal(tlb.nr_pages, 8);
	assert_true(tlb.nr_tables > 0);                                 /* the emptied PTE table */
	assert_int_equal(read_byte(mm, BASE + 3 * PAGE_SIZE, ACC_USER), 0x13);  /* stale, still there */
	tlb_finish_mmu(&tlb);
	assert_int_equal(softmmu_flushes, flushes + 1);
	assert_true(zone.free_pages > free_before + 8);                 /* pages and tables */
	assert_int_equal(read_byte(mm, BASE + 3 * PAGE_SIZE, ACC_USER), -1);
}

/* A full batch flushes, then frees, and the gather goes on. */
static void test_batch_full(void **state)
{
	unsigned long n = MMU_GATHER_BATCH + 10, flushes;
	struct vm_area_struct *vma = populate(n);
	unsigned long free_before = zone.free_pages;
	struct mmu_gather tlb;

	(void)state;
	flushes = softmmu_flushes;
	tlb_gather_mmu(&tlb, mm);
	tlb.free_tables = true;
	take_rmap_locks(vma);
	unmap_page_range(&tlb, vma, BASE, BASE + n * PAGE_SIZE);
	drop_rmap_locks(vma);
	assert_int_equal(softmmu_flushes, flushes + 1);                 /* the full batch */
	assert_int_equal(zone.free_pages, free_before + MMU_GATHER_BATCH);
	assert_int_equal(tlb.nr_pages, 10);
	tlb_finish_mmu(&tlb);
	assert_int_equal(softmmu_flushes, flushes + 2);
	assert_true(zone.free_pages > free_before + n);
}

/* munmap is one gather: one flush for pages of several VMAs. */
static void test_munmap_one_flush(void **state)
{
	unsigned long flushes;

	(void)state;
	populate(16);
	assert_int_equal(do_mprotect(mm, BASE + 4 * PAGE_SIZE, 4 * PAGE_SIZE, PROT_READ), 0);
	flushes = softmmu_flushes;
	assert_int_equal(do_munmap(mm, BASE, 16 * PAGE_SIZE), 0);
	assert_int_equal(softmmu_flushes, flushes + 1);
	assert_int_equal(read_byte(mm, BASE, ACC_USER), -1);
}

/* A gather with nothing in it flushes nothing. */
static void test_empty(void **state)
{
	unsigned long flushes = softmmu_flushes;
	struct mmu_gather tlb;

	(void)state;
	tlb_gather_mmu_fullmm(&tlb, mm);
	tlb_finish_mmu(&tlb);
	assert_int_equal(softmmu_flushes, flushes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_free_at_flush, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_batch_full, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_munmap_one_flush, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_empty, boot, shutdown),
	};

	return cmocka_run_group_tests_name("mmu_gather", tests, NULL, NULL);
}
