/*
 * The unmap walks of Linux's mm/rmap.c: try_to_migrate (below) and
 * try_to_unmap (at the end: an anon folio in the swap cache unmapped for
 * pageout, each PTE replaced by a swap entry of its page's slot).
 *
 * try_to_migrate (Linux's try_to_migrate_one): the unmap half
 * of the split and migration protocol.  Every PTE that maps a page of a
 * locked anon folio becomes a migration entry (linux/swapops.h) naming that
 * page; the folio's rmap for it goes, and the mapping's reference with it.
 * Then nothing reaches the folio through a page table: a fault or GUP
 * that meets an entry waits for the folio lock (migration_entry_wait),
 * fork copies the entry, zap clears it.  remove_migration_ptes()
 * (mm/migrate.c) puts the PTEs back, of the same pages or of new ones.
 *
 *   PTEs          | rw p0 | ro p1 | rw p2 |        folio: LM 3, ref 3 + ours
 *   try_to_migrate| W p0  | R/RE p1 | W p2 |      folio: LM 0, ref ours only
 *                   (W: writable, RE: read-only exclusive, R: maybe shared)
 *
 * A page that is AnonExclusive loses the flag (the entry keeps it), which
 * a GUP pin forbids (Linux's folio_try_share_anon_rmap_pte): a pinned
 * folio with an exclusive page mapped is left as it was from that page on,
 * and the caller sees it still mapped.
 *
 * Locks: the caller holds the folio lock and the anon_vma's lock (the
 * walk is rmap_walk_anon with locked = true); each PTE table's lock is
 * taken in turn.  Page tables are freed only under the rmap locks of their
 * VMA (mm/pgtable.c: free_empty_tables), so the walk down to them is safe.
 * A PMD mapping is split into PTEs first if the caller asks
 * (TTU_SPLIT_HUGE_PMD, a folio split), else becomes a PMD migration entry.
 *
 * Lock order: see mm/rmap.c.
 */
#include "linux/errno.h"
#include "linux/rmap.h"
#include "linux/pagemap.h"
#include "linux/swap.h"
#include "linux/swapops.h"
#include "mm/internal.h"

/* Does pte map page i of folio (a normal page, not through a PMD)? */
static bool pte_maps_folio_page(pte_t pte, struct folio *folio, unsigned long i)
{
	return pte_present(pte) && !pte_special(pte) && pte_pfn(pte) == folio_pfn(folio) + i;
}

/*
 * Replace the nr PTEs from pte (at addr, in one table whose lock the
 * caller holds), mapping pages i.. of folio, by migration entries; flush
 * them from every CPU, then drop their rmap and references in one batch.
 * False if a page is exclusive and the folio may be pinned (nothing done).
 */
static bool migrate_pte_run(struct folio *folio, struct vm_area_struct *vma, unsigned long addr,
			    pte_t *pte, unsigned long i, int nr)
{
	struct page *first = folio_page(folio, i);

	for (int k = 0; k < nr; k++)
		if (PageAnonExclusive(first + k) && folio_maybe_dma_pinned(folio))
			return false;
	for (int k = 0; k < nr; k++) {
		pte_t pteval = ptep_get_and_clear(vma->vm_mm, addr, pte + k);

		set_pte_at(vma->vm_mm, addr, pte + k,
			   mk_migration_pte(pteval, first + k, PageAnonExclusive(first + k)));
		ClearPageAnonExclusive(first + k);
	}
	flush_tlb_range(vma, addr, addr + ((unsigned long)nr << PAGE_SHIFT));
	folio_remove_rmap_ptes(folio, first, nr, vma);
	folio_put_refs(folio, nr);
	return true;
}

/*
 * folio_walk_vma_ptes() callback of try_to_migrate() and try_to_unmap():
 * the pages i.. i+nr-1 of folio in the PTE table at addr (locked): each
 * run of PTEs mapping consecutive pages goes to the run function, arg.
 * False as that says.
 */
static bool folio_pte_table_runs(struct folio *folio, struct vm_area_struct *vma, unsigned long addr,
				 pte_t *pte, unsigned long i, int nr, void *arg)
{
	bool (*run_fn)(struct folio *, struct vm_area_struct *, unsigned long, pte_t *,
		       unsigned long, int) = arg;
	int k = 0;

	while (k < nr) {
		int run = 0;

		while (k + run < nr && pte_maps_folio_page(pte[k + run], folio, i + k + run))
			run++;
		if (run && !run_fn(folio, vma, addr + k * PAGE_SIZE, pte + k, i + k, run))
			return false;
		k += run ? run : 1;
	}
	return true;
}

/*
 * Call fn for each PTE table of vma's mm that may hold PTEs of folio's
 * pages in vma, under that table's lock: pte points at the entry of page
 * i, at addr, and the nr pages from i lie in the table and in vma.  Each
 * page is placed on its own (mremap may have put the pages under several
 * tables).  The walk of try_to_migrate() and remove_migration_ptes(),
 * under the rmap lock of vma.  False from fn stops the walk and returns
 * false.
 */
