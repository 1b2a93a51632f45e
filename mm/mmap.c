/*
 * The address-space system calls' work (Linux's mm/mmap.c): mmap of
 * anonymous memory and of files (private or shared), munmap (splitting
 * VMAs), brk, and tearing an address space down.  The VMAs themselves —
 * create, split, merge, copy, free, and a file VMA's references — are
 * mm/vma.c's.  Argument checks come in Linux's order, so every error is
 * the errno Linux gives.
 *
 * Locks: the caller holds the mmap_lock for write (linux/mm.h); exit_mmap
 * takes it itself.  Order: mm/rmap.c.
 */
#include "linux/swap.h"
#include "linux/sched/signal.h"
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/shmem_fs.h"
#include "linux/mmap_lock.h"
#include "mm/internal.h"
#include "linux/mm.h"
#include "linux/sched/mm.h"
#include "linux/pgtable.h"
#include "linux/rmap.h"
#include "mm/tlb.h"
#include "linux/printk.h"

/*
 * The first VMA that ends above addr (it may start above addr too), or
 * NULL.  Under the mmap_lock, as Linux's: the VMA stays while it is held.
 */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list)
		if (addr < vma->vm_end)
			return vma;
	return NULL;
}

/*
 * Zap [s, e) of vma, then trim vma to what is left of it or remove it
 * whole.  Under vma's rmap locks, so a table freed on the way is one no
 * rmap walker is in (free_empty_tables()).
 */
static void unmap_vma_range(struct mmu_gather *tlb, struct vm_area_struct *vma,
			    unsigned long s, unsigned long e)
{
	bool whole = s == vma->vm_start && e == vma->vm_end;

	take_rmap_locks(vma);
	unmap_page_range(tlb, vma, s, e);
	if (s > vma->vm_start) {
		vma->vm_end = s;
	} else if (e < vma->vm_end) {
		vma->vm_pgoff = linear_page_index(vma, e);
		vma->vm_start = e;
	}
	drop_rmap_locks(vma);
	if (whole)
		remove_vma(vma);
}

/*
 * Unmap [start, start + len): pages are zapped, VMAs trimmed, split or
 * removed; one gather for all of them (Linux's unmap_region), so their
 * pages are freed after one flush.  0, -EINVAL (misaligned, empty, or
 * reaching past user space: Linux's do_vmi_munmap checks) or -ENOMEM.
 */
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	struct vm_area_struct *vma;
	struct mmu_gather tlb;
	unsigned long end;
	int ret = 0;

	mmap_assert_write_locked(mm);
	if (!IS_ALIGNED(start, PAGE_SIZE) || start > TASK_SIZE_MAX || len > TASK_SIZE_MAX - start)
		return -EINVAL;
	end = start + ALIGN_UP(len, PAGE_SIZE);
	if (end == start)
		return -EINVAL;
	vma = find_vma(mm, start);
	tlb_gather_mmu(&tlb, mm);
	tlb.free_tables = true;         /* the mmap_lock for write, each VMA's rmap locks */
	while (vma && &vma->vm_list != &mm->mmap && vma->vm_start < end) {
		struct list_head *next = vma->vm_list.next;
		unsigned long s = MAX(start, vma->vm_start), e = MIN(end, vma->vm_end);

		if (s > vma->vm_start && e < vma->vm_end) {     /* a hole in the middle */
			struct vm_area_struct *tail = split_vma(vma, e);

			if (!tail) {
				ret = -ENOMEM;
				break;
			}
			next = &tail->vm_list;
		}
		unmap_vma_range(&tlb, vma, s, e);
		vma = next == &mm->mmap ? NULL : list_entry(next, struct vm_area_struct, vm_list);
	}
	tlb_finish_mmu(&tlb);
	return ret;
}

/* Private writable memory other than a stack: what RLIMIT_DATA limits (Linux's is_data_mapping). */
static bool is_data_mapping(unsigned long flags)
{
	return (flags & (VM_WRITE | VM_SHARED | VM_GROWSDOWN)) == VM_WRITE;
}

