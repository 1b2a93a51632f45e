/*
 * /proc/<pid>/pagemap and clear_refs, in Linux's formats (the second half
 * of Linux's fs/proc/task_mmu.c; maps and smaps are in task_mmu.c).  The
 * file's inode holds the process's mm (fs/proc/base.c).
 *
 * pagemap: one 64-bit entry per virtual page: the PFN (a teaching kernel
 * shows it), PM_SOFT_DIRTY, PM_MMAP_EXCLUSIVE (per mode: see
 * page_mapped_exclusively()), PM_FILE for a page-cache page, PM_PRESENT;
 * a swap entry, and a migration entry, as Linux's swap entry (PM_SWAP).
 *
 * Locks: each walk holds the mm as fs/proc/task_walk.c says.
 */
#include "linux/errno.h"
#include "fs/proc/internal.h"
#include "linux/string.h"
#include "linux/sched.h"
#include "linux/pgtable.h"
#include "linux/rmap.h"
#include "linux/swapops.h"
#include "linux/mm.h"
#include "linux/slab.h"
#include "linux/uaccess.h"
#include "linux/mmap_lock.h"

#define PM_PFRAME_MASK          ((1UL << 55) - 1)
#define PM_SOFT_DIRTY           (1UL << 55)
#define PM_MMAP_EXCLUSIVE       (1UL << 56)
#define PM_FILE                 (1UL << 61)
#define PM_SWAP                 (1UL << 62)
#define PM_PRESENT              (1UL << 63)
#define PM_ENTRY_BYTES          8
/* the entries made under one hold of the mmap_lock (Linux's PAGEMAP_WALK_SIZE: a PMD's) */
#define PAGEMAP_WALK_ENTRIES    (PMD_SIZE >> PAGE_SHIFT)
#define PAGEMAP_LIMIT           (TASK_SIZE_MAX >> PAGE_SHIFT)

/* One walk's entries: buffer[i] is the entry of the page at start + i pages. */
struct pagemapread {
	u64 *buffer;
	unsigned long start;
};

/*
 * The entry of a present page: its PFN, PM_PRESENT, PM_MMAP_EXCLUSIVE
 * and PM_SOFT_DIRTY from the entry (else sd, the VMA's).  A zero page
 * shows its PFN, never PM_MMAP_EXCLUSIVE: it is everybody's; the huge
 * zero folio, no anon folio, shows PM_FILE as in Linux, and so does every
 * page-cache page (a file's, shmem's).  Under the entry's table lock.
 */
static u64 pagemap_entry(unsigned long pfn, bool soft_dirty, u64 sd)
{
	struct page *page = pfn_to_page(pfn);
	struct folio *folio = page_folio(page);
	bool zero = is_zero_pfn(pfn) || is_huge_zero_pfn(pfn);

	return (pfn & PM_PFRAME_MASK) | PM_PRESENT |
	       (is_huge_zero_pfn(pfn) || (!zero && !folio_test_anon(folio)) ? PM_FILE : 0) |
	       (soft_dirty ? PM_SOFT_DIRTY : sd) |
	       (!zero && page_mapped_exclusively(folio, page) ? PM_MMAP_EXCLUSIVE : 0);
}

static u64 *pagemap_slot(struct proc_walk *walk, unsigned long addr)
{
	struct pagemapread *pm = walk->private;

	return &pm->buffer[(addr - pm->start) >> PAGE_SHIFT];
}

static void pagemap_pmd_entry(struct proc_walk *walk, pmd_t *pmd, unsigned long addr,
			      unsigned long end)
{
	unsigned long pfn = pmd_pfn(*pmd) + ((addr & ~PMD_MASK) >> PAGE_SHIFT);

	for (; addr < end; addr += PAGE_SIZE, pfn++)
		*pagemap_slot(walk, addr) = pagemap_entry(pfn, pmd_soft_dirty(*pmd), *pagemap_slot(walk, addr));
}

static void pagemap_pte_entry(struct proc_walk *walk, pte_t *pte, unsigned long addr)
{
	*pagemap_slot(walk, addr) = pagemap_entry(pte_pfn(*pte), pte_soft_dirty(*pte),
						  *pagemap_slot(walk, addr));
}

/*
 * A swap entry, or a migration entry (a split or migration has the page
 * unmapped for a moment): Linux's swap entry format, PM_SWAP with the
 * type in bits 0-4 and the offset (a migration entry's: its pfn) above
 * them, no PM_PRESENT, no PM_MMAP_EXCLUSIVE (Linux's
 * pte_to_pagemap_entry); PM_FILE for a migrating page-cache page.
 */
static u64 pagemap_swap_entry(pte_t pte, u64 sd)
{
	swp_entry_t entry = pte_to_swp_entry(pte);
	bool swap = !non_swap_entry(entry);
	u64 frame = swp_type(entry) |
		    ((u64)(swap ? swp_offset(entry) : swp_offset_pfn(entry)) << MAX_SWAPFILES_SHIFT);

	return (frame & PM_PFRAME_MASK) | PM_SWAP | (pte_swp_soft_dirty(pte) ? PM_SOFT_DIRTY : sd) |
	       (swap || folio_test_anon(pfn_swap_entry_folio(entry)) ? 0 : PM_FILE);
}

