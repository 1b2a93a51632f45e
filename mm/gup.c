/*
 * Taking references to the pages of an address space (Linux's mm/gup.c):
 * get_user_pages() takes plain references (FOLL_GET), pin_user_pages()
 * pins (FOLL_PIN) — the pages a device or another task reads or writes
 * outside the page tables.  A pin is a reference that says so:
 *
 *   small folio   _refcount += GUP_PIN_COUNTING_BIAS (1024)
 *   large folio   _refcount += 1, _pincount += 1
 *
 * so folio_maybe_dma_pinned() can tell, and fork copies a maybe-pinned
 * anon page for the child instead of sharing it (mm/fork.c); the pin and
 * the parent's mapping stay the same page.  The mm gets MMF_HAS_PINNED.
 *
 * A pinned anon page is always exclusive (PageAnonExclusive): a R/O pin of
 * a page shared with another mm first unshares it (FAULT_FLAG_UNSHARE),
 * a write pin takes the write fault.  So a later COW can never replace a
 * pinned page under its pin (Linux's GUP-after-fork bug class).
 *
 * FOLL_FORCE (/proc/<pid>/mem) may write into a read-only private mapping:
 * the write fault gives this mm its own exclusive copy, the PTE stays
 * read-only, and the caller writes through the kernel mapping — never into
 * a page another mm maps.
 *
 * Lock order: see mm/rmap.c; __get_user_pages takes mm's mmap_lock for
 * read, whose mm it is (current's, or another's for /proc/<pid>/mem and
 * ptrace, which hold a reference to it: mmget), so the VMAs and page
 * tables it walks stay; each page is taken under its PTE or PMD lock.
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/sched.h"
#include "mm/internal.h"
#include "linux/mmap_lock.h"
#include "linux/rmap.h"
#include "linux/printk.h"
#include "linux/string.h"
#include <asm/bitops.h>

/*
 * Take refs references of the kind gup_flags asks for (FOLL_GET or
 * FOLL_PIN) on folio, which the caller knows is live.  0, or -ENOMEM if
 * the refcount would overflow (Linux's try_grab_folio).
 */
static int try_grab_folio(struct folio *folio, int refs, unsigned int flags)
{
	int delta = refs;

	if ((flags & FOLL_PIN) && is_zero_folio(folio))
		return 0;       /* never freed, used everywhere: Linux counts no pin on it */
	if ((flags & FOLL_PIN) && !folio_test_large(folio))
		delta = refs * GUP_PIN_COUNTING_BIAS;
	if (folio_ref_count(folio) > INT32_MAX - delta)
		return -ENOMEM;
	if ((flags & FOLL_PIN) && folio_test_large(folio))
		atomic_add(refs, &folio->_pincount);
	folio_ref_add(folio, delta);
	return 0;
}

/* Drop what try_grab_folio(folio, refs, flags) took (Linux's gup_put_folio). */
static void gup_put_folio(struct folio *folio, int refs, unsigned int flags)
{
	if ((flags & FOLL_PIN) && is_zero_folio(folio))
		return;
	if (flags & FOLL_PIN) {
		if (folio_test_large(folio)) {
			VM_WARN_ON_ONCE(atomic_read(&folio->_pincount) < refs,
					"gup_put_folio: unpin of a folio not pinned");
			atomic_sub(refs, &folio->_pincount);
		} else {
			refs *= GUP_PIN_COUNTING_BIAS;
		}
	}
	folio_put_refs(folio, refs);
}

void unpin_user_page(struct page *page)
{
	gup_put_folio(page_folio(page), 1, FOLL_PIN);
}

void unpin_user_pages(struct page **pages, unsigned long npages)
{
	for (unsigned long i = 0; i < npages; i++)
		unpin_user_page(pages[i]);
}

/*
 * Must a R/O pin of this page, mapped read-only, unshare it first (Linux's
 * gup_must_unshare)?  An anon page that is not exclusive to this mm:
 * pinned as it is, a later write fault of either mm would copy it away
 * from the pin.  A page that is no anon page (the zero pages, a file's
 * page) in a private mapping, for a long-term pin: the first write would
 * replace it, and the pin would not see what the process writes (Linux
 * 6.5's rule).  A shared mapping's pages are the ones every write reaches.
 */
