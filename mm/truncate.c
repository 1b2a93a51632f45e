/*
 * Truncation of the page cache (Linux's mm/truncate.c), the unmapping of
 * a file range from every mm that maps it (unmap_mapping_range, in
 * Linux's mm/memory.c), and the split of a page-cache folio that a
 * truncation cuts in two.
 *
 *   truncate to 5000 bytes, pages 0-3 one order-2 folio, mapped:
 *
 *   1. unmap_mapping_range(8192, to EOF): pages 2-3 leave every mm
 *   2. the folio straddles the cut at page 1, byte 904:
 *      bytes 5000.. of the folio are zeroed, the folio is split
 *        [0 1 2 3]  ->  [0] [1] [2] [3]
 *   3. pages 2 and 3, wholly past the cut, leave the cache and are freed
 *
 * Locking: the caller of a truncation holds inode_lock (i_size changed
 * under it); each folio is looked up with a reference (filemap_get_next_folio,
 * under xa_lock), locked, and truncated only if it is still in the
 * mapping — a truncation or split on another CPU may have moved it.  A
 * fault holds the folio lock until its PTE is set, so the unmap that
 * follows the lock finds every mapping.  A split freezes the refcount and
 * rewrites the struct pages and slots under xa_lock: lookups never see a
 * half-split folio.  Order: folio lock, i_mmap_rwsem, PTLs; xa_lock,
 * split_queue_lock (mm/rmap.c).
 */
#include "linux/pagemap.h"
#include "linux/string.h"
#include "linux/errno.h"
#include "linux/mm.h"
#include "linux/rmap.h"
#include "linux/pgtable.h"
#include "linux/vmstat.h"
#include "linux/mm_inline.h"
#include "linux/swap.h"
#include "mm/deferred_split.h"
#include "mm/internal.h"

/*
 * Does the PMD leaf at *pmd (up to *next, the PMD's end), or else the PTE
 * of addr (then *next becomes addr's next page), map a page-cache page
 * (not an anon copy, not a zero page)?  Looked at under the entry's lock:
 * an anon folio that a split or migration in another process rewrites has
 * no present entry left by then, so its struct pages are never read half
 * rewritten.
 */
static bool maps_file_page(struct vm_area_struct *vma, pmd_t *pmd, unsigned long addr,
			   unsigned long *next)
{
	struct page *page = NULL;
	spinlock_t *ptl = pmd_lock(vma->vm_mm, pmd);
	pte_t *pte;
	bool file;

	if (pmd_trans_huge(*pmd)) {
		if (pmd_present(*pmd) && !is_huge_zero_pmd(*pmd))
			page = pfn_to_page(pmd_pfn(*pmd));
		file = page && !folio_test_anon(page_folio(page));
		spin_unlock(ptl);
		return file;
	}
	spin_unlock(ptl);
	*next = addr + PAGE_SIZE;
	pte = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);
	if (!pte)
		return false;
	if (pte_present(*pte))
		page = vm_normal_page(vma, addr, *pte);
	file = page && !folio_test_anon(page_folio(page));
	pte_unmap_unlock(pte, ptl);
	return file;
}

/*
 * Zap the pages of [start, end) in the private vma that belong to a file
 * (Linux's zap_details with even_cows false): anon folios, the private
 * copies a write made, are kept.  foliOS's zap_page_range has no such
 * filter, so this asks it page by page (a PMD at a time for a file PMD).
 */
static void zap_file_pages(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	for (unsigned long addr = start, next; addr < end; addr = next) {
		pmd_t *pmd = mm_find_pmd(vma->vm_mm, addr);

		next = MIN(ALIGN_DOWN(addr, PMD_SIZE) + PMD_SIZE, end);
		if (pmd && pmd_present(*pmd) && maps_file_page(vma, pmd, addr, &next))
			zap_page_range(vma, addr, next);
	}
}

/*
 * Unmap the pages [first, first + nr) of mapping (nr 0: to the end) from
 * every VMA on i_mmap (Linux's unmap_mapping_pages).  even_cows: also the
 * private copies a MAP_PRIVATE mapping made of them (truncation), else
 * only the page-cache pages (hole punching, splitting a folio).
 */
