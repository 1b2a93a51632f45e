/*
 * PMD-mapped transparent huge pages (Linux's mm/huge_memory.c): the 2 MiB
 * anon fault, its write fault (reuse or split), fork's copy, munmap's zap,
 * mprotect's change, and splitting a PMD mapping into 512 PTEs.  The 4 MiB
 * fault of CONFIG_MAPCOUNT_PAGES is in mm/huge_memory_multi_pmd.c.
 *
 *   PMD leaf (PS bit) ---------------------> 2 MiB folio, order 9
 *                                            EM = 1, LM = 1, slot (mm, 1)
 *        | __split_huge_pmd()
 *        v
 *   PMD -> PTE table (the deposited one)
 *          512 PTEs ----------------------> the same folio
 *                                            EM = 0, LM = 512, slot (mm, 512)
 *
 * Every PMD leaf has a PTE table deposited in its mm when it is created
 * (Linux's pgtable_trans_huge_deposit), so splitting the PMD never needs
 * memory: munmap, mprotect and MADV_DONTNEED of part of a THP cannot fail.
 * Zapping a PMD leaf frees one deposited table; fork deposits one for the
 * child's copy.  Deposited tables count as page tables (PageTables).
 *
 * The huge zero folio (Linux's huge_zero_folio): with use_zero_page = 1 a
 * read fault maps it read-only by a PMD leaf, which no rmap counts.  It is
 * allocated on first use and refcounted as Linux's: one reference per mm
 * that ever mapped it (MMF_HUGE_ZERO_PAGE), dropped at teardown; foliOS
 * frees it with the last (Linux leaves that to a shrinker), so no test
 * sees it as a leak.  A write to it splits the PMD into 512 zero-page PTEs
 * and copies one 4 KiB page (Linux 6.1's do_huge_pmd_wp_page; newer
 * Linux allocates a THP there, do_huge_zero_wp_pmd).
 *
 * Locks: a PMD entry changes under pmd_lock (the PMD table's split lock);
 * the deposited tables are mm's list, under mm->page_table_lock.  Order:
 * mm/rmap.c.
 */
#include "linux/swap.h"
#include "linux/errno.h"
#include "linux/pagemap.h"
#include "mm/internal.h"
#include "mm/tlb.h"
#include "linux/rmap.h"
#include "linux/swapops.h"
#include "linux/huge_mm.h"
#include "mm/rmap_trace.h"
#include "linux/printk.h"
#include "linux/vmstat.h"
#include "linux/spinlock.h"

/* Keep table for a later split of the PMD leaf just made in mm (it counts in mm's page tables). */
void pgtable_trans_huge_deposit(struct mm_struct *mm, pte_t *table)
{
	mm_add_pgtables(mm, 1);
	spin_lock(&mm->page_table_lock);
	list_add(&virt_to_page(table)->lru, &mm->pgtables_deposited);
	spin_unlock(&mm->page_table_lock);
}

static pte_t *pgtable_trans_huge_withdraw(struct mm_struct *mm)
{
	struct page *page;

	spin_lock(&mm->page_table_lock);
	if (list_empty(&mm->pgtables_deposited))
		panic("pgtable_trans_huge_withdraw: a PMD leaf without a deposited table");
	page = list_first_entry(&mm->pgtables_deposited, struct page, lru);
	list_del(&page->lru);
	spin_unlock(&mm->page_table_lock);
	mm_add_pgtables(mm, -1);
	page->lru.next = page->lru.prev = NULL;
	return page_address(page);
}

/* At teardown, after every PMD leaf was zapped: nothing may be left. */
void mm_free_deposited_tables(struct mm_struct *mm)
{
	VM_WARN_ON_ONCE(!list_empty(&mm->pgtables_deposited),
			"deposited page tables outlive their PMD leaves");
	while (!list_empty(&mm->pgtables_deposited))
		pte_free(pgtable_trans_huge_withdraw(mm));
}

