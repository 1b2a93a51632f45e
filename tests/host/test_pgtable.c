/*
 * Host tests of mm/pgtable.c, checked through the software MMU
 * (tests/host/softmmu.c), which walks the tables the way hardware does.
 */
#include "linux/errno.h"
#include "tests/host/hostenv.h"
#include "tests/host/softmmu.h"
#include "linux/printk.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

static pgd_t *pgd;

static int boot(void **state)
{
	(void)state;
	host_machine_boot(64UL << 20);
	pgd = pgd_alloc();
	return pgd ? 0 : -1;
}

static int shutdown(void **state)
{
	(void)state;
	host_machine_shutdown();
	return 0;
}

static phys_addr_t pfn_pa(unsigned long pfn)
{
	return (phys_addr_t)pfn << PAGE_SHIFT;
}

static void test_map_pte_translates(void **state)
{
	struct page *page = alloc_page(0);
	unsigned long pfn = page_to_pfn(page);
	phys_addr_t pa;

	(void)state;
	assert_int_equal(pgtable_map(pgd, 0x400000, pfn, PAGE_USER_RO, PT_PTE), 0);
	assert_int_equal(nr_pagetable_pages, 4);       /* root, PUD, PMD, PTE */
	assert_int_equal(softmmu_translate(pgd, 0x400abc, ACC_USER, &pa), SOFTMMU_OK);
	assert_int_equal(pa, pfn_pa(pfn) + 0xabc);
	assert_int_equal(softmmu_translate(pgd, 0x400000, ACC_USER | ACC_WRITE, &pa),
			 SOFTMMU_PROTECTION);
	assert_int_equal(softmmu_translate(pgd, 0x401000, 0, &pa), SOFTMMU_NOT_PRESENT);
	assert_int_equal(pgtable_unmap(pgd, 0x400000, PT_PTE, NULL), 0);
	assert_int_equal(softmmu_translate(pgd, 0x400abc, ACC_USER, &pa), SOFTMMU_NOT_PRESENT);
	assert_int_equal(nr_pagetable_pages, 1);       /* only the root is left */
	__free_page(page);
}

/* The accessed/dirty bits set by the MMU show in lookups. */
static void test_accessed_dirty(void **state)
{
	struct page *page = alloc_page(0);
	struct pgwalk w;
	phys_addr_t pa;

	(void)state;
	assert_int_equal(pgtable_map(pgd, 0x7000, page_to_pfn(page), PAGE_USER_RW, PT_PTE), 0);
	assert_int_equal(pgtable_lookup(pgd, 0x7000, &w), PT_PTE);
	assert_false(pgval_young(w.entry[PT_PTE]));
	softmmu_translate(pgd, 0x7008, ACC_USER | ACC_WRITE, &pa);
	assert_int_equal(pgtable_lookup(pgd, 0x7000, &w), PT_PTE);
	assert_true(pgval_young(w.entry[PT_PTE]) && pgval_dirty(w.entry[PT_PTE]));
	assert_int_equal(pgtable_unmap(pgd, 0x7000, PT_PTE, NULL), 0);
	__free_page(page);
}

