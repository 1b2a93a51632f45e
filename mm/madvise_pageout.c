/*
 * MADV_COLD and MADV_PAGEOUT (Linux's madvise_cold_or_pageout_pte_range
 * in mm/madvise.c): the pages of a range are made old (their accessed
 * bits and PG_referenced cleared); COLD moves them to the inactive list
 * (folio_deactivate), PAGEOUT isolates them from the LRU and reclaims
 * them at once (reclaim_pages, mm/vmscan.c): anon and shmem pages to
 * swap, a file's clean pages dropped.  (foliOS has one user, root, who
 * owns every file: Linux's can_do_file_pageout() would allow every file
 * page here.)  A folio on no list (isolated by reclaim) is left alone,
 * as Linux's.  Every CPU's LRU batch is emptied first (Linux empties this
 * CPU's, and skips what another CPU's batch holds: a page the target
 * process faulted in on another CPU a moment ago; foliOS's batches have
 * locks, so emptying them all costs a lock each).
 *
 * Only folios this process alone maps are touched — a folio maybe mapped
 * by another mm (the MM owner tracking's "maybe mapped shared" bit, or a
 * small folio's mapcount) is left alone, as Linux does, so one process
 * cannot push another's working set out.  A large folio the range covers
 * only in part is split first (if that fails it stays); one it covers
 * whole goes whole: a THP mapped by a PMD is paged out as one folio.
 *
 * Locks: the mmap_lock for read (madvise's); each PMD or PTE table's lock
 * while looking, none while reclaiming (the folios collected hold a
 * reference each) or splitting (the folio lock, taken by trylock).
 */
#include "linux/errno.h"
#include "linux/huge_mm.h"
#include "linux/mmap_lock.h"
#include "linux/page-flags.h"
#include "linux/pagemap.h"
#include "linux/rmap.h"
#include "linux/swap.h"
#include "mm/deferred_split.h"
#include "mm/internal.h"

#define PAGEOUT_BATCH 32

struct pageout_walk {
	struct vm_area_struct *vma;
	bool pageout;                   /* MADV_PAGEOUT, else MADV_COLD */
	unsigned int nr;                /* folios collected, isolated from the LRU */
	struct folio *folios[PAGEOUT_BATCH];
};

/* Reclaim what the walk collected (PAGEOUT): what stays goes back to the LRU. */
static void pageout_flush(struct pageout_walk *w)
{
	if (w->nr)
		reclaim_pages(w->folios, w->nr);
	w->nr = 0;
}

/*
 * The folio, made old: for PAGEOUT isolated and kept for reclaim, for
 * COLD moved to the inactive list's head (Linux's folio_deactivate).
 */
static void pageout_collect(struct pageout_walk *w, struct folio *folio)
{
	folio_clear_referenced(folio);
	if (!w->pageout)
		folio_deactivate(folio);
	else if (folio_isolate_lru(folio))
		w->folios[w->nr++] = folio;
}

/*
 * Split the large folio that the range covers only in part (no lock
 * held), an anon one or a page-cache one (a shmem THP or mTHP; Linux's
 * split_folio takes both): true if it is split now, and the PTE table is
 * to be looked at again.
 */
static bool pageout_split(struct folio *folio)
{
	bool split = false;

	if (folio_trylock(folio)) {
		if (folio_test_anon(folio))
			split = !split_queued_folio_to_list(folio, 0, NULL);
		else if (folio->mapping)        /* still cached: not truncated meanwhile */
			split = !split_file_folio_to_order(folio, 0);
		folio_unlock(folio);
	}
	folio_put(folio);
	return split;
}

/*
 * The PMD leaf at addr (next: the end of the advised part of it).  Made
 * old and collected if the range covers it and this mm alone maps its
 * folio; if the range covers part of it, an anon folio's PMD is split
 * into PTEs (true: go on at the PTE level, where the folio is split), a
 * page-cache folio is split itself (Linux's split_huge_page here: its PMD
 * goes with it, the pages fault back as PTEs, none goes out this time).
 * Under pmd_lock, dropped for the folio split.
 */