void unmap_mapping_pages(struct address_space *mapping, pgoff_t first, pgoff_t nr, bool even_cows)
{
	pgoff_t last = nr && first + nr - 1 >= first ? first + nr - 1 : ~0UL;
	struct vm_area_struct *vma;

	i_mmap_lock_read(mapping);
	list_for_each_entry(vma, &mapping->i_mmap, shared) {
		pgoff_t vba = vma->vm_pgoff, vea = vba + ((vma->vm_end - vma->vm_start) >> PAGE_SHIFT) - 1;
		pgoff_t zba = MAX(first, vba), zea = MIN(last, vea);
		unsigned long start = vma->vm_start + ((zba - vba) << PAGE_SHIFT);
		unsigned long end = vma->vm_start + ((zea - vba + 1) << PAGE_SHIFT);

		if (zba > zea)
			continue;
		if (even_cows || (vma->vm_flags & VM_SHARED) || !vma->anon_vma)
			zap_page_range(vma, start, end);
		else
			zap_file_pages(vma, start, end);
	}
	i_mmap_unlock_read(mapping);
}

/*
 * Unmap the bytes [holebegin, holebegin + holelen) of mapping's file,
 * whole pages (holelen 0: to the end of the file), from every mm.
 */
void unmap_mapping_range(struct address_space *mapping, loff_t holebegin, loff_t holelen,
			 int even_cows)
{
	pgoff_t first = (pgoff_t)holebegin >> PAGE_SHIFT;
	pgoff_t nr = ((pgoff_t)holelen + PAGE_SIZE - 1) >> PAGE_SHIFT;

	unmap_mapping_pages(mapping, first, nr, even_cows);
}

/*
 * Make the 2^order pages at head, of a frozen page-cache folio being
 * split, one folio of mapping at index with the page-cache flags
 * (page_flags).  Every field but the refcount is reset: that is 0 in
 * every page of a frozen folio and keeps lockless lookups' folio_try_get()
 * out until the caller sets it (page_ref_unfreeze).
 */
static void split_new_file_folio(struct page *head, unsigned int order, unsigned long page_flags,
				 struct address_space *mapping, pgoff_t index)
{
	for (unsigned long i = 0; i < (1UL << order); i++) {
		struct page *page = head + i;

		page->flags = 0;
		memset(&page->lru, 0, offsetof(struct page, _mapcount) - offsetof(struct page, lru));
		atomic_set(&page->_mapcount, -1);
		page->memcg_data = 0;
	}
	if (order)
		prep_compound_page(head, order);
	head->flags |= page_flags;
	head->mapping = mapping;
	head->index = index;
	if (order > 1)
		folio_set_large_rmappable((struct folio *)head);
}

/*
 * Split a locked page-cache folio into folios of new_order (Linux's
 * split_huge_page_to_list_to_order on a file folio).  Linux unmaps it
 * into migration entries and maps the pieces back; foliOS unmaps it: the
 * cache keeps the data, the next access faults the pieces in (a fault
 * waits on the folio lock meanwhile).  The refcount is frozen at the
 * cache's and the caller's references under xa_lock while the struct
 * pages and slots are rewritten (Linux's folio_ref_freeze in
 * __folio_split).  The caller's reference and the lock stay on the first
 * piece; the xarray slots point to the new folios.  0, -EINVAL (new_order
 * not below the folio's) or -EAGAIN (another reference: a lookup, a pin).
 */