static bool gup_must_unshare(struct vm_area_struct *vma, unsigned int flags, struct page *page)
{
	if ((flags & (FOLL_WRITE | FOLL_PIN)) != FOLL_PIN)
		return false;
	if (!folio_test_anon(page_folio(page)))
		return (flags & FOLL_LONGTERM) && !(vma->vm_flags & (VM_SHARED | VM_MAYSHARE));
	return !PageAnonExclusive(page);
}

/*
 * May a FOLL_WRITE reference be taken through this read-only entry
 * (Linux's can_follow_write_pte)?  Only with FOLL_FORCE in a mapping
 * without VM_WRITE, to a page the write fault already made exclusive.
 */
static bool can_follow_write(bool writable, struct page *page, struct vm_area_struct *vma,
			     unsigned int flags)
{
	if (writable)
		return true;
	if (!(flags & FOLL_FORCE) || (vma->vm_flags & VM_WRITE))
		return false;
	return folio_test_anon(page_folio(page)) && PageAnonExclusive(page);
}

/*
 * The lock of the table whose entry maps address in mm, taken: the PMD
 * table's for a PMD leaf, else the PTE table's (Linux's follow_pmd_mask
 * and follow_page_pte take the same); NULL if no PMD leaf or PTE table
 * is there.  Under it the entry cannot be zapped by another thread
 * (MADV_DONTNEED holds the mmap_lock for read too).
 */
static spinlock_t *follow_lock(struct mm_struct *mm, unsigned long address)
{
	pmd_t *pmd = mm_find_pmd(mm, address);
	spinlock_t *ptl;

	while (pmd && pmd_present(pmdp_get(pmd))) {
		if (pmd_trans_huge(pmdp_get(pmd))) {
			ptl = pmd_lock(mm, pmd);
			if (pmd_trans_huge(*pmd))
				return ptl;
			spin_unlock(ptl);
		} else if (pte_offset_map_lock(mm, pmd, address, &ptl)) {
			return ptl;
		}
	}
	return NULL;
}

/*
 * The page mapped at address, with a reference of the kind flags asks for
 * (Linux's follow_page_mask); NULL if a fault must map it (or make it
 * writable), ERR_PTR(-EMLINK) if it must be unshared first.  For a PMD
 * leaf, the head page holds the exclusive flag of the whole mapping.  An
 * anon folio taken for writing is marked dirty (Linux's FOLL_TOUCH): the
 * write bypasses the PTE's dirty bit, and a clean folio in the swap cache
 * would go without being written.
 */
static struct page *follow_page_mask(struct vm_area_struct *vma, unsigned long address,
				     unsigned int flags)
{
	spinlock_t *ptl = follow_lock(vma->vm_mm, address);
	struct page *page = NULL, *head;
	struct pgwalk w;
	bool writable;
	int ret;

	if (!ptl)
		return NULL;
	if (!pgtable_lookup(vma->vm_mm->pgd, address, &w))
		goto out;
	if (w.leaf_level == PT_PMD) {
		head = pfn_to_page(pmd_pfn(__pmd(w.entry[PT_PMD])));
		writable = pmd_write(__pmd(w.entry[PT_PMD]));
	} else {
		head = pfn_to_page(w.phys >> PAGE_SHIFT);
		writable = pte_write(__pte(w.entry[PT_PTE]));
	}
	if ((flags & FOLL_WRITE) && !can_follow_write(writable, head, vma, flags))
		goto out;
	if (!writable && gup_must_unshare(vma, flags, head)) {
		page = ERR_PTR(-EMLINK);
		goto out;
	}
	page = pfn_to_page(w.phys >> PAGE_SHIFT);
	ret = try_grab_folio(page_folio(page), 1, flags);
	if (ret)
		page = ERR_PTR(ret);
	else if ((flags & FOLL_WRITE) && folio_test_anon(page_folio(page)))
		folio_set_dirty(page_folio(page));      /* written behind the PTE: pageout must write it */
out:
	spin_unlock(ptl);
	return page;
}

/*
 * Fault the page at address in for a GUP (Linux's faultin_page): a write
 * fault for FOLL_WRITE, an unsharing one if unshare; check_vma_flags has
 * checked the access.  0, -EFAULT, -ENOMEM (vm_fault_to_errno).
 */
static int faultin_page(struct vm_area_struct *vma, unsigned long address, unsigned int flags,
			bool unshare)
{
	unsigned int fault_flags = 0;

	if (flags & FOLL_WRITE)
		fault_flags |= FAULT_FLAG_WRITE;
	if (flags & FOLL_REMOTE)
		fault_flags |= FAULT_FLAG_REMOTE;
	if (unshare)
		fault_flags |= FAULT_FLAG_UNSHARE;
	return vm_fault_to_errno(handle_mm_fault(vma, address, fault_flags));
}

