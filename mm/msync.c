/*
 * msync(2) (Linux's mm/msync.c): write back what a shared file mapping
 * changed.  foliOS's page cache needs no writeback yet (tmpfs and memfd
 * keep their pages; the initrd is read-only), so MS_SYNC asks the file's
 * fsync and MS_ASYNC has nothing to schedule, as on Linux since 2.6.19;
 * what users see is Linux's checking: EINVAL for bad flags or an
 * unaligned start, ENOMEM for a range with holes — after syncing the
 * mapped parts, unless the flags are MS_ASYNC alone.
 *
 * Locks: current's mmap_lock for read while VMAs are looked at, dropped
 * around each fsync (which may sleep in a file system), with a reference
 * on the file; the VMAs are looked up again after it.
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/mm.h"
#include "linux/mmap_lock.h"
#include "linux/fs.h"
#include "uapi/linux/mman.h"

/*
 * The part of [*start, end) the VMA at or after *start maps: 0 with
 * *start moved past it, or -ENOMEM if nothing is mapped from *start on.
 * A hole before the VMA sets *unmapped, or for MS_ASYNC alone ends the
 * call.  MS_SYNC of a shared file mapping fsyncs its part (the mmap_lock
 * dropped meanwhile, and *unlocked set).
 */
static int msync_range(struct mm_struct *mm, unsigned long *start, unsigned long end,
		       int flags, int *unmapped, bool *unlocked)
{
	struct vm_area_struct *vma = find_vma(mm, *start);
	loff_t fstart, fend;
	struct file *file;
	int error;

	mmap_assert_locked(mm);
	if (!vma || vma->vm_start >= end)
		return -ENOMEM;
	if (*start < vma->vm_start) {
		if (flags == MS_ASYNC)
			return -ENOMEM;
		*start = vma->vm_start;
		*unmapped = -ENOMEM;
	}
	file = vma->vm_file;
	fstart = (loff_t)(*start - vma->vm_start) + ((loff_t)vma->vm_pgoff << PAGE_SHIFT);
	fend = fstart + (MIN(end, vma->vm_end) - *start) - 1;
	*start = vma->vm_end;
	if (!(flags & MS_SYNC) || !file || !(vma->vm_flags & VM_SHARED))
		return 0;
	get_file(file);
	mmap_read_unlock(mm);
	*unlocked = true;
	error = vfs_fsync_range(file, fstart, fend, 1);
	fput(file);
	return error;
}

long sys_msync(unsigned long start, size_t len, int flags)
{
	struct mm_struct *mm = current->mm;
	int error = 0, unmapped = 0;
	unsigned long end;

	if ((flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC)) || (start & ~PAGE_MASK) ||
	    ((flags & MS_ASYNC) && (flags & MS_SYNC)))
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	end = start + len;
	if (end < start)
		return -ENOMEM;
	while (start < end && !error) {
		bool unlocked = false;

		mmap_read_lock(mm);
		error = msync_range(mm, &start, end, flags, &unmapped, &unlocked);
		if (!unlocked)
			mmap_read_unlock(mm);
	}
	return error ? error : unmapped;
}
