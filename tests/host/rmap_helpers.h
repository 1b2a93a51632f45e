/*
 * Helpers shared by the rmap host tests: a little world of mms and vmas,
 * and a snapshot of a folio's mapcount state in logical values.
 */
#ifndef TESTS_HOST_RMAP_HELPERS_H
#define TESTS_HOST_RMAP_HELPERS_H

#include "linux/rmap.h"
#include "linux/sched/mm.h"
#include "mm/deferred_split.h"
#include "linux/vmstat.h"
#include "linux/pgtable.h"

/* The PTE of addr in mm, or NULL if no PTE table serves addr. */
static inline pte_t *test_find_pte(struct mm_struct *mm, unsigned long addr)
{
	pmd_t *pmd = mm_find_pmd(mm, addr);

	if (!pmd || !pmd_present(*pmd) || pmd_trans_huge(*pmd))
		return NULL;
	return pte_offset_kernel(pmd, addr);
}

/* One mm with one vma spanning the whole user range. */
struct test_mm {
	struct mm_struct *mm;
	struct vm_area_struct vma;
};

/*
 * A new mm whose vma has an anon_vma: a new one (share NULL), or share's
 * own, linked as a split or mremap copy would be.  The rmap checks let a
 * vma map only folios of its anon_vma tree, and the tests map any folio
 * in any mm: one anon_vma for all keeps every folio's alive while some mm
 * lives (test_anon_vma.c forks real chains).
 */
static inline void test_mm_init(struct test_mm *t, struct test_mm *share)
{
	t->mm = mm_alloc();
	t->vma = (struct vm_area_struct){ .vm_start = 0, .vm_end = 1UL << 40, .vm_mm = t->mm };
	INIT_LIST_HEAD(&t->vma.anon_vma_chain);
	if (!share) {
		anon_vma_prepare(&t->vma);
		return;
	}
	t->vma.anon_vma = share->vma.anon_vma;
	anon_vma_clone(&t->vma, &share->vma);
}

static inline void test_mm_exit(struct test_mm *t)
{
	unlink_anon_vmas(&t->vma);
	mmdrop(t->mm);
	t->mm = NULL;
}

/* A folio's rmap state, logical values. */
struct folio_state {
	int lm, em, npm;                /* npm: count of PTE-mapped pages (PAGE_MAPCOUNT) */
	unsigned int id0, id1;
	int mc0, mc1;
	bool shared;
};

static inline struct folio_state folio_state(const struct folio *f)
{
	return (struct folio_state){
		.lm = folio_large_mapcount(f), .em = folio_entire_mapcount(f),
		.npm = folio_nr_pages_mapped(f),
		.id0 = folio_mm_id(f, 0), .id1 = folio_mm_id(f, 1),
		.mc0 = f->_mm_id_mapcount[0] + 1, .mc1 = f->_mm_id_mapcount[1] + 1,
		.shared = folio_test_large_maybe_mapped_shared(f),
	};
}

static inline bool folio_state_equal(const struct folio_state *a, const struct folio_state *b)
{
	return a->lm == b->lm && a->em == b->em && a->npm == b->npm && a->id0 == b->id0 &&
	       a->id1 == b->id1 && a->mc0 == b->mc0 && a->mc1 == b->mc1 && a->shared == b->shared;
}

static inline long anon_pages(void)
{
	return global_node_page_state(NR_ANON_MAPPED);
}

static inline long anon_thps(void)
{
	return global_node_page_state(NR_ANON_THPS);
}

#endif