static bool pageout_pmd(struct pageout_walk *w, pmd_t *pmd, unsigned long addr, unsigned long next)
{
	struct mm_struct *mm = w->vma->vm_mm;
	spinlock_t *ptl = pmd_lock(mm, pmd);
	struct folio *folio, *split_file = NULL;
	bool split = false;

	if (!pmd_trans_huge(*pmd) || is_huge_zero_pmd(*pmd))
		goto unlock;
	folio = page_folio(pfn_to_page(pmd_pfn(*pmd)));
	if (folio_maybe_mapped_shared(folio))
		goto unlock;
	if (next - addr != PMD_SIZE && !folio_test_anon(folio)) {
		split_file = folio;
		folio_get(folio);
		goto unlock;
	}
	if (next - addr != PMD_SIZE) {
		__split_huge_pmd_locked(w->vma, pmd, addr);
		split = true;
		goto unlock;
	}
	pgval_test_and_clear_young(&pmd->pmd);
	pageout_collect(w, folio);
unlock:
	spin_unlock(ptl);
	if (split_file)
		pageout_split(split_file);
	return split;
}

/*
 * The PTEs of [addr, end) under pmd: each folio this mm alone maps made
 * old and collected, a large one only if the range covers it whole (else
 * split, and the table looked at again).  Returns where to go on: end, or
 * earlier when the batch is full or a split needs the lock dropped.
 */
static unsigned long pageout_pte_range(struct pageout_walk *w, pmd_t *pmd, unsigned long addr,
				       unsigned long end)
{
	struct mm_struct *mm = w->vma->vm_mm;
	struct folio *split = NULL;
	int nr = 1;
	spinlock_t *ptl;
	pte_t *pte = pte_offset_map_lock(mm, pmd, addr, &ptl);

	if (!pte)
		return end;
	for (; addr < end && w->nr < PAGEOUT_BATCH; addr += (unsigned long)nr << PAGE_SHIFT, pte += nr) {
		pte_t ptent = ptep_get(pte);
		struct page *page;
		struct folio *folio;

		nr = 1;
		if (!pte_present(ptent) || !(page = vm_normal_page(w->vma, addr, ptent)))
			continue;
		folio = page_folio(page);
		if (folio_maybe_mapped_shared(folio) || (!folio_test_large(folio) && folio_mapcount(folio) != 1))
			continue;
		if (folio_test_large(folio)) {
			nr = folio_pte_batch(folio, pte, (end - addr) >> PAGE_SHIFT);
			if (page != &folio->page || nr != folio_nr_pages(folio)) {
				split = folio;
				folio_get(split);
				break;
			}
		}
		for (int i = 0; i < nr; i++)
			ptep_test_and_clear_young(mm, addr + i * PAGE_SIZE, pte + i);
		pageout_collect(w, folio);
	}
	pte_unmap_unlock(pte, ptl);
	if (split && !pageout_split(split))
		addr += (unsigned long)nr << PAGE_SHIFT;        /* it stays whole: skip its pages */
	return addr;
}

/*
 * MADV_COLD (pageout false) or MADV_PAGEOUT on [start, end) inside vma:
 * 0, or -EINVAL for a PFN map, whose pages are not on Linux's LRU (a
 * VM_LOCKED VMA, Linux's other -EINVAL, madvise refused already).  The
 * caller holds the mmap_lock for read.
 */
int madvise_cold_or_pageout(struct vm_area_struct *vma, unsigned long start, unsigned long end,
			    bool pageout)
{
	struct pageout_walk *w;
	unsigned long addr = start;

	mmap_assert_locked(vma->vm_mm);
	if (vma->vm_flags & VM_PFNMAP)
		return -EINVAL;
	w = kmalloc(sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->vma = vma;
	w->pageout = pageout;
	w->nr = 0;
	lru_add_drain_all();
	while (addr < end) {
		unsigned long next = MIN(ALIGN_DOWN(addr, PMD_SIZE) + PMD_SIZE, end);
		pmd_t *pmd = mm_find_pmd(vma->vm_mm, addr);

		if (pmd && pmd_trans_huge(pmdp_get(pmd)) && !pageout_pmd(w, pmd, addr, next))
			addr = next;
		else if (pmd && pmd_present(pmdp_get(pmd)) && !pmd_trans_huge(pmdp_get(pmd)))
			addr = pageout_pte_range(w, pmd, addr, next);
		else
			addr = next;
		if (w->nr == PAGEOUT_BATCH || addr == next)
			pageout_flush(w);
		cond_resched();
	}
	pageout_flush(w);
	kfree(w);
	return 0;
}
