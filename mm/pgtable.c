/*
 * Generic 4-level page-table walk, map, unmap and teardown.
 *
 * Each table page counts its used entries (page->pt_nr_used).  Clearing the
 * last entry of a table frees it and clears the entry above, up to (not
 * including) the root: so an unmapped range leaves no empty tables behind,
 * and the leak check sees page-table pages come back.
 *
 * Tables allocated before the buddy existed (pgtable_early_alloc) are not
 * PageTable and are never freed: they map the kernel.
 *
 * Locks: see linux/pgtable.h (which lock guards which entries) and mm/rmap.c
 * (their order).  Kernel tables (init_pgd) are changed at boot and by
 * ktests only, unlocked.
 */
#include "linux/errno.h"
#include "linux/pgtable.h"
#include "linux/mm.h"
#include "linux/mmap_lock.h"
#include "mm/internal.h"
#include "linux/printk.h"
#include "linux/string.h"

unsigned long nr_pagetable_pages;
phys_addr_t (*pgtable_early_alloc)(void);

/* A zeroed table page; NULL when out of memory. */
static void *pt_alloc_table(void)
{
	struct page *page;

	if (pgtable_early_alloc) {
		phys_addr_t pa = pgtable_early_alloc();

		if (!pa)
			return NULL;
		memset(__va(pa), 0, PAGE_SIZE);
		return __va(pa);
	}
	page = alloc_page(__GFP_ZERO);
	if (!page)
		return NULL;
	SetPageTable(page);
	page->pt_nr_used = 0;
	spin_lock_init(ptlock_ptr(page), "ptlock");
	__atomic_add_fetch(&nr_pagetable_pages, 1, __ATOMIC_RELAXED);
	return page_address(page);
}

/* Free a page-table page of any level whose entries are all none. */
void pt_free_table(void *table)
{
	struct page *page = virt_to_page(table);

	VM_WARN_ON_ONCE(page->pt_nr_used, "freeing a page table with entries in use");
	page->pt_nr_used = 0;
	/* The lock overlays ->mapping, which the buddy checks (Linux's ptlock_free). */
	memset(ptlock_ptr(page), 0, sizeof(spinlock_t));
	ClearPageTable(page);
	__atomic_sub_fetch(&nr_pagetable_pages, 1, __ATOMIC_RELAXED);
	__free_page(page);
}

/* Does the table count its entries?  Early tables do not (never freed). */
static bool pt_tracked(const void *table)
{
	return mem_map && PageTable(virt_to_page(table));
}

/* Adjust a table's used-entry count; false for untracked (early) tables. */
static bool pt_account(void *table, long delta)
{
	struct page *page;

	if (!pt_tracked(table))
		return false;
	page = virt_to_page(table);
	page->pt_nr_used += delta;
	VM_WARN_ON_ONCE(page->pt_nr_used > PTRS_PER_TABLE, "pt_nr_used out of range");
	return true;
}

pgd_t *pgd_alloc(void)
{
	pgd_t *pgd = pt_alloc_table();

	if (pgd)
		arch_pgd_init(pgd);
	return pgd;
}

/* Free a root after its user half was emptied by pgtable_free_range(). */
void pgd_free(pgd_t *pgd)
{
	virt_to_page(pgd)->pt_nr_used = 0;
	pt_free_table(pgd);
}

/*
 * Fill the none entry *e of a table at level l of mm with a new table
 * (Linux's pmd_install/__pud_alloc): allocated unlocked, installed under
 * the lock guarding *e unless another CPU filled *e meanwhile — then the
 * new table goes back.  mm NULL: a kernel table, unlocked.  0 or -ENOMEM.
 */
static int install_table(struct mm_struct *mm, pgval_t *e, enum pt_level l)
{
	pgval_t *next = pt_alloc_table();
	spinlock_t *ptl = NULL;

	if (!next)
		return -ENOMEM;
	if (mm) {
		ptl = l == PT_PMD ? pmd_lockptr(mm, (pmd_t *)e) : &mm->page_table_lock;
		spin_lock(ptl);
	}
	if (pgval_none(*e)) {
		/* the zeroed table before the entry that publishes it (Linux's smp_wmb) */
		smp_store_release(e, mk_table_entry(__pa(next) >> PAGE_SHIFT));
		pt_account(e, 1);
		if (mm)
			mm_add_pgtables(mm, 1);
		next = NULL;
	}
	if (ptl)
		spin_unlock(ptl);
	if (next)
		pt_free_table(next);
	return 0;
}

