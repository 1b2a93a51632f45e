/*
 * Host tests of page migration (mm/migrate.c): a PMD THP mapped by a PMD
 * in the parent and by 512 PTEs in a forked child moves as one folio —
 * both mms map the new one, with the same counts, data and exclusive
 * state — a small page moves, and a folio someone else holds a reference
 * to (a pin, a GUP in flight) does not; fork, zap and the remap handle
 * migration entries.  Nothing leaks, no warning fires.
 */
#include "linux/errno.h"
#include "tests/host/hostenv.h"
#include "tests/host/softmmu.h"
#include "tests/host/rmap_helpers.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include "mm/internal.h"
#include "mm/migrate.h"
#include "linux/vmstat.h"
#include "linux/rmap.h"
#include "linux/swapops.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

#define BASE    0x40000000UL            /* PMD-aligned */
#define RW      (PROT_READ | PROT_WRITE)

MM_TEST_FIXTURE()

static struct folio *folio_of(struct mm_struct *m, unsigned long addr)
{
	phys_addr_t pa;

	assert_int_equal(softmmu_translate((pgd_t *)m->pgd, addr, ACC_USER, &pa), SOFTMMU_OK);
	return page_folio(pfn_to_page(pa >> PAGE_SHIFT));
}

/* The caller's reference around migrate_anon_folio(), as mbind takes it. */
static int migrate(struct folio *folio)
{
	int ret;

	folio_get(folio);
	ret = migrate_anon_folio(folio);
	folio_put(folio);
	return ret;
}

/* A PMD THP at BASE, 'a' in its first byte, 'z' in its last page. */
static struct folio *map_pmd_thp(void)
{
	struct folio *f;