bool folio_walk_vma_ptes(struct folio *folio, struct vm_area_struct *vma,
			 folio_pte_table_fn fn, void *arg)
{
	unsigned long nr_pages = folio_nr_pages(folio), i = 0;
	struct mm_struct *mm = vma->vm_mm;

	while (i < nr_pages) {
		unsigned long addr = vma_address(vma, folio->index + i, 1);
		unsigned long nr;
		spinlock_t *ptl;
		pmd_t *pmd;
		pte_t *pte;
		bool ok;

		if (addr == (unsigned long)-EFAULT) {
			i++;
			continue;
		}
		nr = MIN(nr_pages - i, PTRS_PER_TABLE - pt_index(addr, PT_PTE));
		nr = MIN(nr, (vma->vm_end - addr) >> PAGE_SHIFT);
		pmd = mm_find_pmd(mm, addr);
		pte = pmd ? pte_offset_map_lock(mm, pmd, addr, &ptl) : NULL;
		if (pte) {
			ok = fn(folio, vma, addr, pte, i, nr, arg);
			pte_unmap_unlock(pte, ptl);
			if (!ok)
				return false;
		}
		i += nr;
	}
	return true;
}

/*
 * Replace the PMD leaf *pmd of vma at haddr, which maps folio from page
 * head on, by a PMD migration entry naming head (Linux's
 * set_pmd_migration_entry): cleared and flushed, the folio's PMD rmap and
 * the mapping's reference dropped; the deposited table stays.  False
 * (nothing done) if the PMD's pages are exclusive and may be pinned.
 * Under pmd_lock.
 */
static bool set_pmd_migration_entry(struct folio *folio, struct page *head,
				    struct vm_area_struct *vma, pmd_t *pmd, unsigned long haddr)
{
	bool exclusive = PageAnonExclusive(head);
	pmd_t old;

	lockdep_assert_held(pmd_lockptr(vma->vm_mm, pmd));
	if (exclusive && folio_maybe_dma_pinned(folio))
		return false;
	old = pmdp_huge_get_and_clear(vma->vm_mm, haddr, pmd);
	flush_pmd_tlb_range(vma, haddr, haddr + HPAGE_PMD_SIZE);
	set_pmd_at(vma->vm_mm, haddr, pmd, mk_migration_pmd(old, head, exclusive));
	ClearPageAnonExclusive(head);
	folio_remove_rmap_pmd(folio, head, vma);
	folio_put(folio);
	return true;
}

/*
 * A PMD leaf in vma mapping folio's pages i.. (the first of a PMD's 512),
 * if there is one: split into PTEs (a split, TTU_SPLIT_HUGE_PMD: they go
 * to migration entries next) or made a PMD migration entry (a migration).
 * False as set_pmd_migration_entry() says.
 */
static bool try_to_migrate_pmd(struct folio *folio, struct vm_area_struct *vma, unsigned long i,
			       enum ttu_flags flags)
{
	unsigned long haddr = vma_address(vma, folio->index + i, 1);
	bool ok = true;
	spinlock_t *ptl;
	pmd_t *pmd;

	if (haddr == (unsigned long)-EFAULT || !IS_ALIGNED(haddr, PMD_SIZE) ||
	    haddr + PMD_SIZE > vma->vm_end ||
	    !(pmd = mm_find_pmd(vma->vm_mm, haddr)))
		return true;
	ptl = pmd_lock(vma->vm_mm, pmd);
	if (pmd_present(*pmd) && pmd_trans_huge(*pmd) && pmd_pfn(*pmd) == folio_pfn(folio) + i) {
		if (flags & TTU_SPLIT_HUGE_PMD)
			__split_huge_pmd_locked(vma, pmd, haddr);
		else
			ok = set_pmd_migration_entry(folio, folio_page(folio, i), vma, pmd, haddr);
	}
	spin_unlock(ptl);
	return ok;
}

/*
 * rmap_one of try_to_migrate(); false stops the walk: a page could not be
 * unmapped.  A PMD leaf of the folio goes first (try_to_migrate_pmd()),
 * then the PTEs.
 */
static bool try_to_migrate_one(struct folio *folio, struct vm_area_struct *vma,
			       unsigned long address, void *arg)
{
	enum ttu_flags flags = (enum ttu_flags)(unsigned long)arg;

	for (unsigned long i = 0; folio_test_pmd_mappable(folio) && i < (unsigned long)folio_nr_pages(folio);
	     i += HPAGE_PMD_NR)
		if (!try_to_migrate_pmd(folio, vma, i, flags))
			return false;
	return folio_walk_vma_ptes(folio, vma, folio_pte_table_runs, migrate_pte_run);
}

/*
 * Replace every PTE and PMD mapping of the locked anon folio by a
 * migration entry (Linux's try_to_migrate with TTU_RMAP_LOCKED: the
 * caller holds the anon_vma's lock); flags: TTU_SPLIT_HUGE_PMD to split
 * PMD mappings into PTEs first (a folio split), else a PMD becomes a PMD
 * migration entry.  The caller checks folio_mapped() afterwards: still
 * mapped means a pinned page stayed, and remove_migration_ptes() must
 * undo what was done.
 */
