/*
 * What the files of mm/ share and nobody else needs (Linux's mm/internal.h):
 * a VMA's page protection, per-mm RSS counting, PTE batching, and the
 * PMD-level operations of huge_memory.c that memory.c, fork.c and mmap.c
 * call for a PMD-mapped THP.
 *
 * Lock order: see mm/rmap.c; the caller owns the mm whose tables change
 * (linux/mm.h).
 */
#ifndef MM_INTERNAL_H
#define MM_INTERNAL_H

#include "linux/mm.h"
#include "linux/pgtable.h"
#include "linux/page-flags.h"

void prep_compound_page(struct page *head, unsigned int order);
/* mm/page_alloc.c and its slow path, mm/page_alloc_slowpath.c. */
struct page *get_page_from_freelist(gfp_t gfp, unsigned int order, unsigned long reserve);
struct page *__alloc_pages_slowpath(gfp_t gfp, unsigned int order);

/*
 * The protection of a page of vma, writable only if write (a page that is
 * not exclusive stays read-only for its COW fault); a VMA without any access
 * flag gives PROT_NONE entries.
 */
static inline pgprot_t vma_pgprot(const struct vm_area_struct *vma, bool write)
{
	return user_pgprot(vma->vm_flags & VM_ACCESS_FLAGS, write && (vma->vm_flags & VM_WRITE),
			   vma->vm_flags & VM_EXEC);
}

static inline pgprot_t vm_get_page_prot(const struct vm_area_struct *vma)
{
	return vma_pgprot(vma, true);
}

/*
 * Clear the PTE of address and flush it from every CPU's TLB (break before
 * make: no CPU can use the old entry when this returns); returns it.
 */
static inline pte_t ptep_clear_flush(struct vm_area_struct *vma, unsigned long address,
				     pte_t *ptep)
{
	pte_t pte = ptep_get_and_clear(vma->vm_mm, address, ptep);

	flush_tlb_page(vma, address);
	return pte;
}

/*
 * Store entry, the PTE of address with more permission (a write fault made
 * it writable, and dirty): a present entry stays present, so the table's
 * count stays and the store is a plain one — the old entry was read-only,
 * so a CPU could only have set its A bit meanwhile, and the new one is
 * young (the fault was an access; Linux's callers pass pte_mkyoung).
 * Whether stale TLB entries need a flush is the arch's call
 * (flush_tlb_fix_spurious_fault()).
 */
static inline void ptep_set_access_flags(struct vm_area_struct *vma, unsigned long address,
					 pte_t *ptep, pte_t entry)
{
	set_pte(ptep, pte_mkyoung(entry));
	flush_tlb_fix_spurious_fault(vma, address, ptep);
}

/* The same for a PMD leaf (Linux's pmdp_set_access_flags); the caller flushes. */
static inline void pmdp_set_access_flags(struct vm_area_struct *vma, unsigned long address,
					 pmd_t *pmdp, pmd_t entry)
{
	set_pmd(pmdp, pmd_mkyoung(entry));
}

/* Are the nr PTEs from pte on all none (Linux's pte_range_none)? */
static inline bool pte_range_none(const pte_t *pte, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++)
		if (!pte_none(pte[i]))
			return false;
	return true;
}

/* Is folio the shared 4 KiB zero page? */
static inline bool is_zero_folio(struct folio *folio)
{
	return is_zero_pfn(folio_pfn(folio));
}

/*
 * May mprotect make this present entry writable at once (Linux's
 * can_change_pte_writable)?  In a private mapping only for a normal page
 * exclusive to this mm (a shared mapping's pages are the object's, written
 * in place) and, where soft-dirty tracking is on for the VMA (clear_refs 4
 * cleared VM_SOFTDIRTY), only if the entry is soft-dirty already: else the
 * first write must fault so that it is recorded.
 */
static inline bool __can_change_writable(const struct vm_area_struct *vma, bool soft_dirty,
					 struct page *page)
{
	if (!(vma->vm_flags & VM_SHARED) && (!page || !PageAnonExclusive(page)))
		return false;
	return (vma->vm_flags & VM_SOFTDIRTY) || soft_dirty;
}

static inline bool can_change_pte_writable(const struct vm_area_struct *vma, pte_t pte,
					   struct page *page)
{
	return __can_change_writable(vma, pte_soft_dirty(pte), page);
}

