/*
 * Unit tests of the file rmap: a page-cache folio (of a fake address_space,
 * shmem or not) mapped by PTEs and by a PMD in several mms.  The MM owner
 * slots, the large mapcount and the shared bit move exactly as for anon
 * folios (the seeds' __folio_add_rmap and __folio_dup_file_rmap); the
 * counters are Mapped / ShmemPmdMapped / FilePmdMapped, each mode's rule;
 * no page is AnonExclusive and no file folio is queued for deferred split.
 * rmap_walk_file finds the VMAs of the file's i_mmap that cover the folio.
 * Built and run in both mapcount modes.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#define PM IS_ENABLED(CONFIG_PAGE_MAPCOUNT)

static struct test_mm A, B, C;
static struct address_space mapping;
static long mapped0, shmem_pmd0, file_pmd0;

static long file_mapped(void)
{
	return global_node_page_state(NR_FILE_MAPPED) - mapped0;
}

static long shmem_pmdmapped(void)
{
	return global_node_page_state(NR_SHMEM_PMDMAPPED) - shmem_pmd0;
}

static long file_pmdmapped(void)
{
	return global_node_page_state(NR_FILE_PMDMAPPED) - file_pmd0;
}

/* Each mm's vma maps the file from page offset 0 and is in its i_mmap. */
static int boot(void **state)
{
	(void)state;
	host_machine_boot(64UL << 20);
	memset(&mapping, 0, sizeof(mapping));
	INIT_LIST_HEAD(&mapping.i_mmap);
	test_mm_init(&A, NULL);
	test_mm_init(&B, &A);
	test_mm_init(&C, &A);
	list_add_tail(&A.vma.shared, &mapping.i_mmap);
	list_add_tail(&B.vma.shared, &mapping.i_mmap);
	list_add_tail(&C.vma.shared, &mapping.i_mmap);
	mapped0 = global_node_page_state(NR_FILE_MAPPED);
	shmem_pmd0 = global_node_page_state(NR_SHMEM_PMDMAPPED);
	file_pmd0 = global_node_page_state(NR_FILE_PMDMAPPED);
	return 0;
}

static int shutdown(void **state)
{
	(void)state;
	assert_int_equal(file_mapped(), 0);
	assert_int_equal(shmem_pmdmapped(), 0);
	assert_int_equal(file_pmdmapped(), 0);
	assert_int_equal(deferred_split_count(), 0);
	assert_int_equal(nr_warnings, 0);
	assert_int_equal(nr_bad_pages, 0);
	host_machine_shutdown();
	return 0;
}

#define EXPECT_FOLIO(f, LM, EM, NPM, ID0, MC0, ID1, MC1, SHARED) do {          \
	struct folio_state s = folio_state(f);                                 \
	assert_int_equal(s.lm, LM);                                            \
	assert_int_equal(s.em, EM);                                            \
	if (PM)                                                                \
		assert_int_equal(s.npm, NPM);                                  \
	assert_int_equal(s.id0, ID0);                                          \
	assert_int_equal(s.mc0, MC0);                                          \
	assert_int_equal(s.id1, ID1);                                          \
	assert_int_equal(s.mc1, MC1);                                          \
	assert_int_equal(s.shared, SHARED);                                    \
} while (0)

/* A page-cache folio of the fake file at page offset 0 (shmem: PG_swapbacked). */
static struct folio *cache_folio(unsigned int order, bool shmem)
{
	struct folio *f = folio_alloc(0, order);

	assert_non_null(f);
	f->mapping = &mapping;
	f->index = 0;
	if (shmem)
		set_bit(PG_swapbacked, &f->flags);
	return f;
}

/* The cache lets the folio go: unmapped, it returns to the buddy. */
static void cache_drop(struct folio *f)
{
	assert_false(folio_mapped(f));
	f->mapping = NULL;
	clear_bit(PG_swapbacked, &f->flags);
	folio_put(f);
}

static void expect_not_exclusive(struct folio *f)
{
	for (long i = 0; i < folio_nr_pages(f); i++)
		assert_false(PageAnonExclusive(folio_page(f, i)));
}

/*
 * Two processes map a 16-page file folio by PTEs: both slots, shared bit;
 * the first unmaps: exclusive again.  Mapped: pages going 0 -> 1 with
 * PAGE_MAPCOUNT, the whole folio while any page is mapped without.
 */
