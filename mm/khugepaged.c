/*
 * MADV_COLLAPSE of private anon memory (Linux's mm/khugepaged.c:
 * madvise_collapse, hpage_collapse_scan_pmd, collapse_huge_page), done
 * synchronously in the caller; foliOS has no khugepaged thread (yet).
 *
 * Each 2 MiB-aligned range inside the advised part of the VMA is scanned;
 * if its PTEs map small or mTHP anon folios (none and zero-page PTEs are
 * fine, so are pages shared with other mms: MADV_COLLAPSE ignores
 * max_ptes_none and max_ptes_shared, as Linux) and one of them is
 * writable, a new 2 MiB folio gets a copy of every page (zeroes for none
 * and zero-page PTEs), the old folios lose these mappings (a partially
 * unmapped mTHP goes to the deferred split queue), and one PMD leaf maps
 * the new folio; the emptied PTE table becomes its deposited table.
 *
 *   PTE table: [4K][64K mTHP....][none][zero]...   ==>   PMD leaf -> 2 MiB folio
 *
 * A range already mapped by a PMD counts as collapsed.  The sysfs
 * "enabled" knobs do not matter (Linux's TVA_ENFORCE_SYSFS is off), only
 * MADV_NOHUGEPAGE.  Errors as Linux's madvise_collapse_errno().
 *
 * Lock order: see mm/rmap.c; the caller holds the mmap_lock for write
 * (linux/mm.h), each range is collapsed under the anon_vma's lock.
 */
#include "linux/errno.h"
#include "mm/internal.h"
#include "linux/rmap.h"
#include "linux/huge_mm.h"
#include "linux/swap.h"
#include "linux/swapops.h"
#include "linux/string.h"
#include "linux/mmap_lock.h"

/* Linux's scan results, the ones an anon MADV_COLLAPSE can give here. */
enum scan_result {
	SCAN_FAIL,
	SCAN_SUCCEED,
	SCAN_PMD_NULL,
	SCAN_PMD_MAPPED,
	SCAN_PAGE_RO,
	SCAN_PAGE_NULL,
	SCAN_PAGE_COUNT,
	SCAN_PAGE_ANON,
	SCAN_ALLOC_HUGE_PAGE_FAIL,
	SCAN_EXCEED_SWAP_PTE,   /* a swap entry in the range */
};

/*
 * May MADV_COLLAPSE make THPs in vma (Linux's hugepage_vma_check with
 * enforce_sysfs off)?  Not with MADV_NOHUGEPAGE, not in a file's VMA
 * (Linux's collapse_file is not here), and only if some 2 MiB-aligned
 * range fits inside it.
 */
static bool hugepage_vma_check(const struct vm_area_struct *vma)
{
	unsigned long haddr = (vma->vm_end - HPAGE_PMD_SIZE) & PMD_MASK;

	if (vma_thp_disabled(vma) || !vma_is_anonymous(vma))
		return false;
	return vma->vm_end - vma->vm_start >= HPAGE_PMD_SIZE && haddr >= vma->vm_start;
}

/*
 * Are all references to folio its mappings and the swap cache's (Linux's
 * is_refcount_suitable)?  Every mapping holds one, the swap cache one per
 * page; anything more is a pin or a walker's.
 */
static bool is_refcount_suitable(struct folio *folio)
{
	return folio_ref_count(folio) ==
	       folio_mapcount(folio) + (folio_test_swapcache(folio) ? folio_nr_pages(folio) : 0);
}

/*
 * Copy the pages the PTE table maps at haddr into new (zeroes for none and
 * zero-page PTEs), clear every PTE and drop the old mappings: rmap, the
 * PTEs' references, RSS; the table ends empty (Linux's
 * __collapse_huge_page_copy).  Returns the pages of folios it unmapped.
 */
static long __collapse_huge_page_copy(pte_t *table, struct folio *new,
				      struct vm_area_struct *vma, unsigned long haddr)
{
	long used = 0, rss = 0;
	int nr;

