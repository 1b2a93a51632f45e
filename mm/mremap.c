/*
 * mremap (Linux's mm/mremap.c, as of Linux 6.1): shrink a mapping, grow it
 * in place, or move it — with MREMAP_MAYMOVE where there is room, with
 * MREMAP_FIXED to new_addr, with MREMAP_DONTUNMAP leaving the old range
 * mapped but empty.  A move carries the page tables over, not the pages:
 *
 *   old VMA [....AAAA....]          new VMA (copy_vma: same anon_vmas,
 *   PTE  -> folio F (index i)  ==>  vm_pgoff so that linear_page_index
 *   PMD leaf (2 MiB aligned         gives i again)  PTE -> folio F
 *   both sides, whole) moved as is  no rmap or mapcount change: same mm
 *
 * A PMD leaf that cannot move whole is split (__split_huge_pmd) and its
 * PTEs moved.  A locked mapping stays locked (its folios' mlock counts
 * move with their mappings); the part it grows by is faulted in by the
 * caller.  Checks come in Linux's order, so every error is Linux's.
 *
 * Lock order: see mm/rmap.c; the caller holds the mmap_lock for write.
 * The move holds the VMA's rmap locks (take_rmap_locks; Linux's
 * need_rmap_locks case), so an rmap walk never finds a page in neither
 * place or in both, and each table's lock around its entries' move.
 */
#include "linux/errno.h"
#include "mm/internal.h"
#include "linux/swapops.h"
#include "linux/rmap.h"
#include "linux/mmap_lock.h"
#include "linux/printk.h"

/*
 * Move a PMD leaf mapping old_addr to new_addr (both PMD-aligned; Linux's
 * move_huge_pmd): the folio and its deposited table stay this mm's.  False
 * if the destination PMD is not free: then the caller splits and moves PTEs.
 */
static bool move_huge_pmd(struct vm_area_struct *vma, unsigned long old_addr, pmd_t *old_pmd,
			  unsigned long new_addr)
{
	struct mm_struct *mm = vma->vm_mm;
	pmd_t *new_pmd = mm_alloc_pmd(mm, new_addr);
	spinlock_t *old_ptl, *new_ptl;
	pmd_t pmd;

	if (!new_pmd || !pmd_none(*new_pmd))
		return false;
	old_ptl = pmd_lock(mm, old_pmd);
	if (!pmd_trans_huge(*old_pmd)) {    /* split meanwhile (zap_huge_pmd() says by whom) */
		spin_unlock(old_ptl);
		return false;
	}
	new_ptl = pmd_lockptr(mm, new_pmd);
	if (new_ptl != old_ptl)
		spin_lock_nested(new_ptl, SINGLE_DEPTH_NESTING);
	pmd = pmdp_huge_get_and_clear(mm, old_addr, old_pmd);
	flush_tlb_mm_range(mm, old_addr, old_addr + PMD_SIZE, PMD_SHIFT, false);
	set_pmd_at(mm, new_addr, new_pmd, pmd);
	if (new_ptl != old_ptl)
		spin_unlock(new_ptl);
	spin_unlock(old_ptl);
	free_empty_tables(vma, old_addr, PT_PMD);
	return true;
}

/*
 * Move the PTEs of [old_addr, old_end) — under one PMD, and whose
 * destination is under one PMD — to new_addr (Linux's move_ptes).  The
 * entries move as they are.  0 or -ENOMEM (no table at the destination).
 */