/*
 * The level-generic walks below (kernel mappings, lookups, teardown) see
 * an entry of any level as its bits, pgval_t: the format is the same at
 * every level.  The typed walks (mm_find_pmd(), pmd_entry_next()) and
 * everything outside this file go through pgd_t, pud_t, pmd_t, pte_t.
 *
 * Walk from the root to the entry of addr at "level", recording the table
 * used at each level in tables[] (tables[PT_PGD] is the root).  With alloc,
 * missing tables are allocated (install_table(), locked if mm is given).
 * Returns 0 with *out set, -ENOENT (a table is missing), -EEXIST (a leaf
 * sits above "level") or -ENOMEM.
 */
static int walk_to(pgd_t *pgd, unsigned long addr, enum pt_level level, bool alloc,
		   struct mm_struct *mm, pgval_t **tables, pgval_t **out)
{
	pgval_t *table = &pgd->pgd;

	for (enum pt_level l = PT_PGD; ; l--) {
		pgval_t *e = &table[pt_index(addr, l)];

		if (tables)
			tables[l] = table;
		if (l == level) {
			*out = e;
			return 0;
		}
		if (pgval_none(READ_ONCE(*e))) {
			if (!alloc)
				return -ENOENT;
			if (install_table(mm, e, l))
				return -ENOMEM;
		}
		if (pgval_huge(READ_ONCE(*e)))
			return -EEXIST;
		table = __va((phys_addr_t)pgval_pfn(READ_ONCE(*e)) << PAGE_SHIFT);
	}
}

/*
 * The PMD entry of addr in mm, or NULL if a PGD or PUD table on the way
 * is missing (Linux's mm_find_pmd): whatever the PMD entry holds.
 */
pmd_t *mm_find_pmd(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *pgd = pgd_offset(mm, addr);
	pud_t *pud;

	if (pgd_none(pgdp_get(pgd)))
		return NULL;
	pud = pud_offset(pgd, addr);
	if (pud_none(pudp_get(pud)) || pud_leaf(pudp_get(pud)))
		return NULL;
	return pmd_offset(pud, addr);
}

/* Give a none PGD, PUD entry of mm a table (pud_alloc(), pmd_alloc()); 0 or -ENOMEM. */
int __pud_alloc(struct mm_struct *mm, pgd_t *pgd)
{
	return install_table(mm, &pgd->pgd, PT_PGD);
}

int __pmd_alloc(struct mm_struct *mm, pud_t *pud)
{
	return install_table(mm, &pud->pud, PT_PUD);
}

/*
 * The PTE of addr in mm, the tables above it allocated as needed, with its
 * table's lock taken into *ptlp (Linux's pte_alloc_map_lock); NULL when out
 * of memory or when a PMD leaf maps addr.
 */
pte_t *pte_alloc_map_lock(struct mm_struct *mm, unsigned long addr, spinlock_t **ptlp)
{
	pmd_t *pmd = mm_alloc_pmd(mm, addr);

	if (!pmd || pte_alloc(mm, pmd))
		return NULL;
	return pte_offset_map_lock(mm, pmd, addr, ptlp);
}

/*
 * Give a none *pmd of mm a PTE table (Linux's __pte_alloc): installed
 * under pmd_lock unless another CPU put a table or a leaf there first.
 * 0 or -ENOMEM.
 */
int __pte_alloc(struct mm_struct *mm, pmd_t *pmd)
{
	return install_table(mm, &pmd->pmd, PT_PMD);
}

/*
 * Set one leaf entry (a PTE at PT_PTE, a huge entry at PT_PMD) to "entry",
 * allocating tables on the way.  Returns 0, -EEXIST (something is mapped
 * there, or a table is in the way of a PMD leaf) or -ENOMEM.
 */
static int pgtable_set_leaf(pgd_t *pgd, unsigned long addr, enum pt_level level, pgval_t entry)
{
	pgval_t *tables[PT_PGD + 1], *e;
	int ret;

	ret = walk_to(pgd, addr, level, true, NULL, tables, &e);
	if (ret)
		return ret;
	if (!pgval_none(*e))
		return -EEXIST;
	*e = entry;
	pt_account(tables[level], 1);
	return 0;
}

/*
 * Map one leaf: a 4 KiB page at PT_PTE or a 2 MiB page at PT_PMD.  addr and
 * pfn must be aligned to the leaf size.  Returns 0, -EINVAL (bad level or
 * alignment), or what pgtable_set_leaf() returns.
 */
int pgtable_map(pgd_t *pgd, unsigned long addr, unsigned long pfn, pgprot_t prot,
		enum pt_level level)
{
	unsigned long size = level_size(level);