/* Pages of mm's VMAs in [start, end), of data mappings only if data_only. */
static unsigned long vm_pages_range(struct mm_struct *mm, unsigned long start, unsigned long end,
				    bool data_only)
{
	struct vm_area_struct *vma;
	unsigned long pages = 0;

	mmap_assert_locked(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		unsigned long s = MAX(start, vma->vm_start), e = MIN(end, vma->vm_end);

		if (s < e && (!data_only || is_data_mapping(vma->vm_flags)))
			pages += (e - s) >> PAGE_SHIFT;
	}
	return pages;
}

/* Linux's mm->total_vm (VmSize) or, with data_only, mm->data_vm (VmData), in pages. */
unsigned long mm_vm_pages(struct mm_struct *mm, bool data_only)
{
	return vm_pages_range(mm, 0, TASK_SIZE_MAX, data_only);
}

/*
 * May mm map npages more pages with flags (Linux's may_expand_vm)?  Not past
 * RLIMIT_AS in all, nor past RLIMIT_DATA in data mappings — unless that limit
 * is 0 and the hard one allows it (Linux keeps that for Valgrind).
 */
bool may_expand_vm(struct mm_struct *mm, unsigned long flags, unsigned long npages)
{
	unsigned long data;

	if (mm_vm_pages(mm, false) + npages > rlimit(RLIMIT_AS) >> PAGE_SHIFT)
		return false;
	if (!is_data_mapping(flags))
		return true;
	data = mm_vm_pages(mm, true) + npages;
	if (data <= rlimit(RLIMIT_DATA) >> PAGE_SHIFT)
		return true;
	return rlimit(RLIMIT_DATA) == 0 && data <= rlimit_max(RLIMIT_DATA) >> PAGE_SHIFT;
}

/* Where vma's start keeps others away: a stack keeps a guard gap below it. */
static unsigned long vm_start_gap(const struct vm_area_struct *vma)
{
	if (!(vma->vm_flags & VM_GROWSDOWN))
		return vma->vm_start;
	return vma->vm_start > STACK_GUARD_GAP ? vma->vm_start - STACK_GUARD_GAP : 0;
}

/*
 * A free range of len bytes below mm->mmap_base starting on a multiple of
 * align, the highest that fits; 0 if none.
 */
