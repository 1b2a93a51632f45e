/*
 * Page faults of anonymous memory (Linux's mm/memory.c; unmapping is
 * mm/memory_zap.c, faults of files mm/memory_file.c).
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
 * (do_wp_page; docs/large-folio-series.md, "COW reuse"): reuse the page when this mm is its
 * only user — for a large folio, proved through the MM owner slots under
 * the mapcount lock — else copy one 4 KiB page.  A write to the zero page
 * gets a new zeroed 4 KiB page (Linux's wp_page_copy: no large folio for
 * it, as Linux).
 *
 * Every PTE or PMD that maps a folio holds one folio reference; the zero
 * pages are no folio of anybody's (linux/pgtable.h) and hold none.
 *
 * Locks: the caller holds the mmap_lock for read (for write: an mm
 * change); a fault maps under the page-table lock and rechecks there what
 * it saw before it allocated, backing out (the access is retried) when
 * another CPU changed the entry meanwhile.  Order: mm/rmap.c.
 */
#include "linux/errno.h"
#include "linux/pagemap.h"
#include "mm/internal.h"
#include "linux/rmap.h"
#include "linux/huge_mm.h"
#include "mm/deferred_split.h"
#include "mm/rmap_trace.h"
#include "linux/memblock.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/vmstat.h"
#include "mm/tlb.h"
#include "linux/swapops.h"
#include "mm/migrate.h"
#include "linux/mmap_lock.h"
#include "linux/swap.h"

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
		struct folio *folio = folio_alloc(GFP_TRANSHUGE_LIGHT | __GFP_ZERO, order);

		if (folio) {
			count_mthp_stat(order, MTHP_STAT_ANON_FAULT_ALLOC);
			*addrp = ALIGN_DOWN(address, PAGE_SIZE << order);
			return folio;
		}
		count_mthp_stat(order, MTHP_STAT_ANON_FAULT_FALLBACK);
	}
	*addrp = address & PAGE_MASK;
	return folio_alloc(GFP_HIGHUSER_MOVABLE | __GFP_ZERO, 0);   /* may reclaim: no lock held */
}

/*
 * A fault on a none PTE of an anon VMA (Linux's do_anonymous_page): a
 * read maps the shared zero page read-only by a special PTE (no folio, no
 * rmap, no RSS); a write maps a new zeroed folio, all its pages by PTEs,
 * exclusive to this mm, each PTE holding a folio reference.  The folio is
 * allocated unlocked; under the PTL its PTEs must still be none, else
 * another CPU mapped something there first: the folio goes back and the
 * access is retried.  0 or VM_FAULT_OOM.
 */
static vm_fault_t do_anonymous_page(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct mm_struct *mm = vma->vm_mm;
	unsigned long addr = vmf->address, nr = 1;
	struct folio *folio = NULL;

	if (vmf->flags & FAULT_FLAG_WRITE) {
		pmd_t pmdval = pmdp_get(vmf->pmd);

		if (!pmd_present(pmdval) || pmd_trans_huge(pmdval))
			return 0;
		folio = alloc_anon_folio(vma, vmf->address,
					 pmd_page_vaddr(pmdval) + pte_index(vmf->address), &addr);
		if (!folio)
			return VM_FAULT_OOM;
		nr = folio_nr_pages(folio);
	}
	vmf->pte = pte_offset_map_lock(mm, vmf->pmd, addr, &vmf->ptl);
	if (!vmf->pte || !pte_range_none(vmf->pte, nr))
		goto release;
	if (!folio) {
		set_pte_at(mm, addr, vmf->pte,
			   pte_mkspecial(pfn_pte(my_zero_pfn(addr), vma_pgprot(vma, false))));
		goto unlock;
	}
	folio_ref_add(folio, nr - 1);
	folio_add_new_anon_rmap(folio, vma, addr, RMAP_EXCLUSIVE);
	folio_add_lru(folio);
	set_ptes(mm, addr, vmf->pte,
		 pte_mksoft_dirty(pfn_pte(folio_pfn(folio), vm_get_page_prot(vma))), nr);
	add_mm_counter(mm, nr);
	folio = NULL;
release:
	if (folio)
		folio_put(folio);
unlock:
	if (vmf->pte)
		pte_unmap_unlock(vmf->pte, vmf->ptl);
	return 0;
}