	if ((level != PT_PTE && level != PT_PMD) || !IS_ALIGNED(addr, size) ||
	    !IS_ALIGNED(pfn << PAGE_SHIFT, size))
		return -EINVAL;
	return pgtable_set_leaf(pgd, addr, level,
				level == PT_PTE ? mk_pte_entry(pfn, prot) : mk_huge_entry(pfn, prot));
}

/*
 * Unhook the table at "level" that serves addr (found with tables[]) if it
 * has no entry in use, then the tables above it this leaves empty, level
 * by level up to (not including) the root, into to_free[] (lowest first).
 * They may be freed only after a flush of addr: a CPU may cache the
 * entries above a leaf.  Returns how many.
 */
static int detach_empty(unsigned long addr, enum pt_level level, enum pt_level top,
			pgval_t **tables, void **to_free)
{
	int nr_free = 0;

	for (enum pt_level l = level; l <= top && l < PT_PGD; l++) {
		if (!pt_tracked(tables[l]) || virt_to_page(tables[l])->pt_nr_used)
			break;
		tables[l + 1][pt_index(addr, l + 1)] = 0;
		pt_account(tables[l + 1], -1);
		to_free[nr_free++] = tables[l];
	}
	return nr_free;
}

/* Free n tables detach_empty() gave, top first, after the flush. */
static void free_detached(void **to_free, int n)
{
	for (int i = n; i; i--)
		pt_free_table(to_free[i - 1]);
}

/*
 * Clear the leaf for addr at level (PT_PTE or PT_PMD), flush it from every
 * CPU's TLB (a kernel address: the tables are init_pgd's) and free the
 * tables this leaves empty.  The old entry goes to *old if old
 * is not NULL.  Returns 0, -ENOENT (nothing mapped there) or -EINVAL (the
 * mapping there is of the other size).
 */
int pgtable_unmap(pgd_t *pgd, unsigned long addr, enum pt_level level, pgval_t *old)
{
	pgval_t *tables[PT_PGD + 1], *e;
	void *to_free[PT_PGD];
	int ret, n;

	ret = walk_to(pgd, addr, level, false, NULL, tables, &e);
	if (ret == -EEXIST)
		return -EINVAL;
	if (ret || pgval_none(*e))
		return -ENOENT;
	if (level == PT_PMD && !pgval_huge(*e))
		return -EINVAL;
	if (old)
		*old = *e;
	*e = 0;
	pt_account(tables[level], -1);
	n = detach_empty(addr, level, PT_PUD, tables, to_free);
	flush_tlb_kernel_range(addr, addr + PAGE_SIZE);
	free_detached(to_free, n);
	return 0;
}

/*
 * A walker cleared entries of mm's table at "level" (PT_PTE or PT_PMD) that
 * serves addr, with the store helpers of linux/pgtable.h, and is done with the
 * table: free it if it is left empty, and the tables above that this
 * empties, flushing addr if any went.  (Linux frees tables at munmap, in
 * free_pgtables(), and empty PTE tables in try_to_free_pte(); foliOS as
 * soon as they are empty, so the leak check sees every one come back.)
 * Only tables no VMA but vma reaches go (vma_table_ceiling()), under
 * vma's rmap locks (rmap walkers hold those, not the mmap_lock) and not
 * under a read-held mmap_lock (a fault may be walking them: they stay
 * until munmap or exit, as Linux's after MADV_DONTNEED).
 */
void free_empty_tables(struct vm_area_struct *vma, unsigned long addr, enum pt_level level)
{
	struct mm_struct *mm = vma->vm_mm;
	void *to_free[PT_PGD];
	int n;

	rmap_locks_assert_held(vma);
	n = detach_empty_tables(mm, addr, level, vma_table_ceiling(vma, addr), to_free);
	if (n) {
		flush_tlb_mm_range(mm, addr, addr + PAGE_SIZE, PAGE_SHIFT, true);
		free_detached(to_free, n);
	}
}

/*
 * The first half of free_empty_tables() for a caller that frees the
 * tables itself after its own flush (mmu_gather's tlb_remove_table):
 * unhooks them, up to level top, into to_free[PT_PGD], lowest first;
 * returns how many.
 */
int detach_empty_tables(struct mm_struct *mm, unsigned long addr, enum pt_level level,
			enum pt_level top, void **to_free)
{
	pgval_t *tables[PT_PGD + 1], *e;

	int n;

	if (rwsem_is_locked(&mm->mmap_lock) && !rwsem_is_write_locked(&mm->mmap_lock))
		return 0;
	if (walk_to(mm->pgd, addr, level, false, NULL, tables, &e))
		return 0;
	spin_lock(&mm->page_table_lock);
	n = detach_empty(addr, level, top, tables, to_free);
	spin_unlock(&mm->page_table_lock);
	mm_add_pgtables(mm, -n);
	return n;
}