unsigned long huge_zero_pfn = ~0UL;
static struct folio *huge_zero_folio;
static int huge_zero_refcount;          /* mms with MMF_HUGE_ZERO_PAGE */
static spinlock_t huge_zero_lock = SPINLOCK_INIT("huge_zero");

/* Boot-time setup: no huge zero folio yet. */
void huge_zero_init(void)
{
	huge_zero_folio = NULL;
	huge_zero_refcount = 0;
	WRITE_ONCE(huge_zero_pfn, ~0UL);
}

/*
 * The huge zero folio for mm, allocated zeroed on first use; mm holds a
 * reference from now until mm_put_huge_zero_folio() (Linux's
 * mm_get_huge_zero_folio).  NULL if no 2 MiB block is free.
 */
static struct folio *mm_get_huge_zero_folio(struct mm_struct *mm)
{
	struct folio *folio = NULL;
	unsigned long flags;

	if (test_bit(MMF_HUGE_ZERO_PAGE, &mm->flags))
		return huge_zero_folio;
	if (!READ_ONCE(huge_zero_folio))
		folio = folio_alloc(GFP_TRANSHUGE_LIGHT | __GFP_ZERO, HPAGE_PMD_ORDER);
	spin_lock_irqsave(&huge_zero_lock, flags);
	if (!huge_zero_folio && folio) {
		huge_zero_folio = folio;
		WRITE_ONCE(huge_zero_pfn, folio_pfn(folio));
		folio = NULL;
	}
	if (huge_zero_folio && !test_bit(MMF_HUGE_ZERO_PAGE, &mm->flags)) {
		huge_zero_refcount++;   /* once per mm: two of its threads may both get here */
		set_bit(MMF_HUGE_ZERO_PAGE, &mm->flags);
	}
	spin_unlock_irqrestore(&huge_zero_lock, flags);
	if (folio)
		folio_put(folio);       /* lost a race: another CPU allocated it */
	return test_bit(MMF_HUGE_ZERO_PAGE, &mm->flags) ? huge_zero_folio : NULL;
}

/*
 * mm is torn down, nothing of it maps the huge zero folio any more: drop
 * its reference (Linux's mm_put_huge_zero_folio); the last frees it.
 */
void mm_put_huge_zero_folio(struct mm_struct *mm)
{
	struct folio *folio = NULL;
	unsigned long flags;

	if (!test_bit(MMF_HUGE_ZERO_PAGE, &mm->flags))
		return;
	spin_lock_irqsave(&huge_zero_lock, flags);
	clear_bit(MMF_HUGE_ZERO_PAGE, &mm->flags);
	if (!--huge_zero_refcount) {
		folio = huge_zero_folio;
		huge_zero_folio = NULL;
		WRITE_ONCE(huge_zero_pfn, ~0UL);
	}
	spin_unlock_irqrestore(&huge_zero_lock, flags);
	if (folio)
		folio_put(folio);
}

/*
 * Map the huge zero folio at haddr read-only by a PMD leaf, with table
 * deposited for its split (Linux's set_huge_zero_folio): no rmap, no RSS.
 * Under pmd_lock.
 */
static void set_huge_zero_folio(pte_t *table, struct mm_struct *mm, struct vm_area_struct *vma,
				unsigned long haddr, pmd_t *pmd, struct folio *zero_folio)
{
	lockdep_assert_held(pmd_lockptr(mm, pmd));
	set_pmd_at(mm, haddr, pmd, pfn_pmd_huge(folio_pfn(zero_folio), vma_pgprot(vma, false)));
	pgtable_trans_huge_deposit(mm, table);
}

/*
 * The folio a 2 MiB anon fault maps: the huge zero folio for a read if
 * use_zero_page is set, else a new zeroed PMD-order folio (*new set).
 * NULL when no 2 MiB block is free.
 */