	assert_int_equal(do_mmap(mm, NULL, BASE, HPAGE_PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	user_write(mm, BASE, 'a');
	user_write(mm, BASE + HPAGE_PMD_SIZE - PAGE_SIZE, 'z');
	f = folio_of(mm, BASE);
	assert_int_equal(folio_order(f), HPAGE_PMD_ORDER);
	return f;
}

/* PMD in the parent, PTEs in the child: one migration moves every mapping. */
static void test_thp_pmd_and_ptes(void **state)
{
	struct mm_struct *child;
	struct folio *f, *nf;
	long thps;

	(void)state;
	f = map_pmd_thp();
	child = dup_mm(mm);
	split_huge_pmd_address(find_vma(child, BASE), BASE + PAGE_SIZE);
	assert_int_equal(folio_mapcount(f), 1 + HPAGE_PMD_NR);
	thps = global_node_page_state(NR_ANON_THPS);
	assert_int_equal(migrate(f), 0);
	nf = folio_of(mm, BASE);
	assert_ptr_not_equal(nf, f);
	assert_ptr_equal(folio_of(child, BASE + PAGE_SIZE), nf);
	assert_int_equal(folio_order(nf), HPAGE_PMD_ORDER);
	assert_int_equal(folio_mapcount(nf), 1 + HPAGE_PMD_NR);
	assert_int_equal(folio_entire_mapcount(nf), 1);
	assert_int_equal(folio_ref_count(nf), 1 + HPAGE_PMD_NR);
	assert_true(folio_maybe_mapped_shared(nf));
	assert_int_equal(global_node_page_state(NR_ANON_THPS), thps);
	assert_int_equal(read_byte(child, BASE, ACC_USER), 'a');
	assert_int_equal(read_byte(mm, BASE + HPAGE_PMD_SIZE - PAGE_SIZE, ACC_USER), 'z');
	assert_int_equal(read_byte(mm, BASE, ACC_USER | ACC_WRITE), -1);   /* still COW */
	user_write(child, BASE, 'c');
	assert_int_equal(read_byte(mm, BASE, ACC_USER), 'a');
	mm_exit(child);
}

/* A small exclusive page moves and stays exclusive and writable; an extra reference stops it. */
static void test_small_and_referenced(void **state)
{
	struct folio *f, *nf;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PAGE_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	user_write(mm, BASE, 's');
	f = folio_of(mm, BASE);
	folio_get(f);                                   /* a GUP reference */
	assert_int_equal(migrate(f), -EAGAIN);
	assert_ptr_equal(folio_of(mm, BASE), f);
	folio_put(f);
	assert_int_equal(migrate(f), 0);
	nf = folio_of(mm, BASE);
	assert_ptr_not_equal(nf, f);
	assert_true(PageAnonExclusive(&nf->page));
	assert_int_equal(folio_mapcount(nf), 1);
	assert_int_equal(read_byte(mm, BASE, ACC_USER | ACC_WRITE), 's');
}

/*
 * The walkers that meet a migration entry (linux/swapops.h), one at a time,
 * with a PMD THP unmapped by try_to_migrate() as a migration starts: its
 * PMD is a writable PMD migration entry; mprotect splits it into 512 PTE
 * entries and makes them read-only (still exclusive); fork copies them,
 * shared now; a zap clears one; remove_migration_ptes() maps the rest
 * back in both mms, by PTEs, with the counts right and COW still working.
 */
static void test_walkers_meet_migration_entries(void **state)
{
	struct anon_vma *anon_vma;
	struct mm_struct *child;
	struct folio *f;
	pmd_t *pmd;

	(void)state;
	f = map_pmd_thp();
	folio_get(f);
	folio_lock(f);
	anon_vma = folio_get_anon_vma(f);
	anon_vma_lock_write(anon_vma);          /* each walk's own hold: fork must link the child */
	try_to_migrate(f, 0);
	anon_vma_unlock_write(anon_vma);
	pmd = mm_find_pmd(mm, BASE);
	assert_true(is_pmd_migration_entry(*pmd));
	assert_true(is_writable_migration_entry(pmd_to_swp_entry(*pmd)));
	assert_false(folio_mapped(f));
	assert_int_equal(folio_ref_count(f), 1);
	/* mprotect splits the PMD entry; read-only, the entries stay exclusive */
	assert_int_equal(do_mprotect(mm, BASE, HPAGE_PMD_SIZE, PROT_READ), 0);
	assert_false(is_swap_pmd(*pmd));
	assert_true(is_readable_exclusive_migration_entry(pte_to_swp_entry(*pte_offset_kernel(pmd, BASE))));
	assert_int_equal(do_mprotect(mm, BASE, HPAGE_PMD_SIZE, RW), 0);
	child = dup_mm(mm);                     /* copies the 512 entries, shared now */
	assert_true(is_readable_migration_entry(pte_to_swp_entry(*pte_offset_kernel(pmd, BASE))));
	zap_page_range(find_vma(mm, BASE), BASE + PAGE_SIZE, BASE + 2 * PAGE_SIZE);
	anon_vma_lock_write(anon_vma);
	remove_migration_ptes(f, f);
	anon_vma_unlock_write(anon_vma);
	put_anon_vma(anon_vma);
	folio_unlock(f);
	assert_int_equal(folio_entire_mapcount(f), 0);
	assert_int_equal(folio_mapcount(f), 2 * HPAGE_PMD_NR - 1);
	assert_int_equal(folio_ref_count(f), 2 * HPAGE_PMD_NR);
	folio_put(f);
	assert_int_equal(read_byte(child, BASE, ACC_USER), 'a');
	assert_int_equal(read_byte(mm, BASE, ACC_USER), 'a');
	assert_int_equal(read_byte(mm, BASE, ACC_USER | ACC_WRITE), -1);   /* shared: COW */
	user_write(mm, BASE, 'p');
	assert_int_equal(read_byte(child, BASE, ACC_USER), 'a');
	assert_ptr_not_equal(folio_of(mm, BASE), f);
	mm_exit(child);
}

/*
 * No 2 MiB block left in the buddy: migrating a THP splits it and moves
 * its pages one by one, as Linux's migrate_pages does; data intact.
 */
static void test_thp_without_a_block(void **state)
{
	struct folio *f, *blocks[64];
	int n = 0;

	(void)state;
	f = map_pmd_thp();
	while (n < 64 && (blocks[n] = folio_alloc(0, HPAGE_PMD_ORDER)))
		n++;
	assert_true(n < 64);                    /* the buddy has no 2 MiB block left */
	assert_int_equal(migrate(f), 0);
	assert_int_equal(folio_order(folio_of(mm, BASE)), 0);
	assert_ptr_not_equal(folio_of(mm, BASE), f);
	assert_int_not_equal(folio_pfn(folio_of(mm, BASE + PAGE_SIZE)), folio_pfn(f) + 1);
	assert_int_equal(read_byte(mm, BASE, ACC_USER), 'a');
	assert_int_equal(read_byte(mm, BASE + HPAGE_PMD_SIZE - PAGE_SIZE, ACC_USER), 'z');
	while (n)
		folio_put(blocks[--n]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_thp_pmd_and_ptes, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_small_and_referenced, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_walkers_meet_migration_entries, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_thp_without_a_block, boot, shutdown),
	};

	return cmocka_run_group_tests_name("migrate", tests, NULL, NULL);
}
