/*
 * VMAs and the anonymous-memory system calls' work (Linux's mm/mmap.c):
 * mmap of anonymous memory, munmap (splitting VMAs), brk, and tearing an
 * address space down; VMA split and merge for mprotect.c and madvise.c.
 * Each mm keeps its VMAs in a list sorted by address.  Argument checks
 * come in Linux's order, so every error is the errno Linux gives.
 *
 * Lock order: see mm/rmap.c; the caller owns the mm (mm/mm_api.h).
 */
#include "linux/errno.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mm_id.h"
#include "mm/pgtable.h"
#include "mm/rmap.h"
#include "linux/printk.h"

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
	vma->vm_pgoff = start >> PAGE_SHIFT;
	INIT_LIST_HEAD(&vma->anon_vma_chain);
	list_for_each_entry(pos, &mm->mmap, vm_list) {
		if (pos->vm_start >= end) {
			before = &pos->vm_list;
			break;
		}
	}
	list_add_tail(&vma->vm_list, before);
	return vma;
}

/* Take vma out of its mm and free it, its anon_vma chains first (Linux's unlink_anon_vmas + remove_vma). */
static void remove_vma(struct vm_area_struct *vma)
{
	unlink_anon_vmas(vma);
	list_del(&vma->vm_list);
	kfree(vma);
}

/*
 * A new VMA of vma's mm for [start, end) with vma's flags, page offset
 * pgoff and anon_vma, linked to every anon_vma vma is (Linux's
 * vm_area_dup + anon_vma_clone).  NULL on ENOMEM.
 */
static struct vm_area_struct *vma_dup_range(struct vm_area_struct *vma, unsigned long start,
					    unsigned long end, unsigned long pgoff)
{
	struct vm_area_struct *new = vma_create(vma->vm_mm, start, end, vma->vm_flags);

	if (!new)
		return NULL;
	new->vm_pgoff = pgoff;
	new->anon_vma = vma->anon_vma;
	if (anon_vma_clone(new, vma)) {
		remove_vma(new);
		return NULL;
	}
	return new;
}

/*
 * Split vma at addr (inside it): vma keeps [start, addr); returns the rest,
 * which keeps its page offsets and may map the same anon folios (Linux's
 * __split_vma).  NULL on ENOMEM.
 */
static struct vm_area_struct *split_vma(struct vm_area_struct *vma, unsigned long addr)
{
	struct vm_area_struct *tail = vma_dup_range(vma, addr, vma->vm_end,
						    linear_page_index(vma, addr));

	if (!tail)
		return NULL;
	split_huge_pmd_address(vma, addr);
	vma->vm_end = addr;
	return tail;
}

/*
 * Unmap [start, start + len): pages are zapped, VMAs trimmed, split or
 * removed.  0, -EINVAL (misaligned, empty, or reaching past user space:
 * Linux's do_vmi_munmap checks) or -ENOMEM.
 */
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	struct vm_area_struct *vma;
	unsigned long end;

	if (!IS_ALIGNED(start, PAGE_SIZE) || start > TASK_SIZE_MAX || len > TASK_SIZE_MAX - start)
		return -EINVAL;
	end = start + ALIGN_UP(len, PAGE_SIZE);
	if (end == start)
		return -EINVAL;
	vma = find_vma(mm, start);
	while (vma && &vma->vm_list != &mm->mmap && vma->vm_start < end) {
		struct list_head *next = vma->vm_list.next;
		unsigned long s = MAX(start, vma->vm_start), e = MIN(end, vma->vm_end);

		if (s > vma->vm_start && e < vma->vm_end) {     /* a hole in the middle */
			struct vm_area_struct *tail = split_vma(vma, e);

			if (!tail)
				return -ENOMEM;
			next = &tail->vm_list;
		}
		zap_page_range(vma, s, e);
		if (s > vma->vm_start) {
			vma->vm_end = s;
		} else if (e < vma->vm_end) {
			vma->vm_pgoff = linear_page_index(vma, e);
			vma->vm_start = e;
		} else {
			remove_vma(vma);
		}
		vma = next == &mm->mmap ? NULL : list_entry(next, struct vm_area_struct, vm_list);
	}
	return 0;
}

