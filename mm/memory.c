/*
 * Page faults and unmapping of anonymous memory (Linux's mm/memory.c).
 *
 * A fault on a not-present page of an anon VMA takes the largest folio the
 * THP policy allows and the VMA, the alignment and the buddy can give:
 *
 *   PMD entry none, 2 MiB allowed -> one PMD leaf   (huge_memory.c;
 *         a read fault maps the huge zero folio if use_zero_page is 1)
 *   else a read fault: the shared zero page, by a special PTE
 *   else: largest allowed order < 9 whose aligned PTE range is all none,
 *         falling back order by order to 4 KiB      (alloc_anon_folio)
 *
 * A write to a read-only PTE of a private writable mapping is copy-on-write
 * (do_wp_page, mm/memory_wp.c).
 *
 * Every PTE or PMD that maps a folio holds one folio reference; the zero
 * pages are no folio of anybody's (mm/pgtable.h) and hold none.
 *
 * Locks: the caller holds the mmap_lock for read (for write: an mm
 * change); a fault maps under the page-table lock and rechecks there what
 * it saw before it allocated, backing out (the access is retried) when
 * another CPU changed the entry meanwhile.  Order: mm/rmap.c.
 */
#include "linux/errno.h"
#include "linux/pagemap.h"
#include "mm/internal.h"
#include "mm/rmap.h"
#include "mm/thp_policy.h"
#include "mm/deferred_split.h"
#include "mm/rmap_trace.h"
#include "mm/memblock.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "mm/vmstat.h"
#include "mm/tlb.h"

unsigned long zero_pfn;

/*
 * Boot-time setup of the shared zero page (Linux's init_zero_pfn), after
 * the memmap and before the buddy gets the free memory: one zeroed page
 * taken from memblock, so it stays PG_reserved as Linux's (which lies in
 * the kernel image) and is no buddy memory: never freed, never a leak.
 */
void init_zero_pfn(void)
{
	phys_addr_t pa = memblock_alloc(PAGE_SIZE, PAGE_SIZE);

	if (!pa)
		panic("init_zero_pfn: no page for the zero page");
	memset(__va(pa), 0, PAGE_SIZE);
	zero_pfn = pa >> PAGE_SHIFT;
	set_page_count(pfn_to_page(zero_pfn), 1);       /* as Linux's reserved pages: gets and puts never free it */
}

/*
 * An order-0 folio; if the buddy has none, partially mapped folios on the
 * deferred split queue are split first (Linux's shrinker does that under
 * memory pressure) and the allocation is tried once more.  The caller
 * holds mm's mmap_lock (a fault).
 */
struct folio *folio_alloc_reclaim(struct mm_struct *mm, gfp_t gfp)
{
	struct folio *folio = folio_alloc(gfp, 0);

	if (!folio && deferred_split_scan(~0UL, mm))
		folio = folio_alloc(gfp, 0);
	return folio;
}

/*
 * The folio for an anon fault at address, whose PTE is *pte (Linux's
 * alloc_anon_folio): among the orders below PMD order that the policy
 * allows and whose aligned block fits the VMA, the highest whose PTEs are
 * all none; then, from that order down, the first the buddy can give;
 * finally 4 KiB.  The block's first address goes to *addrp.  NULL: OOM.
 * The PTEs are read without their lock: the caller rechecks them under it.
 */
static struct folio *alloc_anon_folio(struct vm_area_struct *vma, unsigned long address,
				      pte_t *pte, unsigned long *addrp)
{
	unsigned long orders = thp_vma_allowable_orders(vma, BIT(HPAGE_PMD_ORDER) - 1);
	unsigned long addr;
	int order;

	for (unsigned long o = orders; o; o &= o - 1)
		if (!thp_vma_suitable_order(vma, address, __builtin_ctzl(o)))
			orders &= ~BIT(__builtin_ctzl(o));
	for (order = orders ? highest_order(orders) : -1; order > 0;
	     order = next_order(&orders, order)) {
		addr = ALIGN_DOWN(address, PAGE_SIZE << order);
		if (pte_range_none(pte - ((address - addr) >> PAGE_SHIFT), 1UL << order))
			break;
	}
	for (; order > 0; order = next_order(&orders, order)) {
		struct folio *folio = folio_alloc(__GFP_ZERO, order);

		if (folio) {
			count_mthp_stat(order, MTHP_STAT_ANON_FAULT_ALLOC);
			*addrp = ALIGN_DOWN(address, PAGE_SIZE << order);
			return folio;
		}
		count_mthp_stat(order, MTHP_STAT_ANON_FAULT_FALLBACK);
	}
	*addrp = address & PAGE_MASK;
	return folio_alloc_reclaim(vma->vm_mm, __GFP_ZERO);
}