static void test_pmd_leaf(void **state)
{
	struct page *huge = alloc_pages(0, HPAGE_PMD_ORDER);
	unsigned long pfn = page_to_pfn(huge);
	phys_addr_t pa;

	(void)state;
	assert_int_equal(pgtable_map(pgd, 0x200000 + PAGE_SIZE, pfn, PAGE_USER_RW, PT_PMD), -EINVAL);
	assert_int_equal(pgtable_map(pgd, 0x200000, pfn + 1, PAGE_USER_RW, PT_PMD), -EINVAL);
	assert_int_equal(pgtable_map(pgd, 0x200000, pfn, PAGE_USER_RW, PT_PMD), 0);
	assert_int_equal(nr_pagetable_pages, 3);       /* root, PUD, PMD: no PTE table */
	assert_int_equal(softmmu_translate(pgd, 0x3fffff, ACC_USER | ACC_WRITE, &pa), SOFTMMU_OK);
	assert_int_equal(pa, pfn_pa(pfn) + 0x1fffff);
	assert_int_equal(pgtable_map(pgd, 0x201000, pfn, PAGE_USER_RW, PT_PTE), -EEXIST);
	assert_int_equal(pgtable_unmap(pgd, 0x200000, PT_PTE, NULL), -EINVAL);
	assert_int_equal(pgtable_unmap(pgd, 0x200000, PT_PMD, NULL), 0);
	assert_int_equal(softmmu_translate(pgd, 0x3fffff, ACC_USER, &pa), SOFTMMU_NOT_PRESENT);
	assert_int_equal(nr_pagetable_pages, 1);
	__free_pages(huge, HPAGE_PMD_ORDER);
}

/* Unmapping must flush: a cached translation may not survive it. */
static void test_unmap_flushes_tlb(void **state)
{
	struct page *huge = alloc_pages(0, HPAGE_PMD_ORDER);
	phys_addr_t pa;

	(void)state;
	assert_int_equal(pgtable_map(pgd, 0x600000, page_to_pfn(huge), PAGE_USER_RW, PT_PMD), 0);
	assert_int_equal(softmmu_translate(pgd, 0x6ff000, ACC_USER, &pa), SOFTMMU_OK);
	assert_int_equal(pgtable_unmap(pgd, 0x600000, PT_PMD, NULL), 0);
	assert_true(softmmu_flushes > 0);
	assert_int_equal(softmmu_translate(pgd, 0x6ff000, ACC_USER, &pa), SOFTMMU_NOT_PRESENT);
	__free_pages(huge, HPAGE_PMD_ORDER);
}

/*
 * Random PTE and PMD maps and unmaps over 8 MiB against a model of what
 * should be mapped; after each step the MMU must agree with the model, and
 * when all is unmapped only the root table is left.
 */
static void test_random_against_model(void **state)
{
	enum { SPAN_PMDS = 4, STEPS = 20000 };
	const unsigned long base = 0x7f0000000000UL;
	static unsigned long model[SPAN_PMDS * 512];   /* pfn + 1, or 0 */
	static bool pmd_mapped[SPAN_PMDS];
	struct page *huge = alloc_pages(0, HPAGE_PMD_ORDER);
	unsigned long hpfn = page_to_pfn(huge);

	(void)state;
	srand(777);
	for (int step = 0; step < STEPS; step++) {
		int p = rand() % SPAN_PMDS, i = rand() % 512, slot = p * 512 + i;
		unsigned long va = base + slot * PAGE_SIZE, pva = base + p * PMD_SIZE;
		int ret, n = 0;
		phys_addr_t pa;

		switch (rand() % 4) {
		case 0:         /* map a PTE */
			ret = pgtable_map(pgd, va, hpfn + i, PAGE_USER_RW, PT_PTE);
			assert_int_equal(ret, pmd_mapped[p] || model[slot] ? -EEXIST : 0);
			if (!ret)
				model[slot] = hpfn + i + 1;
			break;
		case 1:         /* unmap a PTE */
			ret = pgtable_unmap(pgd, va, PT_PTE, NULL);
			assert_int_equal(ret, pmd_mapped[p] ? -EINVAL : model[slot] ? 0 : -ENOENT);
			model[slot] = pmd_mapped[p] ? model[slot] : 0;
			break;
		case 2:         /* map the PMD */
			for (int k = 0; k < 512; k++)
				n += model[p * 512 + k] != 0;
			ret = pgtable_map(pgd, pva, hpfn, PAGE_USER_RW, PT_PMD);
			assert_int_equal(ret, pmd_mapped[p] || n ? -EEXIST : 0);
			if (!ret) {
				pmd_mapped[p] = true;
				for (int k = 0; k < 512; k++)
					model[p * 512 + k] = hpfn + k + 1;
			}
			break;
		case 3:         /* unmap the PMD */
			ret = pgtable_unmap(pgd, pva, PT_PMD, NULL);
			if (pmd_mapped[p]) {
				assert_int_equal(ret, 0);
				pmd_mapped[p] = false;
				for (int k = 0; k < 512; k++)
					model[p * 512 + k] = 0;
			} else {
				assert_true(ret == -EINVAL || ret == -ENOENT);
			}
			break;
		}
		for (int k = 0; k < 8; k++) {
			int s = rand() % (SPAN_PMDS * 512);
			enum softmmu_result r = softmmu_translate(pgd, base + s * PAGE_SIZE, ACC_USER, &pa);

			assert_int_equal(r, model[s] ? SOFTMMU_OK : SOFTMMU_NOT_PRESENT);
			if (model[s])
				assert_int_equal(pa, pfn_pa(model[s] - 1));
		}
	}
	for (int p = 0; p < SPAN_PMDS; p++) {
		if (pmd_mapped[p])
			assert_int_equal(pgtable_unmap(pgd, base + p * PMD_SIZE, PT_PMD, NULL), 0);
		else
			for (int k = 0; k < 512; k++)
				if (model[p * 512 + k])
					assert_int_equal(pgtable_unmap(pgd, base + (p * 512 + k) * PAGE_SIZE,
								       PT_PTE, NULL), 0);
	}
	assert_int_equal(nr_pagetable_pages, 1);
	pgd_free(pgd);
	assert_int_equal(nr_pagetable_pages, 0);
	__free_pages(huge, HPAGE_PMD_ORDER);
	assert_int_equal(zone.free_pages, zone.managed_pages);
}

