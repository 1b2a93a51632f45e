/*
 * The reverse map of page-cache folios, the parts that are not shared with
 * anon folios (Linux's __folio_dup_file_rmap in include/linux/rmap.h and
 * rmap_walk_file in mm/rmap.c; adding and removing file mappings is
 * mm/rmap.c's, the same code as for anon).
 *
 * A page-cache folio is found from its address_space: folio->mapping is
 * the file's mapping (bit 0 clear), folio->index its first page offset,
 * and mapping->i_mmap lists every VMA that maps the file (vma->shared):
 *
 *   folio --mapping--> address_space --i_mmap--> vma, vma, ...
 *         index i                           each maps page i at
 *                                           vm_start + (i - vm_pgoff) pages
 *
 * MM owner slots, large mapcount and the shared bit move as for an anon
 * folio: a shmem THP that two processes map through MAP_SHARED has both
 * slots taken and the shared bit set, as a forked anon THP has.
 *
 * Lock order: see mm/rmap.c; the walk holds i_mmap_rwsem for read.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/rmap.h"
#include "mm/rmap_observe.h"
#include "linux/pgtable.h"

/*
 * fork: the child's mm (dst_vma) maps the pages of a page-cache folio its
 * parent maps (Linux's __folio_dup_file_rmap).  No page was unmapped
 * before, so no counter moves: only the mapcounts, and the child's MM ID
 * takes a slot (which makes the folio "maybe shared").  Pages of a file
 * folio are never AnonExclusive, so nothing can stop the dup.
 */
static __always_inline void __folio_dup_file_rmap(struct folio *folio, struct page *page,
						  int nr_pages, struct vm_area_struct *dst_vma,
						  enum rmap_level level)
{
	VM_WARN_ON_ONCE(folio_test_anon(folio), "file dup of an anon folio");
	__folio_rmap_sanity_checks(folio, page, nr_pages, level);
	if (level == RMAP_LEVEL_PMD) {
		__folio_dup_rmap_pmd(folio, dst_vma);
		return;
	}
	if (!folio_test_large(folio)) {
		atomic_inc(&folio->_mapcount);
		return;
	}
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		for (int i = 0; i < nr_pages; i++)
			atomic_inc(&page[i]._mapcount);
	folio_add_large_mapcount(folio, nr_pages, nr_pages, dst_vma);
}

noinline_fn void folio_dup_file_rmap_ptes(struct folio *folio, struct page *page, int nr_pages,
					  struct vm_area_struct *dst_vma)
{
	rmap_observe(folio, page, nr_pages, dst_vma, RMAP_TRACE_DUP_PTES);
	__folio_dup_file_rmap(folio, page, nr_pages, dst_vma, RMAP_LEVEL_PTE);
}

noinline_fn void folio_dup_file_rmap_pmd(struct folio *folio, struct page *page,
					 struct vm_area_struct *dst_vma)
{
	rmap_observe(folio, page, HPAGE_PMD_NR, dst_vma, RMAP_TRACE_DUP_PMD);
	__folio_dup_file_rmap(folio, page, HPAGE_PMD_NR, dst_vma, RMAP_LEVEL_PMD);
}

/*
 * Call rwc->rmap_one(folio, vma, address) for every VMA of the file's
 * i_mmap whose page range meets the folio's, address being where the
 * folio's first page (or, if that lies before the VMA, the VMA's start)
 * is (Linux's rmap_walk_file over the interval tree; foliOS's i_mmap is a
 * list, so the VMAs that miss the folio are skipped here).  A folio no
 * longer in the page cache (mapping NULL) has no mappings to find.  The
 * caller holds the folio lock, as Linux's: truncation cannot clear
 * folio->mapping meanwhile, so the address_space outlives the walk.
 */
void rmap_walk_file(struct folio *folio, struct rmap_walk_control *rwc)
{
	struct address_space *mapping = folio->mapping;
	unsigned long nr = folio_nr_pages(folio);
	struct vm_area_struct *vma;

	VM_BUG_ON_FOLIO(!folio_test_locked(folio), folio);
	VM_WARN_ON_ONCE(folio_test_anon(folio), "rmap_walk_file of an anon folio");
	if (!mapping)
		return;
	i_mmap_lock_read(mapping);
	list_for_each_entry(vma, &mapping->i_mmap, shared) {
		unsigned long address = vma_address(vma, folio->index, nr);

		if (address == (unsigned long)-EFAULT)
			continue;
		if (!rwc->rmap_one(folio, vma, address, rwc->arg))
			break;
	}
	i_mmap_unlock_read(mapping);
}

/*
 * Every VMA that may map folio (Linux's rmap_walk): an anon folio's
 * through its anon_vma, a page-cache folio's through its file's i_mmap.
 * Private file VMAs are found for a file folio too: they map it until a
 * write copies the page (do_cow_fault).
 */
void rmap_walk(struct folio *folio, struct rmap_walk_control *rwc)
{
	if (folio_test_anon(folio))
		rmap_walk_anon(folio, rwc, false);
	else
		rmap_walk_file(folio, rwc);
}