/*
 * A fault on a none PTE of an anon VMA (Linux's do_anonymous_page): a
 * read maps the shared zero page read-only by a special PTE (no folio, no
 * rmap, no RSS); a write maps a new zeroed folio, all its pages by PTEs,
 * exclusive to this mm, each PTE holding a folio reference.  The folio is
 * allocated unlocked; under the PTL its PTEs must still be none, else
 * another CPU mapped something there first: the folio goes back and the
 * access is retried.  0 or -ENOMEM.
 */
static int do_anonymous_page(struct vm_area_struct *vma, unsigned long address, pmd_t *pmd,
			     unsigned int flags)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long addr = address & PAGE_MASK, nr = 1;
	struct folio *folio = NULL;
	spinlock_t *ptl;
	pte_t *pte;

	if (flags & FAULT_FLAG_WRITE) {
		pmd_t pmdval = READ_ONCE(*pmd);

		if (!pgent_present(pmdval) || pgent_huge(pmdval))
			return 0;
		folio = alloc_anon_folio(vma, address, pgent_table(pmdval) + pt_index(address, PT_PTE),
					 &addr);
		if (!folio)
			return -ENOMEM;
		nr = folio_nr_pages(folio);
	}
	pte = pte_offset_map_lock(mm, pmd, addr, &ptl);
	if (!pte || !pte_range_none(pte, nr))
		goto release;
	if (!folio) {
		set_pte_at(mm, addr, pte, pgent_mkspecial(mk_pte_entry(my_zero_pfn(address),
								       vma_pgprot(vma, false))));
		goto unlock;
	}
	folio_ref_add(folio, nr - 1);
	folio_add_new_anon_rmap(folio, vma, addr, RMAP_EXCLUSIVE);
	set_ptes(mm, addr, pte, pgent_mksoft_dirty(mk_pte_entry(folio_pfn(folio), vm_get_page_prot(vma))),
		 nr);
	add_mm_counter(mm, nr);
	folio = NULL;
release:
	if (folio)
		folio_put(folio);
unlock:
	if (pte)
		pte_unmap_unlock(pte, ptl);
	return 0;
}

/*
 * An unshare request or a FOLL_FORCE write (a VMA without VM_WRITE) on a
 * PMD leaf: done if the THP is exclusive already, else the PMD is split
 * and the PTE path unshares or copies the one page (Linux reuses or
 * splits at the PMD level; splitting is what it does when it cannot
 * reuse).  true if the PTE path must go on.  Under pmd_lock.
 */
static bool huge_pmd_unshare_or_force(struct vm_area_struct *vma, unsigned long address,
				      pmd_t *pmd)
{
	if (PageAnonExclusive(pfn_to_page(pgent_pfn(*pmd))))
		return false;
	__split_huge_pmd_locked(vma, pmd, address);
	return true;
}

/*
 * The PMD level of a fault on a PMD leaf, under pmd_lock: 0 when it is
 * resolved — or the leaf changed meanwhile (the access is retried) —,
 * VM_FAULT_FALLBACK when the PTE path must go on.  A write or unshare on
 * a file PMD is done at the PTE level: the PMD is split — zapped — and
 * the pages refault by PTEs (Linux's wp_huge_pmd).
 */
static int huge_pmd_fault_locked(struct vm_area_struct *vma, unsigned long address, pmd_t *pmd,
				 unsigned int flags)
{
	bool write = flags & FAULT_FLAG_WRITE;

	if (!pgent_present(*pmd) || !pgent_huge(*pmd))
		return 0;
	if (!vma_is_anonymous(vma)) {
		if (!(flags & (FAULT_FLAG_WRITE | FAULT_FLAG_UNSHARE)) || pgent_write(*pmd))
			return 0;
		__split_huge_pmd_locked(vma, pmd, address);
		return VM_FAULT_FALLBACK;
	}

	if (flags & FAULT_FLAG_UNSHARE || (write && !(vma->vm_flags & VM_WRITE)))
		return huge_pmd_unshare_or_force(vma, address, pmd) ? VM_FAULT_FALLBACK : 0;
	if (!write || pgent_write(*pmd))
		return 0;       /* the PMD allows it now: a stale TLB entry */
	return do_huge_pmd_wp_page(vma, address, pmd);
}

