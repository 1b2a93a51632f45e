/*
 * Anon folios larger than a PMD (CONFIG_MAPCOUNT_PAGES only): a 4 MiB
 * folio mapped by the two PMD leaves of its naturally aligned range, the
 * RFC's "arbitrary folio mappings".  Its rmap counts 2 mappings and 1 024
 * pages; each PMD holds a folio reference and has its own deposited
 * table, so everything that meets one PMD leaf (zap, fork, mprotect, PMD
 * split, the write fault in mm/huge_memory.c) treats it as it treats a
 * 2 MiB THP's: the PMD's first page stands for its 512.
 *
 *   4 MiB aligned:  PMD[2k]   -> pages    0..511  \  one folio, order 10
 *                   PMD[2k+1] -> pages  512..1023 /   LM 2, TMP 1024, ref 2
 *
 * Locks: both entries are in one PMD table, under its pmd_lock.  Order:
 * mm/rmap.c.
 */
#include "linux/swap.h"
#include "mm/internal.h"
#include "linux/rmap.h"
#include "linux/huge_mm.h"
#include "linux/vmstat.h"

/*
 * With CONFIG_MAPCOUNT_PAGES, a fault may map a 4 MiB folio by the two PMD
 * entries of its naturally aligned range (one PMD table holds both): if
 * the size is enabled for vma, the range lies in vma and both entries are
 * none.  pmd is the entry of address.
 */
bool thp_multi_pmd_allowed(struct vm_area_struct *vma, unsigned long address, pmd_t *pmd)
{
	const unsigned int order = THP_MAX_ANON_ORDER;
	pmd_t *first = pmd - ((address >> PMD_SHIFT) & ((1UL << (order - HPAGE_PMD_ORDER)) - 1));

	if (order == HPAGE_PMD_ORDER || !thp_vma_allowable_order(vma, order) ||
	    !thp_vma_suitable_order(vma, address, order))
		return false;
	for (int i = 0; i < 1 << (order - HPAGE_PMD_ORDER); i++)
		if (!pmd_none(pmdp_get(&first[i])))
			return false;
	return true;
}

/*
 * The multi-PMD anon fault (the RFC's "arbitrary folio mappings"): a new
 * zeroed 4 MiB folio, one PMD leaf per 2 MiB of it, each with its own
 * reference and deposited table; the rmap counts 2 mappings, 1 024 pages.
 * As do_huge_pmd_anonymous_page(): 0 (also when another CPU filled an
 * entry first: retry), or VM_FAULT_FALLBACK when no block or table is free.
 */
vm_fault_t do_huge_anonymous_multi_pmd(struct vm_fault *vmf)
{
	const unsigned int order = THP_MAX_ANON_ORDER, nr_pmds = 1U << (order - HPAGE_PMD_ORDER);
	struct vm_area_struct *vma = vmf->vma;
	unsigned long haddr = vmf->address & ~((PAGE_SIZE << order) - 1);
	pmd_t *pmd = vmf->pmd, *first = pmd - ((vmf->address - haddr) >> PMD_SHIFT);
	struct mm_struct *mm = vma->vm_mm;
	pte_t *tables[1U << (THP_MAX_ANON_ORDER - HPAGE_PMD_ORDER)] = { NULL };
	struct folio *folio = folio_alloc(GFP_TRANSHUGE_LIGHT | __GFP_ZERO, order);
	vm_fault_t ret = VM_FAULT_FALLBACK;
	spinlock_t *ptl;
	unsigned int i;

	count_mthp_stat(order, folio ? MTHP_STAT_ANON_FAULT_ALLOC : MTHP_STAT_ANON_FAULT_FALLBACK);
	if (!folio)
		return VM_FAULT_FALLBACK;
	for (i = 0; i < nr_pmds; i++)
		if (!(tables[i] = pte_alloc_one()))
			goto out;
	ptl = pmd_lock(mm, pmd);
	for (i = 0; i < nr_pmds; i++)
		if (!pmd_none(first[i]))
			break;
	ret = 0;
	if (i < nr_pmds) {
		spin_unlock(ptl);
		goto out;
	}
	folio_add_new_anon_rmap(folio, vma, haddr, RMAP_EXCLUSIVE);
	folio_add_lru(folio);
	folio_ref_add(folio, nr_pmds - 1);
	for (i = 0; i < nr_pmds; i++) {
		set_pmd_at(mm, haddr + i * PMD_SIZE, first + i,
			   pmd_mksoft_dirty(pfn_pmd_huge(folio_pfn(folio) + i * HPAGE_PMD_NR,
							    vm_get_page_prot(vma))));
		pgtable_trans_huge_deposit(mm, tables[i]);
		tables[i] = NULL;
	}
	add_mm_counter(mm, folio_nr_pages(folio));
	spin_unlock(ptl);
	folio = NULL;
out:
	for (i = 0; i < nr_pmds; i++)
		if (tables[i])
			pte_free(tables[i]);
	if (folio)
		folio_put(folio);
	return ret;
}