	for (int i = 0; i < (int)HPAGE_PMD_NR; i += nr) {
		pte_t pte = table[i];
		struct page *page = pte_present(pte) ?
				    vm_normal_page(vma, haddr + i * PAGE_SIZE, pte) : NULL;
		struct folio *folio;

		nr = 1;
		used += !pte_none(pte);
		if (!page) {
			memset(page_address(folio_page(new, i)), 0, PAGE_SIZE);
			__clear_ptes(&table[i], 1);
			continue;
		}
		folio = page_folio(page);
		nr = folio_pte_batch(folio, &table[i], HPAGE_PMD_NR - i);
		memcpy(page_address(folio_page(new, i)), page_address(page), nr * PAGE_SIZE);
		__clear_ptes(&table[i], nr);
		folio_remove_rmap_ptes(folio, page, nr, vma);
		free_swap_cache(folio);         /* a page swapped in for the collapse */
		folio_put_refs(folio, nr);
		used += nr - 1;
		rss += nr;
	}
	pte_table_add_used(table, -used);
	return rss;
}

/*
 * Replace the PTE table under *pmd (at haddr) by one PMD leaf mapping a
 * new 2 MiB folio with the same contents (Linux's collapse_huge_page);
 * the table is kept as the leaf's deposited one.  SCAN_SUCCEED or
 * SCAN_ALLOC_HUGE_PAGE_FAIL.
 */
static int collapse_huge_page(struct vm_area_struct *vma, unsigned long haddr, pmd_t *pmd)
{
	struct mm_struct *mm = vma->vm_mm;
	struct folio *new = folio_alloc(GFP_TRANSHUGE_LIGHT, HPAGE_PMD_ORDER);
	pte_t *table;
	long rss;

	/*
	 * No PTL is taken: the mmap_lock for write keeps faults, GUP and /proc
	 * out, the anon_vma lock rmap walkers (a writable PTE was seen: an
	 * anon folio, so there is an anon_vma).
	 */
	lockdep_assert_held_write(&vma->anon_vma->root->rwsem);
	if (!new)
		return SCAN_ALLOC_HUGE_PAGE_FAIL;
	table = pte_offset_kernel(pmd, haddr);
	/* Linux's pmdp_collapse_flush: no CPU may use the old PTEs once their pages go. */
	pmdp_huge_get_and_clear(mm, haddr, pmd);
	mm_add_pgtables(mm, -1);        /* unhooked here; the deposit below counts it again */
	flush_tlb_range(vma, haddr, haddr + HPAGE_PMD_SIZE);
	rss = __collapse_huge_page_copy(table, new, vma, haddr);
	folio_add_new_anon_rmap(new, vma, haddr, RMAP_EXCLUSIVE);
	folio_add_lru(new);
	set_pmd_at(mm, haddr, pmd, pfn_pmd_huge(folio_pfn(new), vm_get_page_prot(vma)));
	pgtable_trans_huge_deposit(mm, table);
	add_mm_counter(mm, (long)HPAGE_PMD_NR - rss);
	return SCAN_SUCCEED;
}

/*
 * Scan the 2 MiB range at haddr of vma and collapse it if it qualifies
 * (Linux's hpage_collapse_scan_pmd for MADV_COLLAPSE: no limit on none,
 * zero-page or shared PTEs; every mapped page anon with no reference
 * beyond its mappings; at least one PTE writable).  A scan_result.
 */
static int hpage_collapse_scan_pmd(struct vm_area_struct *vma, unsigned long haddr)
{
	pmd_t *pmd = mm_find_pmd(vma->vm_mm, haddr);
	bool writable = false;
	pte_t *pte;

	if (!pmd || !pmd_present(*pmd))
		return SCAN_PMD_NULL;
	if (pmd_trans_huge(*pmd))
		return SCAN_PMD_MAPPED;
	pte = pte_offset_kernel(pmd, haddr);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
		struct page *page;
		struct folio *folio;

		if (is_swap_pte(pte[i])) {
			VM_WARN_ON_ONCE(non_swap_entry(pte_to_swp_entry(pte[i])),
					"khugepaged: a migration entry under the anon_vma lock");
			return SCAN_EXCEED_SWAP_PTE;    /* swapped out again since the swap-in */
		}
		if (!pte_present(pte[i]) || pte_special(pte[i]))
			continue;               /* none or the zero page */
		writable |= pte_write(pte[i]);
		page = vm_normal_page(vma, haddr + i * PAGE_SIZE, pte[i]);
		if (!page)
			return SCAN_PAGE_NULL;
		folio = page_folio(page);
		if (!folio_test_anon(folio))
			return SCAN_PAGE_ANON;
		if (!is_refcount_suitable(folio))
			return SCAN_PAGE_COUNT;
	}
	if (!writable)
		return SCAN_PAGE_RO;
	return collapse_huge_page(vma, haddr, pmd);
}