/* Teardown frees every table; a leaf left behind is warned about and kept. */
static void test_free_range(void **state)
{
	struct page *page = alloc_page(0);

	(void)state;
	for (unsigned long va = 0x1000; va < 0x1000 + 64 * PUD_SIZE; va += PUD_SIZE / 2)
		assert_int_equal(pgtable_map(pgd, va, page_to_pfn(page), PAGE_USER_RW, PT_PTE), 0);
	for (unsigned long va = 0x1000; va < 0x1000 + 64 * PUD_SIZE; va += PUD_SIZE / 2)
		if (va != 0x1000)
			assert_int_equal(pgtable_unmap(pgd, va, PT_PTE, NULL), 0);
	pgtable_free_range(pgd, 0, TASK_SIZE_MAX);
	assert_int_equal(nr_warnings, 1);                       /* the one at 0x1000 */
	assert_int_equal(nr_pagetable_pages, 4);
	assert_int_equal(pgtable_unmap(pgd, 0x1000, PT_PTE, NULL), 0);
	assert_int_equal(nr_pagetable_pages, 1);
	pgd_free(pgd);
	__free_page(page);
	assert_int_equal(zone.free_pages, zone.managed_pages);
}

/* Out of memory while allocating tables: -ENOMEM, nothing half-built leaks. */
static void test_enomem(void **state)
{
	struct page *page;
	LIST_HEAD(held);
	int ret;

	(void)state;
	while ((page = alloc_page(0)))
		list_add(&page->lru, &held);
	ret = pgtable_map(pgd, 0x400000, 0x100, PAGE_USER_RW, PT_PTE);
	assert_int_equal(ret, -ENOMEM);
	assert_int_equal(nr_pagetable_pages, 1);
	while (!list_empty(&held)) {
		page = list_first_entry(&held, struct page, lru);
		list_del(&page->lru);
		__free_page(page);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_map_pte_translates, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_accessed_dirty, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_pmd_leaf, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_unmap_flushes_tlb, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_random_against_model, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_free_range, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_enomem, boot, shutdown),
	};

	return cmocka_run_group_tests_name("pgtable", tests, NULL, NULL);
}