int split_file_folio_to_order(struct folio *folio, unsigned int new_order)
{
	struct address_space *mapping = folio->mapping;
	unsigned long nr = folio_nr_pages(folio), step = 1UL << new_order;
	/* PG_mlocked on every piece too: NR_MLOCK counted the pages, not the folio */
	unsigned long keep = BIT(PG_uptodate) | BIT(PG_dirty) | BIT(PG_swapbacked) | BIT(PG_mlocked) |
			     LRU_SPLIT_FLAGS;
	struct lruvec *lruvec = folio_lruvec(folio);
	unsigned int order = folio_order(folio);
	pgoff_t index = folio->index;
	struct list_head *pos;
	unsigned long irqflags;

	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	VM_WARN_ON_ONCE(!mapping || folio_test_anon(folio), "split_file_folio: not a page-cache folio");
	if (new_order >= order)
		return -EINVAL;
	if (folio_mapped(folio))
		unmap_mapping_pages(mapping, index, nr, false);
	xa_lock(&mapping->i_pages);
	if (folio_mapped(folio) || !folio_ref_freeze(folio, nr + 1)) {
		xa_unlock(&mapping->i_pages);
		count_mthp_stat(order, MTHP_STAT_SPLIT_FAILED);
		return -EAGAIN;
	}
	folio_unqueue_deferred_split(folio);
	keep &= folio->flags;   /* frozen: nobody moves it on or off the LRU now */
	if (folio_test_pmd_mappable(folio) && new_order < HPAGE_PMD_ORDER)
		mod_node_page_state(keep & BIT(PG_swapbacked) ? NR_SHMEM_THPS : NR_FILE_THPS, -(long)nr);
	spin_lock_irqsave(&lruvec->lru_lock, irqflags);
	pos = lru_split_begin(lruvec, folio);
	for (unsigned long i = 0; i < nr; i += step) {
		split_new_file_folio(folio_page(folio, i), new_order, keep, mapping, index + i);
		if (i)                  /* the cache's references; the first piece's come last */
			page_ref_unfreeze(folio_page(folio, i), step);
		/* the slots exist: storing into them allocates nothing, cannot fail */
		xa_store_range(&mapping->i_pages, index + i, index + i + step - 1, folio_page(folio, i));
	}
	lru_split_end(lruvec, folio, nr, new_order, pos);
	spin_unlock_irqrestore(&lruvec->lru_lock, irqflags);
	__folio_set_locked(folio);
	folio_ref_unfreeze(folio, step + 1);    /* the cache's and the caller's */
	xa_unlock(&mapping->i_pages);
	count_mthp_stat(order, MTHP_STAT_SPLIT);
	return 0;
}

/*
 * Take a locked folio out of the cache, unmapping it first if it is
 * mapped (Linux's truncate_inode_folio and truncate_cleanup_folio).
 */
static void truncate_inode_folio(struct folio *folio)
{
	if (folio_mapped(folio))
		unmap_mapping_pages(folio->mapping, folio->index, folio_nr_pages(folio), false);
	folio_clear_dirty(folio);
	filemap_remove_folio(folio);
}

/*
 * Truncate the bytes [lstart, lend] from a locked folio: remove it if
 * they cover it, else zero them and, for a large folio, split it so that
 * a next look removes the pieces they cover (Linux's
 * truncate_inode_partial_folio; if the split fails the folio stays,
 * zeroed).  True if it was split.  The caller holds the folio lock and
 * has checked the folio is still in its mapping.
 */
bool truncate_folio(struct folio *folio, loff_t lstart, loff_t lend)
{
	loff_t pos = (loff_t)folio->index << PAGE_SHIFT;
	loff_t last = pos + ((loff_t)folio_nr_pages(folio) << PAGE_SHIFT) - 1;
	loff_t from = MAX(lstart, pos), to = MIN(lend, last);

	if (from == pos && to == last) {
		truncate_inode_folio(folio);
		return false;
	}
	memset((char *)page_address(&folio->page) + (from - pos), 0, to - from + 1);
	return folio_test_large(folio) && !split_file_folio_to_order(folio, 0);
}

/*
 * Remove the bytes [lstart, lend] (lend -1: to the end) from mapping's
 * cache (Linux's truncate_inode_pages_range): folios wholly inside go,
 * partly covered ones are zeroed there and split (see truncate_folio).
 * Mapped folios are unmapped first; callers that truncate a file unmap
 * the range beforehand (truncate_pagecache), as Linux's do.
 */
