/*
 * The shadow exact counter (mm/mapcount_shadow.c) against cases whose
 * truth is known, in all three variants: what each scheme gets wrong is
 * the point of the report, so each expectation names its variant.
 */
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include "mm/mapcount_shadow.h"
#include "linux/rmap_trace.h"
#include "linux/errno.h"
#include <setjmp.h>
#include <cmocka.h>

#define PM IS_ENABLED(CONFIG_PAGE_MAPCOUNT)

static struct test_mm A, B;

static int boot(void **state)
{
	(void)state;
	host_machine_boot(64UL << 20);
	test_mm_init(&A, NULL);
	test_mm_init(&B, &A);
	/* RMAP_TRACE=0: no rmap hook, so nothing to count (each test returns at once) */
	assert_int_equal(mapcount_shadow_setup(), IS_ENABLED(CONFIG_RMAP_TRACE) ? 0 : -EOPNOTSUPP);
	return 0;
}

static int shutdown(void **state)
{
	(void)state;
	WRITE_ONCE(mapcount_shadow_on, false);
	assert_int_equal(nr_warnings, 0);
	host_machine_shutdown();
	return 0;
}

/*
 * The RFC's example A on a 16-page folio: fork, both unmap the first
 * half.  Only per-page mapcounts see it is partially mapped; the average
 * (and the seeds' large mapcount) stays at the folio's size.
 */
static void test_partial_while_shared(void **state)
{
	struct folio *f = folio_alloc(0, 4);
	struct mapcount_shadow_stats s;

	(void)state;
	if (!IS_ENABLED(CONFIG_RMAP_TRACE))
		return;
	folio_add_new_anon_rmap(f, &A.vma, 0, RMAP_EXCLUSIVE);
	assert_int_equal(folio_try_dup_anon_rmap_ptes(f, &f->page, 16, &B.vma, &A.vma), 0);
	folio_remove_rmap_ptes(f, folio_page(f, 0), 8, &A.vma);
	folio_remove_rmap_ptes(f, folio_page(f, 0), 8, &B.vma);
	mapcount_shadow_read(&s);
	assert_int_equal(s.changes, 4);
	assert_int_equal(s.partial_removals, 1);
	assert_int_equal(s.partial_missed, PM ? 0 : 1);
	assert_int_equal(s.false_exclusive, 0);
	/*
	 * Per-page counts are exact; the average is 2 (24 mapped pages / 16)
	 * after A's unmap, where 8 pages are mapped once, then 1 (16 / 16),
	 * where 8 are mapped twice.
	 */
	assert_int_equal(s.kpagecount_wrong, PM ? 0 : 8 + 8);
	folio_remove_rmap_ptes(f, folio_page(f, 8), 8, &B.vma);
	folio_remove_rmap_ptes(f, folio_page(f, 8), 8, &A.vma);
	mapcount_shadow_read(&s);
	assert_int_equal(s.partial_missed, PM ? 0 : 1);
	assert_int_equal(s.partial_queued, PM ? 2 : 1);
	folio_put(f);
}

/*
 * Three mms, two slots: the third mm's mappings are counted in the large
 * mapcount only, so when the slot holders leave, the folio stays "maybe
 * shared" while one mm maps it — in every scheme (they share the slots).
 */
static void test_false_shared(void **state)
{
	struct test_mm C;
	struct folio *f = folio_alloc(0, 2);
	struct mapcount_shadow_stats s;

	(void)state;
	if (!IS_ENABLED(CONFIG_RMAP_TRACE))
		return;
	test_mm_init(&C, &A);
	folio_add_new_anon_rmap(f, &A.vma, 0, RMAP_EXCLUSIVE);
	assert_int_equal(folio_try_dup_anon_rmap_ptes(f, &f->page, 4, &B.vma, &A.vma), 0);
	assert_int_equal(folio_try_dup_anon_rmap_ptes(f, &f->page, 4, &C.vma, &A.vma), 0);
	folio_remove_rmap_ptes(f, &f->page, 4, &A.vma);
	folio_remove_rmap_ptes(f, &f->page, 4, &B.vma);
	mapcount_shadow_read(&s);
	assert_true(folio_maybe_mapped_shared(f));
	assert_int_equal(s.false_shared, 1);
	assert_int_equal(s.false_exclusive, 0);
	mapcount_shadow_reset();
	folio_remove_rmap_ptes(f, &f->page, 4, &C.vma);
	mapcount_shadow_read(&s);
	assert_int_equal(s.changes, 1);
	assert_int_equal(s.page_checks, 0);             /* nothing mapped: nothing to ask */
	test_mm_exit(&C);
	folio_put(f);
}

/*
 * Both observers behind the one rmap hook at once: the trace records every
 * operation, the shadow counts the ones that mapped something.  A fork's
 * dup of a maybe-pinned exclusive page fails (-EBUSY: the child gets a
 * copy); the hook sees that return value and the shadow does not count it.
 */
static void test_failed_dup_with_trace(void **state)
{
	struct folio *f = folio_alloc(0, 4);
	struct mapcount_shadow_stats s;
	struct rmap_trace_rec r;

	(void)state;
	if (!IS_ENABLED(CONFIG_RMAP_TRACE))
		return;
	mapcount_shadow_reset();                        /* the counts outlive a test */
	assert_int_equal(rmap_trace_control("all"), 0);
	folio_add_new_anon_rmap(f, &A.vma, 0, RMAP_EXCLUSIVE);
	set_bit(MMF_HAS_PINNED, &A.mm->flags);
	atomic_set(&f->_pincount, 1);
	assert_int_equal(folio_try_dup_anon_rmap_ptes(f, &f->page, 16, &B.vma, &A.vma), -EBUSY);
	atomic_set(&f->_pincount, 0);
	assert_int_equal(folio_try_dup_anon_rmap_ptes(f, &f->page, 16, &B.vma, &A.vma), 0);
	mapcount_shadow_read(&s);
	assert_int_equal(s.changes, 2);                 /* the new folio and the second dup */
	assert_int_equal(s.shared_answers, 2);
	assert_int_equal(s.false_exclusive, 0);
	assert_int_equal(s.kpagecount_wrong, 0);        /* 16 pages mapped twice: exact in all */
	folio_remove_rmap_ptes(f, &f->page, 16, &B.vma);
	folio_remove_rmap_ptes(f, &f->page, 16, &A.vma);
	assert_int_equal(rmap_trace_control("off"), 0);
	mapcount_shadow_read(&s);
	assert_int_equal(s.changes, 4);
	assert_true(rmap_trace_get(1, &r));
	assert_int_equal(r.op, RMAP_TRACE_DUP_PTES);   /* the failed dup: recorded, no change */
	assert_int_equal(r.before.lm, 16);
	assert_int_equal(r.after.lm, 16);
	assert_true(rmap_trace_get(2, &r));
	assert_int_equal(r.after.lm, 32);
	assert_true(rmap_trace_get(4, &r));
	assert_int_equal(r.op, RMAP_TRACE_REMOVE_PTES);
	assert_int_equal(r.after.lm, 0);
	assert_false(rmap_trace_get(5, &r));
	folio_put(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_partial_while_shared, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_false_shared, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_failed_dup_with_trace, boot, shutdown),
	};

	return cmocka_run_group_tests_name(VARIANT_LABEL("mapcount shadow"), tests, NULL, NULL);
}
