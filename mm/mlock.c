/*
 * mlock (Linux's mm/mlock.c): VMAs marked VM_LOCKED keep their pages in
 * RAM.  Two halves, as in Linux:
 *
 *   the VMA side   mlock, mlock2(MLOCK_ONFAULT), munlock, mlockall,
 *                  munlockall: split the VMAs at the range's edges, set
 *                  or clear VM_LOCKED / VM_LOCKONFAULT (mlock_fixup),
 *                  walk the pages already mapped, then fault the rest in
 *                  (not with VM_LOCKONFAULT); equal neighbours merge.
 *   the folio side PG_mlocked on each folio a locked VMA maps whole — a
 *                  small folio, or a large one by a PMD (Linux 6.1's
 *                  rule: a PTE-mapped large folio is never mlocked) —,
 *                  counted in NR_MLOCK (/proc/meminfo's Mlocked) and
 *                  moved to the unevictable LRU list.  The rmap calls
 *                  set it when a locked VMA maps a folio and clear it
 *                  when one unmaps it (mlock_vma_folio, mm/internal.h);
 *                  mlock_fixup's walk does it for what is already
 *                  mapped; the free path clears what is left.
 *
 * As in Linux 6.1, a folio counts the locked VMAs that map it
 * (folio->mlock_count), so a folio that a parent and a child, or two
 * processes sharing a file, both lock stays mlocked until the last lets
 * go.  The count is a hint, not a proof: a split leaves its pieces
 * mlocked with a count of 0, a race may leave a folio counted too high or
 * low; nothing worse follows than an mlocked folio on an evictable list
 * or the reverse until it is freed — reclaim, finding a VM_LOCKED VMA
 * in its rmap walk, leaves the folio and mlocks it again, as Linux's.
 *
 * RLIMIT_MEMLOCK bounds mm's locked pages (Linux's mm->locked_vm, here
 * counted from the VMAs when asked, as foliOS counts VmSize): mlock past
 * it is -ENOMEM, a locked mmap or brk -EAGAIN; CAP_IPC_LOCK lifts it, and
 * with the limit at 0 only CAP_IPC_LOCK may lock at all (-EPERM).
 *
 * Locks: the mmap_lock for write around the VMA changes and the walk,
 * for read while faulting the range in; each PMD or PTE table's lock
 * around the folios it maps; mlock_lock (a spinlock, under those and
 * under the rmap calls' own) around a folio's mlock_count and PG_mlocked.
 * NR_MLOCK is atomic; the LRU move, after mlock_lock is dropped, takes the
 * lruvec lock inside folio_isolate_lru and folio_putback_lru (mm/swap.c).
 * Order: mm/rmap.c.
 */
#include "linux/errno.h"
#include "linux/capability.h"
#include "linux/mmap_lock.h"
#include "linux/sched/signal.h"
#include "linux/swap.h"
#include "linux/vmstat.h"
#include "mm/internal.h"
#include "uapi/linux/mman.h"
#include "uapi/linux/resource.h"

/* mlock_count and PG_mlocked change together under it (Linux 6.1 uses the lruvec lock). */
static spinlock_t mlock_lock = SPINLOCK_INIT("mlock");

/*
 * One more locked VMA maps folio whole (Linux's mlock_folio): its
 * mlock_count grows; the first sets PG_mlocked, counts its pages in
 * NR_MLOCK and moves it to the unevictable list (Linux 5.x's way: if it
 * cannot be isolated it sits in a per-CPU batch, which files it by its
 * flags, or reclaim holds it, which culls mlocked folios itself).  The
 * caller holds a mapping of folio, so a reference, and maybe a PTL.
 */
void mlock_folio(struct folio *folio)
{
	bool first;

	spin_lock(&mlock_lock);
	folio->mlock_count++;
	first = !folio_test_set_mlocked(folio);
	spin_unlock(&mlock_lock);
	if (!first)
		return;
	mod_node_page_state(NR_MLOCK, folio_nr_pages(folio));
	if (folio_isolate_lru(folio))
		folio_putback_lru(folio);
}

/*
 * One locked VMA less maps folio (Linux's munlock_folio): the last clears
 * PG_mlocked and puts it back on an evictable list.  A folio mlocked with
 * a count of 0 (a split gives its pieces the flag, not the count) is
 * unlocked by the first munlock.  Same context as mlock_folio.
 */
void munlock_folio(struct folio *folio)
{
	bool last = false;

	spin_lock(&mlock_lock);
	if (folio->mlock_count)
		folio->mlock_count--;
	if (!folio->mlock_count)
		last = folio_test_clear_mlocked(folio);
	spin_unlock(&mlock_lock);
	if (!last)
		return;
	mod_node_page_state(NR_MLOCK, -folio_nr_pages(folio));
	if (folio_isolate_lru(folio))
		folio_putback_lru(folio);
}