static void test_ptes_two_mms(void **state)
{
	struct folio *f = cache_folio(4, false);

	(void)state;
	folio_add_file_rmap_ptes(f, folio_page(f, 0), 4, &A.vma);
	EXPECT_FOLIO(f, 4, 0, 4, A.mm->mm_id, 4, 0, 0, false);
	assert_int_equal(file_mapped(), PM ? 4 : 16);
	assert_false(folio_maybe_mapped_shared(f));
	folio_add_file_rmap_ptes(f, folio_page(f, 2), 8, &B.vma);
	EXPECT_FOLIO(f, 12, 0, 10, A.mm->mm_id, 4, B.mm->mm_id, 8, true);
	assert_int_equal(file_mapped(), PM ? 10 : 16);
	assert_true(folio_maybe_mapped_shared(f));
	expect_not_exclusive(f);
	folio_remove_rmap_ptes(f, folio_page(f, 0), 4, &A.vma);
	EXPECT_FOLIO(f, 8, 0, 8, 0, 0, B.mm->mm_id, 8, false);
	assert_int_equal(file_mapped(), PM ? 8 : 16);
	assert_false(folio_test_partially_mapped(f));   /* file folios: no deferred split */
	assert_int_equal(deferred_split_count(), 0);
	folio_remove_rmap_ptes(f, folio_page(f, 2), 8, &B.vma);
	EXPECT_FOLIO(f, 0, 0, 0, 0, 0, 0, 0, false);
	assert_int_equal(file_mapped(), 0);
	cache_drop(f);
}

/*
 * A shmem THP PMD-mapped by A and PTE-mapped by B: EM 1, LM 1 + 512,
 * ShmemPmdMapped 512 for the first PMD only, Mapped 512 in both modes.
 */
static void test_pmd_and_ptes_shmem(void **state)
{
	struct folio *f = cache_folio(HPAGE_PMD_ORDER, true);

	(void)state;
	folio_add_file_rmap_pmd(f, &f->page, &A.vma);
	EXPECT_FOLIO(f, 1, 1, 0, A.mm->mm_id, 1, 0, 0, false);
	if (PM)
		assert_int_equal(atomic_read(&f->_nr_pages_mapped), ENTIRELY_MAPPED);
	assert_int_equal(file_mapped(), 512);
	assert_int_equal(shmem_pmdmapped(), 512);
	assert_int_equal(file_pmdmapped(), 0);
	folio_add_file_rmap_ptes(f, &f->page, 512, &B.vma);
	EXPECT_FOLIO(f, 513, 1, 512, A.mm->mm_id, 1, B.mm->mm_id, 512, true);
	assert_int_equal(file_mapped(), 512);           /* a PMD mapped them all already */
	folio_add_file_rmap_pmd(f, &f->page, &C.vma);   /* a third mm: no slot, counted */
	EXPECT_FOLIO(f, 514, 2, 512, A.mm->mm_id, 1, B.mm->mm_id, 512, true);
	assert_int_equal(shmem_pmdmapped(), 512);
	folio_remove_rmap_pmd(f, &f->page, &A.vma);
	/* C's untracked mapping keeps the folio "maybe shared" though B's slot... */
	EXPECT_FOLIO(f, 513, 1, 512, 0, 0, B.mm->mm_id, 512, true);
	folio_remove_rmap_pmd(f, &f->page, &C.vma);
	/* ...until one slot holds every mapping again. */
	EXPECT_FOLIO(f, 512, 0, 512, 0, 0, B.mm->mm_id, 512, false);
	assert_int_equal(shmem_pmdmapped(), 0);
	assert_int_equal(file_mapped(), 512);
	folio_remove_rmap_ptes(f, &f->page, 512, &B.vma);
	EXPECT_FOLIO(f, 0, 0, 0, 0, 0, 0, 0, false);
	assert_int_equal(file_mapped(), 0);
	cache_drop(f);
}

/* A THP of a file that is not shmem counts in FilePmdMapped. */
static void test_pmd_regular_file(void **state)
{
	struct folio *f = cache_folio(HPAGE_PMD_ORDER, false);

	(void)state;
	folio_add_file_rmap_pmd(f, &f->page, &A.vma);
	assert_int_equal(file_pmdmapped(), 512);
	assert_int_equal(shmem_pmdmapped(), 0);
	folio_remove_rmap_pmd(f, &f->page, &A.vma);
	assert_int_equal(file_pmdmapped(), 0);
	assert_int_equal(file_mapped(), 0);
	cache_drop(f);
}