static struct folio *huge_anon_fault_folio(struct mm_struct *mm, unsigned int flags, bool *new)
{
	struct folio *folio;

	*new = (flags & FAULT_FLAG_WRITE) || !READ_ONCE(thp_use_zero_page);
	if (!*new)
		return mm_get_huge_zero_folio(mm);
	folio = folio_alloc(GFP_TRANSHUGE_LIGHT | __GFP_ZERO, HPAGE_PMD_ORDER);
	count_mthp_stat(HPAGE_PMD_ORDER, folio ? MTHP_STAT_ANON_FAULT_ALLOC :
						 MTHP_STAT_ANON_FAULT_FALLBACK);
	return folio;
}

/*
 * An anon fault at address where the PMD entry is none and a 2 MiB or
 * 4 MiB folio is allowed (the caller checked; 4 MiB is tried first): a read (flags without FAULT_FLAG_WRITE)
 * maps the huge zero folio if use_zero_page is set; otherwise allocate a
 * zeroed PMD-order folio and map it with one PMD leaf.  The folio and the
 * table to deposit are allocated unlocked; under pmd_lock the PMD must
 * still be none, else they go back and the access is retried (0).  0, or
 * VM_FAULT_FALLBACK when no 2 MiB block (or no table to deposit) is free:
 * the PTE path takes over.
 */
vm_fault_t do_huge_pmd_anonymous_page(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct mm_struct *mm = vma->vm_mm;
	unsigned long haddr = vmf->address & PMD_MASK;
	pmd_t *pmd = vmf->pmd;
	struct folio *folio;
	spinlock_t *ptl;
	pte_t *table;
	bool new;

	if (!thp_vma_suitable_order(vma, haddr, HPAGE_PMD_ORDER) || !pmd_none(*pmd))
		return VM_FAULT_FALLBACK;
	if (((vmf->flags & FAULT_FLAG_WRITE) || !READ_ONCE(thp_use_zero_page)) &&
	    thp_multi_pmd_allowed(vma, vmf->address, pmd) &&
	    do_huge_anonymous_multi_pmd(vmf) != VM_FAULT_FALLBACK)
		return 0;
	if (!thp_vma_allowable_order(vma, HPAGE_PMD_ORDER))
		return VM_FAULT_FALLBACK;       /* only 4 MiB was allowed, and did not fit */
	table = pte_alloc_one();
	if (!table)
		return VM_FAULT_FALLBACK;
	folio = huge_anon_fault_folio(mm, vmf->flags, &new);
	if (!folio) {
		pte_free(table);
		return VM_FAULT_FALLBACK;
	}
	ptl = pmd_lock(mm, pmd);
	if (unlikely(!pmd_none(*pmd))) {
		spin_unlock(ptl);
		pte_free(table);
		if (new)
			folio_put(folio);
		return 0;
	}
	if (!new) {
		set_huge_zero_folio(table, mm, vma, haddr, pmd, folio);
		spin_unlock(ptl);
		return 0;
	}
	folio_add_new_anon_rmap(folio, vma, haddr, RMAP_EXCLUSIVE);
	folio_add_lru(folio);
	set_pmd_at(mm, haddr, pmd,
		   pmd_mksoft_dirty(pfn_pmd_huge(folio_pfn(folio), vm_get_page_prot(vma))));
	pgtable_trans_huge_deposit(mm, table);
	add_mm_counter(mm, HPAGE_PMD_NR);
	spin_unlock(ptl);
	return 0;
}

/*
 * A write to a read-only PMD leaf of a writable mapping (Linux's
 * do_huge_pmd_wp_page; docs/large-folio-series.md), under pmd_lock: reuse the
 * PMD's pages if they are ours alone — the PMD's first page
 * PageAnonExclusive, or refcount 1 (only this PMD maps the folio) checked
 * under the folio lock, or (CONFIG_MAPCOUNT_PAGES: a 4 MiB folio has two
 * PMDs) every mapping and reference this mm's by the MM owner slots — else split
 * the PMD and return VM_FAULT_FALLBACK so the PTE path retries, copying
 * one 4 KiB page or reusing through the MM owner slots.  A folio locked
 * elsewhere is not waited for (a spinlock is held): the PMD is split.
 * The huge zero folio is never reused: its PMD is split into zero-page
 * PTEs, and the PTE path copies one page (Linux 6.1).
 */