void try_to_migrate(struct folio *folio, enum ttu_flags flags)
{
	struct rmap_walk_control rwc = { .arg = (void *)(unsigned long)flags,
					 .rmap_one = try_to_migrate_one };

	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	VM_WARN_ON_ONCE(!folio_test_anon(folio), "try_to_migrate: not an anon folio");
	rmap_walk_anon(folio, &rwc, true);
}

/*
 * Replace the nr PTEs from pte (at addr, in one locked table), mapping
 * pages i.. of the anon folio in the swap cache, by swap entries of the
 * folio's slots (Linux's try_to_unmap_one, anon branch): each slot's
 * count goes up, SWP_EXCLUSIVE and soft-dirty come from the page and the
 * PTE, a dirty PTE dirties the folio; flushed from every CPU, then the
 * rmap and references go in one batch, and the mm counts swap entries
 * instead of pages.  False (nothing done) if a page is exclusive and the
 * folio may be pinned, or a slot's count has no room, or the VMA is
 * mlocked (VM_LOCKED: the folio is mlocked again and stays, Linux's
 * "restore the mlock which got missed" — an mlock that came while
 * reclaim held the folio).
 */
static bool unmap_pte_run(struct folio *folio, struct vm_area_struct *vma, unsigned long addr,
			  pte_t *pte, unsigned long i, int nr)
{
	struct mm_struct *mm = vma->vm_mm;
	struct page *first = folio_page(folio, i);
	swp_entry_t entry = folio_swap_entry(folio, i);
	bool dirty = false;

	if (vma->vm_flags & VM_LOCKED) {
		mlock_vma_folio(folio, vma, false);
		return false;
	}
	for (int k = 0; k < nr; k++)
		if (PageAnonExclusive(first + k) && folio_maybe_dma_pinned(folio))
			return false;
	if (swap_duplicate_nr(entry, nr))
		return false;
	for (int k = 0; k < nr; k++) {
		unsigned long a = addr + k * PAGE_SIZE;
		pte_t pteval = ptep_get_and_clear(mm, a, pte + k);
		pte_t swp_pte = swp_entry_to_pte(swp_entry_add(entry, k));

		dirty |= pte_dirty(pteval);
		if (PageAnonExclusive(first + k))
			swp_pte = pte_swp_mkexclusive(swp_pte);
		if (pte_soft_dirty(pteval))
			swp_pte = pte_swp_mksoft_dirty(swp_pte);
		set_pte_at(mm, a, pte + k, swp_pte);
		ClearPageAnonExclusive(first + k);
	}
	flush_tlb_range(vma, addr, addr + ((unsigned long)nr << PAGE_SHIFT));
	if (dirty)
		folio_set_dirty(folio);
	swap_mmlist_add(mm);
	add_mm_counter(mm, -nr);
	add_mm_counter_swap(mm, nr);
	folio_remove_rmap_ptes(folio, first, nr, vma);
	folio_put_refs(folio, nr);
	return true;
}

/*
 * rmap_one of try_to_unmap(): the folio's PMD leaves in vma split into
 * PTEs (Linux's TTU_SPLIT_HUGE_PMD: a THP goes to swap as 512 PTE swap
 * entries), then its PTEs to swap entries.  False stops the walk.  In a
 * VM_LOCKED VMA nothing is split or unmapped: a PMD there keeps the folio
 * mapped, a PTE stops the walk (unmap_pte_run).
 */
static bool try_to_unmap_one(struct folio *folio, struct vm_area_struct *vma,
			     unsigned long address, void *arg)
{
	for (unsigned long i = 0; folio_test_pmd_mappable(folio) && !(vma->vm_flags & VM_LOCKED) &&
	     i < (unsigned long)folio_nr_pages(folio); i += HPAGE_PMD_NR)
		try_to_migrate_pmd(folio, vma, i, TTU_SPLIT_HUGE_PMD);
	return folio_walk_vma_ptes(folio, vma, folio_pte_table_runs, unmap_pte_run);
}

/*
 * Unmap the locked folio from every mm, for pageout (Linux's
 * try_to_unmap): an anon folio's PTEs, the folio being in the swap cache,
 * become swap entries of its pages' slots; a page-cache folio's PTEs and
 * PMDs are cleared (their dirty bits go to the folio), from shared and
 * private mappings of its file alike, as truncation unmaps (the next
 * access faults it back from the cache or swap).  The caller checks
 * folio_mapped() afterwards: a page that stayed mapped (a pinned anon
 * page) keeps the folio in memory.
 */
void try_to_unmap(struct folio *folio)
{
	struct rmap_walk_control rwc = { .rmap_one = try_to_unmap_one };

	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	if (!folio_test_anon(folio)) {
		unmap_mapping_pages(folio->mapping, folio->index, folio_nr_pages(folio), false);
		return;
	}
	VM_WARN_ON_ONCE_FOLIO(!folio_test_swapcache(folio), folio);
	rmap_walk_anon(folio, &rwc, false);
}