/*
 * A folio being freed that is still mlocked (Linux's
 * __page_cache_release): the count goes with it.  The last reference is
 * gone: no mapping, so no mlock or munlock, can reach it.
 */
void folio_free_mlocked(struct folio *folio)
{
	folio->mlock_count = 0;
	if (folio_test_clear_mlocked(folio))
		mod_node_page_state(NR_MLOCK, -folio_nr_pages(folio));
}

/* mlock or munlock folio, as vma's (new) flags say. */
static void mlock_walk_folio(struct vm_area_struct *vma, struct folio *folio)
{
	if (vma->vm_flags & VM_LOCKED)
		mlock_folio(folio);
	else
		munlock_folio(folio);
}

/*
 * The PTEs of [addr, end) under pmd (Linux's mlock_pte_range): each small
 * folio mapped there follows vma's flags; a large folio mapped by PTEs is
 * left as it is (never mlocked that way).  Under the PTE table's lock.
 */
static void mlock_pte_range(struct vm_area_struct *vma, pmd_t *pmd, unsigned long addr,
			    unsigned long end)
{
	spinlock_t *ptl;
	pte_t *pte = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);

	if (!pte)
		return;
	for (; addr < end; addr += PAGE_SIZE, pte++) {
		pte_t ptent = ptep_get(pte);
		struct page *page;

		if (!pte_present(ptent) || !(page = vm_normal_page(vma, addr, ptent)))
			continue;
		if (!folio_test_large(page_folio(page)))
			mlock_walk_folio(vma, page_folio(page));
	}
	pte_unmap_unlock(pte, ptl);
}

/*
 * What [start, end) of vma already maps follows vma's new flags (Linux's
 * mlock_vma_pages_range): a PMD leaf's folio whole, under pmd_lock (the
 * VMA's edges were split, so the leaf lies inside), PTE-mapped small
 * folios.  The caller holds the mmap_lock for write, so no fault adds
 * pages meanwhile; an rmap walker that maps one (migration, a split)
 * goes through the rmap calls, which read the flags already set.
 */
static void mlock_vma_pages_range(struct vm_area_struct *vma, unsigned long start,
				  unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long addr = start, next;
	pmd_t *pmd;

	for (; (pmd = pmd_entry_next(mm->pgd, &addr, end, &next)); addr = next) {
		if (pmd_trans_huge(pmdp_get(pmd))) {
			spinlock_t *ptl = pmd_lock(mm, pmd);

			if (pmd_trans_huge(*pmd) && !is_huge_zero_pmd(*pmd))
				mlock_walk_folio(vma, page_folio(pfn_to_page(pmd_pfn(*pmd))));
			spin_unlock(ptl);
		} else if (pmd_present(pmdp_get(pmd))) {
			mlock_pte_range(vma, pmd, addr, next);
		}
		cond_resched();
	}
}

/*
 * Give [start, end), inside vma, the lock flags of newflags (Linux's
 * mlock_fixup): split at the edges, set the flags, walk the pages.  A
 * special mapping (the vDSO) is left unlocked and uncounted, as Linux's.
 * 0 or -ENOMEM (a split).  mmap_lock held for write; the caller merges.
 */
static int mlock_fixup(struct vm_area_struct *vma, unsigned long start, unsigned long end,
		       unsigned long newflags)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long oldflags = vma->vm_flags;

	mmap_assert_write_locked(mm);
	if (newflags == oldflags || (oldflags & VM_SPECIAL))
		return 0;
	if (split_vmas_at(mm, start, end))
		return -ENOMEM;
	vma = find_vma(mm, start);
	/* Locked before and after (ONFAULT changed): counting its folios again would be wrong. */
	if ((newflags & VM_LOCKED) && (oldflags & VM_LOCKED)) {
		WRITE_ONCE(vma->vm_flags, newflags);
		return 0;
	}
	/*
	 * rmap walkers on other CPUs read the flags without the mmap_lock.
	 * While the walk locks, VM_IO (never set with VM_LOCKED otherwise)
	 * keeps a migration or split that maps one of these folios again
	 * meanwhile from counting it, which the walk does (Linux's trick).
	 */
	WRITE_ONCE(vma->vm_flags, newflags | (newflags & VM_LOCKED ? VM_IO : 0));
	mlock_vma_pages_range(vma, start, end);
	WRITE_ONCE(vma->vm_flags, newflags);
	return 0;
}

/*
 * Set the lock flags of every VMA in [start, start + len) to flags
 * (VM_LOCKED, VM_LOCKED | VM_LOCKONFAULT or 0; Linux's
 * apply_vma_lock_flags).  A hole stops the walk with -ENOMEM after the
 * VMAs before it changed, as Linux's.  mmap_lock held for write.
 */
