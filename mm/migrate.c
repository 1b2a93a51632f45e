/*
 * Page migration of anon folios (Linux's mm/migrate.c: migrate_folio_unmap,
 * migrate_folio_move, remove_migration_ptes, migration_entry_wait): a
 * folio's contents move to a new folio of the same order, and every PTE
 * or PMD that mapped the old one maps the new one instead.  mbind's
 * MPOL_MF_MOVE (mm/mempolicy.c) is the user; a split (mm/deferred_split.c)
 * uses the same two walks.
 *
 *   try_to_migrate(src)      every PTE and PMD of src -> a migration entry
 *                            (mm/rmap_migrate.c, linux/swapops.h); src has no
 *                            mapping left, a fault that meets an entry waits
 *   folio_ref_freeze(src, 1) nobody else holds src (a pin, a GUP in flight)
 *   copy data, anon mapping, index to dst
 *   remove_migration_ptes(src, dst)   each entry -> a PTE or PMD of dst,
 *                            with the bits it remembers
 *
 * If a page stays mapped (pinned) or the freeze fails, the entries go back
 * to src instead.  A PMD migration entry that a walker must change in part
 * (munmap, mprotect, mremap, fork) is split into 512 PTE migration entries
 * first (__split_huge_pmd_locked), as Linux does; dst is then mapped by
 * PTEs there.
 *
 * Lock order: see mm/rmap.c (the folio lock, then the anon_vma root's lock
 * for write across both walks, then each table's lock in turn).
 */
#include "linux/swap.h"
#include "linux/errno.h"
#include "linux/string.h"
#include "mm/migrate.h"
#include "linux/rmap.h"
#include "linux/pgtable.h"
#include "mm/internal.h"
#include "mm/deferred_split.h"
#include "linux/vmstat.h"
#include "linux/swapops.h"

/* Does the migration entry name page i of src? */
static bool migration_entry_names(swp_entry_t entry, struct folio *src, unsigned long i)
{
	return is_migration_entry(entry) && swp_offset_pfn(entry) == folio_pfn(src) + i;
}

/* Does pte hold a migration entry naming page i of src? */
static bool pte_migrates_page(pte_t pte, struct folio *src, unsigned long i)
{
	return is_swap_pte(pte) && migration_entry_names(pte_to_swp_entry(pte), src, i);
}

/* Does the migration entry say the page was AnonExclusive? */
static bool migration_entry_exclusive(swp_entry_t entry)
{
	return !is_readable_migration_entry(entry);
}

/*
 * The PTE mapping pfn in vma that a migration entry (with its soft-dirty
 * bit) stands for (Linux's remove_migration_pte and remove_migration_pmd):
 * the VMA's protection now (mprotect may have changed it), writable only
 * if the entry is; young, dirty and soft-dirty as the entry remembers.
 */
static pte_t migration_entry_to_pte(swp_entry_t entry, bool soft_dirty, unsigned long pfn,
				    struct vm_area_struct *vma)
{
	pte_t pte = pfn_pte(pfn, vma_pgprot(vma, is_writable_migration_entry(entry)));

	if (is_migration_entry_young(entry))
		pte = pte_mkyoung(pte);
	if (is_migration_entry_dirty(entry))
		pte = pte_mkdirty(pte);
	return soft_dirty ? pte_mksoft_dirty(pte) : pte;
}

/*
 * folio_walk_vma_ptes() callback of remove_migration_ptes(): each run of
 * migration entries naming pages i.. of src, alike in exclusivity, turns
 * into PTEs of the same pages of dst (arg), with one rmap batch and a
 * reference per PTE.  No flush: the entries were not present.
 */
static bool remove_migration_pte_table(struct folio *src, struct vm_area_struct *vma,
				       unsigned long addr, pte_t *pte, unsigned long i, int nr,
				       void *arg)
{
	struct folio *dst = arg;

	for (int k = 0, run; k < nr; k += run ? run : 1) {
		struct page *new = folio_page(dst, i + k);
		bool excl;

		run = 0;
		if (!pte_migrates_page(pte[k], src, i + k))
			continue;
		excl = migration_entry_exclusive(pte_to_swp_entry(pte[k]));
		while (k + run < nr && pte_migrates_page(pte[k + run], src, i + k + run) &&
		       migration_entry_exclusive(pte_to_swp_entry(pte[k + run])) == excl)
			run++;
		folio_ref_add(dst, run);
		folio_add_anon_rmap_ptes(dst, new, run, vma, addr + k * PAGE_SIZE,
					 excl ? RMAP_EXCLUSIVE : RMAP_NONE);
		for (int j = 0; j < run; j++)
			set_pte_at(vma->vm_mm, addr + (k + j) * PAGE_SIZE, pte + k + j,
				   migration_entry_to_pte(pte_to_swp_entry(pte[k + j]),
							  pte_swp_soft_dirty(pte[k + j]),
							  page_to_pfn(new + j), vma));
	}
	return true;
}