static inline bool can_change_pmd_writable(const struct vm_area_struct *vma, pmd_t pmd,
					   struct page *page)
{
	return __can_change_writable(vma, pmd_soft_dirty(pmd), page);
}

/* Pages mapped by mm: anon, file and shmem (Linux's get_mm_rss). */
static inline long get_mm_rss(const struct mm_struct *mm)
{
	return mm->rss_anon + mm->rss_file + mm->rss_shmem;
}

/* Before RSS falls, its peak is kept (Linux's update_hiwater_rss). */
static inline void update_hiwater_rss(struct mm_struct *mm)
{
	if (get_mm_rss(mm) > mm->hiwater_rss)
		mm->hiwater_rss = get_mm_rss(mm);
}

/*
 * Anon pages mapped (nr < 0: unmapped) by mm (Linux's MM_ANONPAGES).  The
 * RSS counters change under different page-table locks of one mm: atomic
 * adds (Linux's are per-CPU counters); the peak is a racy hint as Linux's.
 */
static inline void add_mm_counter(struct mm_struct *mm, long nr)
{
	if (nr < 0)
		update_hiwater_rss(mm);
	__atomic_add_fetch(&mm->rss_anon, nr, __ATOMIC_RELAXED);
}

/* Swap entries in mm's page tables (nr < 0: gone; Linux's MM_SWAPENTS, VmSwap). */
static inline void add_mm_counter_swap(struct mm_struct *mm, long nr)
{
	__atomic_add_fetch(&mm->rss_swap, nr, __ATOMIC_RELAXED);
}

/*
 * Pages of a page-cache folio mapped by mm: RssShmem for shmem's, RssFile
 * for other files' (Linux's add_mm_counter(mm, mm_counter_file(folio), nr)).
 */
static inline void add_mm_counter_file(struct mm_struct *mm, const struct folio *folio, long nr)
{
	if (nr < 0)
		update_hiwater_rss(mm);
	__atomic_add_fetch(folio_test_swapbacked(folio) ? &mm->rss_shmem : &mm->rss_file, nr,
			   __ATOMIC_RELAXED);
}

/*
 * A VMA without vm_ops is anonymous memory (Linux's vma_is_anonymous): a
 * private /dev/zero mapping is too, though it has a vm_file.
 */
static inline bool vma_is_anonymous(const struct vm_area_struct *vma)
{
	return !vma->vm_ops;
}

/* A MAP_SHARED mapping that may be made writable (Linux's vma_is_shared_maywrite). */
static inline bool vma_is_shared_maywrite(const struct vm_area_struct *vma)
{
	return (vma->vm_flags & (VM_SHARED | VM_MAYWRITE)) == (VM_SHARED | VM_MAYWRITE);
}

/*
 * The bits a PTE batch may differ in: accessed, dirty and soft-dirty
 * (Linux's __pte_batch_clear_ignored with FPB_IGNORE_DIRTY and
 * FPB_IGNORE_SOFT_DIRTY, without the uffd bit foliOS lacks).  The batch's
 * users (zap, fork's __copy_ptes) keep each PTE's own bits.
 */
static inline pte_t pte_batch_clear_ignored(pte_t pte)
{
	return pte_clear_soft_dirty(pte_mkold(pte_mkclean(pte)));
}

/*
 * How many PTEs from ptep on (at most max_nr) map consecutive pages of the
 * same folio as the first with the same permissions (Linux's folio_pte_batch:
 * each PTE must equal the one before it moved on by one page frame, but for
 * the accessed, dirty and soft-dirty bits).  The first PTE must be present.
 */
static inline int folio_pte_batch(struct folio *folio, const pte_t *ptep, int max_nr)
{
	const pte_t *pte = ptep + 1, *end;
	unsigned long pfn;
	pte_t expected;

	if (!folio_test_large(folio))
		return 1;
	pfn = pte_pfn(*ptep);
	end = ptep + MIN((unsigned long)max_nr, folio_pfn(folio) + folio_nr_pages(folio) - pfn);
	expected = pte_batch_clear_ignored(pte_next_pfn(*ptep));
	for (; pte < end && pte_same(pte_batch_clear_ignored(*pte), expected); pte++)
		expected = pte_next_pfn(expected);
	return pte - ptep;
}