/*
 * An unshare request or a FOLL_FORCE write (a VMA without VM_WRITE) on a
 * PMD leaf: done if the THP is exclusive already, else the PMD is split
 * and the PTE path unshares or copies the one page (Linux reuses or
 * splits at the PMD level; splitting is what it does when it cannot
 * reuse).  true if the PTE path must go on.  Under pmd_lock.
 */
static bool huge_pmd_unshare_or_force(struct vm_fault *vmf)
{
	if (PageAnonExclusive(pfn_to_page(pmd_pfn(*vmf->pmd))))
		return false;
	__split_huge_pmd_locked(vmf->vma, vmf->pmd, vmf->address);
	return true;
}

/*
 * A fault on a PMD leaf (Linux's wp_huge_pmd and its callers), under
 * pmd_lock: 0 when it is resolved — or the leaf changed meanwhile (the
 * access is retried) —, VM_FAULT_FALLBACK when the PTE level must go on.
 * A write or unshare on a file PMD is done at the PTE level: the PMD is
 * split — zapped — and the pages refault by PTEs.
 */
static vm_fault_t wp_huge_pmd_locked(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	bool write = vmf->flags & FAULT_FLAG_WRITE;

	if (!pmd_present(*vmf->pmd) || !pmd_trans_huge(*vmf->pmd))
		return 0;
	if (!vma_is_anonymous(vma)) {
		if (!(vmf->flags & (FAULT_FLAG_WRITE | FAULT_FLAG_UNSHARE)) || pmd_write(*vmf->pmd))
			return 0;
		__split_huge_pmd_locked(vma, vmf->pmd, vmf->address);
		return VM_FAULT_FALLBACK;
	}

	if (vmf->flags & FAULT_FLAG_UNSHARE || (write && !(vma->vm_flags & VM_WRITE)))
		return huge_pmd_unshare_or_force(vmf) ? VM_FAULT_FALLBACK : 0;
	if (!write || pmd_write(*vmf->pmd))
		return 0;       /* the PMD allows it now: a stale TLB entry */
	return do_huge_pmd_wp_page(vmf);
}

static vm_fault_t wp_huge_pmd(struct vm_fault *vmf)
{
	vm_fault_t ret;

	vmf->ptl = pmd_lock(vmf->vma->vm_mm, vmf->pmd);
	ret = wp_huge_pmd_locked(vmf);
	spin_unlock(vmf->ptl);
	return ret;
}

/*
 * May this mm reuse a page of a PTE-mapped large anon folio for writing
 * (Linux's __wp_can_reuse_large_anon_folio)?  Only when the MM owner slots
 * prove that all mappings are this mm's and nothing else holds a
 * reference: not maybe-shared, and refcount == large mapcount, checked
 * again under the mapcount lock.  A single mapping is not reused: copying
 * the one page lets the folio go.
 */
static __always_inline bool __wp_can_reuse_large_anon_folio(struct folio *folio,
							    struct vm_area_struct *vma)
{
	bool exclusive = false;

	if (folio_large_mapcount(folio) <= 1)
		return false;
	if (folio_test_large_maybe_mapped_shared(folio))
		return false;
	if (folio_large_mapcount(folio) != folio_ref_count(folio))
		return false;
	folio_lock_large_mapcount(folio);
	if (folio_test_large_maybe_mapped_shared(folio))
		goto unlock;
	VM_WARN_ON_ONCE(folio_large_mapcount(folio) > folio_ref_count(folio),
			"large mapcount above refcount: a mapping without its reference");
	if (folio_large_mapcount(folio) != folio_ref_count(folio))
		goto unlock;
	VM_WARN_ON_ONCE(folio_total_mapped_pages(folio) > (unsigned long)folio_nr_pages(folio),
			"reuse: a page mapped twice by one mm");
	VM_WARN_ON_ONCE(!IS_ENABLED(CONFIG_MAPCOUNT_PAGES) && folio_nr_pmd_mappings(folio),
			"reuse: PTE fault on a PMD-mapped folio");
	VM_WARN_ON_ONCE(folio_mm_id(folio, 0) != vma->vm_mm->mm_id &&
			folio_mm_id(folio, 1) != vma->vm_mm->mm_id,
			"reuse: exclusive folio without this mm in a slot");
	exclusive = true;
unlock:
	folio_unlock_large_mapcount(folio);
	return exclusive;
}