void truncate_inode_pages_range(struct address_space *mapping, loff_t lstart, loff_t lend)
{
	pgoff_t index = (pgoff_t)lstart >> PAGE_SHIFT;
	pgoff_t last = lend < 0 ? ~0UL : (pgoff_t)lend >> PAGE_SHIFT;
	struct folio *folio;

	while ((folio = filemap_get_next_folio(mapping, &index, last))) {
		pgoff_t next = index + 1;
		bool split = false;

		folio_lock(folio);
		if (folio->mapping == mapping) {        /* still cached: ours to truncate */
			next = folio->index + folio_nr_pages(folio);
			split = truncate_folio(folio, lstart, lend < 0 ? MAX_LFS_FILESIZE : lend);
		}
		folio_unlock(folio);
		folio_put(folio);
		if (split)
			continue;       /* look at the pieces, from index on */
		if (!next || next > last)
			break;
		index = next;
	}
}

/*
 * Drop folio, which the caller holds a reference to, from mapping's cache
 * if nobody else uses it (Linux's mapping_evict_folio): still cached,
 * clean, unmapped, not locked by anyone (a fault or truncation at work),
 * referenced by the cache and the caller alone.  True if it went.
 */
static bool mapping_evict_folio(struct address_space *mapping, struct folio *folio)
{
	bool evict;

	if (!folio_trylock(folio))
		return false;
	evict = folio->mapping == mapping && !folio_test_dirty(folio) && !folio_mapped(folio) &&
		folio_ref_count(folio) == (int)folio_nr_pages(folio) + 1;
	if (evict)
		filemap_remove_folio(folio);
	folio_unlock(folio);
	return evict;
}

/*
 * Drop the unused folios (see mapping_evict_folio) that hold pages of
 * [start, end] of mapping (Linux's invalidate_mapping_pages, what
 * drop_caches does to every inode).  Only a file with a backing store
 * (a_ops->read_folio) reads them back later; shmem's folios are the
 * data's only copy and stay.  Returns the number of pages dropped.
 */
unsigned long invalidate_mapping_pages(struct address_space *mapping, pgoff_t start, pgoff_t end)
{
	unsigned long count = 0;
	pgoff_t index = start;
	struct folio *folio;

	if (!mapping->a_ops || !mapping->a_ops->read_folio)
		return 0;
	while ((folio = filemap_get_next_folio(mapping, &index, end))) {
		unsigned long nr = folio_nr_pages(folio);
		pgoff_t next = folio->mapping == mapping ? folio->index + nr : index + 1;

		if (mapping_evict_folio(mapping, folio))
			count += nr;
		folio_put(folio);
		if (!next || next > end)
			break;
		index = next;
	}
	return count;
}

/* The inode goes: drop its whole page cache (Linux's truncate_inode_pages_final). */
void truncate_inode_pages_final(struct address_space *mapping)
{
	truncate_inode_pages_range(mapping, 0, -1);
}

/*
 * The file shrank (or grew) to newsize: unmap the pages past it, private
 * copies too, then drop them from the cache and zero the tail of the page
 * newsize ends in (Linux's truncate_pagecache).  A private write fault
 * that copied a page before the truncation locked it may map its copy
 * after the first unmap: the second unmap takes that copy away, as Linux's.
 */
void truncate_pagecache(struct inode *inode, loff_t newsize)
{
	struct address_space *mapping = inode->i_mapping;
	loff_t holebegin = ALIGN_UP(newsize, (loff_t)PAGE_SIZE);

	unmap_mapping_range(mapping, holebegin, 0, 1);
	truncate_inode_pages_range(mapping, newsize, -1);
	unmap_mapping_range(mapping, holebegin, 0, 1);
}

/*
 * A hole was punched in the file at bytes [lstart, lend]: unmap the whole
 * pages inside it (not the private copies), then drop them from the cache
 * and zero the partial pages at its ends (Linux's truncate_pagecache_range).
 */
void truncate_pagecache_range(struct inode *inode, loff_t lstart, loff_t lend)
{
	struct address_space *mapping = inode->i_mapping;
	loff_t unmap_start = ALIGN_UP(lstart, (loff_t)PAGE_SIZE);
	loff_t unmap_end = ALIGN_DOWN(lend + 1, (loff_t)PAGE_SIZE) - 1;

	if (unmap_end > unmap_start)
		unmap_mapping_range(mapping, unmap_start, 1 + unmap_end - unmap_start, 0);
	truncate_inode_pages_range(mapping, lstart, lend);
}