static void pagemap_swap_pte_entry(struct proc_walk *walk, pte_t *pte, unsigned long addr)
{
	*pagemap_slot(walk, addr) = pagemap_swap_entry(*pte, *pagemap_slot(walk, addr));
}

/* A PMD migration entry: each page as the PTE entry its split would make. */
static void pagemap_swap_pmd_entry(struct proc_walk *walk, pmd_t *pmd, unsigned long addr,
				   unsigned long end)
{
	for (; addr < end; addr += PAGE_SIZE)
		*pagemap_slot(walk, addr) = pagemap_swap_entry(
			pmd_migration_entry_page(*pmd, (addr & ~PMD_MASK) >> PAGE_SHIFT),
			*pagemap_slot(walk, addr));
}

static const struct proc_walk_ops pagemap_walk_ops = {
	.pmd_entry = pagemap_pmd_entry,
	.pte_entry = pagemap_pte_entry,
	.swap_pte_entry = pagemap_swap_pte_entry,
	.swap_pmd_entry = pagemap_swap_pmd_entry,
};

/*
 * The entries of [start, end) of mm into pm->buffer, under its mmap_lock:
 * 0 outside VMAs; in a VMA made soft-dirty since the last clear_refs 4
 * (Linux's VM_SOFTDIRTY) PM_SOFT_DIRTY, holes too; present pages by
 * pagemap_entry().
 */
static void pagemap_fill(struct mm_struct *mm, struct pagemapread *pm, unsigned long end)
{
	struct proc_walk walk = { .ops = &pagemap_walk_ops, .private = pm };
	struct vm_area_struct *vma;

	memset(pm->buffer, 0, ((end - pm->start) >> PAGE_SHIFT) * PM_ENTRY_BYTES);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		unsigned long s = MAX(vma->vm_start, pm->start), e = MIN(vma->vm_end, end);

		if (vma->vm_start >= end)
			break;
		for (unsigned long a = s; a < e && (vma->vm_flags & VM_SOFTDIRTY); a += PAGE_SIZE)
			*pagemap_slot(&walk, a) = PM_SOFT_DIRTY;
		walk.vma = vma;
		if (s < e)
			proc_walk_range(&walk, s, e);
	}
}

/*
 * The entries from *pos on into ubuf (count bytes, both multiples of 8),
 * a PMD's worth at a time made under the mmap_lock into pm's kernel
 * buffer, then copied out with the lock dropped (a fault on the user
 * buffer takes it), as Linux's pagemap_read.  The bytes read, short at
 * the end of the address space; -EFAULT if none.
 */
static long pagemap_copy(struct mm_struct *mm, struct pagemapread *pm, char *ubuf, size_t count,
			 loff_t *pos)
{
	long done = 0;

	while ((size_t)done < count && (unsigned long)*pos / PM_ENTRY_BYTES < PAGEMAP_LIMIT) {
		unsigned long vpn = *pos / PM_ENTRY_BYTES;
		unsigned long n = PAGEMAP_WALK_ENTRIES - (vpn & (PAGEMAP_WALK_ENTRIES - 1));

		n = MIN(MIN(n, (count - done) / PM_ENTRY_BYTES), PAGEMAP_LIMIT - vpn);
		pm->start = vpn << PAGE_SHIFT;
		mmap_read_lock(mm);
		pagemap_fill(mm, pm, pm->start + (n << PAGE_SHIFT));
		mmap_read_unlock(mm);
		if (copy_to_user(ubuf + done, pm->buffer, n * PM_ENTRY_BYTES))
			return done ? done : -EFAULT;
		done += n * PM_ENTRY_BYTES;
		*pos += n * PM_ENTRY_BYTES;
	}
	return done;
}

/*
 * read(2) of pagemap, with the mm pinned throughout: pagemap_copy()'s
 * result; 0 (EOF) once the mm has no user (exit, exec), as Linux; then
 * -EINVAL for a position or count not a multiple of 8; -ENOMEM.
 */
static long pagemap_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	struct mm_struct *mm = PROC_I(file_inode(file))->mm;
	struct pagemapread pm;
	long ret;

	if (!mm || !mmget_not_zero(mm))
		return 0;
	pm.buffer = kmalloc(PAGEMAP_WALK_ENTRIES * PM_ENTRY_BYTES);
	if ((*pos | count) & (PM_ENTRY_BYTES - 1))
		ret = -EINVAL;
	else
		ret = pm.buffer ? pagemap_copy(mm, &pm, ubuf, count, pos) : -ENOMEM;
	kfree(pm.buffer);
	mmput(mm);
	return ret;
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

/*
 * A present entry after clear_refs: old, or (soft-dirty) write-protected
 * and soft-clean.  Changed under its table's lock by compare-and-swap:
 * the CPU may set its accessed or dirty bit meanwhile, and that must stay.
 */