/*
 * If vma holds a PMD migration entry of src's page i (the first of a PMD's
 * 512), make it a PMD leaf of dst's page i (Linux's remove_migration_pmd),
 * with dst's PMD rmap and a reference.
 */
static void remove_migration_pmd(struct folio *src, struct folio *dst, struct vm_area_struct *vma,
				 unsigned long i)
{
	unsigned long haddr = vma_address(vma, src->index + i, 1);
	swp_entry_t entry;
	spinlock_t *ptl;
	pmd_t *pmd;

	if (haddr == (unsigned long)-EFAULT || !IS_ALIGNED(haddr, PMD_SIZE) ||
	    haddr + PMD_SIZE > vma->vm_end ||
	    !(pmd = mm_find_pmd(vma->vm_mm, haddr)))
		return;
	ptl = pmd_lock(vma->vm_mm, pmd);
	entry = pmd_to_swp_entry(*pmd);
	if (is_pmd_migration_entry(*pmd) && migration_entry_names(entry, src, i)) {
		/* the PMD leaf: the bits of the PTE the entry stands for */
		pte_t pte = migration_entry_to_pte(entry, pmd_swp_soft_dirty(*pmd),
						   folio_pfn(dst) + i, vma);

		folio_get(dst);
		folio_add_anon_rmap_pmd(dst, folio_page(dst, i), vma, haddr,
					migration_entry_exclusive(entry) ? RMAP_EXCLUSIVE : RMAP_NONE);
		set_pmd_at(vma->vm_mm, haddr, pmd, pmd_mkhuge(__pmd(pte_val(pte))));
	}
	spin_unlock(ptl);
}

/*
 * rmap_one of remove_migration_ptes(): the PMD entries of a src a PMD can
 * map (one per 2 MiB of it), then PTE entries.
 */
static bool remove_migration_pte(struct folio *src, struct vm_area_struct *vma,
				 unsigned long address, void *arg)
{
	for (unsigned long i = 0; folio_test_pmd_mappable(src) && i < (unsigned long)folio_nr_pages(src);
	     i += HPAGE_PMD_NR)
		remove_migration_pmd(src, arg, vma, i);
	return folio_walk_vma_ptes(src, vma, remove_migration_pte_table, arg);
}

/*
 * Turn every migration entry that names a page of src back into a PTE or
 * PMD of the same page of dst (Linux's remove_migration_ptes with
 * RMP_LOCKED: the caller holds the anon_vma's lock and the folio locks);
 * src == dst undoes try_to_migrate() or remaps a split folio.  dst has
 * src's anon_vma, index and size.  dst's lock keeps whoever finds it
 * mapped in one VMA from moving or splitting it while it is mapped in
 * the others (the folio_add_anon_rmap_*() rule).
 */
void remove_migration_ptes(struct folio *src, struct folio *dst)
{
	struct rmap_walk_control rwc = { .arg = dst, .rmap_one = remove_migration_pte };

	VM_BUG_ON_FOLIO(!folio_test_locked(src), src);
	VM_BUG_ON_FOLIO(!folio_test_locked(dst), dst);
	rmap_walk_anon(src, &rwc, true);
}

/*
 * A fault (or GUP) met a swap-format PTE at address (Linux's
 * migration_entry_wait): if it still is a migration entry, sleep until
 * its folio is unlocked, with the PTE lock dropped.  The caller retries
 * the access; the mmap_lock it holds for read stays held.
 */
void migration_entry_wait(struct mm_struct *mm, pmd_t *pmd, unsigned long address)
{
	spinlock_t *ptl;
	pte_t *ptep = pte_offset_map_lock(mm, pmd, address, &ptl);

	if (!ptep)
		return;
	if (is_swap_pte(*ptep) && is_migration_entry(pte_to_swp_entry(*ptep))) {
		migration_entry_wait_on_locked(pte_to_swp_entry(*ptep), ptl);
		return;
	}
	pte_unmap_unlock(ptep, ptl);
}

/* The same for a PMD migration entry (Linux's pmd_migration_entry_wait). */
void pmd_migration_entry_wait(struct mm_struct *mm, pmd_t *pmd)
{
	spinlock_t *ptl = pmd_lock(mm, pmd);

	if (is_pmd_migration_entry(*pmd)) {
		migration_entry_wait_on_locked(pmd_to_swp_entry(*pmd), ptl);
		return;
	}
	spin_unlock(ptl);
}

/*
 * Migrate src (locked, the anon_vma's lock held for write) to dst, a new
 * folio of its order: unmap, freeze, copy, remap as the file's comment
 * says.  0 or -EAGAIN (a page pinned, or a reference besides the caller's:
 * src stays as it was, its deferred-split state made true again).
 */