/*
 * For walkers that work a PMD entry at a time (fork's copy, zap, mprotect):
 * the PMD entry of *addr in the first non-empty one at or after *addr
 * (empty ones and missing tables are skipped, a missing PUD or PGD table
 * by its whole range, advancing *addr), with *next set to where that
 * entry's 2 MiB range ends (at most end).  The entry is a PMD leaf, a PMD
 * migration entry (linux/swapops.h) or points to a PTE table (pte_offset_kernel()).
 * NULL when none is left below end.
 */
pmd_t *pmd_entry_next(pgd_t *pgd, unsigned long *addr, unsigned long end, unsigned long *next)
{
	while (*addr < end) {
		pgd_t *pgdp = pgd_offset_pgd(pgd, *addr);
		pud_t *pud;
		pmd_t *pmd;

		if (pgd_none(*pgdp)) {
			*addr = pgd_addr_end(*addr, end);
			continue;
		}
		pud = pud_offset(pgdp, *addr);
		if (pud_none(*pud) || pud_leaf(*pud)) {
			*addr = pud_addr_end(*addr, end);
			continue;
		}
		pmd = pmd_offset(pud, *addr);
		*next = pmd_addr_end(*addr, end);
		if (!pmd_none(*pmd))
			return pmd;
		*addr = *next;
	}
	return NULL;
}

/* An empty PTE table for later use (a PMD split's deposit); NULL when out of memory. */
pte_t *pte_alloc_one(void)
{
	return pt_alloc_table();
}

/* Free a PTE table that was never linked into a tree, or was emptied and unlinked. */
void pte_free(pte_t *table)
{
	pt_free_table(table);
}

/*
 * Replace the PMD leaf *pmd by the PTE table "table" (a withdrawn deposit),
 * filled with the store helpers: the PMD table keeps the same number of
 * entries in use.
 * A release store, as Linux's pmd_install orders it with smp_wmb(): a
 * lockless walker that sees the new entry sees the PTEs in the table.
 */
void pmd_populate(struct mm_struct *mm, pmd_t *pmd, pte_t *table)
{
	mm_add_pgtables(mm, 1);         /* withdrawn from the deposit, counted again here */
	smp_store_release(&pmd->pmd, mk_table_entry(__pa(table) >> PAGE_SHIFT));
}

/*
 * Translate addr: fill *w with the entries passed and the leaf found.
 * Returns the leaf level (PT_PTE, PT_PMD or PT_PUD), or 0 if not mapped.
 */
int pgtable_lookup(pgd_t *pgd, unsigned long addr, struct pgwalk *w)
{
	pgval_t *table = &pgd->pgd;

	memset(w, 0, sizeof(*w));
	for (enum pt_level l = PT_PGD; l >= PT_PTE; l--) {
		pgval_t e = table[pt_index(addr, l)];

		w->entry[l] = e;
		w->stop_level = l;
		if (!pgval_present(e))
			return 0;
		if (l == PT_PTE || pgval_huge(e)) {
			w->leaf_level = l;
			w->phys = ((phys_addr_t)pgval_pfn(e) << PAGE_SHIFT) +
				  (addr & (level_size(l) - 1));
			return l;
		}
		table = __va((phys_addr_t)pgval_pfn(e) << PAGE_SHIFT);
	}
	return 0;
}

/* Free the tables below "table" (a level-l table) that serve [start, end). */
static void free_level(pgval_t *table, enum pt_level l, unsigned long start, unsigned long end)
{
	unsigned long addr, next;

	for (addr = start; addr < end; addr = next) {
		pgval_t *e = &table[pt_index(addr, l)];
		pgval_t *child;

		next = p_addr_end(addr, end, level_size(l));
		if (pgval_none(*e))
			continue;
		if (l == PT_PTE || pgval_huge(*e)) {
			VM_WARN_ON_ONCE(1, "pgtable_free_range: leaf still mapped");
			continue;
		}
		child = __va((phys_addr_t)pgval_pfn(*e) << PAGE_SHIFT);
		free_level(child, l - 1, addr, next);
		if (PageTable(virt_to_page(child)) && !virt_to_page(child)->pt_nr_used) {
			*e = 0;
			pt_account(table, -1);
			pt_free_table(child);
		}
	}
}

/*
 * Free every page-table page below the root that serves [start, end).  The
 * range must hold no leaves (warned about and kept if it does) and the tree
 * must not be live on any CPU: used at teardown.
 */
void pgtable_free_range(pgd_t *pgd, unsigned long start, unsigned long end)
{
	free_level(&pgd->pgd, PT_PGD, start, end);
}