static unsigned long unmapped_area_topdown(struct mm_struct *mm, unsigned long len,
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
 * Where to map len bytes (Linux's get_unmapped_area for x86-64): with
 * MAP_FIXED exactly addr; else the hint addr if [addr, addr + len) is free
 * (rounded to a page, and up to MMAP_MIN_ADDR), else the highest free
 * range below mmap_base.  The address, or -ENOMEM / -EINVAL.
 */
long get_unmapped_area(struct mm_struct *mm, unsigned long addr, unsigned long len,
			      unsigned long flags)
{
	if (len > TASK_SIZE_MAX)
		return -ENOMEM;
	if (!(flags & MAP_FIXED) && addr) {
		struct vm_area_struct *vma;

		addr = MAX(addr & PAGE_MASK, MMAP_MIN_ADDR);
		vma = find_vma(mm, addr);
		if (addr <= TASK_SIZE_MAX - len && (!vma || addr + len <= vm_start_gap(vma)))
			return addr;
	}
	if (!(flags & MAP_FIXED)) {
		/* Like Linux (since 6.7), a multiple of 2 MiB starts on a 2 MiB boundary: room for THPs. */
		addr = unmapped_area_topdown(mm, len, IS_ALIGNED(len, PMD_SIZE) ? PMD_SIZE : PAGE_SIZE);
		if (!addr)
			return -ENOMEM;
	}
	if (addr > TASK_SIZE_MAX - len)
		return -ENOMEM;
	return IS_ALIGNED(addr, PAGE_SIZE) ? (long)addr : -EINVAL;
}

/* Does any VMA overlap [start, end)? */
static bool range_mapped(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	return vma && vma->vm_start < end;
}

/*
 * Is a mapping with these flags charged to the memory commit (Linux's
 * accountable_mapping)?  Private writable memory: a shared mapping's
 * pages are the object's, charged when the object grows.
 */
static bool accountable_mapping(unsigned long vm_flags)
{
	return (vm_flags & (VM_NORESERVE | VM_SHARED | VM_WRITE)) == VM_WRITE;
}

/*
 * Is there memory for pages more private writable pages (Linux's
 * __vm_enough_memory with the default heuristic overcommit): no single
 * request may be larger than all of RAM and swap.
 */
int vm_enough_memory(unsigned long pages)
{
	return pages > zone.managed_pages + READ_ONCE(total_swap_pages) ? -ENOMEM : 0;
}

/* The mmap flags MAP_SHARED takes and ignores the unknown of (Linux's LEGACY_MAP_MASK). */
#define LEGACY_MAP_MASK (MAP_SHARED | MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS | MAP_DENYWRITE | \
			 MAP_EXECUTABLE | MAP_UNINITIALIZED | MAP_GROWSDOWN | MAP_LOCKED | \
			 MAP_NORESERVE | MAP_POPULATE | MAP_NONBLOCK | MAP_STACK | MAP_HUGETLB)

/*
 * The VMA flags of a mapping of file (Linux's do_mmap checks, in its
 * order): MAP_SHARED of a file not opened for writing gives a mapping that
 * can never be writable (no VM_MAYWRITE, and not VM_SHARED: nothing can
 * write through it) and refuses PROT_WRITE; any mapping needs a file
 * opened for reading and an f_op->mmap; a file of a noexec mount maps
 * never executable (PROT_EXEC: -EPERM).  0 or -EOPNOTSUPP / -EACCES /
 * -EPERM / -ENODEV / -EINVAL.
 */
static int mmap_file_vm_flags(struct file *file, unsigned long prot, unsigned long flags,
			      unsigned long *vm_flags)
{
	switch (flags & MAP_TYPE) {
	case MAP_SHARED_VALIDATE:
		if (flags & ~LEGACY_MAP_MASK)
			return -EOPNOTSUPP;
		/* fall through */
	case MAP_SHARED:
		if ((prot & PROT_WRITE) && !(file->f_mode & FMODE_WRITE))
			return -EACCES;
		*vm_flags |= VM_SHARED | VM_MAYSHARE;
		if (!(file->f_mode & FMODE_WRITE))
			*vm_flags &= ~(VM_MAYWRITE | VM_SHARED);
		/* fall through */
	case MAP_PRIVATE:
		if (!(file->f_mode & FMODE_READ))
			return -EACCES;
		if (inode_noexec(file_inode(file))) {   /* a noexec mount: never executable */
			if (*vm_flags & VM_EXEC)
				return -EPERM;
			*vm_flags &= ~VM_MAYEXEC;
		}
		return file->f_op->mmap ? 0 : -ENODEV;
	default:
		return -EINVAL;
	}
}

/*
 * Set the new vma up as the mapping of file, or as shared anonymous
 * memory (Linux's mmap_region: call_mmap, or shmem_zero_setup for
 * MAP_SHARED|MAP_ANONYMOUS: a new shmem object), then link it to its
 * file.  A shared mapping that may write takes its i_mmap_writable count
 * after the file's mmap (which may clear VM_MAYWRITE of a sealed memfd)
 * and fails with -EPERM if a seal denied writes meanwhile (Linux 6.7's
 * order).  0 or the errno; on error the vma holds no file.
 */
static int mmap_vma_setup(struct vm_area_struct *vma, struct file *file)
{
	bool writable;
	int err = 0;

	if (file) {
		vma->vm_file = get_file(file);
		err = file->f_op->mmap(file, vma);
	} else if (vma->vm_flags & VM_SHARED) {
		err = shmem_zero_setup(vma);
	}
	writable = !err && vma->vm_file && vma->vm_file->f_mapping && vma_is_shared_maywrite(vma);
	if (writable)
		err = mapping_map_writable(vma->vm_file->f_mapping);
	if (err) {
		if (vma->vm_file)
			fput(vma->vm_file);
		vma->vm_file = NULL;
		return err;
	}
	if (vma->vm_file)
		vma_link_file(vma);
	if (writable)
		mapping_unmap_writable(vma->vm_file->f_mapping);     /* vma_link_file counted it */
	return 0;
}

/*
 * Make the VMA of a new mapping at addr (Linux's mmap_region): the limits,
 * the old mappings there replaced (mapped: something is), the commit
 * charged, then the VMA made and set up.  addr or -errno; a failed setup
 * leaves nothing behind.
 */
static long mmap_region(struct mm_struct *mm, struct file *file, unsigned long addr,
			unsigned long len, unsigned long vm_flags, unsigned long pgoff, bool mapped)
{
	struct vm_area_struct *vma;
	int err;

	/* What MAP_FIXED replaces does not count against the limits. */
	if (!may_expand_vm(mm, vm_flags, (len >> PAGE_SHIFT) -
			   vm_pages_range(mm, addr, addr + len, false)))
		return -ENOMEM;
	if (mapped && do_munmap(mm, addr, len))
		return -ENOMEM;
	if (accountable_mapping(vm_flags)) {
		if (vm_enough_memory(len >> PAGE_SHIFT))
			return -ENOMEM;
		vm_flags |= VM_ACCOUNT;
	}
	vma = vma_create(mm, addr, addr + len, vm_flags | VM_SOFTDIRTY);
	if (!vma)
		return -ENOMEM;
	vma->vm_pgoff = pgoff;
	err = mmap_vma_setup(vma, file);
	if (err) {
		vma->vm_ops = NULL;     /* the file's mmap failed: no close for what it did not open */
		remove_vma(vma);
		return err;
	}
	if (vma->vm_flags & VM_SPECIAL)         /* the file's mmap made it no plain memory: never locked */
		vma->vm_flags &= ~VM_LOCKED_MASK;
	vma_merge_all(mm);              /* Linux's mmap_region merges with its neighbours */
	return addr;
}

/*
 * Map len bytes at addr of file from page offset pgoff, or of anonymous
 * memory if file is NULL (Linux's do_mmap): at addr exactly with MAP_FIXED
 * (replacing what was there) or MAP_FIXED_NOREPLACE (-EEXIST if something
 * is there), else at addr if it is free, else where there is room.
 * MAP_PRIVATE memory is copy-on-write; MAP_SHARED writes reach the file
 * (anonymous: a new shmem object, shared with the children).  Linux's
 * order of checks, down to the commit check coming after a MAP_FIXED
 * range was unmapped.  MAP_LOCKED, or mlockall(MCL_FUTURE) before, makes
 * it VM_LOCKED (the caller faults it in): -EPERM if this task may not
 * lock, -EAGAIN past RLIMIT_MEMLOCK.  The address, or -errno.
 */
long do_mmap(struct mm_struct *mm, struct file *file, unsigned long addr, unsigned long len,
	     unsigned long prot, unsigned long flags, unsigned long pgoff)
{
	unsigned long vm_flags = calc_vm_prot_bits(prot) | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;
	bool mapped;
	long ret;

	mmap_assert_write_locked(mm);
	if (!len)
		return -EINVAL;
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (!len)
		return -ENOMEM;
	if (pgoff + (len >> PAGE_SHIFT) < pgoff)
		return -EOVERFLOW;
	ret = get_unmapped_area(mm, addr, len, flags);
	if (ret < 0)
		return ret;
	addr = ret;
	mapped = range_mapped(mm, addr, addr + len);
	if (mapped && (flags & MAP_FIXED_NOREPLACE))
		return -EEXIST;
	/* MAP_LOCKED, or mlockall's MCL_FUTURE: locked from the start (mm/mlock.c) */
	vm_flags |= mm->def_flags | (flags & MAP_LOCKED ? VM_LOCKED : 0);
	if ((flags & MAP_LOCKED) && !can_do_mlock())
		return -EPERM;
	if (!mlock_future_ok(mm, vm_flags, len))
		return -EAGAIN;
	if (file) {
		ret = mmap_file_vm_flags(file, prot, flags, &vm_flags);
	} else if ((flags & MAP_TYPE) == MAP_SHARED) {
		ret = 0;
		pgoff = 0;
		vm_flags |= VM_SHARED | VM_MAYSHARE;
	} else {
		ret = (flags & MAP_TYPE) == MAP_PRIVATE ? 0 : -EINVAL;
		pgoff = addr >> PAGE_SHIFT;
	}
	if (ret)
		return ret;
	if (flags & MAP_NORESERVE)
		vm_flags |= VM_NORESERVE;
	return mmap_region(mm, file, addr, len, vm_flags, pgoff, mapped);
}

/*
 * Move the program break (Linux's brk()): grow by a new heap VMA (merged
 * with the old one), shrink by unmapping.  As Linux, growing must leave a
 * page free below the next mapping (and a stack's guard gap), stay in
 * user space and within RLIMIT_DATA (heap plus the ELF's data: Linux's
 * check_data_rlimit) and RLIMIT_AS — and within RLIMIT_MEMLOCK after
 * mlockall(MCL_FUTURE), whose lock the new part takes (the caller faults
 * it in).  Returns the new break, or the old one on failure.
 */
unsigned long do_brk(struct mm_struct *mm, unsigned long brk)
{
	unsigned long old_end = ALIGN_UP(mm->brk, PAGE_SIZE), new_end = ALIGN_UP(brk, PAGE_SIZE);
	struct vm_area_struct *next;

	mmap_assert_write_locked(mm);
	if (brk < mm->start_brk || brk > TASK_SIZE_MAX)
		return mm->brk;
	if (rlimit(RLIMIT_DATA) != RLIM_INFINITY &&
	    (brk - mm->start_brk) + (mm->end_data - mm->start_data) > rlimit(RLIMIT_DATA))
		return mm->brk;
	if (new_end < old_end) {
		do_munmap(mm, new_end, old_end - new_end);
	} else if (new_end > old_end) {
		if (!mlock_future_ok(mm, mm->def_flags, new_end - old_end))
			return mm->brk;                 /* MCL_FUTURE: would pass RLIMIT_MEMLOCK */
		next = find_vma(mm, old_end);
		if (next && new_end + PAGE_SIZE > vm_start_gap(next))
			return mm->brk;                 /* would run into a mapping */
		if (!may_expand_vm(mm, VM_READ | VM_WRITE, (new_end - old_end) >> PAGE_SHIFT) ||
		    vm_enough_memory((new_end - old_end) >> PAGE_SHIFT))
			return mm->brk;
		if (!vma_create(mm, old_end, new_end,
				VM_DATA_DEFAULT_FLAGS | VM_ACCOUNT | VM_SOFTDIRTY | mm->def_flags))
			return mm->brk;
		vma_merge_all(mm);
	}
	mm->brk = brk;
	return brk;
}

/*
 * Unmap everything and free the VMAs (exit, exec), in one fullmm gather:
 * a CPU may still have the mm loaded lazily until the final flush.  Then
 * the mm is MMF_OOM_SKIP, as Linux's: an OOM victim that got this far has
 * given back what it had, and the OOM killer (mm/oom_kill.c) moves on even
 * while its zombie waits to be reaped.
 */
void exit_mmap(struct mm_struct *mm)
{
	struct mmu_gather tlb;

	mmap_write_lock(mm);    /* a /proc reader or gup of this mm may be walking it */
	tlb_gather_mmu_fullmm(&tlb, mm);
	while (!list_empty(&mm->mmap)) {
		struct vm_area_struct *vma = list_first_entry(&mm->mmap, struct vm_area_struct, vm_list);

		unmap_vma_range(&tlb, vma, vma->vm_start, vma->vm_end);
	}
	tlb_finish_mmu(&tlb);
	mm_free_deposited_tables(mm);
	mm_put_huge_zero_folio(mm);
	set_bit(MMF_OOM_SKIP, &mm->flags);
	mmap_write_unlock(mm);
}
