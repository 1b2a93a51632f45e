/*
 * The mm side of /sys/kernel/debug/split_huge_pages (Linux's
 * split_huge_pages_pid, split_huge_pages_in_file and split_huge_pages_all
 * in mm/huge_memory.c; fs/debugfs.c parses what is written):
 *
 *   "<pid>,0x<start>,0x<end>[,<order>]"   the THPs a process maps there
 *   "<path>,0x<first>,0x<end>[,<order>]"  the large folios of a file's page
 *                                         cache at page offsets [first, end)
 *   "1"                                   every mapped anon THP, to order 0
 *
 * An anon folio is split by split_folio_to_order (mm/deferred_split.c), a
 * PMD mapping of it into PTEs first.  A page-cache folio (tmpfs, a file
 * mapping) is split by split_file_folio_to_order (mm/truncate.c), which
 * unmaps it: the pieces are faulted in again as they are touched.  A folio
 * that cannot be split now (more references, see either function) stays
 * as it is, as in Linux.
 */
#include "linux/pagemap.h"
#include "mm/deferred_split.h"
#include "linux/huge_mm.h"
#include "linux/rmap.h"
#include "linux/swapops.h"
#include "linux/pgtable.h"
#include "mm/internal.h"
#include "linux/mmap_lock.h"

/*
 * Split a page-cache folio to new_order if it is larger; one locked by
 * someone else, or no longer in a page cache — in mapping, unless that is
 * NULL (a folio found through a page table) — is left alone (Linux's
 * folio_trylock and mapping check).  The caller holds a reference; the
 * mapping is read under the folio lock, as truncation clears it under it.
 */
static void split_file_folio(struct folio *folio, struct address_space *mapping,
			     unsigned int new_order)
{
	struct address_space *cached;

	if (new_order >= (unsigned int)folio_order(folio) || folio_test_locked(folio))
		return;
	folio_lock(folio);
	cached = folio->mapping;
	if (cached && !folio_test_anon(folio) && (!mapping || cached == mapping))
		split_file_folio_to_order(folio, new_order);
	folio_unlock(folio);
}

/*
 * Split the large folio that the PTE of addr under *pmd maps, if present,
 * to new_order, if it is bigger.  Returns the address past the run of
 * PTEs from addr on (below end and this PTE table) that map the folio's
 * next pages: where the walk goes on.  A folio may be mapped in pieces
 * (mremap moves single pages), so the walk never skips what this run does
 * not map.
 */
static unsigned long split_pte_folio(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
				     unsigned long end, unsigned int new_order)
{
	unsigned long limit = MIN(end, ALIGN_DOWN(addr, PMD_SIZE) + PMD_SIZE), rest;
	struct folio *folio;
	struct page *page;
	spinlock_t *ptl;
	pte_t *pte;
	int nr;

	/* Under the PTE lock: a folio a present PTE maps is not being split (frozen). */
	pte = pte_offset_map_lock(mm, pmd, addr, &ptl);
	if (!pte)
		return limit;
	if (!pte_present(*pte) || pte_special(*pte)) {
		pte_unmap_unlock(pte, ptl);
		return addr + PAGE_SIZE;
	}
	page = pfn_to_page(pte_pfn(*pte));
	folio = page_folio(page);
	rest = folio_nr_pages(folio) - (page - &folio->page);
	nr = folio_pte_batch(folio, pte, MIN(rest, (limit - addr) >> PAGE_SHIFT));
	folio_get(folio);
	pte_unmap_unlock(pte, ptl);
	if (!folio_test_large(folio) || new_order >= (unsigned int)folio_order(folio))
		goto out;
	if (!folio_test_anon(folio)) {
		split_file_folio(folio, NULL, new_order);
		goto out;
	}
	if (folio_trylock(folio)) {
		split_queued_folio_to_list(folio, new_order, NULL);
		folio_unlock(folio);
	}
out:
	folio_put(folio);
	return addr + nr * PAGE_SIZE;
}

/*
 * The PMD leaf *pmd of vma maps a THP at addr: a page-cache one is split
 * whole here; else (anon, the huge zero page) the PMD is split into PTEs
 * and the caller's walk splits the folio.  True if it is to walk the PTEs.
 * The leaf is looked at, and a page-cache folio's reference taken, under
 * pmd_lock: a truncation in another process may zap a file PMD (holding
 * only i_mmap_rwsem and this lock) and free the folio.
 */
