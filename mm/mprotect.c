/*
 * mprotect (Linux's mm/mprotect.c): VMAs are split at the range's edges,
 * their flags set, and their present entries rewritten (change_protection);
 * equal neighbours merge again.  The argument checks come in
 * Linux's order, and like Linux a hole stops the walk after the VMAs
 * before it were changed.
 *
 * Lock order: see mm/rmap.c; the caller holds the mmap_lock for write,
 * and each PTE table's lock is taken around its entries' rewrite (a
 * truncation may be zapping them from another process); the MMUs of
 * other CPUs running this mm's threads set A/D bits meanwhile
 * (linux/pgtable.h's atomic helpers keep them).  Between PMD tables the
 * walk may give the CPU away (cond_resched), holding only the mmap_lock.
 */
#include "linux/errno.h"
#include "mm/internal.h"
#include "linux/mm.h"
#include "linux/swapops.h"
#include "linux/mmap_lock.h"

/*
 * A migration entry under mprotect (Linux's change_pte_range does this to
 * every one): a writable one turns read-only (exclusive still), so the
 * PTE remove_migration_ptes() makes is not writable against the new
 * protection; the write fault that follows finds the page exclusive.  A
 * swap entry stays as it is: its swap-in asks the VMA for the protection.
 */
static noinline_fn void change_nonpresent_pte(struct vm_area_struct *vma, unsigned long addr,
					      pte_t *pte)
{
	if (is_migration_entry(pte_to_swp_entry(*pte)))
		set_pte_at(vma->vm_mm, addr, pte, migration_pte_wrprotect(*pte, true));
}

/*
 * Rewrite the present PTEs of [addr, end), under pmd, for vma's
 * permissions, under the PTE table's lock (Linux's change_pte_range): each
 * by ptep_modify_prot_start/_commit, so the A/D bits a CPU of another
 * thread sets up to the start stay in the new entry.  Returns how many it
 * rewrote; the caller flushes them.
 */
static unsigned long change_pte_range(struct vm_area_struct *vma, pmd_t *pmd, unsigned long addr,
				      unsigned long end)
{
	unsigned long pages = 0;
	spinlock_t *ptl;
	pte_t *pte = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);

	if (!pte)
		return 0;
	for (; addr < end; addr += PAGE_SIZE, pte++) {
		struct page *page;
		pte_t oldpte;

		if (!pte_present(*pte)) {
			if (unlikely(!pte_none(*pte)))
				change_nonpresent_pte(vma, addr, pte);
			continue;
		}
		page = vm_normal_page(vma, addr, *pte);  /* the zero page stays read-only */
		oldpte = ptep_modify_prot_start(vma->vm_mm, addr, pte);
		ptep_modify_prot_commit(vma->vm_mm, addr, pte, oldpte, pte_modify(oldpte,
				vma_pgprot(vma, can_change_pte_writable(vma, oldpte, page))));
		pages++;
	}
	pte_unmap_unlock(pte, ptl);
	return pages;
}

/*
 * Rewrite the present entries of [start, end) for vma's (new) permissions.
 * Write permission goes only where can_change_pte_writable() allows; the
 * others (and the zero pages) stay read-only so that a write still takes
 * the copy-on-write (or soft-dirty) fault.  A
 * PMD leaf partly inside the range is split first (Linux's
 * change_protection, mm/mprotect.c).
 */
void change_protection(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	pgd_t *pgd = vma->vm_mm->pgd;
	unsigned long addr = start, next, pages = 0;
	pmd_t *pmd;

	for (; (pmd = pmd_entry_next(pgd, &addr, end, &next)); addr = next) {
		if (is_swap_pmd(*pmd))  /* a PMD migration entry: its 512 PTE entries go below */
			__split_huge_pmd(vma, pmd, addr);
		if (pmd_trans_huge(*pmd)) {
			if (IS_ALIGNED(addr, PMD_SIZE) && next - addr == PMD_SIZE) {
				if (change_huge_pmd(vma, pmd, addr))
					continue;
			} else {
				__split_huge_pmd(vma, pmd, addr);
			}
			if (pmd_none(*pmd))
				continue;       /* a file PMD: zapped, its pages refault */
		}
		pages += change_pte_range(vma, pmd, addr, next);
		cond_resched();
	}
	if (pages)      /* a downgraded PTE may be cached: no CPU writes through it after this */
		flush_tlb_range(vma, start, end);
}