vm_fault_t do_huge_pmd_wp_page(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	unsigned long haddr = vmf->address & PMD_MASK;
	pmd_t *pmd = vmf->pmd;
	struct page *page = pfn_to_page(pmd_pfn(*pmd));
	struct folio *folio = page_folio(page);

	lockdep_assert_held(pmd_lockptr(vma->vm_mm, pmd));
	if (is_huge_zero_pmd(*pmd))
		goto fallback;
	if (!PageAnonExclusive(page)) {
		if (!folio_trylock(folio))
			goto fallback;
		if (folio_ref_count(folio) == 1) {
			folio_move_anon_rmap(folio, vma);
		} else if (!IS_ENABLED(CONFIG_MAPCOUNT_PAGES) ||
			   !wp_can_reuse_large_anon_folio(folio, vma)) {
			folio_unlock(folio);
			goto fallback;
		}
		SetPageAnonExclusive(page);
		folio_unlock(folio);
		rmap_trace_event(folio, RMAP_TRACE_REUSE, HPAGE_PMD_NR, vma);
	}
	pmdp_set_access_flags(vma, haddr, pmd, pmd_mkdirty(pmd_mkwrite(*pmd)));
	flush_pmd_tlb_range(vma, haddr, haddr + HPAGE_PMD_SIZE);
	return 0;
fallback:
	__split_huge_pmd_locked(vma, pmd, vmf->address);
	return VM_FAULT_FALLBACK;
}

/*
 * The rmap half of splitting a PMD into 512 PTEs (Linux's
 * __split_huge_pmd_locked for anon folios): the PMD maps the 512 pages of
 * folio from page; each PTE will hold a folio reference; the 512 PTE
 * mappings are added (exclusive if the PMD was) and then the PMD mapping
 * is removed.  Net: refcount +511, this mm's slot and the large mapcount
 * +511, entire mapcount -1 (the total of mapped pages stays).  The caller
 * replaces the PMD entry by a table of PTEs.
 */
void folio_remap_pmd_as_ptes(struct folio *folio, struct page *page, struct vm_area_struct *vma,
			     unsigned long haddr)
{
	const bool anon_exclusive = PageAnonExclusive(page);

	VM_WARN_ON_ONCE(!folio_test_pmd_mappable(folio), "PMD split of a small folio");
	folio_ref_add(folio, HPAGE_PMD_NR - 1);
	folio_add_anon_rmap_ptes(folio, page, HPAGE_PMD_NR, vma, haddr,
				 anon_exclusive ? RMAP_EXCLUSIVE : RMAP_NONE);
	folio_remove_rmap_pmd(folio, page, vma);
}

/*
 * Unmap a PMD leaf of a page-cache folio (Linux's zap_huge_pmd and
 * __split_huge_pmd_locked for a file VMA): a write through it dirtied the
 * folio; RssFile or RssShmem falls.  A file PMD has no deposited table.
 * The page-table pages stay (the caller may be walking them).
 */
static void zap_file_pmd(struct vm_area_struct *vma, pmd_t *pmd, unsigned long haddr)
{
	struct mm_struct *mm = vma->vm_mm;
	pmd_t old = pmdp_huge_get_and_clear(mm, haddr, pmd);
	struct page *page = pfn_to_page(pmd_pfn(old));
	struct folio *folio = page_folio(page);

	flush_pmd_tlb_range(vma, haddr, haddr + HPAGE_PMD_SIZE);
	if (pmd_dirty(old))
		folio_mark_dirty(folio);
	add_mm_counter_file(mm, folio, -(long)HPAGE_PMD_NR);
	folio_remove_rmap_pmd(folio, page, vma);
	folio_put(folio);
}

