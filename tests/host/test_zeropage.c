/*
 * Host tests of the zero pages and MADV_COLLAPSE through the software MMU,
 * in both modes: a read fault maps the zero page by a special PTE (no
 * refcount, no rmap, no RSS, a page-table entry counted), fork copies it,
 * a write replaces it; the huge zero folio by a PMD, its PMD split into
 * zero-page PTEs, its reference per mm, freed with the last mm; a collapse
 * of mTHPs, zero pages and holes into one PMD-mapped THP.  Every test ends
 * with nothing leaked (the shutdown's checks).
 */
#include "linux/errno.h"
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include "linux/huge_mm.h"
#include "mm/deferred_split.h"
#include "mm/internal.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

#define BASE    0x40000000UL            /* 1 GiB: PMD-aligned */
#define RW      (PROT_READ | PROT_WRITE)

MM_TEST_BOOT()

static int shutdown(void **state)
{
	(void)state;
	mm_exit(mm);
	assert_int_equal(huge_zero_pfn, ~0UL);  /* the last mm let the huge zero folio go */
	thp_policy_init();
	mm_test_shutdown(NULL, &before);
	return 0;
}

/* The PTE of addr in m, or 0. */
static pte_t pte_of(struct mm_struct *m, unsigned long addr)
{
	pte_t *pte = test_find_pte(m, addr);

	return pte ? *pte : __pte(0);
}

static void read_fault(struct mm_struct *m, unsigned long addr)
{
	assert_int_equal(handle_mm_fault(find_vma(m, addr), addr, FAULT_FLAG_USER), 0);
}

static void test_zero_page(void **state)
{
	struct mm_struct *child;
	struct page *zero = pfn_to_page(zero_pfn);
	pte_t pte;

	(void)state;
	thp_enabled_store(9, "never", 5);
	assert_int_equal(do_mmap(mm, NULL, BASE, 4 * PAGE_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	read_fault(mm, BASE);
	read_fault(mm, BASE + PAGE_SIZE);
	pte = pte_of(mm, BASE);
	assert_true(pte_special(pte) && !pte_write(pte) && pte_pfn(pte) == zero_pfn);
	assert_int_equal(pte_pfn(pte_of(mm, BASE + PAGE_SIZE)), zero_pfn);
	assert_int_equal(read_byte(mm, BASE + 5, ACC_USER), 0);
	assert_int_equal(mm->rss_anon, 0);
	assert_int_equal(page_ref_count(zero), 1);     /* its own, as a reserved page: never freed */
	assert_int_equal(atomic_read(&zero->_mapcount), -1);
	assert_true(PageReserved(zero));
	child = dup_mm(mm);
	assert_non_null(child);
	assert_int_equal(pte_pfn(pte_of(child, BASE)), zero_pfn);
	user_write(child, BASE, 'c');
	assert_int_equal(child->rss_anon, 1);
	assert_int_equal(pte_pfn(pte_of(mm, BASE)), zero_pfn);
	assert_int_equal(do_mprotect(mm, BASE, 4 * PAGE_SIZE, PROT_READ), 0);
	assert_int_equal(do_mprotect(mm, BASE, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	assert_false(pte_write(pte_of(mm, BASE)));
	user_write(mm, BASE + PAGE_SIZE, 'p');
	assert_int_equal(mm->rss_anon, 1);
	assert_int_equal(read_byte(mm, BASE + PAGE_SIZE, ACC_USER), 'p');
	assert_int_equal(read_byte(child, BASE + PAGE_SIZE, ACC_USER), 0);
	exit_mmap(child);
	mmdrop(child);
	assert_int_equal(page_ref_count(zero), 1);     /* its own, as a reserved page: never freed */
}

static void test_huge_zero(void **state)
{
	struct mm_struct *child;
	unsigned long hz;
	pmd_t *pmd;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 2 * PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	read_fault(mm, BASE + 77);
	pmd = mm_find_pmd(mm, BASE);
	assert_true(is_huge_zero_pmd(*pmd) && !pmd_write(*pmd));
	hz = huge_zero_pfn;
	assert_int_equal(mm->rss_anon, 0);
	assert_int_equal(global_node_page_state(NR_ANON_THPS), 0);
	child = dup_mm(mm);
	assert_non_null(child);
	read_fault(child, BASE + PMD_SIZE);             /* the same folio, one reference per mm */
	user_write(mm, BASE + 3 * PAGE_SIZE, 'w');      /* PMD split, one page copied */
	assert_false(pte_special(pte_of(mm, BASE + 3 * PAGE_SIZE)));
	assert_int_equal(pte_pfn(pte_of(mm, BASE + 4 * PAGE_SIZE)), zero_pfn);
	assert_int_equal(mm->rss_anon, 1);
	exit_mmap(child);
	mmdrop(child);
	assert_int_equal(huge_zero_pfn, hz);            /* the parent still holds it */
	zap_page_range(find_vma(mm, BASE), BASE, BASE + PMD_SIZE);
	assert_int_equal(mm->rss_anon, 0);
}

/* 16 64K mTHPs, 2 zero pages, holes: one PMD-mapped THP with the same bytes. */
static void test_collapse(void **state)
{
	struct vm_area_struct *vma;
	struct pgwalk w;

	(void)state;
	thp_enabled_store(-1, "never", 5);
	thp_enabled_store(4, "always", 6);
	assert_int_equal(do_mmap(mm, NULL, BASE, PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	vma = find_vma(mm, BASE);
	for (unsigned long i = 0; i < 256; i++)
		user_write(mm, BASE + i * PAGE_SIZE, (unsigned char)i);
	read_fault(mm, BASE + 300 * PAGE_SIZE);
	read_fault(mm, BASE + 301 * PAGE_SIZE);
	assert_int_equal(mm->rss_anon, 256);
	assert_int_equal(madvise_collapse(vma, BASE, BASE + PMD_SIZE), 0);
	assert_int_equal(pgtable_lookup((pgd_t *)mm->pgd, BASE, &w), PT_PMD);
	/* the PTE table left the tree for the deposit: still counted once (the OOM badness) */
	assert_int_equal(mm_pgtables_bytes(mm), (nr_pagetable_pages - 1) * PAGE_SIZE);
	assert_int_equal(mm->rss_anon, 512);
	assert_int_equal(global_node_page_state(NR_ANON_THPS), 512);
	for (unsigned long i = 0; i < 512; i++)
		assert_int_equal(read_byte(mm, BASE + i * PAGE_SIZE, ACC_USER), i < 256 ? i : 0);
	assert_int_equal(madvise_collapse(vma, BASE, BASE + PMD_SIZE), 0);   /* PMD-mapped */
	vma->vm_flags |= VM_NOHUGEPAGE;
	assert_int_equal(madvise_collapse(vma, BASE, BASE + PMD_SIZE), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_zero_page, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_huge_zero, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_collapse, boot, shutdown),
	};

	return cmocka_run_group_tests_name(VARIANT_LABEL("zeropage"), tests, NULL, NULL);
}