static int __migrate_anon_folio(struct folio *src, struct folio *dst)
{
	unsigned int order = folio_order(src);
	bool partially_mapped = folio_test_partially_mapped(src);

	try_to_migrate(src, 0);
	if (folio_mapped(src) || !folio_ref_freeze(src, 1)) {
		remove_migration_ptes(src, src);
		if (!partially_mapped)
			folio_unqueue_deferred_split(src);
		return -EAGAIN;
	}
	memcpy(page_address(&dst->page), page_address(&src->page), PAGE_SIZE << order);
	dst->mapping = src->mapping;
	dst->index = src->index;
	/* what the LRU reads (Linux's folio_migrate_flags): dst is nobody else's yet */
	dst->flags |= src->flags & (BIT(PG_swapbacked) | BIT(PG_active) | BIT(PG_referenced));
	folio_ref_unfreeze(src, 1);
	mod_mthp_stat(order, MTHP_STAT_NR_ANON, 1);
	remove_migration_ptes(src, dst);
	folio_unqueue_deferred_split(src);
	if (partially_mapped)
		deferred_split_folio(dst, true);
	return 0;
}

/*
 * Migrate the mapped anon folio src (the caller holds a reference) to a
 * new folio of the same order: data, anon mapping and index, every
 * mapping the anon rmap walk finds, the deferred-split state.  The old
 * folio is freed when the caller drops its reference.  0, -EAGAIN (not
 * anon, a zero page, pinned or otherwise referenced, locked by someone)
 * or -ENOMEM.  migrate_anon_folio() retries, and splits a large folio
 * when no folio of its order can be had.
 */
static int migrate_anon_folio_once(struct folio *src)
{
	struct anon_vma *anon_vma;
	struct folio *dst;
	int ret = -EAGAIN;

	if (!folio_test_anon(src) || is_zero_folio(src) || !folio_mapped(src) ||
	    !folio_trylock(src))
		return -EAGAIN;
	anon_vma = folio_get_anon_vma(src);
	if (!anon_vma)
		goto unlock;
	dst = folio_alloc(__GFP_MOVABLE, folio_order(src));
	ret = -ENOMEM;
	if (dst) {
		__folio_set_locked(dst);        /* Linux's: locked until all its PTEs are in */
		anon_vma_lock_write(anon_vma);
		ret = __migrate_anon_folio(src, dst);
		anon_vma_unlock_write(anon_vma);
		if (!ret)
			folio_add_lru(dst);
		folio_unlock(dst);
		folio_put(dst);         /* its mappings hold it now, or nothing: freed */
	}
	put_anon_vma(anon_vma);
unlock:
	folio_unlock(src);
	return ret;
}

/*
 * migrate_anon_folio_once() until it is not -EAGAIN, at most
 * MIGRATE_RETRIES times (Linux's migrate_pages makes as many passes): a
 * GUP in flight or a lock held by another CPU is a moment's.
 */
#define MIGRATE_RETRIES 10
static int migrate_anon_folio_retry(struct folio *src)
{
	int ret;

	lru_add_drain_all();    /* Linux's migrate_prep: a batch's reference would block the freeze */
	ret = migrate_anon_folio_once(src);

	for (int pass = 1; ret == -EAGAIN && pass < MIGRATE_RETRIES; pass++) {
		for (int i = 0; i < 1000; i++)
			cpu_relax();
		ret = migrate_anon_folio_once(src);
	}
	return ret;
}

/*
 * No folio of src's order to be had: split src and migrate its pages one
 * by one (Linux's migrate_pages_batch does so, try_split_folio).  The
 * caller's reference stays with page 0's folio; each other page still
 * mapped is migrated under a reference of its own.  0 or the last error.
 */
static int migrate_split_folio(struct folio *src)
{
	unsigned long pfn = folio_pfn(src), nr = folio_nr_pages(src);
	int ret = -EAGAIN, err;
	bool queued;

	if (folio_trylock(src)) {
		queued = folio_unqueue_deferred_split(src);
		ret = split_folio(src);
		if (ret && queued)
			deferred_split_queue(src);
		folio_unlock(src);
	}
	if (ret)
		return ret;
	ret = folio_mapped(src) ? migrate_anon_folio_retry(src) : 0;
	for (unsigned long i = 1; i < nr; i++) {
		struct folio *folio = page_folio(pfn_to_page(pfn + i));

		if (!folio_try_get(folio))
			continue;               /* unmapped, freed by the split */
		if (page_folio(pfn_to_page(pfn + i)) == folio && folio_mapped(folio) &&
		    (err = migrate_anon_folio_retry(folio)))
			ret = err;
		folio_put(folio);
	}
	return ret;
}

int migrate_anon_folio(struct folio *src)
{
	int ret = migrate_anon_folio_retry(src);

	if (ret == -ENOMEM && folio_test_large(src))
		ret = migrate_split_folio(src);
	return ret;
}