static void clear_refs_pmd_entry(struct proc_walk *walk, pmd_t *pmd, unsigned long addr,
				 unsigned long end)
{
	bool soft_dirty = *(int *)walk->private == CLEAR_REFS_SOFT_DIRTY;
	pmd_t old = pmdp_get(pmd);

	while (!pmdp_try_cmpxchg(pmd, &old, soft_dirty ? pmd_clear_soft_dirty(pmd_wrprotect(old)) :
							  pmd_mkold(old)))
		;
}

static void clear_refs_pte_entry(struct proc_walk *walk, pte_t *pte, unsigned long addr)
{
	bool soft_dirty = *(int *)walk->private == CLEAR_REFS_SOFT_DIRTY;
	pte_t old = ptep_get(pte);

	while (!ptep_try_cmpxchg(pte, &old, soft_dirty ? pte_clear_soft_dirty(pte_wrprotect(old)) :
							  pte_mkold(old)))
		;
}

/*
 * A swap or migration entry loses its soft-dirty bit (Linux's
 * clear_soft_dirty); a migration entry, unlike Linux's, its write
 * permission too: the PTE that remove_migration_ptes() makes is then
 * write-protected like the others, and the next write is recorded (a
 * swap-in maps read-only what its entry says is soft-clean).  Other types
 * leave it alone.
 */
static void clear_refs_swap_pte_entry(struct proc_walk *walk, pte_t *pte, unsigned long addr)
{
	pte_t ptent = *pte;

	if (*(int *)walk->private != CLEAR_REFS_SOFT_DIRTY)
		return;
	if (is_migration_entry(pte_to_swp_entry(ptent)))
		ptent = migration_pte_wrprotect(ptent, true);
	set_pte_at(walk->vma->vm_mm, addr, pte, pte_swp_clear_soft_dirty(ptent));
}

static void clear_refs_swap_pmd_entry(struct proc_walk *walk, pmd_t *pmd, unsigned long addr,
				      unsigned long end)
{
	if (*(int *)walk->private == CLEAR_REFS_SOFT_DIRTY)
		set_pmd_at(walk->vma->vm_mm, addr, pmd,
			   pmd_swp_clear_soft_dirty(migration_pmd_wrprotect(*pmd, true)));
}

/*
 * Clearing the referenced or soft-dirty state of every present entry
 * (Linux's clear_refs_pte_range).  Write-protecting makes the next write
 * fault, and the fault marks the entry soft-dirty again; an exclusive
 * page is reused then, not copied.
 */
static const struct proc_walk_ops clear_refs_walk_ops = {
	.pmd_entry = clear_refs_pmd_entry,
	.pte_entry = clear_refs_pte_entry,
	.swap_pte_entry = clear_refs_swap_pte_entry,
	.swap_pmd_entry = clear_refs_swap_pmd_entry,
};

/* Clear the VMAs of mm that type concerns (Linux's clear_refs_test_walk); mmap_lock held for write. */
static void clear_refs_mm(struct mm_struct *mm, int type)
{
	struct proc_walk walk = { .ops = &clear_refs_walk_ops, .private = &type };
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if ((type == CLEAR_REFS_ANON && vma->vm_file) ||
		    (type == CLEAR_REFS_MAPPED && !vma->vm_file))
			continue;
		if (type == CLEAR_REFS_SOFT_DIRTY)
			vma->vm_flags &= ~VM_SOFTDIRTY;
		walk.vma = vma;
		proc_walk_range(&walk, vma->vm_start, vma->vm_end);
	}
	flush_tlb_mm(mm);
}

/*
 * /proc/<pid>/clear_refs (Linux's clear_refs_write): 1 clears the
 * referenced (accessed) bits of all memory, 2 those of the anonymous VMAs,
 * 3 those of the file VMAs, 4 the soft-dirty bits; 5 resets the peak RSS
 * (VmHWM) to the current one.  0 (also once the process has exited), or
 * -EINVAL for another value.
 */
int clear_refs_write(struct file *file, char *buf, size_t len)
{
	struct mm_struct *mm;
	const char *end;
	long type = simple_strtoul(buf, &end, 10);

	if (end == buf || (*end && strcmp(end, "\n")) || type < CLEAR_REFS_ALL ||
	    type >= CLEAR_REFS_LAST)
		return -EINVAL;
	mm = PROC_I(file_inode(file))->mm;
	if (!mm || !mmget_not_zero(mm))
		return 0;                               /* exited: nothing to clear, as Linux */
	mmap_write_lock(mm);                            /* the VMAs' VM_SOFTDIRTY too */
	if (type == CLEAR_REFS_MM_HIWATER_RSS)          /* Linux's reset_mm_hiwater_rss */
		mm->hiwater_rss = mm->rss_anon + mm->rss_file + mm->rss_shmem;
	else
		clear_refs_mm(mm, type);
	mmap_write_unlock(mm);
	mmput(mm);
	return 0;
}

/* Reading clear_refs gives nothing (Linux's file is write-only). */
int clear_refs_show(struct seq_file *m, void *v)
{
	return 0;
}