/*
 * fork of a private file mapping: the child's PTEs and PMD are dups —
 * its slot, no counter moves; the child exits: exclusive again.
 */
static void test_fork_dup(void **state)
{
	struct folio *f = cache_folio(HPAGE_PMD_ORDER, true), *g = cache_folio(2, false);

	(void)state;
	folio_add_file_rmap_pmd(f, &f->page, &A.vma);
	folio_add_file_rmap_ptes(g, &g->page, 4, &A.vma);
	folio_dup_file_rmap_pmd(f, &f->page, &B.vma);
	folio_dup_file_rmap_ptes(g, &g->page, 4, &B.vma);
	EXPECT_FOLIO(f, 2, 2, 0, A.mm->mm_id, 1, B.mm->mm_id, 1, true);
	EXPECT_FOLIO(g, 8, 0, 4, A.mm->mm_id, 4, B.mm->mm_id, 4, true);
	if (PM)
		assert_int_equal(atomic_read(&folio_page(g, 3)->_mapcount) + 1, 2);
	assert_int_equal(file_mapped(), 512 + 4);
	assert_int_equal(shmem_pmdmapped(), 512);
	folio_remove_rmap_pmd(f, &f->page, &B.vma);
	folio_remove_rmap_ptes(g, &g->page, 4, &B.vma);
	EXPECT_FOLIO(f, 1, 1, 0, A.mm->mm_id, 1, 0, 0, false);
	EXPECT_FOLIO(g, 4, 0, 4, A.mm->mm_id, 4, 0, 0, false);
	folio_remove_rmap_pmd(f, &f->page, &A.vma);
	folio_remove_rmap_ptes(g, &g->page, 4, &A.vma);
	cache_drop(f);
	cache_drop(g);
}

/* A small file folio: only its _mapcount; Mapped counts it once. */
static void test_small_folio(void **state)
{
	struct folio *f = cache_folio(0, false);

	(void)state;
	folio_add_file_rmap_pte(f, &f->page, &A.vma);
	folio_dup_file_rmap_pte(f, &f->page, &B.vma);
	assert_int_equal(folio_mapcount(f), 2);
	assert_true(folio_maybe_mapped_shared(f));
	assert_int_equal(file_mapped(), 1);
	folio_remove_rmap_pte(f, &f->page, &A.vma);
	folio_remove_rmap_pte(f, &f->page, &B.vma);
	assert_int_equal(file_mapped(), 0);
	cache_drop(f);
}

static bool count_one(struct folio *folio, struct vm_area_struct *vma, unsigned long address,
		      void *arg)
{
	int *seen = arg;

	assert_int_equal(address, vma->vm_start + ((folio->index - vma->vm_pgoff) << PAGE_SHIFT));
	(*seen)++;
	return true;
}

/* rmap_walk (file) visits exactly the i_mmap VMAs whose page range holds the folio. */
static void test_rmap_walk_file(void **state)
{
	struct folio *f = cache_folio(2, false);
	struct rmap_walk_control rwc = { .rmap_one = count_one };
	int seen = 0;

	(void)state;
	rwc.arg = &seen;
	f->index = 8;
	B.vma.vm_pgoff = 100;                           /* maps the file from page 100 on */
	folio_lock(f);                                  /* the walk's: mapping stays */
	rmap_walk(f, &rwc);
	assert_int_equal(seen, 2);                      /* A and C */
	B.vma.vm_pgoff = 0;
	list_del(&C.vma.shared);
	seen = 0;
	rmap_walk(f, &rwc);
	assert_int_equal(seen, 2);                      /* A and B */
	folio_unlock(f);
	list_add_tail(&C.vma.shared, &mapping.i_mmap);
	cache_drop(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, boot, shutdown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_ptes_two_mms), T(test_pmd_and_ptes_shmem), T(test_pmd_regular_file),
		T(test_fork_dup), T(test_small_folio), T(test_rmap_walk_file),
	};

	return cmocka_run_group_tests_name(VARIANT_LABEL("file rmap"), tests, NULL, NULL);
}