static int apply_vma_lock_flags(struct mm_struct *mm, unsigned long start, unsigned long len,
				unsigned long flags)
{
	unsigned long end = start + len, addr;
	struct vm_area_struct *vma;
	int ret = 0;

	if (end < start)
		return -EINVAL;
	for (addr = start; addr < end && !ret; addr = vma->vm_end) {
		vma = find_vma(mm, addr);
		if (!vma || vma->vm_start > addr)
			return -ENOMEM;
		ret = mlock_fixup(vma, addr, MIN(end, vma->vm_end),
				  (vma->vm_flags & ~VM_LOCKED_MASK) | flags);
		vma = find_vma(mm, addr);
	}
	return ret;
}

/* Pages of mm's VMAs in [start, end) that are VM_LOCKED (Linux's count_mm_mlocked_page_nr). */
static unsigned long locked_pages_range(struct mm_struct *mm, unsigned long start,
					unsigned long end)
{
	struct vm_area_struct *vma;
	unsigned long pages = 0;

	mmap_assert_locked(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		unsigned long s = MAX(start, vma->vm_start), e = MIN(end, vma->vm_end);

		if (s < e && (vma->vm_flags & VM_LOCKED))
			pages += (e - s) >> PAGE_SHIFT;
	}
	return pages;
}

/* Linux's mm->locked_vm: pages of mm's VM_LOCKED VMAs (VmLck).  mmap_lock held. */
unsigned long mm_locked_vm(struct mm_struct *mm)
{
	return locked_pages_range(mm, 0, TASK_SIZE_MAX);
}

/* May this task lock memory at all (Linux's can_do_mlock)? */
bool can_do_mlock(void)
{
	return rlimit(RLIMIT_MEMLOCK) != 0 || capable(CAP_IPC_LOCK);
}

/*
 * May mm map len more bytes with flags (Linux's mlock_future_ok): yes
 * unless they are VM_LOCKED and take mm past RLIMIT_MEMLOCK without
 * CAP_IPC_LOCK.  mmap_lock held.
 */
bool mlock_future_ok(struct mm_struct *mm, unsigned long flags, unsigned long len)
{
	if (!(flags & VM_LOCKED) || capable(CAP_IPC_LOCK))
		return true;
	return mm_locked_vm(mm) + (len >> PAGE_SHIFT) <= rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
}

/*
 * Fault in [start, end) of vma as mlock does (Linux's
 * populate_vma_page_range): writable private memory for writing (the
 * copy-on-write is broken now, not at the first write), the rest for
 * reading; nothing for VM_LOCKONFAULT.  0, -EFAULT (no access at all:
 * PROT_NONE; past a file's end) or -ENOMEM.  mmap_lock held (mprotect
 * holds it for write).
 */
int populate_vma_page_range(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	unsigned int flags = (vma->vm_flags & (VM_WRITE | VM_SHARED)) == VM_WRITE ?
			     FAULT_FLAG_WRITE : 0;

	if (vma->vm_flags & VM_LOCKONFAULT)
		return 0;
	if (!(vma->vm_flags & VM_ACCESS_FLAGS))
		return -EFAULT;
	while (start < end) {
		vm_fault_t ret = handle_mm_fault(vma, start, flags);

		if (ret & VM_FAULT_ERROR)
			return vm_fault_to_errno(ret);
		if (!(ret & VM_FAULT_RETRY))    /* the file's folio went meanwhile: again */
			start += PAGE_SIZE;
	}
	return 0;
}

/*
 * Fault in the VMAs of [start, start + len) (Linux's __mm_populate),
 * skipping PFN maps and holes; a VMA that fails stops the walk unless
 * ignore_errors.  0 or populate_vma_page_range's error.  mmap_lock held
 * for read.
 */
int __mm_populate(struct mm_struct *mm, unsigned long start, unsigned long len,
		  bool ignore_errors)
{
	unsigned long addr = start, end = start + ALIGN_UP(len, PAGE_SIZE);
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	for (; addr < end && (vma = find_vma(mm, addr)) && vma->vm_start < end; addr = vma->vm_end) {
		int ret;

		if (vma->vm_flags & (VM_IO | VM_PFNMAP))
			continue;
		ret = populate_vma_page_range(vma, MAX(addr, vma->vm_start), MIN(end, vma->vm_end));
		if (ret && !ignore_errors)
			return ret;
	}
	return 0;
}

/* mlock's errno for a failed populate (Linux's __mlock_posix_error_return). */
static int mlock_posix_error(int err)
{
	if (err == -EFAULT)
		return -ENOMEM;
	if (err == -ENOMEM)
		return -EAGAIN;
	return err;
}