static bool split_pmd_folio(struct vm_area_struct *vma, pmd_t *pmd, unsigned long addr,
			    unsigned int new_order)
{
	spinlock_t *ptl = pmd_lock(vma->vm_mm, pmd);
	struct folio *folio = NULL;
	bool table = pmd_present(*pmd) && !pmd_trans_huge(*pmd);  /* split meanwhile */

	if (new_order >= HPAGE_PMD_ORDER || table || !pmd_present(*pmd)) {
		spin_unlock(ptl);
		return table;
	}
	if (!is_huge_zero_pmd(*pmd)) {
		folio = page_folio(pfn_to_page(pmd_pfn(*pmd)));
		if (folio_test_anon(folio))
			folio = NULL;
		else
			folio_get(folio);
	}
	spin_unlock(ptl);
	if (folio) {
		split_file_folio(folio, NULL, new_order);
		folio_put(folio);
		return false;
	}
	__split_huge_pmd(vma, pmd, addr);
	return true;
}

/*
 * Split the THPs mm maps in [start, end) to new_order (Linux's
 * split_huge_pages_pid): anon ones and page-cache ones alike.  The caller
 * holds mm's mmap_lock for write (Linux's read suffices: its walk takes
 * each entry's lock; this one reads a PMD leaf without).
 */
void split_huge_pages_in_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			       unsigned int new_order)
{
	mmap_assert_write_locked(mm);
	for (unsigned long addr = start; addr < end;) {
		struct vm_area_struct *vma = find_vma(mm, addr);
		pmd_t *pmd;

		if (!vma || vma->vm_start >= end)
			break;
		addr = addr > vma->vm_start ? addr : vma->vm_start;
		pmd = mm_find_pmd(mm, addr);
		if (!pmd || pmd_none(*pmd) || is_swap_pmd(*pmd) ||
		    (pmd_trans_huge(*pmd) && !split_pmd_folio(vma, pmd, addr, new_order))) {
			addr = ALIGN_DOWN(addr, PMD_SIZE) + PMD_SIZE;
			continue;
		}
		addr = split_pte_folio(mm, pmd, addr, end, new_order);
	}
}

/*
 * Split the large folios of mapping's page cache that hold pages of
 * [first, end) to new_order (Linux's split_huge_pages_in_file, which
 * looks up each index; the xarray walk skips the holes at once).
 */
void split_huge_pages_in_file(struct address_space *mapping, pgoff_t first, pgoff_t end,
			      unsigned int new_order)
{
	pgoff_t index = first;
	struct folio *folio;

	while (index < end && (folio = filemap_get_next_folio(mapping, &index, end - 1))) {
		pgoff_t next = folio->mapping == mapping ? folio->index + folio_nr_pages(folio) : index + 1;

		if (folio_test_large(folio))
			split_file_folio(folio, mapping, new_order);
		folio_put(folio);
		if (!next)
			break;
		index = next;
	}
}

/* rmap_one of split_huge_pages_all(): split the PMD leaf of vma that maps folio, if one does. */
static bool split_pmd_one(struct folio *folio, struct vm_area_struct *vma,
			  unsigned long address, void *arg)
{
	pmd_t *pmd = mm_find_pmd(vma->vm_mm, address);

	if (pmd && pmd_trans_huge(*pmd) && pmd_pfn(*pmd) == folio_pfn(folio))
		__split_huge_pmd(vma, pmd, ALIGN_DOWN(address, PMD_SIZE));
	return true;
}

/*
 * The large anon folio that holds pfn, with a reference, or NULL (Linux's
 * split_huge_pages_all: folio_try_get, then a recheck that the page still
 * belongs to that folio, which a split or a free may have changed).
 */
static struct folio *get_mapped_anon_thp(unsigned long pfn)
{
	struct folio *folio = page_folio(pfn_to_page(pfn));

	if (!folio_test_large(folio) || !folio_test_anon(folio) || !folio_mapped(folio) ||
	    !folio_try_get(folio))
		return NULL;
	if (page_folio(pfn_to_page(pfn)) == folio && folio_test_large(folio))
		return folio;
	folio_put(folio);
	return NULL;
}

/*
 * Split every mapped anon large folio to order 0 (split_huge_pages with
 * "1": Linux's split_huge_pages_all walks the memmap the same way): its
 * PMD mappings, found by the anon rmap walk, become PTEs first.  A folio
 * locked by someone else is left alone.
 */
void split_huge_pages_all(void)
{
	struct rmap_walk_control rwc = { .rmap_one = split_pmd_one };

	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		struct folio *folio = get_mapped_anon_thp(pfn);
		if (!folio)
			continue;
		pfn = folio_pfn(folio) + folio_nr_pages(folio) - 1;
		if (folio_trylock(folio)) {
			rmap_walk_anon(folio, &rwc, false);
			split_queued_folio_to_list(folio, 0, NULL);
			folio_unlock(folio);
		}
		folio_put(folio);
	}
}