/* The PMD write fault's view of __wp_can_reuse_large_anon_folio() (mm/huge_memory.c). */
bool wp_can_reuse_large_anon_folio(struct folio *folio, struct vm_area_struct *vma)
{
	return __wp_can_reuse_large_anon_folio(folio, vma);
}

/*
 * May this mm reuse the page for writing?  A small folio it holds the only
 * reference to (the swap cache's given up, if no swap entry needs it) is
 * ours alone from now on: it moves to vma's anon_vma
 * (Linux's wp_can_reuse_anon_folio; a large one stays where it is, as in
 * Linux: other pages of it may be mapped elsewhere).  Under the PTL; the
 * small folio's refcount is checked again under the folio lock, which
 * folio_move_anon_rmap() needs (a folio locked elsewhere is copied).  A
 * folio not on the LRU yet may owe one reference to an LRU batch: the
 * batches are emptied first (Linux empties this CPU's; foliOS every
 * CPU's, so a task that moved since the fault still reuses).
 */
static __always_inline bool wp_can_reuse_anon_folio(struct folio *folio,
						     struct vm_area_struct *vma)
{
	if (folio_test_large(folio))
		return __wp_can_reuse_large_anon_folio(folio, vma);
	if (folio_ref_count(folio) > 2 + folio_test_swapcache(folio))
		return false;
	if (!folio_test_lru(folio))     /* a new folio: an LRU batch may hold the extra reference */
		lru_add_drain_all();
	if (folio_ref_count(folio) > 1 + folio_test_swapcache(folio) || !folio_trylock(folio))
		return false;
	if (folio_test_swapcache(folio))
		folio_free_swap(folio);         /* the swap copy is stale once written */
	if (folio_ref_count(folio) != 1) {
		folio_unlock(folio);
		return false;
	}
	folio_move_anon_rmap(folio, vma);
	folio_unlock(folio);
	return true;
}

/*
 * Copy-on-write of one 4 KiB page (Linux's wp_page_copy): a new exclusive
 * order-0 anon folio replaces vmf->page in the PTE; the old folio — anon,
 * or a page-cache folio of a private file mapping — loses one mapping
 * (which may free this mm's slot and clear the shared bit).
 * vmf->page NULL: the PTE maps the zero page, the new page is zeroed and
 * there is no old folio to let go.  Called with the PTL held and the PTE
 * seen as vmf->orig_pte; allocates with it dropped (the allocation may
 * reclaim), the old folio held (reclaim and splits must not take it from
 * under us), then retakes it: a PTE no
 * longer orig_pte means another CPU resolved the fault, the copy goes
 * back and the access is retried.  Break before make: the old PTE is
 * cleared and flushed from every TLB before the new one is set, then the
 * old mapping leaves the rmap.  Returns unlocked: 0 or VM_FAULT_OOM.
 */
static __always_inline vm_fault_t wp_page_copy(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct page *page = vmf->page;
	struct folio *folio = page ? page_folio(page) : NULL, *new;
	struct mm_struct *mm = vma->vm_mm;

	if (page)
		folio_get(folio);
	pte_unmap_unlock(vmf->pte, vmf->ptl);
	new = anon_vma_prepare(vma) ? NULL : folio_alloc(GFP_HIGHUSER_MOVABLE | (page ? 0 : __GFP_ZERO), 0);
	if (!new)
		goto out;
	if (page)
		memcpy(page_address(&new->page), page_address(page), PAGE_SIZE);
	spin_lock(vmf->ptl);
	if (unlikely(!pte_same(*vmf->pte, vmf->orig_pte))) {
		pte_unmap_unlock(vmf->pte, vmf->ptl);
		folio_put(new);
		goto out;
	}
	ptep_clear_flush(vma, vmf->address, vmf->pte);
	folio_add_new_anon_rmap(new, vma, vmf->address, RMAP_EXCLUSIVE);
	folio_add_lru(new);
	set_pte_at(mm, vmf->address, vmf->pte,
		   pte_mksoft_dirty(pfn_pte(folio_pfn(new), vm_get_page_prot(vma))));
	if (!page || !folio_test_anon(folio))
		add_mm_counter(mm, 1);
	if (page && !folio_test_anon(folio))
		add_mm_counter_file(mm, folio, -1);
	if (page)
		folio_remove_rmap_pte(folio, page, vma);
	pte_unmap_unlock(vmf->pte, vmf->ptl);
	if (page) {
		free_swap_cache(folio);         /* its last mapping may be gone: no LRU to drop it */
		folio_put_refs(folio, 2);       /* the old PTE's reference and ours */
	}
	return 0;
out:
	if (page)
		folio_put(folio);
	return new ? 0 : VM_FAULT_OOM;
}