static int move_ptes(struct vm_area_struct *vma, pmd_t *old_pmd, unsigned long old_addr,
		     unsigned long old_end, unsigned long new_addr)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long start = old_addr;
	spinlock_t *old_ptl, *new_ptl;
	pte_t *old_pte, *new_pte;
	pmd_t *new_pmd;

	new_pmd = mm_alloc_pmd(mm, new_addr);
	if (!new_pmd || pte_alloc(mm, new_pmd) || pmd_trans_huge(pmdp_get(new_pmd)))
		return -ENOMEM;
	new_pte = pte_offset_kernel(new_pmd, new_addr);
	old_pte = pte_offset_map_lock(mm, old_pmd, old_addr, &old_ptl);
	if (!old_pte)
		return 0;       /* no PTE table any more: nothing to move */
	new_ptl = ptlock_ptr(virt_to_page(new_pte));     /* the lock of new_pte's table */
	if (new_ptl != old_ptl)
		spin_lock_nested(new_ptl, SINGLE_DEPTH_NESTING);
	for (; old_addr < old_end; old_addr += PAGE_SIZE, new_addr += PAGE_SIZE) {
		if (pte_none(*old_pte)) {
			old_pte++, new_pte++;
			continue;
		}
		set_pte_at(mm, new_addr, new_pte++, ptep_get_and_clear(mm, old_addr, old_pte++));
	}
	flush_tlb_mm_range(mm, start, old_end, PAGE_SHIFT, false);
	if (new_ptl != old_ptl)
		spin_unlock(new_ptl);
	pte_unmap_unlock(old_pte, old_ptl);
	free_empty_tables(vma, start, PT_PTE);
	return 0;
}

/*
 * Move the page tables of [old_addr, old_addr + len) of vma to new_addr
 * (Linux's move_page_tables), a PMD-sized step at a time: a whole aligned
 * PMD leaf as is, else PTEs.  Returns how many bytes moved (len unless a
 * table could not be allocated).
 */
static unsigned long move_page_tables(struct vm_area_struct *vma, unsigned long old_addr,
				      unsigned long new_addr, unsigned long len)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long old_end = old_addr + len, start = old_addr, extent;

	for (; old_addr < old_end; old_addr += extent, new_addr += extent) {
		pmd_t *old_pmd = mm_find_pmd(mm, old_addr);

		extent = pmd_addr_end(old_addr, old_end) - old_addr;
		extent = MIN(extent, pmd_addr_end(new_addr, new_addr + extent) - new_addr);
		if (!old_pmd || pmd_none(*old_pmd))
			continue;
		if (is_swap_pmd(*old_pmd))      /* a PMD migration entry: its PTE entries move */
			__split_huge_pmd(vma, old_pmd, old_addr);
		if (pmd_trans_huge(*old_pmd)) {
			if (extent == PMD_SIZE && move_huge_pmd(vma, old_addr, old_pmd, new_addr))
				continue;
			__split_huge_pmd(vma, old_pmd, old_addr);
			if (pmd_none(*old_pmd))
				continue;       /* a file PMD: zapped, its pages refault */
		}
		if (move_ptes(vma, old_pmd, old_addr, old_addr + extent, new_addr))
			break;
	}
	return old_addr - start;
}

/*
 * Move [old_addr, old_addr + old_len) of vma to a new VMA of new_len bytes
 * at new_addr (Linux's move_vma): copy the VMA, move the page tables, then
 * unmap the old range — or, with MREMAP_DONTUNMAP, leave it mapped and
 * empty, unlinked from its anon_vmas if it is a whole VMA (its next fault
 * starts afresh).  new_addr, or -ENOMEM (-EINVAL: DONTUNMAP of the vDSO)
 * with nothing changed.
 */
