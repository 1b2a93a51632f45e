/*
 * VMAs and the anonymous-memory system calls' work (Linux's mm/mmap.c):
 * mmap of anonymous memory, munmap (splitting VMAs), brk, and tearing an
 * address space down.  Each mm keeps its VMAs in a list sorted by address.
 *
 * Locking: see mm/mm_api.h.
 */
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mm_id.h"
#include "mm/pgtable.h"
#include "kernel/printk.h"

/* The first VMA that ends above addr (it may start above addr too), or NULL. */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list)
		if (addr < vma->vm_end)
			return vma;
	return NULL;
}

/*
 * Insert a VMA for [start, end), before the first VMA that starts at or
 * after end (so a VMA being split may still overlap it for a moment).
 * NULL if out of memory.
 */
struct vm_area_struct *vma_create(struct mm_struct *mm, unsigned long start,
				  unsigned long end, unsigned long vm_flags)
{
	struct vm_area_struct *vma = kzalloc(sizeof(*vma)), *pos;
	struct list_head *before = &mm->mmap;

	if (!vma)
		return NULL;
	vma->vm_start = start;
	vma->vm_end = end;
	vma->vm_mm = mm;
	vma->vm_flags = vm_flags;
	list_for_each_entry(pos, &mm->mmap, vm_list) {
		if (pos->vm_start >= end) {
			before = &pos->vm_list;
			break;
		}
	}
	list_add_tail(&vma->vm_list, before);
	return vma;
}

/*
 * Unmap [start, start + len): pages are zapped, VMAs trimmed, split or
 * removed.  0, -EINVAL (misaligned or outside user space) or -ENOMEM.
 */
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	unsigned long end = start + ALIGN_UP(len, PAGE_SIZE);
	struct vm_area_struct *vma, *tmp;

	if (!IS_ALIGNED(start, PAGE_SIZE) || !len || end > TASK_SIZE_MAX || end < start)
		return -EINVAL;
	vma = find_vma(mm, start);
	while (vma && &vma->vm_list != &mm->mmap && vma->vm_start < end) {
		struct list_head *next = vma->vm_list.next;
		unsigned long s = MAX(start, vma->vm_start), e = MIN(end, vma->vm_end);

		if (s > vma->vm_start && e < vma->vm_end) {     /* a hole in the middle */
			tmp = vma_create(mm, e, vma->vm_end, vma->vm_flags);
			if (!tmp)
				return -ENOMEM;
			next = &tmp->vm_list;
		}
		zap_page_range(vma, s, e);
		if (s > vma->vm_start) {
			vma->vm_end = s;
		} else if (e < vma->vm_end) {
			vma->vm_start = e;
		} else {
			list_del(&vma->vm_list);
			kfree(vma);
		}
		vma = next == &mm->mmap ? NULL : list_entry(next, struct vm_area_struct, vm_list);
	}
	return 0;
}

/*
 * A free range of len bytes below mm->mmap_base starting on a multiple of
 * align, the highest that fits; 0 if none.
 */
static unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long len,
				       unsigned long align)
{
	const unsigned long floor = 1UL << 30;
	unsigned long top = mm->mmap_base;
	struct vm_area_struct *vma;

	list_for_each_entry_reverse(vma, &mm->mmap, vm_list) {
		if (vma->vm_start >= top)
			continue;
		if (top >= len && vma->vm_end <= ALIGN_DOWN(top - len, align))
			return ALIGN_DOWN(top - len, align);
		top = vma->vm_start;
	}
	if (top < floor + len || ALIGN_DOWN(top - len, align) < floor)
		return 0;
	return ALIGN_DOWN(top - len, align);
}

/*
 * Map len bytes of anonymous memory at addr (a hint, or exact when fixed,
 * replacing what was there).  Returns the address or -errno: -EINVAL for
 * a misaligned fixed address, -ENOMEM for a range past user space or no room.
 */
long do_mmap_anon(struct mm_struct *mm, unsigned long addr, unsigned long len,
		  unsigned long vm_flags, bool fixed)
{
	len = ALIGN_UP(len, PAGE_SIZE);
	if (!len || len > TASK_SIZE_MAX)
		return -ENOMEM;
	if (fixed) {
		if (!IS_ALIGNED(addr, PAGE_SIZE))
			return -EINVAL;
		if (addr > TASK_SIZE_MAX - len)
			return -ENOMEM;
		if (do_munmap(mm, addr, len))
			return -ENOMEM;
	} else {
		/* Like Linux (since 6.7), a multiple of 2 MiB starts on a 2 MiB boundary: room for THPs. */
		addr = get_unmapped_area(mm, len, IS_ALIGNED(len, PMD_SIZE) ? PMD_SIZE : PAGE_SIZE);
		if (!addr)
			return -ENOMEM;
	}
	return vma_create(mm, addr, addr + len, vm_flags) ? (long)addr : -ENOMEM;
}

/*
 * Move the program break (Linux's brk()): grow by extending the heap VMA,
 * shrink by unmapping.  Returns the new break, or the old one on failure.
 */
unsigned long do_brk(struct mm_struct *mm, unsigned long brk)
{
	unsigned long old_end = ALIGN_UP(mm->brk, PAGE_SIZE), new_end = ALIGN_UP(brk, PAGE_SIZE);
	struct vm_area_struct *next;

	if (brk < mm->start_brk || brk >= STACK_TOP - STACK_SIZE_MAX)
		return mm->brk;
	if (new_end < old_end) {
		do_munmap(mm, new_end, old_end - new_end);
	} else if (new_end > old_end) {
		next = find_vma(mm, old_end);
		if (next && next->vm_start < new_end)
			return mm->brk;                 /* would run into a mapping */
		if (!vma_create(mm, old_end, new_end, VM_READ | VM_WRITE))
			return mm->brk;
	}
	mm->brk = brk;
	return brk;
}