/*
 * A write to a present, write-protected PTE (Linux's do_wp_page), or an
 * unshare request (FAULT_FLAG_UNSHARE: a R/O pin wants the page
 * exclusive), with the PTL held; returns with it dropped.  A shared
 * mapping makes the page writable in place (wp_page_shared).  A private
 * one reuses an anon page if it is already PageAnonExclusive or
 * wp_can_reuse_anon_folio() says this mm is its only user — then only
 * this page becomes exclusive — else copies it; the zero page and a
 * page-cache page are always replaced.  Only a write to a VM_WRITE mapping
 * makes the PTE writable (Linux's maybe_mkwrite): an unshare leaves it
 * read-only, and so does a FOLL_FORCE write to a R/O mapping.
 */
static __always_inline vm_fault_t do_wp_page(struct vm_fault *vmf)
{
	/* Locals, not vmf's fields: they stay in registers across the locks' barriers. */
	struct vm_area_struct *vma = vmf->vma;
	pte_t *pte = vmf->pte, orig_pte = vmf->orig_pte;
	spinlock_t *ptl = vmf->ptl;
	struct page *page = vm_normal_page(vma, vmf->address, orig_pte);
	struct folio *folio;

	lockdep_assert_held(ptl);
	vmf->page = page;
	if (unlikely(vma->vm_flags & (VM_SHARED | VM_MAYSHARE))) {
		wp_page_shared(vmf);
		pte_unmap_unlock(pte, ptl);
		return 0;
	}
	if (unlikely(!page))
		return wp_page_copy(vmf);                       /* the zero page */
	folio = page_folio(page);
	if (unlikely(!folio_test_anon(folio)))
		return wp_page_copy(vmf);                       /* a private file page */
	if (!PageAnonExclusive(page)) {
		if (!wp_can_reuse_anon_folio(folio, vma))
			return wp_page_copy(vmf);
		SetPageAnonExclusive(page);
		rmap_trace_event(folio, RMAP_TRACE_REUSE, 1, vma);
	}
	if (!(vmf->flags & FAULT_FLAG_UNSHARE))         /* Linux's wp_page_reuse: dirty, maybe_mkwrite */
		ptep_set_access_flags(vma, vmf->address, pte, (vma->vm_flags & VM_WRITE) ?
				      pte_mkdirty(pte_mkwrite(orig_pte)) : pte_mkdirty(orig_pte));
	pte_unmap_unlock(pte, ptl);
	return 0;
}

/*
 * The PTE level of a fault (Linux's handle_pte_fault): a PTE table is
 * installed if *pmd is none, and the PTE read without its lock into
 * vmf->orig_pte (tables are not freed under the mmap_lock held for read).
 * A none PTE goes to the anon or file fault, which take the lock and look
 * again; a write-protected one to do_wp_page, with the lock taken and the
 * PTE rechecked; a swap-format one (a migration entry) to do_swap_page.
 * A PMD that is no PTE table by now means: retry the access.
 */