/*
 * A PMD migration entry becomes the deposited PTE table with 512 PTE
 * migration entries, one per page, alike in type and bits (Linux's
 * __split_huge_pmd_locked for a migration entry): no rmap or reference
 * changes (the entry holds neither), no flush (nothing was present).
 */
static void split_pmd_migration_entry(struct mm_struct *mm, pmd_t *pmd, unsigned long haddr)
{
	pte_t *table = pgtable_trans_huge_withdraw(mm);

	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++)
		set_pte_at(mm, haddr + i * PAGE_SIZE, table + i, pmd_migration_entry_page(*pmd, i));
	pmd_populate(mm, pmd, table);
}

/*
 * Replace the PMD leaf *pmd (mapping address) by the deposited PTE table
 * with 512 PTEs to the same pages, same permissions; the folio's rmap moves
 * from one PMD mapping to 512 PTE mappings (folio_remap_pmd_as_ptes).  The
 * folio itself stays whole: only deferred split may split it later.  The
 * huge zero folio's PMD becomes 512 PTEs of the 4 KiB zero page, no rmap
 * (Linux's __split_huge_zero_page_pmd).  A file VMA's PMD is zapped
 * instead, leaving *pmd none: its pages refault, by PTEs where the fault
 * cannot map the PMD again (Linux's rule for !vma_is_anonymous).
 * Under pmd_lock (Linux's __split_huge_pmd_locked): the leaf is made not
 * present and flushed first (pmdp_invalidate), so no CPU writes through it
 * while the PTEs are filled, then the table goes in (pmd_populate).  A
 * PMD migration entry becomes 512 PTE migration entries.
 */
void __split_huge_pmd_locked(struct vm_area_struct *vma, pmd_t *pmd, unsigned long address)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long haddr = address & PMD_MASK;
	pmd_t old;
	pte_t *table;

	lockdep_assert_held(pmd_lockptr(mm, pmd));
	if (is_pmd_migration_entry(*pmd)) {
		split_pmd_migration_entry(mm, pmd, haddr);
		return;
	}
	VM_WARN_ON_ONCE(!pmd_trans_huge(*pmd), "__split_huge_pmd: not a PMD leaf");
	if (!vma_is_anonymous(vma)) {
		zap_file_pmd(vma, pmd, haddr);
		return;
	}
	table = pgtable_trans_huge_withdraw(mm);
	old = pmdp_invalidate(mm, haddr, pmd);
	if (is_huge_zero_pmd(old)) {
		pte_t zero = pte_mkspecial(pfn_pte(my_zero_pfn(haddr), vma_pgprot(vma, false)));

		for (unsigned long i = 0; i < HPAGE_PMD_NR; i++)
			set_pte_at(mm, haddr + i * PAGE_SIZE, table + i, zero);
	} else {
		set_ptes(mm, haddr, table, pmd_pte(old), HPAGE_PMD_NR);
		struct page *page = pfn_to_page(pmd_pfn(old));

		folio_remap_pmd_as_ptes(page_folio(page), page, vma, haddr);
	}
	pmd_populate(mm, pmd, table);
}

/*
 * Split the PMD leaf or PMD migration entry *pmd, if it still is one,
 * under pmd_lock (Linux's __split_huge_pmd).
 */
void __split_huge_pmd(struct vm_area_struct *vma, pmd_t *pmd, unsigned long address)
{
	spinlock_t *ptl = pmd_lock(vma->vm_mm, pmd);

	if (pmd_trans_huge(*pmd) || is_pmd_migration_entry(*pmd))
		__split_huge_pmd_locked(vma, pmd, address);
	spin_unlock(ptl);
}

