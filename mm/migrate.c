/*
 * Page migration of anon folios (Linux's mm/migrate.c, with the rmap half
 * of mm/rmap.c's try_to_migrate_one/remove_migration_pte and
 * mm/huge_memory.c's set_pmd_migration_entry/remove_migration_pmd): a
 * folio's contents move to a new folio of the same order, and every PTE
 * or PMD that mapped the old one maps the new one instead.  mbind's
 * MPOL_MF_MOVE (mm/mempolicy.c) is the user.
 *
 * Linux does it in two passes.  try_to_migrate() replaces every mapping
 * by a migration entry (a swap-format PTE/PMD naming the old page and
 * remembering write, dirty, young, soft-dirty and AnonExclusive), so that
 * a fault or GUP on another CPU waits instead of touching the page while
 * it is copied; then folio_migrate_mapping() checks, with the refcount
 * frozen, that nobody else (a pin, a GUP in flight) holds the folio
 * (folio_expected_refs), the data and flags are copied, and
 * remove_migration_ptes() turns each migration entry into a PTE of the new
 * page with the remembered bits.
 *
 * foliOS has no migration entries yet.  It holds the folio lock and holds
 * off every mm that maps the folio (folio_lock_mms, mm/folio_mms.c: their
 * mmap_locks for write), so between the reference check and the last new
 * entry nothing else faults, pins, forks or unmaps the folio.  So each
 * mapping is replaced in one step: the new page's entry
 * gets the old entry's bits (write only if it was writable, dirty only if
 * it was dirty, so a read-only page never comes back writable-and-clean,
 * what mkdirty checks; see migrated_entry), the new folio's rmap is added
 * as remove_migration_pte adds it and the old one's removed as
 * try_to_migrate_one removes it (the mapcount trace records both).
 * Held off in the kernel, the mms' threads may still run in user mode on
 * other CPUs and write to src while it is copied.  So a first walk
 * write-protects every mapping of src (the write bit kept in a software
 * bit, pgent_save_write) and flushes: such a write now faults, and the
 * fault waits for the mmap_lock; the second walk gives the bit back.
 *
 * Lock order: see mm/rmap.c (the folio lock, the mms' mmap_locks, then
 * the anon_vma root's lock for read across the walk, as Linux).
 */
#include "linux/errno.h"
#include "linux/string.h"
#include "mm/migrate.h"
#include "mm/rmap.h"
#include "mm/pgtable.h"
#include "mm/internal.h"
#include "mm/deferred_split.h"
#include "mm/vmstat.h"
#include "mm/folio_mms.h"
#include "mm/swapops.h"

/* Does pte hold a migration entry naming page i of src? */
static bool pte_migrates_page(pte_t pte, struct folio *src, unsigned long i)
{
	swp_entry_t entry;

	if (!is_swap_pte(pte))
		return false;
	entry = pte_to_swp_entry(pte);
	return is_migration_entry(entry) && swp_offset_pfn(entry) == folio_pfn(src) + i;
}

/* Does the migration entry pte say the page was AnonExclusive? */
static bool migration_pte_exclusive(pte_t pte)
{
	return !is_readable_migration_entry(pte_to_swp_entry(pte));
}

/*
 * The PTE of new in vma that the migration entry pte stands for (Linux's
 * remove_migration_pte): the VMA's protection now (mprotect may have
 * changed it), writable only if the entry is, young, dirty and soft-dirty
 * as the entry remembers.
 */
static pte_t migration_entry_to_pte(pte_t pte, struct page *new, struct vm_area_struct *vma)
{
	swp_entry_t entry = pte_to_swp_entry(pte);
	pte_t ret = mk_pte_entry(page_to_pfn(new), vma_pgprot(vma, is_writable_migration_entry(entry)));

	if (is_migration_entry_young(entry))
		ret = pgent_mkyoung(ret);
	if (is_migration_entry_dirty(entry))
		ret = pgent_mkdirty(ret);
	return pte_swp_soft_dirty(pte) ? pgent_mksoft_dirty(ret) : ret;
}

