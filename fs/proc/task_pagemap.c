/*
 * /proc/<pid>/pagemap and clear_refs, in Linux's formats (the second half
 * of Linux's fs/proc/task_mmu.c; maps and smaps are in task_mmu.c).  The
 * file's inode holds the process's mm (fs/proc/base.c).
 *
 * pagemap: one 64-bit entry per virtual page: the PFN (a teaching kernel
 * shows it), PM_SOFT_DIRTY, PM_MMAP_EXCLUSIVE (per mode: see
 * page_mapped_exclusively()), PM_FILE for a page-cache page, PM_PRESENT.
 *
 * Lock order: see mm/rmap.c; none taken, as in fs/proc/root.c.
 */
#include "linux/errno.h"
#include "fs/proc/internal.h"
#include "linux/string.h"
#include "linux/sched.h"
#include "mm/pgtable.h"
#include "mm/mm_api.h"

#define PM_PFRAME_MASK          ((1UL << 55) - 1)
#define PM_SOFT_DIRTY           (1UL << 55)
#define PM_MMAP_EXCLUSIVE       (1UL << 56)
#define PM_FILE                 (1UL << 61)
#define PM_PRESENT              (1UL << 63)

/*
 * The pagemap entry of one virtual page of the bound mm.  Soft-dirty:
 * its entry's bit, or all of a VMA mapped or made soft-dirty since the
 * last clear_refs 4 (Linux's VM_SOFTDIRTY), holes in it too.  A zero page
 * shows its PFN, never PM_MMAP_EXCLUSIVE: it is everybody's; the huge
 * zero folio, no anon folio, shows PM_FILE as in Linux, and so does every
 * page-cache page (a file's, shmem's).
 */
static u64 pagemap_record(struct inode *inode, unsigned long vpn)
{
	struct mm_struct *mm = PROC_I(inode)->mm;
	unsigned long addr = vpn << PAGE_SHIFT, pfn;
	struct vm_area_struct *vma = find_vma(mm, addr);
	u64 sd = vma && vma->vm_start <= addr && (vma->vm_flags & VM_SOFTDIRTY) ? PM_SOFT_DIRTY : 0;
	struct pgwalk w;
	struct page *page;
	struct folio *folio;
	bool zero;

	if (list_empty(&mm->mmap) || !pgtable_lookup(mm->pgd, addr, &w))
		return sd;
	pfn = w.phys >> PAGE_SHIFT;
	page = pfn_to_page(pfn);
	folio = page_folio(page);
	zero = is_zero_pfn(pfn) || is_huge_zero_pfn(pfn);
	return (pfn & PM_PFRAME_MASK) | PM_PRESENT |
	       (is_huge_zero_pfn(pfn) || (!zero && !folio_test_anon(folio)) ? PM_FILE : 0) |
	       (pgent_soft_dirty(w.entry[w.leaf_level]) ? PM_SOFT_DIRTY : sd) |
	       (!zero && page_mapped_exclusively(folio, page) ? PM_MMAP_EXCLUSIVE : 0);
}

/* Does a task still use mm (Linux's mmget_not_zero: mm_users > 0)? */
bool mm_has_users(struct mm_struct *mm)
{
	return READ_ONCE(mm->mm_users) > 0;
}

/* Records from the file position on; EOF (0) once the mm has gone (exit, exec), as Linux. */
static long pagemap_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	struct mm_struct *mm = PROC_I(file_inode(file))->mm;

	if (!mm || !mm_has_users(mm))
		return 0;
	return proc_read_records(file, ubuf, count, pos, TASK_SIZE_MAX >> PAGE_SHIFT,
				 pagemap_record);
}

const struct file_operations proc_pagemap_operations = {
	.llseek = seq_lseek,
	.read = pagemap_read,
};


enum clear_refs_types {
	CLEAR_REFS_ALL = 1,
	CLEAR_REFS_ANON,
	CLEAR_REFS_MAPPED,
	CLEAR_REFS_SOFT_DIRTY,
	CLEAR_REFS_MM_HIWATER_RSS,
	CLEAR_REFS_LAST,
};

/* A present entry after clear_refs: old, or (soft-dirty) write-protected and soft-clean. */
static pgent_t clear_refs_entry(pgent_t e, int type)
{
	if (type == CLEAR_REFS_SOFT_DIRTY)
		return pgent_clear_soft_dirty(pgent_wrprotect(e));
	return pgent_mkold(e);
}

/*
 * Clear the referenced or soft-dirty state of every present entry of vma
 * (Linux's clear_refs_pte_range).  Write-protecting makes the next write
 * fault, and the fault marks the entry soft-dirty again; an exclusive
 * page is reused then, not copied.
 */
static void clear_refs_vma(struct vm_area_struct *vma, int type)
{
	pgd_t *pgd = vma->vm_mm->pgd;
	unsigned long addr = vma->vm_start, next;
	pmd_t *pmd;

	for (; (pmd = pmd_entry_next(pgd, &addr, vma->vm_end, &next)); addr = next) {
		pte_t *pte;

		if (pgent_huge(*pmd)) {
			*pmd = clear_refs_entry(*pmd, type);
			continue;
		}
		pte = pte_offset(pmd, addr);
		for (unsigned long a = addr; a < next; a += PAGE_SIZE, pte++)
			if (pgent_present(*pte))
				*pte = clear_refs_entry(*pte, type);
	}
}

/*
 * /proc/<pid>/clear_refs (Linux's clear_refs_write): 1 clears the
 * referenced (accessed) bits of all memory, 2 those of the anonymous VMAs,
 * 3 those of the file VMAs (Linux's clear_refs_test_walk), 4 the
 * soft-dirty bits; 5 resets the peak RSS (VmHWM) to the current one.  0
 * (also once the process has exited), or -EINVAL for another value.
 */
int clear_refs_write(struct file *file, char *buf, size_t len)
{
	struct mm_struct *mm = PROC_I(file_inode(file))->mm;
	struct vm_area_struct *vma;
	const char *end;
	long type = simple_strtoul(buf, &end, 10);

	if (end == buf || (*end && strcmp(end, "\n")) || type < CLEAR_REFS_ALL ||
	    type >= CLEAR_REFS_LAST)
		return -EINVAL;
	if (!mm || !mm_has_users(mm))
		return 0;                               /* exited: nothing to clear, as Linux */
	if (type == CLEAR_REFS_MM_HIWATER_RSS) {        /* Linux's reset_mm_hiwater_rss */
		mm->hiwater_rss = mm->rss_anon + mm->rss_file + mm->rss_shmem;
		return 0;
	}
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if ((type == CLEAR_REFS_ANON && vma->vm_file) ||
		    (type == CLEAR_REFS_MAPPED && !vma->vm_file))
			continue;
		if (type == CLEAR_REFS_SOFT_DIRTY)
			vma->vm_flags &= ~VM_SOFTDIRTY;
		clear_refs_vma(vma, type);
	}
	flush_tlb_mm(mm);
	return 0;
}

/* Reading clear_refs gives nothing (Linux's file is write-only). */
int clear_refs_show(struct seq_file *m, void *v)
{
	return 0;
}