/*
 * A VMA is about to be split at address: a PMD leaf that straddles it
 * is split into PTEs first, so no leaf belongs to two VMAs (Linux's
 * vma_adjust_trans_huge).
 */
void split_huge_pmd_address(struct vm_area_struct *vma, unsigned long address)
{
	pmd_t *pmd;

	if (IS_ALIGNED(address, PMD_SIZE))
		return;
	pmd = mm_find_pmd(vma->vm_mm, address);
	if (pmd && (pmd_trans_huge(pmdp_get(pmd)) || is_swap_pmd(pmdp_get(pmd))))
		__split_huge_pmd(vma, pmd, address);
}

/*
 * Unmap a whole PMD leaf (munmap, exit, MADV_DONTNEED of all 2 MiB of it),
 * the anon folio's reference gathered in tlb to drop after the flush;
 * the huge zero folio's only loses the deposited table, a page-cache
 * folio's has none (zap_file_pmd).  False if *pmd is no leaf any more
 * under pmd_lock (an rmap walker of another process split it: Linux's
 * pmd_trans_huge_lock): then the caller zaps its PTEs.
 */
bool zap_huge_pmd(struct mmu_gather *tlb, struct vm_area_struct *vma, pmd_t *pmd,
		  unsigned long addr)
{
	struct mm_struct *mm = vma->vm_mm;
	spinlock_t *ptl = pmd_lock(mm, pmd);
	pmd_t old = *pmd;
	struct page *page = pfn_to_page(pmd_pfn(old));
	struct folio *folio = page_folio(page);

	addr &= PMD_MASK;
	if (!pmd_trans_huge(old)) {
		spin_unlock(ptl);
		return false;
	}
	if (!is_huge_zero_pmd(old) && !folio_test_anon(folio)) {
		zap_file_pmd(vma, pmd, addr);
		spin_unlock(ptl);
		tlb_free_empty_tables(tlb, vma, addr, PT_PMD);
		return true;
	}
	pmdp_huge_get_and_clear(mm, addr, pmd);
	spin_unlock(ptl);
	tlb_flush_pmd_range(tlb, addr, HPAGE_PMD_SIZE);
	tlb_free_empty_tables(tlb, vma, addr, PT_PMD);
	pte_free(pgtable_trans_huge_withdraw(mm));      /* never hooked in: no CPU walks it */
	if (is_huge_zero_pmd(old))
		return true;
	folio_remove_rmap_pmd(folio, page, vma);
	tlb_remove_folio(tlb, folio);
	add_mm_counter(mm, -(long)HPAGE_PMD_NR);
	return true;
}

/*
 * copy_huge_pmd() under both PMD locks, table allocated: 0 with table
 * deposited in the child, or -EAGAIN (the parent's PMD split, or no leaf
 * by now) with table still the caller's.
 */
static int copy_huge_pmd_locked(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma,
				pmd_t *dst_pmd, pmd_t *src_pmd, unsigned long addr, pte_t *table)
{
	struct mm_struct *dst_mm = dst_vma->vm_mm;
	pmd_t pmd = pmd_wrprotect(*src_pmd);
	struct page *page;
	struct folio *folio;

	lockdep_assert_held(pmd_lockptr(dst_mm, dst_pmd));
	lockdep_assert_held(pmd_lockptr(src_vma->vm_mm, src_pmd));
	if (!pmd_trans_huge(pmd) || !pmd_present(pmd))
		return -EAGAIN;
	if (is_huge_zero_pmd(pmd)) {            /* the child maps it too, as it is */
		mm_get_huge_zero_folio(dst_mm);
		set_pmd_at(dst_mm, addr, dst_pmd, pmd);
		pgtable_trans_huge_deposit(dst_mm, table);
		return 0;
	}
	page = pfn_to_page(pmd_pfn(pmd));
	folio = page_folio(page);
	folio_get(folio);
	if (folio_try_dup_anon_rmap_pmd(folio, page, dst_vma, src_vma)) {
		folio_put(folio);
		__split_huge_pmd_locked(src_vma, src_pmd, addr);
		return -EAGAIN;
	}
	set_pmd_at(dst_mm, addr, dst_pmd, pmd);
	pmdp_set_wrprotect(src_vma->vm_mm, addr, src_pmd);     /* dup_mm() flushes the TLB once */
	pgtable_trans_huge_deposit(dst_mm, table);
	add_mm_counter(dst_mm, HPAGE_PMD_NR);
	return 0;
}