/* Where remove_migration_ptes() maps the pages: dst, and how often each page got mapped. */
struct remove_migration_arg {
	struct folio *dst;
	int *counts;
};

/*
 * folio_walk_vma_ptes() callback of remove_migration_ptes(): each run of
 * migration entries naming pages i.. of src, alike in exclusivity, turns
 * into PTEs of the same pages of dst, with one rmap batch and a reference
 * per PTE.  No flush: the entries were not present.
 */
static bool remove_migration_pte_table(struct folio *src, struct vm_area_struct *vma,
				       unsigned long addr, pte_t *pte, unsigned long i, int nr,
				       void *arg)
{
	struct remove_migration_arg *rma = arg;

	for (int k = 0, run; k < nr; k += run ? run : 1) {
		struct page *new = folio_page(rma->dst, i + k);
		bool excl;

		run = 0;
		if (!pte_migrates_page(pte[k], src, i + k))
			continue;
		excl = migration_pte_exclusive(pte[k]);
		while (k + run < nr && pte_migrates_page(pte[k + run], src, i + k + run) &&
		       migration_pte_exclusive(pte[k + run]) == excl)
			run++;
		folio_ref_add(rma->dst, run);
		folio_add_anon_rmap_ptes(rma->dst, new, run, vma, addr + k * PAGE_SIZE,
					 excl ? RMAP_EXCLUSIVE : RMAP_NONE);
		for (int j = 0; j < run; j++) {
			set_pte_at(vma->vm_mm, addr + (k + j) * PAGE_SIZE, pte + k + j,
				   migration_entry_to_pte(pte[k + j], new + j, vma));
			if (rma->counts)
				rma->counts[i + k + j]++;
		}
	}
	return true;
}

static bool remove_migration_pte(struct folio *src, struct vm_area_struct *vma,
				 unsigned long address, void *arg)
{
	return folio_walk_vma_ptes(src, vma, remove_migration_pte_table, arg);
}

/*
 * Turn every migration entry that names a page of src back into a PTE of
 * the same page of dst (Linux's remove_migration_ptes with RMP_LOCKED: the
 * caller holds the anon_vma's lock and the folio locks); src == dst undoes
 * try_to_migrate() or remaps a split folio.  dst has src's anon_vma,
 * index and size.  counts, if not NULL, gets +1 for each PTE of dst's
 * page i.
 */