/* Unmap everything and free the VMAs (exit, exec). */
void exit_mmap(struct mm_struct *mm)
{
	while (!list_empty(&mm->mmap)) {
		struct vm_area_struct *vma = list_first_entry(&mm->mmap, struct vm_area_struct, vm_list);

		zap_page_range(vma, vma->vm_start, vma->vm_end);
		list_del(&vma->vm_list);
		kfree(vma);
	}
	mm_free_deposited_tables(mm);
}

/* Split vma at addr (inside it): vma keeps [start, addr); returns the rest. */
static struct vm_area_struct *split_vma(struct vm_area_struct *vma, unsigned long addr)
{
	struct vm_area_struct *tail = vma_create(vma->vm_mm, addr, vma->vm_end, vma->vm_flags);

	if (!tail)
		return NULL;
	split_huge_pmd_address(vma, addr);
	vma->vm_end = addr;
	return tail;
}

/*
 * Make [start, end) (inside VMAs, no holes) begin and end on VMA
 * boundaries, splitting at most two VMAs.  0 or -ENOMEM.
 */
static int split_vmas_at(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	if (vma && vma->vm_start < start && !split_vma(vma, start))
		return -ENOMEM;
	vma = find_vma(mm, end);
	if (vma && vma->vm_start < end && !split_vma(vma, end))
		return -ENOMEM;
	return 0;
}

/* Merge each VMA with the next one when they touch and have equal flags. */
static void vma_merge_all(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *next;

	list_for_each_entry(vma, &mm->mmap, vm_list) {
		while (vma->vm_list.next != &mm->mmap) {
			next = list_entry(vma->vm_list.next, struct vm_area_struct, vm_list);
			if (next->vm_start != vma->vm_end || next->vm_flags != vma->vm_flags)
				break;
			vma->vm_end = next->vm_end;
			list_del(&next->vm_list);
			kfree(next);
		}
	}
}

/*
 * Change the permissions of [start, start + len) (Linux's mprotect): VMAs
 * are split at the edges, their flags set, present PTEs rewritten — a page
 * becomes writable only if it is exclusive to this mm, others keep waiting
 * for their copy-on-write fault — and equal neighbours merged again.
 * 0, -EINVAL, -ENOMEM (a hole in the range, or out of memory).
 */
int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len,
		unsigned long vm_flags)
{
	unsigned long end = start + ALIGN_UP(len, PAGE_SIZE), addr;
	struct vm_area_struct *vma;

	if (!IS_ALIGNED(start, PAGE_SIZE))
		return -EINVAL;
	if (!len)
		return 0;
	if (end <= start || end > TASK_SIZE_MAX)        /* wraps, or no VMA can be there */
		return -ENOMEM;
	for (addr = start; addr < end; addr = vma->vm_end) {   /* no holes allowed */
		vma = find_vma(mm, addr);
		if (!vma || vma->vm_start > addr)
			return -ENOMEM;
	}
	if (split_vmas_at(mm, start, end))
		return -ENOMEM;
	for (addr = start; addr < end; addr = vma->vm_end) {
		vma = find_vma(mm, addr);
		vma->vm_flags = (vma->vm_flags & ~(VM_READ | VM_WRITE | VM_EXEC)) | vm_flags;
		change_protection(vma, vma->vm_start, vma->vm_end);
	}
	vma_merge_all(mm);
	return 0;
}

/*
 * madvise: MADV_DONTNEED drops the pages (a partly covered THP has its PMD
 * split); MADV_HUGEPAGE / MADV_NOHUGEPAGE set the VMA's THP hint on just
 * the range (splitting VMAs; equal neighbours merge again).  Advice Linux
 * takes as a hint only (NORMAL, WILLNEED) is accepted and ignored.
 * 0, -EINVAL or -ENOMEM (a hole in the range: Linux's answer too).
 */
int do_madvise(struct mm_struct *mm, unsigned long start, unsigned long len, int advice)
{
	unsigned long end = start + ALIGN_UP(len, PAGE_SIZE), addr;
	struct vm_area_struct *vma;
	bool hole = false;

	if (advice != MADV_DONTNEED && advice != MADV_HUGEPAGE && advice != MADV_NOHUGEPAGE &&
	    advice != MADV_NORMAL && advice != MADV_WILLNEED)
		return -EINVAL;
	if (!IS_ALIGNED(start, PAGE_SIZE) || end < start || (len && end == start))
		return -EINVAL;
	if (end > TASK_SIZE_MAX)                /* no VMA can be there */
		return -ENOMEM;
	for (addr = start; addr < end; addr = vma->vm_end) {
		vma = find_vma(mm, addr);
		if (!vma || vma->vm_start >= end) {
			hole = true;
			break;
		}
		hole |= vma->vm_start > addr;
	}
	if ((advice == MADV_HUGEPAGE || advice == MADV_NOHUGEPAGE) && split_vmas_at(mm, start, end))
		return -ENOMEM;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		unsigned long s = MAX(start, vma->vm_start), e = MIN(end, vma->vm_end);

		if (s >= e)
			continue;
		if (advice == MADV_DONTNEED)
			zap_page_range(vma, s, e);
		else if (advice == MADV_HUGEPAGE)
			vma->vm_flags = (vma->vm_flags | VM_HUGEPAGE) & ~VM_NOHUGEPAGE;
		else if (advice == MADV_NOHUGEPAGE)
			vma->vm_flags = (vma->vm_flags | VM_NOHUGEPAGE) & ~VM_HUGEPAGE;
	}
	vma_merge_all(mm);
	return hole ? -ENOMEM : 0;
}