/* Private writable memory other than a stack: what RLIMIT_DATA limits (Linux's is_data_mapping). */
static bool is_data_mapping(unsigned long flags)
{
	return (flags & (VM_WRITE | VM_GROWSDOWN)) == VM_WRITE;
}

/* Pages of mm's VMAs in [start, end), of data mappings only if data_only. */
static unsigned long vm_pages_range(struct mm_struct *mm, unsigned long start, unsigned long end,
				    bool data_only)
{
	struct vm_area_struct *vma;
	unsigned long pages = 0;

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

/* Is a mapping with these flags charged to the memory commit (Linux's accountable_mapping)? */
static bool accountable_mapping(unsigned long vm_flags)
{
	return (vm_flags & (VM_NORESERVE | VM_WRITE)) == VM_WRITE;
}

/*
 * Is there memory for pages more private writable pages (Linux's
 * __vm_enough_memory with the default heuristic overcommit): no single
 * request may be larger than all of RAM (foliOS has no swap).
 */
int vm_enough_memory(unsigned long pages)
{
	return pages > zone.managed_pages ? -ENOMEM : 0;
}

/*
 * Map len bytes of anonymous memory (Linux's do_mmap + mmap_region for
 * MAP_ANONYMOUS): at addr exactly with MAP_FIXED (replacing what was there)
 * or MAP_FIXED_NOREPLACE (-EEXIST if something is there), else at addr if
 * it is free, else where there is room.  flags: MAP_* (MAP_PRIVATE only:
 * shared memory comes with the page cache).  Linux's order of checks,
 * down to the commit check coming after a MAP_FIXED range was unmapped.
 * The address, or -errno.
 */
long do_mmap_anon(struct mm_struct *mm, unsigned long addr, unsigned long len,
		  unsigned long vm_flags, unsigned long flags)
{
	bool mapped;
	long ret;

	if (!len)
		return -EINVAL;
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (!len)
		return -ENOMEM;
	ret = get_unmapped_area(mm, addr, len, flags);
	if (ret < 0)
		return ret;
	addr = ret;
	mapped = range_mapped(mm, addr, addr + len);
	if (mapped && (flags & MAP_FIXED_NOREPLACE))
		return -EEXIST;
	if ((flags & MAP_TYPE) != MAP_PRIVATE)
		return -EINVAL;
	if (flags & MAP_NORESERVE)
		vm_flags |= VM_NORESERVE;
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
	return vma_create(mm, addr, addr + len, vm_flags | VM_SOFTDIRTY) ? (long)addr : -ENOMEM;
}

/*
 * Move the program break (Linux's brk()): grow by a new heap VMA (merged
 * with the old one), shrink by unmapping.  As Linux, growing must leave a
 * page free below the next mapping (and a stack's guard gap), stay in
 * user space and within RLIMIT_DATA (heap plus the ELF's data: Linux's
 * check_data_rlimit) and RLIMIT_AS.  Returns the new break, or the old
 * one on failure.
 */
unsigned long do_brk(struct mm_struct *mm, unsigned long brk)
{
	unsigned long old_end = ALIGN_UP(mm->brk, PAGE_SIZE), new_end = ALIGN_UP(brk, PAGE_SIZE);
	struct vm_area_struct *next;

	if (brk < mm->start_brk || brk > TASK_SIZE_MAX)
		return mm->brk;
	if (rlimit(RLIMIT_DATA) != RLIM_INFINITY &&
	    (brk - mm->start_brk) + (mm->end_data - mm->start_data) > rlimit(RLIMIT_DATA))
		return mm->brk;
	if (new_end < old_end) {
		do_munmap(mm, new_end, old_end - new_end);
	} else if (new_end > old_end) {
		next = find_vma(mm, old_end);
		if (next && new_end + PAGE_SIZE > vm_start_gap(next))
			return mm->brk;                 /* would run into a mapping */
		if (!may_expand_vm(mm, VM_READ | VM_WRITE, (new_end - old_end) >> PAGE_SHIFT) ||
		    vm_enough_memory((new_end - old_end) >> PAGE_SHIFT))
			return mm->brk;
		if (!vma_create(mm, old_end, new_end, VM_READ | VM_WRITE | VM_ACCOUNT | VM_SOFTDIRTY))
			return mm->brk;
		vma_merge_all(mm);
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
		remove_vma(vma);
	}
	mm_free_deposited_tables(mm);
	mm_put_huge_zero_folio(mm);
}

/*
 * Make [start, end) (inside VMAs, no holes) begin and end on VMA
 * boundaries, splitting at most two VMAs.  0 or -ENOMEM.
 */
int split_vmas_at(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	if (vma && vma->vm_start < start && !split_vma(vma, start))
		return -ENOMEM;
	vma = find_vma(mm, end);
	if (vma && vma->vm_start < end && !split_vma(vma, end))
		return -ENOMEM;
	return 0;
}

/*
 * May prev and next, which touch, be one VMA (Linux's can_vma_merge_after
 * and is_mergeable_anon_vma)?  Equal flags but VM_SOFTDIRTY, page offsets
 * that run on, and the same anon_vma — or at most one of them has one (the
 * other has no anon folios yet).
 */
static bool vma_can_merge(const struct vm_area_struct *prev, const struct vm_area_struct *next)
{
	return next->vm_start == prev->vm_end &&
	       !((next->vm_flags ^ prev->vm_flags) & ~VM_SOFTDIRTY) &&
	       prev->vm_pgoff + ((prev->vm_end - prev->vm_start) >> PAGE_SHIFT) == next->vm_pgoff &&
	       (!prev->anon_vma || !next->anon_vma || prev->anon_vma == next->anon_vma);
}

/*
 * Merge each VMA with the next one while vma_can_merge() allows.  The one
 * with the anon_vma chains survives; the other is removed.  The merged VMA
 * is soft-dirty if either was.
 */
void vma_merge_all(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *next;

	list_for_each_entry(vma, &mm->mmap, vm_list) {
		while (vma->vm_list.next != &mm->mmap) {
			next = list_entry(vma->vm_list.next, struct vm_area_struct, vm_list);
			if (!vma_can_merge(vma, next))
				break;
			if (!vma->anon_vma && next->anon_vma) {
				next->vm_flags |= vma->vm_flags & VM_SOFTDIRTY;
				next->vm_start = vma->vm_start;
				next->vm_pgoff = vma->vm_pgoff;
				list_del(&next->vm_list);
				list_add(&next->vm_list, vma->vm_list.prev);
				remove_vma(vma);
				vma = next;
				continue;
			}
			vma->vm_end = next->vm_end;
			vma->vm_flags |= next->vm_flags & VM_SOFTDIRTY;
			remove_vma(next);
		}
	}
}

/*
 * The VMA an mremap moves [addr, addr + len) of vma to: a copy at addr with
 * page offset pgoff, so that linear_page_index() still gives each moved
 * anon page its folio->index — or, if vma never faulted, addr's own page
 * offset, as a new mapping there would have (Linux's copy_vma).  NULL on
 * ENOMEM.
 */
struct vm_area_struct *copy_vma(struct vm_area_struct *vma, unsigned long addr,
				unsigned long len, unsigned long pgoff)
{
	if (!vma->anon_vma)
		pgoff = addr >> PAGE_SHIFT;
	return vma_dup_range(vma, addr, addr + len, pgoff);
}
