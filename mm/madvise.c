/*
 * madvise (Linux's mm/madvise.c): the advice that drops pages (DONTNEED;
 * REMOVE, a hole punched in a shared file), that faults them in
 * (POPULATE_READ/WRITE), that collapses them into THPs (COLLAPSE,
 * mm/khugepaged.c), that ages them or pages them out to swap (COLD,
 * PAGEOUT: mm/madvise_pageout.c), the advice that sets VMA flags (HUGEPAGE,
 * NOHUGEPAGE, DONTFORK, WIPEONFORK, DONTDUMP and their opposites; VMAs
 * split and merge again), and the hints Linux takes and foliOS has nothing
 * to do for (NORMAL, RANDOM, SEQUENTIAL, WILLNEED, FREE — Linux frees such pages only
 * under memory pressure, and keeping them is one of its valid outcomes —,
 * MERGEABLE/UNMERGEABLE: no KSM).  The walk is Linux's: holes are skipped
 * and reported as -ENOMEM once the mapped parts were advised.
 *
 * Lock order: see mm/rmap.c; the caller owns the mm (linux/mm.h).
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "uapi/linux/falloc.h"
#include "mm/internal.h"
#include "linux/mmap_lock.h"
#include "linux/mm.h"

static bool madvise_behavior_valid(int behavior)
{
	switch (behavior) {
	case MADV_NORMAL: case MADV_RANDOM: case MADV_SEQUENTIAL: case MADV_WILLNEED:
	case MADV_DONTNEED: case MADV_DONTNEED_LOCKED: case MADV_FREE: case MADV_REMOVE:
	case MADV_DONTFORK: case MADV_DOFORK: case MADV_MERGEABLE: case MADV_UNMERGEABLE:
	case MADV_HUGEPAGE: case MADV_NOHUGEPAGE: case MADV_DONTDUMP: case MADV_DODUMP:
	case MADV_WIPEONFORK: case MADV_KEEPONFORK: case MADV_COLD: case MADV_PAGEOUT:
	case MADV_POPULATE_READ: case MADV_POPULATE_WRITE: case MADV_COLLAPSE:
		return true;
	default:
		return false;
	}
}

/* Give [start, end), inside vma, the flags newflags (Linux's madvise_update_vma). */
static int madvise_update_vma(struct vm_area_struct *vma, unsigned long start,
			      unsigned long end, unsigned long newflags)
{
	if (vma->vm_flags == newflags)
		return 0;
	if (split_vmas_at(vma->vm_mm, start, end))
		return -ENOMEM;
	find_vma(vma->vm_mm, start)->vm_flags = newflags;
	return 0;
}

/*
 * Fault in [start, end) of vma, for writing if write (Linux's
 * madvise_populate and faultin_vma_page_range): copy-on-write is broken
 * for writing, nothing is skipped that a user access would fault on.
 * 0, -EINVAL if vma's protection forbids the access, -ENOMEM if memory
 * runs out, -EFAULT past the end of a mapped file.
 */
static int madvise_populate(struct vm_area_struct *vma, unsigned long start,
			    unsigned long end, bool write)
{
	if (!(vma->vm_flags & (write ? VM_WRITE : VM_READ)))
		return -EINVAL;
	for (; start < end; start += PAGE_SIZE) {
		vm_fault_t ret = handle_mm_fault(vma, start, write ? FAULT_FLAG_WRITE : 0);

		if (ret & VM_FAULT_ERROR)       /* SIGBUS (beyond a file's end) is -EFAULT, as Linux's */
			return vm_fault_to_errno(ret);
	}
	return 0;
}

/*
 * MADV_REMOVE: punch a hole in the file behind a shared writable mapping
 * (Linux's madvise_remove: fallocate's PUNCH_HOLE, which unmaps the pages
 * from every mm and frees them).  0, -EINVAL (no file), -EACCES (not a
 * shared mapping that may be written) or fallocate's error.  The caller
 * holds the mmap_lock for read; it is dropped around the fallocate, which
 * takes inode_lock (above the mmap_lock: a write's copy from the user
 * faults under inode_lock), and taken again: vma may be gone after.
 */
static int madvise_remove(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	loff_t offset = (loff_t)(start - vma->vm_start) + ((loff_t)vma->vm_pgoff << PAGE_SHIFT);
	struct mm_struct *mm = vma->vm_mm;
	struct file *file = vma->vm_file;
	int err;

	if (!file || !file->f_mapping)
		return -EINVAL;
	if (!vma_is_shared_maywrite(vma))
		return -EACCES;
	get_file(file);
	mmap_read_unlock(mm);
	err = vfs_fallocate(file, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, end - start);
	fput(file);
	mmap_read_lock(mm);
	return err;
}

/* The advice that only sets or clears VMA flags, as Linux's madvise_vma_behavior(). */
static const struct {
	int behavior;
	unsigned long set, clear;
} madvise_vm_flags[] = {
	{ MADV_HUGEPAGE,   VM_HUGEPAGE,   VM_NOHUGEPAGE },
	{ MADV_NOHUGEPAGE, VM_NOHUGEPAGE, VM_HUGEPAGE },
	{ MADV_DONTFORK,   VM_DONTCOPY,   0 },
	{ MADV_DOFORK,     0,             VM_DONTCOPY },
	{ MADV_WIPEONFORK, VM_WIPEONFORK, 0 },
	{ MADV_KEEPONFORK, 0,             VM_WIPEONFORK },
	{ MADV_DONTDUMP,   VM_DONTDUMP,   0 },
	{ MADV_DODUMP,     0,             VM_DONTDUMP },
};