/* memory_file.c: faults of VMAs with vm_ops. */
vm_fault_t do_fault(struct vm_fault *vmf);
vm_fault_t do_swap_page(struct vm_fault *vmf);
vm_fault_t wp_page_shared(struct vm_fault *vmf);

/* vma.c: VMA boundaries for mmap.c, mprotect.c and madvise.c; VMA copies for mremap.c, fork.c. */
void take_rmap_locks(struct vm_area_struct *vma);
void rmap_locks_assert_held(struct vm_area_struct *vma);
void drop_rmap_locks(struct vm_area_struct *vma);
struct vm_area_struct *split_vma(struct vm_area_struct *vma, unsigned long addr);
int split_vmas_at(struct mm_struct *mm, unsigned long start, unsigned long end);
void vma_merge_all(struct mm_struct *mm);
void remove_vma(struct vm_area_struct *vma);
void vma_link_file(struct vm_area_struct *vma);
void vma_dup_file(struct vm_area_struct *new, struct vm_area_struct *old);
struct vm_area_struct *copy_vma(struct vm_area_struct *vma, unsigned long addr,
				unsigned long len, unsigned long pgoff);


/* huge_memory.c: PMD-mapped THPs. */
vm_fault_t do_huge_pmd_anonymous_page(struct vm_fault *vmf);
vm_fault_t do_huge_pmd_wp_page(struct vm_fault *vmf);
bool wp_can_reuse_large_anon_folio(struct folio *folio, struct vm_area_struct *vma);
/* huge_memory_multi_pmd.c: a 4 MiB anon folio by two PMDs (CONFIG_MAPCOUNT_PAGES). */
bool thp_multi_pmd_allowed(struct vm_area_struct *vma, unsigned long address, pmd_t *pmd);
vm_fault_t do_huge_anonymous_multi_pmd(struct vm_fault *vmf);
void __split_huge_pmd(struct vm_area_struct *vma, pmd_t *pmd, unsigned long address);
void __split_huge_pmd_locked(struct vm_area_struct *vma, pmd_t *pmd, unsigned long address);
void split_huge_pmd_address(struct vm_area_struct *vma, unsigned long address);
struct mmu_gather;
bool zap_huge_pmd(struct mmu_gather *tlb, struct vm_area_struct *vma, pmd_t *pmd,
		  unsigned long addr);
void unmap_page_range(struct mmu_gather *tlb, struct vm_area_struct *vma,
		      unsigned long start, unsigned long end);
int copy_huge_pmd(struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma,
		  pmd_t *src_pmd, unsigned long addr);
bool change_huge_pmd(struct vm_area_struct *vma, pmd_t *pmd, unsigned long addr);
void mm_free_deposited_tables(struct mm_struct *mm);
void pgtable_trans_huge_deposit(struct mm_struct *mm, pte_t *table);

/* mlock.c: the folio side of mlock (Linux's mm/internal.h). */
void mlock_folio(struct folio *folio);
void munlock_folio(struct folio *folio);
void folio_free_mlocked(struct folio *folio);
int populate_vma_page_range(struct vm_area_struct *vma, unsigned long start, unsigned long end);

/*
 * vma just mapped folio, by a PMD if compound (Linux's mlock_vma_folio):
 * a locked VMA mlocks what it maps whole — a small folio, or a large one
 * by a PMD; a large folio mapped by PTEs stays evictable (Linux 6.1's
 * rule).  A special mapping is never locked.  Under the entry's lock.
 */
static inline void mlock_vma_folio(struct folio *folio, struct vm_area_struct *vma, bool compound)
{
	if (unlikely((READ_ONCE(vma->vm_flags) & (VM_LOCKED | VM_SPECIAL)) == VM_LOCKED) &&
	    (compound || !folio_test_large(folio)))
		mlock_folio(folio);
}

/* vma just unmapped folio (by a PMD if compound): the reverse (Linux's munlock_vma_folio). */
static inline void munlock_vma_folio(struct folio *folio, struct vm_area_struct *vma, bool compound)
{
	if (unlikely(READ_ONCE(vma->vm_flags) & VM_LOCKED) && (compound || !folio_test_large(folio)))
		munlock_folio(folio);
}

/* khugepaged.c: MADV_COLLAPSE. */
int madvise_collapse(struct vm_area_struct *vma, unsigned long start, unsigned long end);
int madvise_cold_or_pageout(struct vm_area_struct *vma, unsigned long start, unsigned long end,
			    bool pageout);

#endif