static int huge_pmd_fault(struct vm_area_struct *vma, unsigned long address, pmd_t *pmd,
			  unsigned int flags)
{
	spinlock_t *ptl = pmd_lock(vma->vm_mm, pmd);
	int ret = huge_pmd_fault_locked(vma, address, pmd, flags);

	spin_unlock(ptl);
	return ret;
}

/*
 * The PTE level of a fault (Linux's handle_pte_fault): a PTE table is
 * installed if *pmd is none, and the PTE read without its lock (tables are
 * not freed under the mmap_lock held for read).  A none PTE goes to the
 * anon or file fault, which take the lock and look again; a
 * write-protected one to do_wp_page, with the lock taken and the PTE
 * rechecked.  A PMD that is no PTE table by now, or a PTE another CPU is
 * changing (a migration entry), means: retry the access.
 */
static int handle_pte_fault(struct vm_area_struct *vma, unsigned long address, pmd_t *pmd,
			    unsigned int flags)
{
	spinlock_t *ptl;
	pmd_t pmdval;
	pte_t entry, *pte;

	if (pgent_none(READ_ONCE(*pmd)) && __pte_alloc(vma->vm_mm, pmd))
		return -ENOMEM;
	pmdval = READ_ONCE(*pmd);
	if (!pgent_present(pmdval) || pgent_huge(pmdval))
		return 0;
	entry = READ_ONCE(pgent_table(pmdval)[pt_index(address, PT_PTE)]);
	if (pgent_none(entry))
		return vma_is_anonymous(vma) ? do_anonymous_page(vma, address, pmd, flags) :
					       do_fault(vma, address, pmd, flags);
	if (!pgent_present(entry) || pgent_write(entry) ||
	    !(flags & (FAULT_FLAG_WRITE | FAULT_FLAG_UNSHARE)))
		return 0;
	pte = pte_offset_map_lock(vma->vm_mm, pmd, address, &ptl);
	if (likely(pte && *pte == entry))
		return do_wp_page(vma, address, pmd, pte, ptl, flags);
	if (pte)
		pte_unmap_unlock(pte, ptl);
	return 0;
}

/*
 * Resolve a fault at address in vma, whose permissions the caller checked
 * (Linux's __handle_mm_fault; GUP checks them its own way, FOLL_FORCE):
 * the PMD level first (a new THP, or a write to a PMD-mapped one), then
 * the PTE level; a none entry of a VMA with vm_ops faults through it
 * (do_fault, mm/memory_file.c), which may map a PMD.  The caller holds the
 * mmap_lock.  Returns 0 (retry the access), -ENOMEM (OOM) or -ENXIO
 * (SIGBUS: no page of the file there).
 */
int __handle_mm_fault(struct vm_area_struct *vma, unsigned long address, unsigned int flags)
{
	bool anon = vma_is_anonymous(vma);
	pmd_t *pmd;

	/* Linux prepares it where a fault allocates; every anon fault may. */
	if (anon && anon_vma_prepare(vma))
		return -ENOMEM;
	pmd = mm_alloc_entry(vma->vm_mm, address, PT_PMD);
	if (!pmd)
		return -ENOMEM;
	if (pgent_none(READ_ONCE(*pmd)) && anon && thp_vma_allowable_order(vma, HPAGE_PMD_ORDER)) {
		if (!do_huge_pmd_anonymous_page(vma, address, pmd, flags))
			return 0;
	} else if (pgent_huge(READ_ONCE(*pmd))) {
		if (!huge_pmd_fault(vma, address, pmd, flags))
			return 0;
	}
	if (pgent_none(READ_ONCE(*pmd)) && !anon)
		return do_fault(vma, address, pmd, flags);
	return handle_pte_fault(vma, address, pmd, flags);
}

/*
 * A fault of the running task at address in vma: -EFAULT (SIGSEGV) if the
 * VMA does not allow the access, else as __handle_mm_fault() (-ENXIO:
 * SIGBUS).
 */
int handle_mm_fault(struct vm_area_struct *vma, unsigned long address, unsigned int flags)
{
	if (((flags & FAULT_FLAG_WRITE) && !(vma->vm_flags & VM_WRITE)) ||
	    ((flags & FAULT_FLAG_EXEC) && !(vma->vm_flags & VM_EXEC)) ||
	    !(vma->vm_flags & VM_ACCESS_FLAGS))
		return -EFAULT;
	return __handle_mm_fault(vma, address, flags);
}

/*
 * Unmap a batch of nr PTEs of one page-cache folio (Linux's
 * zap_present_folio_ptes for !anon): a write through any of them makes
 * the folio dirty, RssFile or RssShmem falls.
 */