/* Give [start, end), inside vma, the access flags newflags (Linux's mprotect_fixup). */
static int mprotect_fixup(struct vm_area_struct *vma, unsigned long start, unsigned long end,
			  unsigned long newflags)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long oldflags = vma->vm_flags, nrpages = (end - start) >> PAGE_SHIFT;

	mmap_assert_write_locked(mm);
	if ((oldflags & VM_ACCESS_FLAGS) == newflags)
		return 0;
	newflags |= oldflags & ~VM_ACCESS_FLAGS;
	/*
	 * Memory that turns into data must fit RLIMIT_DATA, and private memory
	 * that becomes writable for the first time is charged to the commit
	 * (Linux's checks; it stays charged when made read-only again).
	 */
	if (newflags & VM_WRITE) {
		if (!may_expand_vm(mm, newflags, nrpages) && may_expand_vm(mm, oldflags, nrpages))
			return -ENOMEM;
		if (!(oldflags & (VM_ACCOUNT | VM_WRITE | VM_SHARED | VM_NORESERVE))) {
			if (vm_enough_memory(nrpages))
				return -ENOMEM;
			newflags |= VM_ACCOUNT;
		}
	}
	if (split_vmas_at(mm, start, end))
		return -ENOMEM;
	vma = find_vma(mm, start);
	vma->vm_flags = newflags;
	change_protection(vma, start, end);
	/*
	 * Locked private memory made writable: break its copy-on-write now,
	 * as mlock would have (Linux's mprotect_fixup), so a locked page
	 * never waits for a fault.  What fails is left to the fault.
	 */
	if ((oldflags & (VM_WRITE | VM_SHARED | VM_LOCKED)) == VM_LOCKED && (newflags & VM_WRITE))
		populate_vma_page_range(vma, start, end);
	return 0;
}

/*
 * Where mprotect begins: checks the first VMA as Linux's do_mprotect_pkey
 * (ENOMEM for a hole at start; PROT_GROWSDOWN moves *start down to the
 * start of a VM_GROWSDOWN VMA, EINVAL on any other; no VMA grows up on x86).
 */
static int mprotect_start(struct mm_struct *mm, unsigned long *start, unsigned long end,
			  unsigned long grows)
{
	struct vm_area_struct *vma = find_vma(mm, *start);

	if (!vma || vma->vm_start >= end)
		return -ENOMEM;
	if (grows & PROT_GROWSDOWN) {
		if (!(vma->vm_flags & VM_GROWSDOWN))
			return -EINVAL;
		*start = vma->vm_start;
	} else if (vma->vm_start > *start) {
		return -ENOMEM;
	} else if (grows & PROT_GROWSUP) {
		return -EINVAL;
	}
	return 0;
}

/*
 * Change the protection of [start, start + len) to prot (PROT_* bits, maybe
 * with PROT_GROWSDOWN: from the start of the stack VMA holding start).
 * Linux's do_mprotect_pkey: 0, -EINVAL (misaligned, unknown bits, GROWSUP
 * or GROWSDOWN where nothing grows) or -ENOMEM (wraps, unmapped, a hole,
 * or out of memory).
 */
int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len, unsigned long prot)
{
	const unsigned long grows = prot & (PROT_GROWSDOWN | PROT_GROWSUP);
	unsigned long end, addr, newflags;
	struct vm_area_struct *vma;
	int ret;

	prot &= ~grows;
	if (grows == (PROT_GROWSDOWN | PROT_GROWSUP) || !IS_ALIGNED(start, PAGE_SIZE))
		return -EINVAL;
	if (!len)
		return 0;
	end = start + ALIGN_UP(len, PAGE_SIZE);
	if (end <= start)
		return -ENOMEM;
	if (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_SEM))
		return -EINVAL;
	newflags = calc_vm_prot_bits(prot);
	ret = mprotect_start(mm, &start, end, grows);
	for (addr = start; addr < end && !ret; addr = vma->vm_end) {
		vma = find_vma(mm, addr);
		if (!vma || vma->vm_start > addr) {
			ret = -ENOMEM;          /* a hole: the VMAs before it keep their change */
			break;
		}
		/*
		 * Only what VM_MAY* allows (Linux's check): a shared mapping of a
		 * file opened read-only never becomes writable, nor does the vDSO.
		 */
		if ((newflags & ~(vma->vm_flags >> 4)) & VM_ACCESS_FLAGS) {
			ret = -EACCES;
			break;
		}
		ret = mprotect_fixup(vma, addr, MIN(end, vma->vm_end), newflags);
		vma = find_vma(mm, addr);
	}
	vma_merge_all(mm);
	return ret;
}