/*
 * fork: the child maps the parent's PMD leaf at addr too, write-protected
 * in both (Linux's copy_huge_pmd), with a table deposited for the child —
 * but a file VMA's PMD is not copied: the child refaults it;
 * the huge zero folio's leaf is copied as it is, the child taking its own
 * reference to the folio (it exists, so that cannot fail).
 * 0, -ENOMEM, or -EAGAIN: the THP may be pinned, so the parent's PMD was
 * split and the caller copies the PTEs (a maybe-pinned page is copied).
 * Everything that can fail is allocated before the dup: once
 * folio_try_dup_anon_rmap_pmd() has ended the page's exclusivity, the
 * parent's PMD must become read-only, so there is no way back.  The
 * reference is taken before the mapcount rises, as Linux does: the COW
 * reuse check relies on refcount >= mapcount at all times.
 */
int copy_huge_pmd(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma,
		  pmd_t *src_pmd, unsigned long addr)
{
	struct mm_struct *dst_mm = dst_vma->vm_mm;
	spinlock_t *dst_ptl, *src_ptl;
	pmd_t *dst_pmd;
	pte_t *table;
	int ret;

	if (!vma_is_anonymous(dst_vma))
		return 0;
	table = pte_alloc_one();
	if (!table)
		return -ENOMEM;
	dst_pmd = mm_alloc_pmd(dst_mm, addr);
	if (!dst_pmd) {
		pte_free(table);
		return -ENOMEM;
	}
	dst_ptl = pmd_lock(dst_mm, dst_pmd);
	src_ptl = pmd_lockptr(src_vma->vm_mm, src_pmd);
	spin_lock_nested(src_ptl, SINGLE_DEPTH_NESTING);        /* the child's first, as Linux */
	ret = copy_huge_pmd_locked(dst_vma, src_vma, dst_pmd, src_pmd, addr, table);
	spin_unlock(src_ptl);
	spin_unlock(dst_ptl);
	if (ret)
		pte_free(table);
	return ret;
}

/*
 * mprotect of a whole PMD leaf: new permissions, writable only if the THP
 * is exclusive to this mm (else it waits for its write fault); the huge
 * zero folio's leaf stays read-only.  False if it is no leaf any more
 * (zap_huge_pmd()): the caller changes its PTEs.  The new leaf is built
 * from the one pmdp_invalidate_ad() took out, so the A/D bits stay.
 */
bool change_huge_pmd(struct vm_area_struct *vma, pmd_t *pmd, unsigned long addr)
{
	spinlock_t *ptl = pmd_lock(vma->vm_mm, pmd);
	struct page *page = pfn_to_page(pmd_pfn(*pmd));
	bool write;
	pmd_t old;

	if (!pmd_trans_huge(*pmd)) {        /* split meanwhile, as zap_huge_pmd() says */
		spin_unlock(ptl);
		return false;
	}
	old = pmdp_invalidate_ad(vma->vm_mm, addr, pmd);
	write = !is_huge_zero_pmd(old) && can_change_pmd_writable(vma, old, page);
	set_pmd_at(vma->vm_mm, addr, pmd, pmd_modify(old, vma_pgprot(vma, write)));
	flush_pmd_tlb_range(vma, addr, addr + HPAGE_PMD_SIZE);
	spin_unlock(ptl);
	return true;
}
