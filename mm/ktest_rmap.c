/*
 * ktest suite "rmap": the rmap core on the real kernel build — its x86
 * bit spinlock (lock bts), kmalloc'd mms with MM IDs, the buddy-backed
 * folios and their free checks.  The host tests (tests/host/test_rmap*.c)
 * cover the state machine in depth; these prove the kernel build agrees.
 *
 * Lock order: see mm/rmap.c.
 */
#include "linux/ktest.h"
#include "linux/printk.h"
#include "linux/rmap.h"
#include "linux/sched/mm.h"
#include "mm/deferred_split.h"
#include "linux/vmstat.h"

struct kt_mm {
	struct mm_struct *mm;
	struct vm_area_struct vma;
};

/* An mm with one vma that has an anon_vma, shared with share's (NULL: its own). */
static bool kt_mm_init(struct kt_mm *k, struct kt_mm *share)
{
	k->mm = mm_alloc();
	k->vma = (struct vm_area_struct){ .vm_end = 1UL << 40, .vm_mm = k->mm };
	INIT_LIST_HEAD(&k->vma.anon_vma_chain);
	if (!k->mm)
		return false;
	if (!share)
		return !anon_vma_prepare(&k->vma);
	k->vma.anon_vma = share->vma.anon_vma;
	return !anon_vma_clone(&k->vma, &share->vma);
}

static void kt_mm_exit(struct kt_mm *k)
{
	unlink_anon_vmas(&k->vma);
	mmdrop(k->mm);
}

/*
 * A stop for debuggers: tests/gdb-test.sh breaks here and runs the
 * `folio` helper on the folio, which is then shared by two mms.
 */
noinline_fn void ktest_folio_checkpoint(struct folio *folio)
{
	barrier();
	ktest_diag("checkpoint: folio at pfn %#lx", folio_pfn(folio));
}

/* An mTHP of 16 pages, mapped by A, forked into B, unmapped by both. */
static void rmap_mthp_fork(struct ktest *t)
{
	struct kt_mm a, b;
	struct folio *f;
	long anon = global_node_page_state(NR_ANON_MAPPED);

	KTEST_ASSERT(t, kt_mm_init(&a, NULL) && kt_mm_init(&b, &a));
	KTEST_EXPECT(t, a.mm->mm_id != b.mm->mm_id && a.mm->mm_id >= MM_ID_MIN);
	f = folio_alloc(0, 4);
	KTEST_ASSERT(t, f);
	folio_add_new_anon_rmap(f, &a.vma, 0, RMAP_EXCLUSIVE);
	KTEST_EXPECT_EQ(t, folio_large_mapcount(f), 16);
	KTEST_EXPECT_EQ(t, folio_mm_id(f, 0), a.mm->mm_id);
	KTEST_EXPECT(t, !folio_maybe_mapped_shared(f));
	KTEST_EXPECT_EQ(t, folio_try_dup_anon_rmap_ptes(f, folio_page(f, 0), 16, &b.vma, &a.vma), 0);
	KTEST_EXPECT_EQ(t, folio_large_mapcount(f), 32);
	KTEST_EXPECT_EQ(t, folio_mm_id(f, 1), b.mm->mm_id);
	KTEST_EXPECT_EQ(t, f->_mm_id_mapcount[1] + 1, 16);
	KTEST_EXPECT(t, folio_maybe_mapped_shared(f));
	KTEST_EXPECT_EQ(t, folio_precise_page_mapcount(f, folio_page(f, 7)),
			IS_ENABLED(CONFIG_PAGE_MAPCOUNT) ? 2 : -1);
	ktest_folio_checkpoint(f);
	folio_remove_rmap_ptes(f, folio_page(f, 0), 16, &b.vma);
	KTEST_EXPECT(t, !folio_maybe_mapped_shared(f));
	KTEST_EXPECT_EQ(t, folio_mm_id(f, 1), MM_ID_DUMMY);
	folio_remove_rmap_ptes(f, folio_page(f, 0), 16, &a.vma);
	KTEST_EXPECT(t, !folio_mapped(f) && f->_mm_ids == 0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon);
	folio_put(f);
	kt_mm_exit(&b);
	kt_mm_exit(&a);
}

/* A PMD THP split into PTEs; one page unmapped queues it; freeing unqueues. */
static void rmap_pmd_split(struct ktest *t)
{
	struct kt_mm a;
	struct folio *f;
	unsigned long queued = deferred_split_count();

	KTEST_ASSERT(t, kt_mm_init(&a, NULL));
	f = folio_alloc(0, HPAGE_PMD_ORDER);
	KTEST_ASSERT(t, f);
	folio_add_new_anon_rmap(f, &a.vma, 0, RMAP_EXCLUSIVE);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_THPS), 512);
	folio_remap_pmd_as_ptes(f, &f->page, &a.vma, 0);
	KTEST_EXPECT_EQ(t, folio_ref_count(f), 512);
	KTEST_EXPECT_EQ(t, folio_entire_mapcount(f), 0);
	KTEST_EXPECT_EQ(t, folio_large_mapcount(f), 512);
	KTEST_EXPECT(t, PageAnonExclusive(folio_page(f, 511)));
	folio_remove_rmap_pte(f, folio_page(f, 3), &a.vma);
	KTEST_EXPECT(t, folio_test_partially_mapped(f));
	KTEST_EXPECT_EQ(t, deferred_split_count(), queued + 1);
	folio_remove_rmap_ptes(f, folio_page(f, 4), 508, &a.vma);
	folio_remove_rmap_ptes(f, folio_page(f, 0), 3, &a.vma);
	KTEST_EXPECT(t, !folio_mapped(f));
	set_page_count(&f->page, 1);
	folio_put(f);
	KTEST_EXPECT_EQ(t, deferred_split_count(), queued);
	kt_mm_exit(&a);
}

/* The mapcount lock is bit 31 of _mm_ids and leaves the other bits alone. */
static void rmap_bit_spinlock(struct ktest *t)
{
	struct folio *f = folio_alloc(0, 2);

	KTEST_ASSERT(t, f);
	f->_mm_ids = FOLIO_MM_IDS_SHARED_BIT | 0x1234;
	folio_lock_large_mapcount(f);
	KTEST_EXPECT_EQ(t, f->_mm_ids, FOLIO_MM_IDS_SHARED_BIT | FOLIO_MM_IDS_LOCK_BIT | 0x1234);
	KTEST_EXPECT(t, bit_spin_is_locked(FOLIO_MM_IDS_LOCK_BITNUM, &f->_mm_ids));
	folio_unlock_large_mapcount(f);
	KTEST_EXPECT_EQ(t, f->_mm_ids, FOLIO_MM_IDS_SHARED_BIT | 0x1234);
	f->_mm_ids = 0;
	folio_put(f);
}

/* A folio freed with mappings left is a bad page named by its field. */
static void rmap_free_check(struct ktest *t)
{
	struct folio *f = folio_alloc(0, 3);

	KTEST_ASSERT(t, f);
	f->_mm_id_mapcount[1] = 0;
	folio_put(f);
	KTEST_EXPECT(t, !PageBuddy(&f->page));
	/* take the leaked block back: head only, as a plain block */
	f->page.flags = 0;
	set_page_count(&f->page, 1);
	__free_pages(&f->page, 3);
	t->expected_bad_pages = 1;
}

static const struct ktest_case rmap_cases[] = {
	KTEST_CASE(rmap_mthp_fork),
	KTEST_CASE(rmap_pmd_split),
	KTEST_CASE(rmap_bit_spinlock),
	KTEST_CASE(rmap_free_check),
};
KTEST_SUITE(rmap, rmap_cases);