static __always_inline vm_fault_t handle_pte_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	pmd_t pmdval = pmdp_get(vmf->pmd);
	spinlock_t *ptl;
	pte_t *pte, entry;

	if (pmd_none(pmdval)) {
		if (__pte_alloc(vma->vm_mm, vmf->pmd))
			return VM_FAULT_OOM;
		pmdval = pmdp_get(vmf->pmd);
	}
	if (!pmd_present(pmdval) || pmd_trans_huge(pmdval))
		return 0;
	pte = pmd_page_vaddr(pmdval) + pte_index(vmf->address);
	entry = ptep_get(pte);
	vmf->pte = pte;
	vmf->orig_pte = entry;
	if (pte_none(entry))
		return vma_is_anonymous(vma) ? do_anonymous_page(vmf) : do_fault(vmf);
	if (unlikely(!pte_present(entry)))      /* not none: a swap-format entry */
		return do_swap_page(vmf);
	if (pte_write(entry) || !(vmf->flags & (FAULT_FLAG_WRITE | FAULT_FLAG_UNSHARE)))
		return 0;
	ptl = pte_lockptr(vma->vm_mm, pmdval);
	vmf->ptl = ptl;
	spin_lock(ptl);
	if (likely(pte_same(*pte, entry)))
		return do_wp_page(vmf);
	pte_unmap_unlock(pte, ptl);
	return 0;
}

/*
 * Resolve a fault at address in vma (Linux's __handle_mm_fault): the PMD
 * level first (a new THP, a write to a PMD-mapped one, or a wait for a
 * PMD migration entry to go), then the PTE level; a none entry of a VMA
 * with vm_ops faults through it (do_fault, mm/memory_file.c), which may
 * map a PMD.  The caller holds the mmap_lock.  0 (mapped, or retry the
 * access), or VM_FAULT_OOM / VM_FAULT_SIGBUS / VM_FAULT_SIGSEGV.
 */
static vm_fault_t __handle_mm_fault(struct vm_area_struct *vma, unsigned long address,
				    unsigned int flags)
{
	struct vm_fault vmf;            /* each level sets what it finds before the next reads it */
	bool anon = vma_is_anonymous(vma);
	pmd_t pmdval;

	mmap_assert_locked(vma->vm_mm);         /* vma and its tables stay (Linux: or the VMA lock) */
	vmf.vma = vma;
	vmf.address = address & PAGE_MASK;
	vmf.flags = flags;
	/* Linux prepares it where a fault allocates; every anon fault may. */
	if (anon && anon_vma_prepare(vma))
		return VM_FAULT_OOM;
	vmf.pmd = mm_alloc_pmd(vma->vm_mm, address);
	if (!vmf.pmd)
		return VM_FAULT_OOM;
	pmdval = pmdp_get(vmf.pmd);
	if (unlikely(!pmd_present(pmdval) || pmd_trans_huge(pmdval))) {
		if (is_swap_pmd(pmdval)) {      /* a THP being migrated: wait, then retry */
			pmd_migration_entry_wait(vma->vm_mm, vmf.pmd);
			return 0;
		}
		if (pmd_none(pmdval) && anon && thp_vma_allowable_orders(vma, THP_ORDERS_PMD)) {
			if (!(do_huge_pmd_anonymous_page(&vmf) & VM_FAULT_FALLBACK))
				return 0;
		} else if (pmd_trans_huge(pmdp_get(vmf.pmd))) {
			if (!(wp_huge_pmd(&vmf) & VM_FAULT_FALLBACK))
				return 0;
		}
		if (pmd_none(pmdp_get(vmf.pmd)) && !anon)
			return do_fault(&vmf);
	}
	return handle_pte_fault(&vmf);
}

/*
 * Count a fault that came to something in the faulting task's min_flt or
 * maj_flt (Linux's mm_account_fault), which getrusage() and
 * /proc/<pid>/stat report: not one that failed, nor one that will be
 * retried (its retry counts).  A GUP fault counts for the task that asked
 * (ptrace's, /proc/<pid>/mem's reader), as in Linux.
 */
static inline void mm_account_fault(unsigned int flags, vm_fault_t ret)
{
	if (ret & (VM_FAULT_ERROR | VM_FAULT_RETRY))
		return;
	task_account_fault(ret & VM_FAULT_MAJOR);
}

/*
 * A fault at address in vma, whose permissions the caller checked (Linux's
 * handle_mm_fault: the trap's access_error, fixup_user_fault's
 * vma_permits_fault, GUP's check_vma_flags — FOLL_FORCE may write where
 * the VMA may not).  The caller holds the mmap_lock.  0, or a
 * VM_FAULT_ERROR code that ends the access.
 */
vm_fault_t handle_mm_fault(struct vm_area_struct *vma, unsigned long address, unsigned int flags)
{
	vm_fault_t ret = __handle_mm_fault(vma, address, flags);

	mm_account_fault(flags, ret);
	return ret;
}
