/*
 * Has anyone used the folio lately?  (Linux's folio_referenced in
 * mm/rmap.c, what reclaim asks before it takes a folio.)  The MMU sets
 * the accessed ("young") bit of a PTE or PMD on every access through it;
 * the walk visits every mapping of the folio through the rmap — the
 * anon_vma tree of an anon folio, the i_mmap of a file's — and tests and
 * clears each young bit it finds, so the next look sees only new use:
 *
 *   mm A  PTE ...A p0   PTE .... p1     folio_referenced: 2 (A's VMA and B's)
 *   mm B  PMD ...A (the whole folio)   afterwards every bit is clear
 *
 * It counts VMAs with a young mapping, not bits: two users are more than
 * one user touching two pages (folio_check_references activates a folio
 * that more than one VMA used).  The walk stops once it has seen as many
 * mappings as the folio's mapcount says it has — the same count in every
 * mapcount scheme: a large folio's _large_mapcount holds one per PTE and
 * one per PMD mapping it.
 *
 * The bits are cleared without a TLB flush, as Linux does on x86: a CPU
 * that still caches the translation sets no bit until it walks the table
 * again, so a use may go unseen for a while — which costs the folio at
 * worst an early trip to the inactive list, never correctness.
 *
 * A VMA with VM_LOCKED (mlock) that maps the folio ends the walk: the
 * caller keeps the folio, and it is mlocked again if it should be (its
 * mlock_count is a hint that a split or a race may have lost; Linux's
 * "restore the mlock which got missed").
 *
 * Locks: the PTE table's or PMD's lock for each test; the walk holds the
 * anon_vma lock for read, or the file's i_mmap_rwsem for read under the
 * folio lock (taken here by trylock if the caller does not hold it: a
 * busy folio counts as referenced, Linux's rule).
 */
#include "linux/errno.h"
#include "linux/huge_mm.h"
#include "linux/rmap.h"
#include "linux/pgtable.h"
#include "mm/internal.h"

struct folio_referenced_arg {
	int mapcount;                   /* mappings not seen yet */
	int referenced;                 /* VMAs with a young mapping */
	int young;                      /* young bits found in the current VMA */
	int found;                      /* mappings found in it; by a PMD: */
	bool pmd_found;
	unsigned long vm_flags;         /* the flags of those VMAs */
};

/*
 * folio_walk_vma_ptes() callback: the PTEs of pages i..i+nr-1 of folio in
 * one locked table; each that maps its page is one mapping seen, and made
 * old.  Always goes on.
 */
static bool referenced_pte_table(struct folio *folio, struct vm_area_struct *vma,
				 unsigned long addr, pte_t *pte, unsigned long i, int nr, void *arg)
{
	struct folio_referenced_arg *pra = arg;

	for (int k = 0; k < nr && pra->mapcount > 0; k++) {
		pte_t ptent = ptep_get(pte + k);

		if (!pte_present(ptent) || pte_special(ptent) || pte_pfn(ptent) != folio_pfn(folio) + i + k)
			continue;
		pra->mapcount--;
		pra->found++;
		if (ptep_test_and_clear_young(vma->vm_mm, addr + k * PAGE_SIZE, pte + k))
			pra->young++;
	}
	return pra->mapcount > 0;
}

/* The PMD leaf in vma mapping folio's pages i.. (a PMD's first), if there is one: made old. */
static void referenced_pmd(struct folio *folio, struct vm_area_struct *vma, unsigned long i,
			   struct folio_referenced_arg *pra)
{
	unsigned long haddr = vma_address(vma, folio->index + i, 1);
	spinlock_t *ptl;
	pmd_t *pmd;

	if (haddr == (unsigned long)-EFAULT || !IS_ALIGNED(haddr, PMD_SIZE) ||
	    haddr + PMD_SIZE > vma->vm_end || !(pmd = mm_find_pmd(vma->vm_mm, haddr)))
		return;
	ptl = pmd_lock(vma->vm_mm, pmd);
	if (pmd_present(*pmd) && pmd_trans_huge(*pmd) && pmd_pfn(*pmd) == folio_pfn(folio) + i) {
		pra->mapcount--;
		pra->found++;
		pra->pmd_found = true;
		if (pgval_test_and_clear_young(&pmd->pmd))
			pra->young++;
	}
	spin_unlock(ptl);
}

/* rmap_one: the folio's mappings in vma (Linux's folio_referenced_one).  False ends the walk. */
static bool folio_referenced_one(struct folio *folio, struct vm_area_struct *vma,
				 unsigned long address, void *arg)
{
	struct folio_referenced_arg *pra = arg;

	pra->young = pra->found = 0;
	pra->pmd_found = false;
	for (unsigned long i = 0; folio_test_pmd_mappable(folio) && i < (unsigned long)folio_nr_pages(folio);
	     i += HPAGE_PMD_NR)
		referenced_pmd(folio, vma, i, pra);
	if (pra->mapcount > 0)
		folio_walk_vma_ptes(folio, vma, referenced_pte_table, pra);
	if ((vma->vm_flags & VM_LOCKED) && pra->found) {
		mlock_vma_folio(folio, vma, pra->pmd_found);
		pra->vm_flags |= VM_LOCKED;
		return false;
	}
	if (pra->young) {
		pra->referenced++;
		pra->vm_flags |= vma->vm_flags;
	}
	return pra->mapcount > 0;
}

/*
 * How many VMAs used the folio since the last look (Linux's
 * folio_referenced), each mapping made old on the way; their flags OR'ed
 * into *vm_flags (VM_LOCKED: a locked VMA maps it — the walk stopped
 * there).  is_locked: the caller holds the folio lock; else a file folio
 * is trylocked, and one locked elsewhere counts as referenced (1).  The
 * caller holds a reference.  May sleep (the rmap locks).
 */
int folio_referenced(struct folio *folio, bool is_locked, unsigned long *vm_flags)
{
	struct folio_referenced_arg pra = { .mapcount = folio_mapcount(folio) };
	struct rmap_walk_control rwc = { .arg = &pra, .rmap_one = folio_referenced_one };
	bool we_locked = false;

	*vm_flags = 0;
	if (!pra.mapcount)
		return 0;
	if (!is_locked && !folio_test_anon(folio)) {
		we_locked = folio_trylock(folio);
		if (!we_locked)
			return 1;
	}
	rmap_walk(folio, &rwc);
	*vm_flags = pra.vm_flags;
	if (we_locked)
		folio_unlock(folio);
	return pra.referenced;
}