/*
 * Is behavior advice about a VMA's pages, which a PFN map (the vDSO) has
 * not (Linux's madvise_dontneed_free_valid_vma, can_madv_lru_vma, and
 * MADV_DODUMP's VM_SPECIAL check)?
 */
static bool madvise_needs_pages(int behavior)
{
	switch (behavior) {
	case MADV_DONTNEED: case MADV_DONTNEED_LOCKED: case MADV_FREE: case MADV_COLD:
	case MADV_PAGEOUT: case MADV_DODUMP:
		return true;
	}
	return false;
}

/*
 * Is behavior advice that would take pages of a VM_LOCKED VMA out of RAM
 * (Linux's madvise_dontneed_free_valid_vma, can_madv_lru_vma and
 * madvise_remove refuse locked VMAs; MADV_DONTNEED_LOCKED is what
 * DONTNEED is for them)?
 */
static bool madvise_unlocks_pages(int behavior)
{
	switch (behavior) {
	case MADV_DONTNEED: case MADV_FREE: case MADV_COLD: case MADV_PAGEOUT: case MADV_REMOVE:
		return true;
	}
	return false;
}

/* Apply behavior to [start, end) inside vma.  0 or -errno. */
static int madvise_vma_behavior(struct vm_area_struct *vma, unsigned long start,
				unsigned long end, int behavior)
{
	if ((vma->vm_flags & VM_PFNMAP) && madvise_needs_pages(behavior))
		return -EINVAL;
	if ((vma->vm_flags & VM_LOCKED) && madvise_unlocks_pages(behavior))
		return -EINVAL;
	switch (behavior) {
	case MADV_WIPEONFORK:   /* private anonymous memory only */
		if (vma->vm_file || (vma->vm_flags & VM_SHARED))
			return -EINVAL;
		break;
	case MADV_DONTNEED:
	case MADV_DONTNEED_LOCKED:
		zap_page_range(vma, start, end);
		return 0;
	case MADV_REMOVE:
		return madvise_remove(vma, start, end);
	case MADV_POPULATE_READ:
	case MADV_POPULATE_WRITE:
		return madvise_populate(vma, start, end, behavior == MADV_POPULATE_WRITE);
	case MADV_COLLAPSE:
		return madvise_collapse(vma, start, end);
	case MADV_COLD:
	case MADV_PAGEOUT:
		return madvise_cold_or_pageout(vma, start, end, behavior == MADV_PAGEOUT);
	}
	for (size_t i = 0; i < ARRAY_SIZE(madvise_vm_flags); i++)
		if (madvise_vm_flags[i].behavior == behavior)
			return madvise_update_vma(vma, start, end,
				(vma->vm_flags | madvise_vm_flags[i].set) & ~madvise_vm_flags[i].clear);
	return 0;                       /* a hint with nothing to do */
}

/*
 * Must the advice take the mmap_lock for write (Linux's
 * madvise_need_mmap_write)?  Not the advice that only faults or zaps
 * pages; MADV_COLLAPSE does here, as it replaces a PTE table in place.
 */
bool madvise_need_mmap_write(int behavior)
{
	switch (behavior) {
	case MADV_REMOVE: case MADV_WILLNEED: case MADV_DONTNEED: case MADV_DONTNEED_LOCKED:
	case MADV_COLD: case MADV_PAGEOUT: case MADV_FREE:
	case MADV_POPULATE_READ: case MADV_POPULATE_WRITE:
		return false;
	default:
		return true;
	}
}

/*
 * Advise [start, start + len_in) (Linux's do_madvise).  0, -EINVAL (unknown
 * advice, misaligned, wrapping length, advice that does not apply), or
 * -ENOMEM (part of the range is unmapped: the rest was still advised).
 */
int do_madvise(struct mm_struct *mm, unsigned long start, unsigned long len_in, int behavior)
{
	unsigned long len = ALIGN_UP(len_in, PAGE_SIZE), end = start + len;
	int ret = 0, unmapped_error = 0;

	if (madvise_need_mmap_write(behavior))
		mmap_assert_write_locked(mm);
	else
		mmap_assert_locked(mm);
	if (!madvise_behavior_valid(behavior) || !IS_ALIGNED(start, PAGE_SIZE))
		return -EINVAL;
	if ((len_in && !len) || end < start)
		return -EINVAL;
	while (start < end) {
		struct vm_area_struct *vma = find_vma(mm, start);
		unsigned long tmp;

		if (!vma) {
			ret = -ENOMEM;
			break;
		}
		if (start < vma->vm_start) {
			unmapped_error = -ENOMEM;
			start = vma->vm_start;
			if (start >= end)
				break;
		}
		tmp = MIN(end, vma->vm_end);
		ret = madvise_vma_behavior(vma, start, tmp, behavior);
		if (ret)
			break;
		start = tmp;
	}
	if (madvise_need_mmap_write(behavior))
		vma_merge_all(mm);      /* the VMA list changes only under a write lock */
	return ret ? ret : unmapped_error;
}