/*
 * Bring back the swapped-out pages of the 2 MiB range at haddr before it
 * is scanned (Linux's __collapse_huge_page_swapin; MADV_COLLAPSE does not
 * stop at max_ptes_swap): each by the fault a read would take.  SCAN_FAIL
 * if one cannot be read, else SCAN_SUCCEED.  The mmap_lock held, no other.
 */
static int __collapse_huge_page_swapin(struct vm_area_struct *vma, unsigned long haddr)
{
	pmd_t *pmd = mm_find_pmd(vma->vm_mm, haddr);

	if (!pmd || !pmd_present(pmdp_get(pmd)) || pmd_trans_huge(pmdp_get(pmd)))
		return SCAN_SUCCEED;
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
		pte_t pte = ptep_get(pte_offset_kernel(pmd, haddr) + i);

		if (is_swap_pte(pte) && !non_swap_entry(pte_to_swp_entry(pte)) &&
		    (handle_mm_fault(vma, haddr + i * PAGE_SIZE, 0) & VM_FAULT_ERROR))
			return SCAN_FAIL;
	}
	return SCAN_SUCCEED;
}

/* Linux's madvise_collapse_errno: what the last failure tells the caller. */
static int madvise_collapse_errno(int result)
{
	switch (result) {
	case SCAN_ALLOC_HUGE_PAGE_FAIL:
		return -ENOMEM;
	case SCAN_PAGE_COUNT:
		return -EAGAIN;         /* a pin or a walker's reference: try again */
	default:
		return -EINVAL;
	}
}

/* May the walk go on to the next range after this result (Linux's whitelist)? */
static bool madvise_collapse_continue(int result)
{
	return result == SCAN_PMD_NULL || result == SCAN_PAGE_RO || result == SCAN_PAGE_NULL ||
	       result == SCAN_PAGE_COUNT;
}

/*
 * MADV_COLLAPSE of [start, end), inside vma (Linux's madvise_collapse):
 * collapse every 2 MiB-aligned range in it.  0 if each one is now
 * PMD-mapped, else the errno of the last failure (-EINVAL, -ENOMEM,
 * -EAGAIN); -EINVAL at once if vma may not have THPs.
 */
int madvise_collapse(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	unsigned long hstart = ALIGN_UP(start, HPAGE_PMD_SIZE), hend = ALIGN_DOWN(end, HPAGE_PMD_SIZE);
	unsigned long thps = 0;
	int last_fail = SCAN_FAIL;

	mmap_assert_write_locked(vma->vm_mm);   /* tables replaced in place (madvise_need_mmap_write) */
	if (!hugepage_vma_check(vma))
		return -EINVAL;
	lru_add_drain_all();    /* a batch's reference would read as a pin (is_refcount_suitable) */
	for (unsigned long addr = hstart; addr < hend; addr += HPAGE_PMD_SIZE) {
		int result = __collapse_huge_page_swapin(vma, addr);

		/* Linux's collapse holds it too: no split or migration unmaps these folios meanwhile. */
		if (result == SCAN_SUCCEED) {
			if (vma->anon_vma)
				anon_vma_lock_write(vma->anon_vma);
			result = hpage_collapse_scan_pmd(vma, addr);
			if (vma->anon_vma)
				anon_vma_unlock_write(vma->anon_vma);
		}

		if (result == SCAN_SUCCEED || result == SCAN_PMD_MAPPED) {
			thps++;
			continue;
		}
		last_fail = result;
		if (!madvise_collapse_continue(result))
			break;
	}
	return hstart >= hend || thps == (hend - hstart) >> PMD_SHIFT ? 0 :
	       madvise_collapse_errno(last_fail);
}
