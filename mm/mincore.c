/*
 * mincore(2) (Linux's mm/mincore.c): which pages of a range are resident,
 * one byte per page, bit 0 set if it is.
 *
 *   mapped by a present PTE or a PMD leaf         resident (the zero page too)
 *   a migration entry                              resident (the page is there,
 *                                                  only unmapped for a moment)
 *   no entry, anonymous VMA                        not resident
 *   no entry, VMA of a file (tmpfs, memfd, initrd) resident if the page
 *                                                  cache holds that index (a
 *                                                  shmem page in swap: if the
 *                                                  swap cache holds it)
 *
 * Locks: current's mmap_lock for read while a chunk of the range is
 * looked at (the VMAs and page tables stay); each PTE table's lock while
 * its entries are read, each PMD table's while a PMD entry is; the page
 * cache is looked up locklessly (filemap_get_incore_folio).  The bytes go to
 * user memory after the mmap_lock is dropped, a page of them at a time.
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/mm.h"
#include "linux/mmap_lock.h"
#include "linux/pgtable.h"
#include "linux/pagemap.h"
#include "linux/rmap.h"
#include "linux/swap.h"
#include "linux/swapops.h"
#include "linux/uaccess.h"
#include "linux/string.h"
#include "linux/gfp.h"
#include "linux/fs.h"
#include "linux/capability.h"
#include "mm/internal.h"

/* The page cache's answer for the pages of a file VMA at [addr, end), into vec (Linux's mincore_page). */
static void mincore_unmapped_range(struct vm_area_struct *vma, unsigned long addr,
				   unsigned long end, unsigned char *vec)
{
	struct address_space *mapping = vma->vm_file ? vma->vm_file->f_mapping : NULL;

	for (; addr < end; addr += PAGE_SIZE, vec++) {
		struct folio *folio = mapping ? filemap_get_incore_folio(mapping,
									 linear_page_index(vma, addr)) : NULL;

		*vec = folio != NULL;
		if (folio)
			folio_put(folio);
	}
}

/*
 * A swapped-out page is resident only while the swap cache still holds
 * it (Linux's mincore_swap).  Under the PTL: the entry keeps its slot,
 * and so the device, alive.
 */
static unsigned char mincore_swap(swp_entry_t entry)
{
	struct folio *folio = swap_cache_get_folio(entry);

	if (!folio)
		return 0;
	folio_put(folio);
	return 1;
}

/* The PTEs of [addr, end) under one PMD that points to a PTE table; false if there is none now. */
static bool mincore_pte_range(struct vm_area_struct *vma, pmd_t *pmd, unsigned long addr,
			      unsigned long end, unsigned char *vec)
{
	spinlock_t *ptl;
	pte_t *pte = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);

	if (!pte)
		return false;
	for (; addr < end; addr += PAGE_SIZE, pte++, vec++) {
		pte_t entry = ptep_get(pte);

		if (pte_none(entry))
			mincore_unmapped_range(vma, addr, addr + PAGE_SIZE, vec);
		else if (is_swap_pte(entry) && !non_swap_entry(pte_to_swp_entry(entry)))
			*vec = mincore_swap(pte_to_swp_entry(entry));
		else
			*vec = 1;       /* present, PROT_NONE, or a migration entry */
	}
	pte_unmap_unlock(pte, ptl);
	return true;
}

/* [addr, end) within one PMD of vma. */
static void mincore_pmd_range(struct vm_area_struct *vma, unsigned long addr,
			      unsigned long end, unsigned char *vec)
{
	pmd_t *pmd = mm_find_pmd(vma->vm_mm, addr);
	spinlock_t *ptl;

	if (!pmd || pmd_none(pmdp_get(pmd))) {
		mincore_unmapped_range(vma, addr, end, vec);
		return;
	}
	ptl = pmd_lock(vma->vm_mm, pmd);
	if (pmd_trans_huge(*pmd) || is_swap_pmd(*pmd)) {        /* a THP, or one being migrated */
		spin_unlock(ptl);
		memset(vec, 1, (end - addr) >> PAGE_SHIFT);
		return;
	}
	spin_unlock(ptl);
	if (!mincore_pte_range(vma, pmd, addr, end, vec))
		mincore_unmapped_range(vma, addr, end, vec);    /* the table went meanwhile */
}

/*
 * May this process see the residency of vma's pages (Linux's
 * can_do_mincore)?  Anonymous memory: yes.  A file's page cache only to
 * its owner or a holder of CAP_FOWNER (else one could watch another's
 * reads; Linux also lets in whoever may write the file, which foliOS,
 * where everyone is root, does not check).  A mapping of no file (the
 * vDSO): no.  Where not, every page reads as resident.
 */
static bool can_do_mincore(struct vm_area_struct *vma)
{
	if (vma_is_anonymous(vma))
		return true;
	if (!vma->vm_file)
		return false;
	return file_inode(vma->vm_file)->i_uid == 0 || capable(CAP_FOWNER);
}

/*
 * The residency of up to pages pages from addr (page-aligned) into vec,
 * stopping at the end of the VMA holding addr (Linux's do_mincore).
 * Returns how many pages it did, or -ENOMEM if no VMA holds addr.
 * mmap_lock held for read.
 */
static long do_mincore(struct mm_struct *mm, unsigned long addr, unsigned long pages,
		       unsigned char *vec)
{
	struct vm_area_struct *vma = find_vma(mm, addr);
	unsigned long end, next, nr;

	mmap_assert_locked(mm);
	if (!vma || addr < vma->vm_start)
		return -ENOMEM;
	end = MIN(vma->vm_end, addr + (pages << PAGE_SHIFT));
	nr = (end - addr) >> PAGE_SHIFT;
	if (!can_do_mincore(vma)) {
		memset(vec, 1, nr);
		return nr;
	}
	for (; addr < end; addr = next) {
		next = pmd_addr_end(addr, end);
		mincore_pmd_range(vma, addr, next, vec);
		vec += (next - addr) >> PAGE_SHIFT;
	}
	return nr;
}

/*
 * mincore(start, len, vec): EINVAL for an unaligned start, ENOMEM for a
 * range outside user space or with a hole (the bytes up to the hole are
 * written), EFAULT for a vec that cannot take one byte per page.
 */
long sys_mincore(unsigned long start, unsigned long len, unsigned char *vec)
{
	struct mm_struct *mm = current->mm;
	unsigned long pages;
	unsigned char *tmp;
	long ret = 0;

	if (start & ~PAGE_MASK)
		return -EINVAL;
	if (!access_ok(start, len))
		return -ENOMEM;
	pages = (len >> PAGE_SHIFT) + ((len & ~PAGE_MASK) != 0);
	if (!access_ok((unsigned long)vec, pages))
		return -EFAULT;
	tmp = (unsigned char *)__get_free_pages(0, 0);
	if (!tmp)
		return -EAGAIN;
	while (pages) {
		mmap_read_lock(mm);
		ret = do_mincore(mm, start, MIN(pages, PAGE_SIZE), tmp);
		mmap_read_unlock(mm);
		if (ret <= 0)
			break;
		if (copy_to_user(vec, tmp, ret)) {
			ret = -EFAULT;
			break;
		}
		pages -= ret;
		vec += ret;
		start += ret << PAGE_SHIFT;
		ret = 0;
	}
	free_page((unsigned long)tmp);
	return ret;
}