/*
 * May a fault of fault_flags be resolved in vma (Linux's
 * vma_permits_fault)?  A write wants VM_WRITE, an instruction fetch
 * VM_EXEC, anything else some access.
 */
static bool vma_permits_fault(struct vm_area_struct *vma, unsigned int fault_flags)
{
	if (fault_flags & FAULT_FLAG_WRITE)
		return vma->vm_flags & VM_WRITE;
	if (fault_flags & FAULT_FLAG_INSTRUCTION)
		return vma->vm_flags & VM_EXEC;
	return vma->vm_flags & VM_ACCESS_FLAGS;
}

/*
 * Resolve a fault at address of mm as a user access would (Linux's
 * fixup_user_fault): a futex operation, for one, after its atomic access
 * failed.  The caller holds mm's mmap_lock.  0, -EFAULT (nothing mapped
 * there, or the mapping forbids the access, or SIGBUS), -ENOMEM.
 */
int fixup_user_fault(struct mm_struct *mm, unsigned long address, unsigned int fault_flags)
{
	struct vm_area_struct *vma = find_vma(mm, address);

	if (!vma || address < vma->vm_start || !vma_permits_fault(vma, fault_flags))
		return -EFAULT;
	return vm_fault_to_errno(handle_mm_fault(vma, address, fault_flags));
}

/*
 * May gup_flags take pages of vma (Linux's check_vma_flags)?  FOLL_FORCE
 * overrides the VMA's read and write permissions, but for a write to a
 * shared mapping: only a private one gives a forced write its own copy.
 * 0 or -EFAULT.
 */
static int check_vma_flags(struct vm_area_struct *vma, unsigned int gup_flags)
{
	if (vma->vm_flags & (VM_IO | VM_PFNMAP))
		return -EFAULT;         /* no struct page to hand out */
	if ((gup_flags & (FOLL_FORCE | FOLL_WRITE)) == (FOLL_FORCE | FOLL_WRITE) &&
	    !(vma->vm_flags & VM_WRITE) &&
	    ((vma->vm_flags & VM_MAYSHARE) || !(vma->vm_flags & VM_MAYWRITE)))
		return -EFAULT;         /* only a COW mapping gives a forced write its own copy */
	if (gup_flags & FOLL_FORCE)
		return 0;
	if ((gup_flags & FOLL_WRITE) && !(vma->vm_flags & VM_WRITE))
		return -EFAULT;
	if (!(gup_flags & FOLL_WRITE) && !(vma->vm_flags & VM_READ))
		return -EFAULT;
	return 0;
}

/*
 * One page for __get_user_pages: follow the page tables, fault and follow
 * again until the entry allows the reference.  A fault may lose a race
 * and map nothing (another CPU filled the entry, or truncated the file
 * page it found: VM_FAULT_NOPAGE, VM_FAULT_RETRY), but each loss needs
 * another CPU to finish a fault or truncation in between; a hundred
 * rounds without a page is a bug, reported and failed with -EFAULT.
 */
static struct page *get_one_page(struct vm_area_struct *vma, unsigned long address,
				 unsigned int flags)
{
	for (int tries = 0; tries < 100; tries++) {
		struct page *page = follow_page_mask(vma, address, flags);
		int ret;

		if (page && (!IS_ERR(page) || PTR_ERR(page) != -EMLINK))
			return page;
		ret = faultin_page(vma, address, flags, page != NULL);
		if (ret)
			return ERR_PTR(ret);
	}
	VM_WARN_ON_ONCE(1, "get_one_page: the fault made no progress");
	return ERR_PTR(-EFAULT);
}

/*
 * Take references (FOLL_GET or FOLL_PIN) to the nr_pages pages of mm from
 * start on, faulting in what is missing (Linux's __get_user_pages), the
 * caller holding mm's mmap_lock for read.  Returns how many were taken
 * (pages[] gets them), or -errno if none: -EFAULT for an address without
 * a VMA or whose VMA denies the access, -ENOMEM.  The references stop at
 * the first page that fails.
 */
static long __get_user_pages_locked(struct mm_struct *mm, unsigned long start,
				    unsigned long nr_pages, unsigned int gup_flags,
				    struct page **pages)
{
	struct vm_area_struct *vma = NULL;
	unsigned long i;
	long err = 0;

