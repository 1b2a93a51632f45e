/*
 * How the memory views of /proc (maps, smaps, numa_maps, status,
 * pagemap, clear_refs, PROCMAP_QUERY) hold another process's mm while
 * they walk it, as Linux's fs/proc/task_mmu.c does: the file's inode keeps
 * only the struct (mmgrab); a walk pins the mappings too (mmget_not_zero,
 * so exit_mmap() cannot tear them down under it), reads the VMA list under
 * the mmap_lock held for read (so munmap cannot free a VMA or a page
 * table under it) and each page-table entry under its table's lock (so a
 * PMD split, a COW or a zap on another CPU is seen before or after, never
 * half done).  Nothing here touches user memory: a fault would take the
 * mmap_lock again, and a writer waiting between the two deadlocks it.
 * The callers make their text or records in a kernel buffer and copy it
 * out after proc_mm_unlock().
 *
 * Lock order: see mm/rmap.c (mmap_lock, then pmd_lock or a PTE table's
 * lock, never both here).
 */
#include "fs/proc/internal.h"
#include "linux/sched.h"
#include "linux/mmap_lock.h"
#include "linux/pgtable.h"
#include "linux/swapops.h"

/*
 * The mm bound to inode, pinned and with its mmap_lock held for read
 * (what Linux's m_start does); NULL if there is none or no task uses it
 * any more (exited, or exec'd away).  proc_mm_unlock() gives both back.
 */
struct mm_struct *proc_mm_lock(struct inode *inode)
{
	struct mm_struct *mm = PROC_I(inode)->mm;

	if (!mm || !mmget_not_zero(mm))
		return NULL;
	mmap_read_lock(mm);
	return mm;
}

/* Undo proc_mm_lock() (Linux's m_stop); may tear the mm down if it was its last user. */
void proc_mm_unlock(struct mm_struct *mm)
{
	mmap_read_unlock(mm);
	mmput(mm);
}

/*
 * The range [addr, end) of one PMD entry: a PMD leaf goes to pmd_entry
 * under pmd_lock (a PMD migration entry to swap_pmd_entry), the present
 * entries of a PTE table to pte_entry and its migration entries to
 * swap_pte_entry, under the table's lock.  False if the entry turned from a PTE table into
 * something else between the two looks (the caller looks again).
 */
static bool proc_walk_pmd(struct proc_walk *walk, pmd_t *pmd, unsigned long addr,
			  unsigned long end)
{
	struct mm_struct *mm = walk->vma->vm_mm;
	spinlock_t *ptl = pmd_lock(mm, pmd);
	pmd_t pmdval = *pmd;
	pte_t *pte;

	if (!pmd_present(pmdval) || pmd_trans_huge(pmdval)) {
		if (pmd_present(pmdval) && walk->ops->pmd_entry)
			walk->ops->pmd_entry(walk, pmd, addr, end);
		else if (is_pmd_migration_entry(pmdval) && walk->ops->swap_pmd_entry)
			walk->ops->swap_pmd_entry(walk, pmd, addr, end);
		spin_unlock(ptl);
		return true;
	}
	spin_unlock(ptl);
	pte = pte_offset_map_lock(mm, pmd, addr, &ptl);
	if (!pte)
		return false;
	for (; addr < end; addr += PAGE_SIZE, pte++) {
		if (pte_present(*pte))
			walk->ops->pte_entry(walk, pte, addr);
		else if (is_swap_pte(*pte) && walk->ops->swap_pte_entry)
			walk->ops->swap_pte_entry(walk, pte, addr);
	}
	pte_unmap_unlock(pte, ptl);
	return true;
}

/*
 * Visit every present entry mapping [start, end), inside walk->vma (a
 * small Linux's walk_page_range with its callbacks' locking done here);
 * none of a PFN map (the vDSO), whose frames are no pages of the mm.
 * The caller holds the mmap_lock (proc_mm_lock()): page tables are freed
 * only under it held for write, so the upper levels stay while we look.
 */
void proc_walk_range(struct proc_walk *walk, unsigned long start, unsigned long end)
{
	struct mm_struct *mm = walk->vma->vm_mm;
	unsigned long addr = start, next;
	pmd_t *pmd;

	mmap_assert_locked(mm);
	if (walk->vma->vm_flags & VM_PFNMAP)
		return;         /* no pages to show, a hole (Linux's walk_page_test) */
	for (; (pmd = pmd_entry_next(mm->pgd, &addr, end, &next)); addr = next)
		while (!proc_walk_pmd(walk, pmd, addr, next))
			;
}