static long move_vma(struct vm_area_struct *vma, unsigned long old_addr, unsigned long old_len,
		     unsigned long new_len, unsigned long new_addr, unsigned long flags)
{
	struct mm_struct *mm = vma->vm_mm;
	struct vm_area_struct *new_vma;
	unsigned long moved;

	if ((flags & MREMAP_DONTUNMAP) && (vma->vm_flags & (VM_DONTEXPAND | VM_PFNMAP)))
		return -EINVAL;         /* the vDSO cannot be left behind twice */
	if ((flags & MREMAP_DONTUNMAP) && (vma->vm_flags & VM_ACCOUNT) &&
	    vm_enough_memory(new_len >> PAGE_SHIFT))
		return -ENOMEM;
	new_vma = copy_vma(vma, new_addr, new_len, linear_page_index(vma, old_addr));
	if (!new_vma)
		return -ENOMEM;
	take_rmap_locks(vma);
	moved = move_page_tables(vma, old_addr, new_addr, old_len);
	if (moved < old_len)    /* put back what moved (Linux does the same): those tables exist */
		move_page_tables(new_vma, new_addr, old_addr, moved);
	drop_rmap_locks(vma);
	if (moved < old_len) {
		do_munmap(mm, new_addr, new_len);
		return -ENOMEM;
	}
	if (flags & MREMAP_DONTUNMAP) {
		if (vma->vm_start == old_addr && vma->vm_end == old_addr + old_len)
			unlink_anon_vmas(vma);
		/* the lock went with the pages: what stays behind is unlocked (Linux's) */
		if ((vma->vm_flags & VM_LOCKED) && !split_vmas_at(mm, old_addr, old_addr + old_len))
			find_vma(mm, old_addr)->vm_flags &= ~VM_LOCKED_MASK;
	} else {
		do_munmap(mm, old_addr, old_len);
	}
	vma_merge_all(mm);
	return new_addr;
}

/*
 * The VMA [addr, addr + old_len) lies in, if it may become new_len long
 * (Linux's vma_to_resize).  -EFAULT: no VMA there or the range leaves it;
 * -EINVAL: old_len 0 of a private mapping (only a shared one may be
 * duplicated: a second mapping of the same pages) or page offsets that
 * would wrap; -EFAULT: a mapping that cannot grow (VM_DONTEXPAND);
 * -EAGAIN: a locked one past RLIMIT_MEMLOCK; -ENOMEM: past
 * RLIMIT_AS/RLIMIT_DATA.
 */
static struct vm_area_struct *vma_to_resize(struct mm_struct *mm, unsigned long addr,
					    unsigned long old_len, unsigned long new_len,
					    long *err)
{
	struct vm_area_struct *vma = find_vma(mm, addr);
	unsigned long pgoff;

	*err = -EFAULT;
	if (!vma || vma->vm_start > addr)
		return NULL;
	*err = -EINVAL;
	if (!old_len && !(vma->vm_flags & (VM_SHARED | VM_MAYSHARE)))
		return NULL;            /* only a shared mapping can be duplicated */
	*err = -EFAULT;
	if (old_len > vma->vm_end - addr)
		return NULL;
	if (new_len == old_len)
		return vma;
	*err = -EINVAL;
	pgoff = linear_page_index(vma, addr);
	if (pgoff + (new_len >> PAGE_SHIFT) < pgoff)
		return NULL;
	*err = -EFAULT;
	if (vma->vm_flags & (VM_DONTEXPAND | VM_PFNMAP))
		return NULL;            /* the vDSO: its size is the image's */
	*err = -EAGAIN;
	if (!mlock_future_ok(mm, vma->vm_flags, new_len - old_len))
		return NULL;
	*err = -ENOMEM;
	if (!may_expand_vm(mm, vma->vm_flags, (new_len - old_len) >> PAGE_SHIFT))
		return NULL;
	return vma;
}

/*
 * mremap with MREMAP_FIXED or MREMAP_DONTUNMAP (Linux's mremap_to): the
 * destination is new_addr exactly (FIXED: what was there is unmapped
 * first) or, for DONTUNMAP alone, a hint.  The ranges may not overlap.
 */