	mmap_assert_locked(mm);
	VM_WARN_ON_ONCE(!!(gup_flags & FOLL_GET) == !!(gup_flags & FOLL_PIN),
			"__get_user_pages: FOLL_GET or FOLL_PIN, exactly one");
	if (gup_flags & FOLL_PIN)
		set_bit(MMF_HAS_PINNED, &mm->flags);
	start &= PAGE_MASK;
	for (i = 0; i < nr_pages; i++, start += PAGE_SIZE) {
		struct page *page;

		if (!vma || start >= vma->vm_end) {
			vma = find_vma(mm, start);
			if (!vma || start < vma->vm_start || check_vma_flags(vma, gup_flags)) {
				err = -EFAULT;
				break;
			}
		}
		page = get_one_page(vma, start, gup_flags);
		if (IS_ERR(page)) {
			err = PTR_ERR(page);
			break;
		}
		pages[i] = page;
	}
	return i || !err ? (long)i : err;
}

/* __get_user_pages_locked under the mmap_lock for read (no caller here holds it). */
static long __get_user_pages(struct mm_struct *mm, unsigned long start, unsigned long nr_pages,
			     unsigned int gup_flags, struct page **pages)
{
	long ret;

	mmap_read_lock(mm);
	ret = __get_user_pages_locked(mm, start, nr_pages, gup_flags, pages);
	mmap_read_unlock(mm);
	return ret;
}

/* Plain references to pages of mm, which need not be current's (ptrace, /proc/<pid>/mem). */
long get_user_pages_remote(struct mm_struct *mm, unsigned long start, unsigned long nr_pages,
			   unsigned int gup_flags, struct page **pages)
{
	if (gup_flags & FOLL_PIN)
		return -EINVAL;
	return __get_user_pages(mm, start, nr_pages, gup_flags | FOLL_GET | FOLL_REMOTE, pages);
}

long pin_user_pages_remote(struct mm_struct *mm, unsigned long start, unsigned long nr_pages,
			   unsigned int gup_flags, struct page **pages)
{
	if (gup_flags & FOLL_GET)
		return -EINVAL;
	return __get_user_pages(mm, start, nr_pages, gup_flags | FOLL_PIN | FOLL_REMOTE, pages);
}

long get_user_pages(unsigned long start, unsigned long nr_pages, unsigned int gup_flags,
		    struct page **pages)
{
	if (gup_flags & FOLL_PIN)
		return -EINVAL;
	return __get_user_pages(current->mm, start, nr_pages, gup_flags | FOLL_GET, pages);
}

/* Pin nr_pages pages of current's mm from start on; unpin_user_pages() ends the pins. */
long pin_user_pages(unsigned long start, unsigned long nr_pages, unsigned int gup_flags,
		    struct page **pages)
{
	if (gup_flags & FOLL_GET)
		return -EINVAL;
	return __get_user_pages(current->mm, start, nr_pages, gup_flags | FOLL_PIN, pages);
}

/*
 * Copy len bytes between buf (kernel memory) and mm's memory at addr, a
 * page at a time, through plain references (Linux's access_remote_vm, in
 * its mm/memory.c): FOLL_WRITE writes buf into mm, else reads into buf;
 * FOLL_FORCE as /proc/<pid>/mem and ptrace use it.  Returns the bytes
 * copied, short (maybe 0) at the first page that cannot be had.  The
 * mmap_lock is held across each page's copy, as Linux's: the mapping
 * the page was found through stays, so a write cannot land in a memfd
 * sealed against writes once that mapping went.
 */
int access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf, int len,
		     unsigned int gup_flags)
{
	int done = 0;

	mmap_read_lock(mm);
	while (done < len) {
		unsigned long offset = (addr + done) & ~PAGE_MASK;
		int chunk = MIN((unsigned long)(len - done), PAGE_SIZE - offset);
		struct page *page;
		char *va;

		if (__get_user_pages_locked(mm, addr + done, 1, gup_flags | FOLL_GET | FOLL_REMOTE,
					    &page) != 1)
			break;
		va = (char *)page_address(page) + offset;
		if (gup_flags & FOLL_WRITE) {
			memcpy(va, (char *)buf + done, chunk);
			folio_set_dirty(page_folio(page));     /* after the copy: a pageout may have cleaned it */
		} else
			memcpy((char *)buf + done, va, chunk);
		folio_put(page_folio(page));
		done += chunk;
	}
	mmap_read_unlock(mm);
	return done;
}