/*
 * mlock / mlock2 of [start, start + len) with flags VM_LOCKED, maybe
 * VM_LOCKONFAULT (Linux's do_mlock): start rounds down, len up to pages.
 * Within RLIMIT_MEMLOCK — what is locked already in the range is not
 * counted twice — unless CAP_IPC_LOCK.  Then the range is faulted in
 * (not with VM_LOCKONFAULT).  0, -EPERM (limit 0, no capability),
 * -ENOMEM (over the limit, a hole, PROT_NONE), -EAGAIN (out of memory)
 * or -EINVAL (wraps).  Takes mm's mmap_lock.
 */
int do_mlock(struct mm_struct *mm, unsigned long start, unsigned long len, unsigned long flags)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT, locked;
	int ret = -ENOMEM;

	if (!can_do_mlock())
		return -EPERM;
	len = ALIGN_UP(len + (start & ~PAGE_MASK), PAGE_SIZE);
	start &= PAGE_MASK;
	mmap_write_lock(mm);
	locked = (len >> PAGE_SHIFT) + mm_locked_vm(mm);
	if (locked > limit && !capable(CAP_IPC_LOCK))
		locked -= locked_pages_range(mm, start, start + len);
	if (locked <= limit || capable(CAP_IPC_LOCK))
		ret = apply_vma_lock_flags(mm, start, len, flags);
	vma_merge_all(mm);
	mmap_write_downgrade(mm);
	if (!ret)
		ret = mlock_posix_error(__mm_populate(mm, start, len, false));
	mmap_read_unlock(mm);
	return ret;
}

/* munlock of [start, start + len) (Linux's): 0, -ENOMEM (a hole) or -EINVAL.  Takes the mmap_lock. */
int do_munlock(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	int ret;

	len = ALIGN_UP(len + (start & ~PAGE_MASK), PAGE_SIZE);
	start &= PAGE_MASK;
	mmap_write_lock(mm);
	ret = apply_vma_lock_flags(mm, start, len, 0);
	vma_merge_all(mm);
	mmap_write_unlock(mm);
	return ret;
}

/*
 * mlockall's and munlockall's VMA work (Linux's apply_mlockall_flags):
 * MCL_FUTURE sets mm->def_flags (every later mmap, brk and stack VMA is
 * locked), MCL_CURRENT locks every VMA now; without MCL_FUTURE def_flags
 * is cleared, so flags 0 unlocks everything.  A VMA that cannot be split
 * is left as it is (Linux ignores those errors).  mmap_lock for write.
 */
static void apply_mlockall_flags(struct mm_struct *mm, int flags)
{
	unsigned long to_add = 0;
	struct vm_area_struct *vma;

	mm->def_flags &= ~VM_LOCKED_MASK;
	if (flags & MCL_FUTURE) {
		mm->def_flags |= VM_LOCKED | (flags & MCL_ONFAULT ? VM_LOCKONFAULT : 0);
		if (!(flags & MCL_CURRENT))
			return;
	}
	if (flags & MCL_CURRENT)
		to_add = VM_LOCKED | (flags & MCL_ONFAULT ? VM_LOCKONFAULT : 0);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		mlock_fixup(vma, vma->vm_start, vma->vm_end, (vma->vm_flags & ~VM_LOCKED_MASK) | to_add);
		cond_resched();
	}
	vma_merge_all(mm);
}

/*
 * mlockall(flags) (Linux's): MCL_CURRENT needs the whole address space
 * within RLIMIT_MEMLOCK (or CAP_IPC_LOCK), and faults everything in,
 * ignoring what fails.  0, -EINVAL (no flag, an unknown one, MCL_ONFAULT
 * alone), -EPERM or -ENOMEM.  Takes mm's mmap_lock.
 */
int do_mlockall(struct mm_struct *mm, int flags)
{
	int ret = -ENOMEM;

	if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) || flags == MCL_ONFAULT)
		return -EINVAL;
	if (!can_do_mlock())
		return -EPERM;
	mmap_write_lock(mm);
	if (!(flags & MCL_CURRENT) || mm_vm_pages(mm, false) <= rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT ||
	    capable(CAP_IPC_LOCK)) {
		apply_mlockall_flags(mm, flags);
		ret = 0;
	}
	mmap_write_downgrade(mm);
	if (!ret && (flags & MCL_CURRENT))
		__mm_populate(mm, 0, TASK_SIZE_MAX, true);
	mmap_read_unlock(mm);
	return ret;
}

/* munlockall (Linux's): every VMA unlocked, MCL_FUTURE forgotten.  0.  Takes the mmap_lock. */
int do_munlockall(struct mm_struct *mm)
{
	mmap_write_lock(mm);
	apply_mlockall_flags(mm, 0);
	mmap_write_unlock(mm);
	return 0;
}