static long mremap_to(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
		      unsigned long new_addr, unsigned long new_len, unsigned long flags)
{
	struct vm_area_struct *vma;
	long ret;

	if (!IS_ALIGNED(new_addr, PAGE_SIZE))
		return -EINVAL;
	if (new_len > TASK_SIZE_MAX || new_addr > TASK_SIZE_MAX - new_len)
		return -EINVAL;
	if (addr + old_len > new_addr && new_addr + new_len > addr)
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && (ret = do_munmap(mm, new_addr, new_len)))
		return ret;
	if (old_len > new_len) {
		ret = do_munmap(mm, addr + new_len, old_len - new_len);
		if (ret)
			return ret;
		old_len = new_len;
	}
	vma = vma_to_resize(mm, addr, old_len, new_len, &ret);
	if (!vma)
		return ret;
	if ((flags & MREMAP_DONTUNMAP) && !may_expand_vm(mm, vma->vm_flags, old_len >> PAGE_SHIFT))
		return -ENOMEM;
	ret = get_unmapped_area(mm, new_addr, new_len, flags & MREMAP_FIXED ? MAP_FIXED : 0);
	if (ret < 0)
		return ret;
	return move_vma(vma, addr, old_len, new_len, ret, flags);
}

/* May vma grow by delta bytes where it is (Linux's vma_expandable)? */
static bool vma_expandable(struct vm_area_struct *vma, unsigned long delta)
{
	unsigned long end = vma->vm_end + delta;
	struct vm_area_struct *next;

	if (end < vma->vm_end || end > TASK_SIZE_MAX)
		return false;
	next = find_vma(vma->vm_mm, vma->vm_end);
	return !next || next->vm_start >= end;
}

/*
 * Grow [addr, addr + old_len) to new_len bytes (Linux's do_mremap after
 * its shrink case): in place if the range ends its VMA and the room after
 * it is free, else moved if MREMAP_MAYMOVE.  The address, or -errno.
 */
static long mremap_grow(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
			unsigned long new_len, unsigned long flags)
{
	struct vm_area_struct *vma;
	long ret;

	vma = vma_to_resize(mm, addr, old_len, new_len, &ret);
	if (!vma)
		return ret;
	if (old_len == vma->vm_end - addr && vma_expandable(vma, new_len - old_len)) {
		if ((vma->vm_flags & VM_ACCOUNT) && vm_enough_memory((new_len - old_len) >> PAGE_SHIFT))
			return -ENOMEM;
		vma->vm_end += new_len - old_len;
		vma_merge_all(mm);
		return addr;
	}
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	ret = get_unmapped_area(mm, 0, new_len, 0);
	if (ret < 0)
		return ret;
	return move_vma(vma, addr, old_len, new_len, ret, flags);
}

/*
 * mremap(addr, old_len, new_len, flags, new_addr) (Linux's do_mremap):
 * flags MREMAP_MAYMOVE, MREMAP_FIXED (needs MAYMOVE), MREMAP_DONTUNMAP
 * (needs MAYMOVE and old_len == new_len).  addr must be in a VMA (-EFAULT,
 * before anything else is looked at).  Shrinking unmaps the tail.
 * Returns the mapping's address, or -EINVAL / -EFAULT / -ENOMEM.
 */
long do_mremap(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
	       unsigned long new_len, unsigned long flags, unsigned long new_addr)
{
	struct vm_area_struct *vma;
	long ret;

	mmap_assert_write_locked(mm);
	if (flags & ~(MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP))
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	if ((flags & MREMAP_DONTUNMAP) && (!(flags & MREMAP_MAYMOVE) || old_len != new_len))
		return -EINVAL;
	if (!IS_ALIGNED(addr, PAGE_SIZE))
		return -EINVAL;
	old_len = ALIGN_UP(old_len, PAGE_SIZE);
	new_len = ALIGN_UP(new_len, PAGE_SIZE);
	if (!new_len)
		return -EINVAL;
	vma = find_vma(mm, addr);
	if (!vma || vma->vm_start > addr)
		return -EFAULT;
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		return mremap_to(mm, addr, old_len, new_addr, new_len, flags);
	if (old_len >= new_len) {
		ret = do_munmap(mm, addr + new_len, old_len - new_len);
		if (ret < 0 && old_len != new_len)
			return ret;
		return addr;
	}
	return mremap_grow(mm, addr, old_len, new_len, flags);
}