void remove_migration_ptes(struct folio *src, struct folio *dst, int *counts)
{
	struct remove_migration_arg rma = { .dst = dst, .counts = counts };
	struct rmap_walk_control rwc = { .arg = &rma, .rmap_one = remove_migration_pte };

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

/*
 * The entry of the new page for old: its frame is pfn, its bits are old's
 * (what Linux's migration entry remembers and remove_migration_pte puts
 * back), and a dirty one is soft-dirty too: Linux marks it dirty again
 * with pte_mkdirty(), which on x86 sets _PAGE_SOFT_DIRTY as well.
 */
static pgent_t migrated_entry(pgent_t old, unsigned long pfn)
{
	/* Only the frame field changes (as pgent_next_pfn moves it); write comes back. */
	pgent_t entry = pgent_restore_write(old + ((pgent_t)(pfn - pgent_pfn(old)) << PAGE_SHIFT));

	return pgent_dirty(entry) ? pgent_mksoft_dirty(entry) : entry;
}

/* Move the PMD mapping of src at addr to dst (a PMD-sized folio). */
static void migrate_pmd(struct folio *src, struct folio *dst, struct vm_area_struct *vma,
			unsigned long addr, pmd_t *pmd)
{
	rmap_t flags = PageAnonExclusive(&src->page) ? RMAP_EXCLUSIVE : RMAP_NONE;

	folio_get(dst);
	folio_add_anon_rmap_pmd(dst, &dst->page, vma, addr, flags);
	set_pmd_at(vma->vm_mm, addr, pmd, migrated_entry(*pmd, folio_pfn(dst)));
	flush_pmd_tlb_range(vma, addr, addr + HPAGE_PMD_SIZE);
	ClearPageAnonExclusive(&src->page);
	folio_remove_rmap_pmd(src, &src->page, vma);
	folio_put(src);
}

/*
 * Move nr PTE mappings, pages i.. of src at addr (one page table, the same
 * AnonExclusive state), to the same pages of dst: one batch for the rmap,
 * so a folio mapped whole never looks partially mapped on the way.
 */
static void migrate_ptes(struct folio *src, struct folio *dst, struct vm_area_struct *vma,
			 unsigned long addr, pte_t *pte, unsigned long i, int nr)
{
	struct page *old = folio_page(src, i), *new = folio_page(dst, i);
	rmap_t flags = PageAnonExclusive(old) ? RMAP_EXCLUSIVE : RMAP_NONE;

	folio_ref_add(dst, nr);
	folio_add_anon_rmap_ptes(dst, new, nr, vma, addr, flags);
	for (int k = 0; k < nr; k++) {
		set_pte_at(vma->vm_mm, addr, pte + k, migrated_entry(pte[k], page_to_pfn(new + k)));
		ClearPageAnonExclusive(old + k);
	}
	flush_tlb_range(vma, addr, addr + ((unsigned long)nr << PAGE_SHIFT));
	folio_remove_rmap_ptes(src, old, nr, vma);
	folio_put_refs(src, nr);
}

/* Does pte map page i of src, exclusive as excl says? */
static bool pte_maps(const pte_t *pte, struct folio *src, unsigned long i, bool excl)
{
	return pgent_present(*pte) && !pgent_special(*pte) && !pgent_huge(*pte) &&
	       pgent_pfn(*pte) == folio_pfn(src) + i &&
	       PageAnonExclusive(folio_page(src, i)) == excl;
}

/*
 * rmap_one of migrate_anon_folio(): move every mapping of src in vma to
 * dst (the arg).  Each page is looked up on its own (mremap may have put
 * the pages under several PMDs); runs of PTEs in one table go as a batch.
 */
static bool migrate_one(struct folio *src, struct vm_area_struct *vma, unsigned long address,
			void *arg)
{
	unsigned long nr_pages = folio_nr_pages(src), i = 0;
	struct folio *dst = arg;

	while (i < nr_pages) {
		unsigned long addr = vma_address(vma, src->index + i, 1);
		pmd_t *pmd = addr == (unsigned long)-EFAULT ? NULL :
			     pgtable_entry(vma->vm_mm->pgd, addr, PT_PMD, false);
		pte_t *pte;
		bool excl;
		int nr = 0;

		if (!pmd || !pgent_present(*pmd)) {
			i++;
			continue;
		}
		if (pgent_huge(*pmd)) {
			if (pgent_pfn(*pmd) == folio_pfn(src))
				migrate_pmd(src, dst, vma, addr, pmd);
			i += HPAGE_PMD_NR - pt_index(addr, PT_PTE);     /* the rest of this PMD */
			continue;
		}
		pte = pte_offset(pmd, addr);
		excl = PageAnonExclusive(folio_page(src, i));
		while (i + nr < nr_pages && pte_maps(pte + nr, src, i + nr, excl) &&
		       (nr == 0 || ((addr + nr * PAGE_SIZE) & ~PMD_MASK)))
			nr++;
		if (nr)
			migrate_ptes(src, dst, vma, addr, pte, i, nr);
		i += nr ? nr : 1;
	}
	return true;
}

/*
 * rmap_one of the first walk: write-protect every mapping of src in vma
 * (pgent_save_write), then flush them from every CPU.
 */
static bool migrate_wrprotect_one(struct folio *src, struct vm_area_struct *vma,
				  unsigned long address, void *arg)
{
	unsigned long nr_pages = folio_nr_pages(src), pfn = folio_pfn(src);

	for (unsigned long i = 0; i < nr_pages; i++) {
		unsigned long addr = vma_address(vma, src->index + i, 1);
		pmd_t *pmd = addr == (unsigned long)-EFAULT ? NULL :
			     pgtable_entry(vma->vm_mm->pgd, addr, PT_PMD, false);
		pte_t *pte;

		if (!pmd || !pgent_present(*pmd))
			continue;
		if (pgent_huge(*pmd)) {
			if (pgent_pfn(*pmd) == pfn)
				*pmd = pgent_save_write(*pmd);
			continue;
		}
		pte = pte_offset(pmd, addr);
		if (pgent_present(*pte) && !pgent_special(*pte) && pgent_pfn(*pte) == pfn + i)
			*pte = pgent_save_write(*pte);
	}
	flush_tlb_range(vma, vma->vm_start, vma->vm_end);
	return true;
}

/*
 * May src be migrated: an anon folio (not a zero page) that only its
 * mappings and the caller's reference hold (Linux's folio_expected_refs
 * for an anon folio outside the swap cache), so not pinned either.
 */
static bool folio_migratable(struct folio *src)
{
	if (!folio_test_anon(src) || is_zero_folio(src) || !folio_mapped(src))
		return false;
	if (folio_maybe_dma_pinned(src))
		return false;
	return folio_ref_count(src) == folio_mapcount(src) + 1;
}

/*
 * Migrate src, locked, its mms held off: write-protect its mappings, copy,
 * move the mappings to the copy.  0, -EAGAIN or -ENOMEM.
 */
static int __migrate_anon_folio(struct folio *src)
{
	struct rmap_walk_control rwc = { .rmap_one = migrate_wrprotect_one };
	unsigned int order = folio_order(src);
	bool partially_mapped;
	struct folio *dst;

	if (!folio_migratable(src))
		return -EAGAIN;
	dst = folio_alloc(0, order);
	if (!dst)
		return -ENOMEM;
	rmap_walk_anon(src, &rwc, false);
	rwc.rmap_one = migrate_one;
	memcpy(page_address(&dst->page), page_address(&src->page), PAGE_SIZE << order);
	dst->mapping = src->mapping;
	dst->index = src->index;
	mod_mthp_stat(order, MTHP_STAT_NR_ANON, 1);
	/* Before the walk: moving mapping by mapping may queue src on the way. */
	partially_mapped = folio_test_partially_mapped(src);
	rwc.arg = dst;
	rmap_walk_anon(src, &rwc, false);
	VM_WARN_ON_ONCE(folio_mapped(src), "migrate_anon_folio: old folio still mapped");
	folio_unqueue_deferred_split(src);
	if (partially_mapped)
		deferred_split_folio(dst, true);
	folio_put(dst);
	return 0;
}

/*
 * Migrate the mapped anon folio src (the caller holds a reference) to a
 * new folio of the same order: data, anon mapping and index, every
 * mapping the anon rmap walk finds, the deferred-split state.  held is
 * the mm whose mmap_lock the caller holds (folio_lock_mms).  The old
 * folio is freed when the caller drops its reference.  0, -EAGAIN (not
 * anon, a zero page, pinned or otherwise referenced, locked by someone,
 * or an mm that maps it busy) or -ENOMEM.
 */
static int migrate_anon_folio_once(struct folio *src, struct mm_struct *held)
{
	struct anon_vma *anon_vma;
	struct folio_mms fm;
	int ret = -EAGAIN;

	if (!folio_trylock(src))
		return -EAGAIN;
	anon_vma = folio_get_anon_vma(src);
	if (anon_vma && !folio_lock_mms(src, &fm, held)) {
		ret = __migrate_anon_folio(src);
		folio_unlock_mms(&fm);
	}
	if (anon_vma)
		put_anon_vma(anon_vma);
	folio_unlock(src);
	return ret;
}

/*
 * migrate_anon_folio_once() until it is not -EAGAIN, at most
 * MIGRATE_RETRIES times (Linux's migrate_pages makes as many passes): a
 * busy lock — another process of the folio in a fault on another CPU —
 * is a moment's.
 */
#define MIGRATE_RETRIES 10
int migrate_anon_folio(struct folio *src, struct mm_struct *held)
{
	int ret = migrate_anon_folio_once(src, held);

	for (int pass = 1; ret == -EAGAIN && pass < MIGRATE_RETRIES; pass++) {
		for (int i = 0; i < 1000; i++)
			cpu_relax();
		ret = migrate_anon_folio_once(src, held);
	}
	return ret;
}