static void zap_file_ptes(struct vm_area_struct *vma, struct folio *folio, pte_t *pte, int nr)
{
	for (int i = 0; i < nr; i++)
		if (pgent_dirty(pte[i])) {
			folio_mark_dirty(folio);
			break;
		}
	add_mm_counter_file(vma->vm_mm, folio, -nr);
}

/* One batch of zap_pte_range: nr PTEs from pte (at addr) that map folio's pages from page on. */
static inline void zap_present_folio_ptes(struct mmu_gather *tlb, struct vm_area_struct *vma,
					  struct folio *folio, struct page *page, pte_t *pte,
					  unsigned long addr, int nr)
{
	if (!folio_test_anon(folio))
		zap_file_ptes(vma, folio, pte, nr);
	__clear_ptes(pte, nr);
	tlb_flush_pte_range(tlb, addr, (unsigned long)nr << PAGE_SHIFT);
	folio_remove_rmap_ptes(folio, page, nr, vma);
	if (__tlb_remove_folio_pages(tlb, page, nr))
		tlb_flush_mmu(tlb);
}

/*
 * Unmap the present PTEs of [addr, end) under one PMD, a batch of PTEs of
 * one folio at a time (Linux's zap_pte_range + zap_present_ptes): one rmap
 * call per batch, its references gathered in tlb to drop after the flush
 * (a stale TLB entry elsewhere may still reach the pages until then); a
 * zero-page PTE is only cleared.  Under the table's lock: a fault of
 * another thread (MADV_DONTNEED holds the mmap_lock for read) or an rmap
 * walker may be at these PTEs.  Then the table goes to tlb if that left
 * it empty.
 */
static void zap_pte_range(struct mmu_gather *tlb, struct vm_area_struct *vma, pmd_t *pmd,
			  unsigned long addr, unsigned long end)
{
	unsigned long table_addr = addr;
	int cleared = 0, anon = 0, nr;
	spinlock_t *ptl;
	pte_t *pte = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);

	if (!pte)
		return;         /* no PTE table here any more */

	for (; addr < end; addr += (unsigned long)nr << PAGE_SHIFT, pte += nr) {
		struct page *page;
		struct folio *folio;

		nr = 1;
		if (!pgent_present(*pte))
			continue;
		page = vm_normal_page(vma, addr, *pte);
		if (unlikely(!page)) {
			ptep_get_and_clear(vma->vm_mm, addr, pte);
			tlb_flush_pte_range(tlb, addr, PAGE_SIZE);
			continue;
		}
		folio = page_folio(page);
		nr = folio_pte_batch(folio, pte, (end - addr) >> PAGE_SHIFT);
		anon += likely(folio_test_anon(folio)) ? nr : 0;
		zap_present_folio_ptes(tlb, vma, folio, page, pte, addr, nr);
		cleared += nr;
	}
	if (cleared) {
		add_mm_counter(vma->vm_mm, -anon);
		pte_table_add_used(pte_offset(pmd, table_addr), -cleared);
	}
	pte_unmap_unlock(pte, ptl);
	tlb_free_empty_tables(tlb, vma, table_addr, PT_PTE);
}

/*
 * Unmap every present page of [start, end) in vma, the folio references
 * gathered in tlb (Linux's unmap_page_range).  A PMD leaf wholly inside
 * the range goes at once; one only partly inside is split into PTEs first
 * (the folio stays whole until deferred split) — a file PMD's split zaps
 * it all, its other pages refault.
 */
void unmap_page_range(struct mmu_gather *tlb, struct vm_area_struct *vma,
		      unsigned long start, unsigned long end)
{
	pgd_t *pgd = vma->vm_mm->pgd;
	unsigned long addr = start, next;
	pmd_t *pmd;

	for (; (pmd = pmd_entry_next(pgd, &addr, end, &next)); addr = next) {
		if (pgent_huge(*pmd)) {
			if (IS_ALIGNED(addr, PMD_SIZE) && next - addr == PMD_SIZE) {
				if (zap_huge_pmd(tlb, vma, pmd, addr))
					continue;
			} else {
				__split_huge_pmd(vma, pmd, addr);
			}
			if (pgent_none(*pmd))
				continue;
		}
		zap_pte_range(tlb, vma, pmd, addr, next);
	}
}

/* Unmap [start, end) of vma with a gather of its own (madvise, truncation). */
void zap_page_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct mmu_gather tlb;

	tlb_gather_mmu(&tlb, vma->vm_mm);
	unmap_page_range(&tlb, vma, start, end);
	tlb_finish_mmu(&tlb);
}
