/*
 * In Linux's formats (Linux's fs/proc/task_mmu.c),
 * the memory views of /proc/self/ and /proc/<pid>/: maps, smaps,
 * smaps_rollup, numa_maps and status's memory lines (pagemap and
 * clear_refs, also Linux's task_mmu.c, are in task_pagemap.c).  The
 * file's inode holds the process's mm (fs/proc/base.c).
 *
 * What the mapcount modes change (docs/large-folio-series.md, "What /proc shows"): with
 * CONFIG_PAGE_MAPCOUNT a page's mapcount is its precise one; without, the
 * folio's average, and "private" / PM_MMAP_EXCLUSIVE come from
 * !folio_maybe_mapped_shared().  Anon folios count as dirty: they have no
 * backing store to be clean against; a page-cache folio is dirty if its
 * entry or the folio is (written through a mapping, or by write()).
 * Three kinds of memory: anon, shmem (a page-cache folio of tmpfs, memfd or
 * shared anon memory: PG_swapbacked) and file (any other page-cache folio).
 *
 * Locks: each walk holds the mm as fs/proc/task_walk.c says.
 */
#include "linux/errno.h"
#include "fs/proc/internal.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/sched.h"
#include "linux/pgtable.h"
#include "linux/swap.h"
#include "linux/swapops.h"
#include "linux/rmap.h"
#include "linux/sched/mm.h"
#include "linux/huge_mm.h"
#include "linux/mm.h"
#include "linux/err.h"
#include "linux/namei.h"
#include "linux/slab.h"
#include "linux/shmem_fs.h"

#define PSS_SHIFT       12

struct mem_size_stats {
	unsigned long resident, shared_clean, shared_dirty, private_clean, private_dirty;
	unsigned long referenced, anonymous, anonymous_thp, shmem_thp, file_thp;
	u64 pss, pss_anon, pss_file, pss_shmem, pss_dirty;
	unsigned long swap;             /* bytes swapped out */
	u64 swap_pss;                   /* ... each divided by its entry's sharers, << PSS_SHIFT */
	u64 pss_locked;                 /* Pss of VM_LOCKED VMAs (Locked) */
	unsigned long pages, anon_pages, dirty_pages, mapcount_max;     /* numa_maps */
};

/* Pss by kind, and the shared/private, clean/dirty split (Linux's smaps_page_accumulate). */
static void smaps_page_accumulate(struct mem_size_stats *mss, struct folio *folio,
				  unsigned long size, u64 pss, bool dirty, bool private)
{
	mss->pss += pss;
	if (folio_test_anon(folio))
		mss->pss_anon += pss;
	else if (folio_test_swapbacked(folio))
		mss->pss_shmem += pss;
	else
		mss->pss_file += pss;
	if (dirty) {
		mss->pss_dirty += pss;
		if (private)
			mss->private_dirty += size;
		else
			mss->shared_dirty += size;
	} else {
		if (private)
			mss->private_clean += size;
		else
			mss->shared_clean += size;
	}
}

/* Rss of size bytes of folio, its anon, PMD-mapped (by kind) and referenced shares. */
static void smaps_account_rss(struct mem_size_stats *mss, struct folio *folio, unsigned long size,
			      bool pmd, bool young)
{
	mss->resident += size;
	mss->pages += size >> PAGE_SHIFT;
	if (young)
		mss->referenced += size;
	if (folio_test_anon(folio)) {
		mss->anonymous += size;
		mss->anon_pages += size >> PAGE_SHIFT;
		mss->anonymous_thp += pmd ? size : 0;
	} else if (folio_test_swapbacked(folio)) {
		mss->shmem_thp += pmd ? size : 0;
	} else {
		mss->file_thp += pmd ? size : 0;
	}
}

/*
 * Account one mapping (Linux's smaps_account): a PTE maps one page, a PMD
 * leaf 512 (all of a PMD-sized folio, half of a 4 MiB one); dirty is the entry's bit.  A folio with one
 * reference is this mapping's alone (never a page-cache folio: the cache
 * holds its own); else each page counts 1/mapcount of itself to Pss.  A
 * page behind a migration entry has no mapcount for the moment: it counts
 * as this mapping's alone (Linux's smaps_account with migration).
 */
static void smaps_account(struct mem_size_stats *mss, struct page *page, bool pmd, bool young,
			  bool dirty, bool migration)
{
	struct folio *folio = page_folio(page);
	unsigned long nr = pmd ? HPAGE_PMD_NR : 1, size = nr * PAGE_SIZE;

	smaps_account_rss(mss, folio, size, pmd, young);
	dirty = dirty || folio_test_anon(folio) || folio_test_dirty(folio);
	mss->dirty_pages += dirty ? nr : 0;
	if (folio_ref_count(folio) == 1 || migration) {
		smaps_page_accumulate(mss, folio, size, (u64)size << PSS_SHIFT, dirty, true);
		mss->mapcount_max = MAX(mss->mapcount_max, 1UL);
		return;
	}
	for (unsigned long i = 0; i < nr; i++, page++) {
		int mapcount = proc_page_mapcount(folio, page);
		u64 pss = (u64)PAGE_SIZE << PSS_SHIFT;

		if (mapcount >= 2)
			pss /= mapcount;
		smaps_page_accumulate(mss, folio, PAGE_SIZE, pss, dirty,
				      page_mapped_exclusively(folio, page));
		mss->mapcount_max = MAX(mss->mapcount_max, (unsigned long)mapcount);
	}
}

static void smaps_pmd_entry(struct proc_walk *walk, pmd_t *pmd, unsigned long addr,
			    unsigned long end)
{
	if (!is_huge_zero_pmd(*pmd))
		smaps_account(walk->private, pfn_to_page(pmd_pfn(*pmd)), true, pmd_young(*pmd),
			      pmd_dirty(*pmd), false);
}

static void smaps_pte_entry(struct proc_walk *walk, pte_t *pte, unsigned long addr)
{
	struct page *page = vm_normal_page(walk->vma, addr, *pte);

	if (page)
		smaps_account(walk->private, page, false, pte_young(*pte), pte_dirty(*pte), false);
}

/*
 * A swap entry counts in Swap, and in SwapPss divided among the entries
 * that share its slot; a page behind a migration entry is still in Rss
 * (Linux's smaps_pte_entry).
 */
static void smaps_swap_pte_entry(struct proc_walk *walk, pte_t *pte, unsigned long addr)
{
	swp_entry_t entry = pte_to_swp_entry(*pte);
	struct mem_size_stats *mss = walk->private;

	if (!non_swap_entry(entry)) {
		int sharers = swp_swapcount(entry);

		mss->swap += PAGE_SIZE;
		mss->swap_pss += ((u64)PAGE_SIZE << PSS_SHIFT) / (sharers > 1 ? sharers : 1);
		return;
	}
	smaps_account(mss, pfn_swap_entry_to_page(entry), false, false, false, true);
}

/* A THP behind a PMD migration entry: all of it, as its PMD counted (Linux's smaps_pmd_entry). */
static void smaps_swap_pmd_entry(struct proc_walk *walk, pmd_t *pmd, unsigned long addr,
				 unsigned long end)
{
	smaps_account(walk->private, pfn_swap_entry_to_page(pmd_to_swp_entry(*pmd)), true, false,
		      false, true);
}

static const struct proc_walk_ops smaps_walk_ops = {
	.pmd_entry = smaps_pmd_entry,
	.pte_entry = smaps_pte_entry,
	.swap_pte_entry = smaps_swap_pte_entry,
	.swap_pmd_entry = smaps_swap_pmd_entry,
};

/*
 * Account each present entry of vma (Linux's smap_gather_stats with
 * smaps_pte_range), under the mmap_lock; the zero pages are no normal
 * pages and count nowhere, not even in Rss (Linux: vm_normal_page() is
 * NULL for them).  A shared or read-only mapping of a shmem file counts
 * the file's pages in swap there as Swap (Linux's shmem_swap_usage; its
 * page-table walk also finds them for a private writable one, whose
 * holes may be COWed pages instead: foliOS leaves that case at 0).  A
 * locked VMA's Pss is also its Locked (Linux's pss_locked).
 */
static void smap_gather_stats(struct vm_area_struct *vma, struct mem_size_stats *mss)
{
	struct proc_walk walk = { .ops = &smaps_walk_ops, .vma = vma, .private = mss };

	u64 pss_before = mss->pss;

	if (vma->vm_file && shmem_mapping(vma->vm_file->f_mapping) &&
	    ((vma->vm_flags & VM_SHARED) || !(vma->vm_flags & VM_WRITE)))
		mss->swap += shmem_swap_usage(vma);
	proc_walk_range(&walk, vma->vm_start, vma->vm_end);
	if (vma->vm_flags & VM_LOCKED)
		mss->pss_locked += mss->pss - pss_before;
}

static bool vma_is_heap(const struct vm_area_struct *vma)
{
	return vma->vm_start <= vma->vm_mm->brk && vma->vm_end >= vma->vm_mm->start_brk;
}

static bool vma_is_stack(const struct vm_area_struct *vma)
{
	return vma->vm_flags & VM_GROWSDOWN;
}

/* numa_maps' " file=PATH", " heap" or " stack". */
static void show_numa_map_name(struct seq_file *m, struct vm_area_struct *vma)
{
	char *buf = vma->vm_file ? kmalloc(PATH_MAX) : NULL;
	const char *name = buf ? file_path(vma->vm_file, buf, PATH_MAX) : "";

	if (vma->vm_file)
		seq_printf(m, " file=%s", IS_ERR(name) ? "" : name);
	else if (vma_is_heap(vma) || vma_is_stack(vma))
		seq_printf(m, " %s", vma_is_heap(vma) ? "heap" : "stack");
	kfree(buf);
}

/*
 * The name maps shows for vma: its file's (into buf, PATH_MAX bytes:
 * " (deleted)" once unlinked; shared anon memory is shmem's "/dev/zero
 * (deleted)", as Linux), [heap], [stack] or none ("").
 */
const char *map_vma_name(struct vm_area_struct *vma, char *buf)
{
	const char *name;

	if (vma->vm_file) {
		name = buf ? file_path(vma->vm_file, buf, PATH_MAX) : "";
		return IS_ERR(name) ? "" : name;
	}
	if (vma->vm_ops && vma->vm_ops->name)
		return vma->vm_ops->name(vma);
	if (vma_is_heap(vma))
		return "[heap]";
	return vma_is_stack(vma) ? "[stack]" : "";
}

/*
 * The maps line (Linux's show_map_vma): range, permissions, 's'hared or
 * 'p'rivate (VM_MAYSHARE), then for a file its offset, device and inode,
 * and the name in column 74.
 */
static void show_map_vma(struct seq_file *m, struct vm_area_struct *vma)
{
	struct file *file = vma->vm_file;
	unsigned long f = vma->vm_flags, dev = file ? inode_dev(file_inode(file)) : 0;
	char *buf = file ? kmalloc(PATH_MAX) : NULL;
	const char *name = map_vma_name(vma, buf);

	seq_printf(m, "%08lx-%08lx %c%c%c%c %08lx %02lx:%02lx %lu ", vma->vm_start, vma->vm_end,
		   f & VM_READ ? 'r' : '-', f & VM_WRITE ? 'w' : '-', f & VM_EXEC ? 'x' : '-',
		   f & VM_MAYSHARE ? 's' : 'p', file ? vma->vm_pgoff << PAGE_SHIFT : 0, dev >> 8,
		   dev & 0xff, file ? file_inode(file)->i_ino : 0UL);
	if (*name) {
		seq_pad(m, 25 + sizeof(void *) * 6 - 1, ' ');
		seq_printf(m, "%s", name);
	}
	seq_printf(m, "\n");
	kfree(buf);
}

/* maps: one line per VMA; empty once no task uses the mm. */
int maps_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = proc_mm_lock(m->private);
	struct vm_area_struct *vma;

	if (!mm)
		return 0;
	list_for_each_entry(vma, &mm->mmap, vm_list)
		show_map_vma(m, vma);
	proc_mm_unlock(mm);
	return 0;
}

/* Linux's __show_smap: every counter in kB, labels 16 wide, values 8 wide. */
static void __show_smap(struct seq_file *m, const struct mem_size_stats *mss, bool rollup)
{
	seq_printf(m, "Rss:            %8lu kB\nPss:            %8llu kB\n"
		   "Pss_Dirty:      %8llu kB\n", mss->resident >> 10,
		   (unsigned long long)(mss->pss >> (10 + PSS_SHIFT)),
		   (unsigned long long)(mss->pss_dirty >> (10 + PSS_SHIFT)));
	if (rollup)
		seq_printf(m, "Pss_Anon:       %8llu kB\nPss_File:       %8lu kB\n"
			   "Pss_Shmem:      %8lu kB\n",
			   (unsigned long long)(mss->pss_anon >> (10 + PSS_SHIFT)),
			   (unsigned long)(mss->pss_file >> (10 + PSS_SHIFT)),
			   (unsigned long)(mss->pss_shmem >> (10 + PSS_SHIFT)));
	seq_printf(m, "Shared_Clean:   %8lu kB\nShared_Dirty:   %8lu kB\n"
		   "Private_Clean:  %8lu kB\nPrivate_Dirty:  %8lu kB\nReferenced:     %8lu kB\n"
		   "Anonymous:      %8lu kB\nKSM:            %8lu kB\nLazyFree:       %8lu kB\n"
		   "AnonHugePages:  %8lu kB\nShmemPmdMapped: %8lu kB\nFilePmdMapped:  %8lu kB\n"
		   "Shared_Hugetlb: %8lu kB\nPrivate_Hugetlb: %7lu kB\nSwap:           %8lu kB\n"
		   "SwapPss:        %8lu kB\nLocked:         %8lu kB\n",
		   mss->shared_clean >> 10, mss->shared_dirty >> 10, mss->private_clean >> 10,
		   mss->private_dirty >> 10, mss->referenced >> 10, mss->anonymous >> 10, 0UL, 0UL,
		   mss->anonymous_thp >> 10, mss->shmem_thp >> 10, mss->file_thp >> 10, 0UL, 0UL,
		   mss->swap >> 10, (unsigned long)(mss->swap_pss >> (10 + PSS_SHIFT)),
		   (unsigned long)(mss->pss_locked >> (10 + PSS_SHIFT)));
}

/* Linux's VmFlags mnemonics for the flags foliOS has, in Linux's order. */
static void show_smap_vma_flags(struct seq_file *m, const struct vm_area_struct *vma)
{
	unsigned long f = vma->vm_flags;

	seq_printf(m, "VmFlags: %s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s\n", f & VM_READ ? "rd " : "",
		   f & VM_WRITE ? "wr " : "", f & VM_EXEC ? "ex " : "", f & VM_SHARED ? "sh " : "",
		   f & VM_MAYREAD ? "mr " : "", f & VM_MAYWRITE ? "mw " : "",
		   f & VM_MAYEXEC ? "me " : "", f & VM_MAYSHARE ? "ms " : "",
		   f & VM_GROWSDOWN ? "gd " : "", f & VM_PFNMAP ? "pf " : "", f & VM_LOCKED ? "lo " : "",
		   f & VM_IO ? "io " : "", f & VM_DONTCOPY ? "dc " : "", f & VM_DONTEXPAND ? "de " : "",
		   f & VM_LOCKONFAULT ? "lf " : "", f & VM_ACCOUNT ? "ac " : "",
		   f & VM_NORESERVE ? "nr " : "",
		   f & VM_WIPEONFORK ? "wf " : "", f & VM_DONTDUMP ? "dd " : "",
		   f & VM_SOFTDIRTY ? "sd " : "", f & VM_HUGEPAGE ? "hg " : "",
		   f & VM_NOHUGEPAGE ? "nh " : "");
}

/*
 * smaps' THPeligible (Linux's thp_vma_allowable_orders for smaps): anon
 * memory by the THP knobs, shmem (tmpfs, memfd, shared anon) by shmem's
 * huge policy, other files and special mappings (the vDSO) never (foliOS
 * has no READ_ONLY_THP_FOR_FS).
 */
static bool thp_eligible(struct vm_area_struct *vma)
{
	struct file *file = vma->vm_file;

	if (!file)
		return !vma->vm_ops && thp_vma_allowable_orders(vma, THP_ORDERS_ALL_ANON) != 0;
	if (!shmem_mapping(file->f_mapping))
		return false;
	return shmem_allowable_huge_orders(file_inode(file), vma, vma->vm_pgoff, 0, false) != 0;
}

/* smaps: maps' line and the counts of each VMA; empty once no task uses the mm. */
int smaps_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = proc_mm_lock(m->private);
	struct vm_area_struct *vma;

	if (!mm)
		return 0;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		struct mem_size_stats mss = { 0 };

		smap_gather_stats(vma, &mss);
		show_map_vma(m, vma);
		seq_printf(m, "Size:           %8lu kB\nKernelPageSize: %8lu kB\n"
			   "MMUPageSize:    %8lu kB\n", (vma->vm_end - vma->vm_start) >> 10,
			   PAGE_SIZE >> 10, PAGE_SIZE >> 10);
		__show_smap(m, &mss, false);
		seq_printf(m, "THPeligible:    %8d\n", thp_eligible(vma));
		show_smap_vma_flags(m, vma);
	}
	proc_mm_unlock(mm);
	return 0;
}

/* smaps_rollup: the counts of all VMAs; -ESRCH once no task uses the mm (Linux's). */
int smaps_rollup_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = proc_mm_lock(m->private);
	struct mem_size_stats mss = { 0 };
	struct vm_area_struct *vma;
	unsigned long start = 0, end = 0;

	if (!mm)
		return -ESRCH;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		smap_gather_stats(vma, &mss);
		start = start ? start : vma->vm_start;
		end = vma->vm_end;
	}
	proc_mm_unlock(mm);
	seq_printf(m, "%08lx-%08lx ---p 00000000 00:00 0", start, end);
	seq_pad(m, 25 + sizeof(void *) * 6 - 1, ' ');
	seq_printf(m, "[rollup]\n");
	__show_smap(m, &mss, true);
	return 0;
}

/*
 * numa_maps (Linux's show_numa_map), one node: the file or heap/stack,
 * page counts (anon, dirty, and "mapped" when that says more) and the
 * highest page mapcount ("mapmax").
 */
int numa_maps_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = proc_mm_lock(m->private);
	struct vm_area_struct *vma;

	if (!mm)
		return 0;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		struct mem_size_stats mss = { 0 };

		smap_gather_stats(vma, &mss);
		seq_printf(m, "%08lx default", vma->vm_start);
		show_numa_map_name(m, vma);
		if (mss.pages) {
			if (mss.anon_pages)
				seq_printf(m, " anon=%lu", mss.anon_pages);
			if (mss.dirty_pages)
				seq_printf(m, " dirty=%lu", mss.dirty_pages);
			if (mss.pages != mss.anon_pages && mss.pages != mss.dirty_pages)
				seq_printf(m, " mapped=%lu", mss.pages);
			if (mss.mapcount_max > 1)
				seq_printf(m, " mapmax=%lu", mss.mapcount_max);
			seq_printf(m, " active=0 N0=%lu kernelpagesize_kB=%lu", mss.pages,
				   PAGE_SIZE >> 10);
		}
		seq_printf(m, "\n");
	}
	proc_mm_unlock(mm);
	return 0;
}

/*
 * status's memory lines (Linux's task_mem), while a task uses the mm
 * bound to inode (none after it exited): VmRSS is anon + file + shmem
 * pages mapped (Linux's get_mm_rss), VmHWM its peak, VmLck the size of
 * its VM_LOCKED VMAs (Linux's locked_vm).
 */
void task_mem(struct seq_file *m, struct inode *inode)
{
	struct mm_struct *mm = proc_mm_lock(inode);
	unsigned long size, data, stack = 0, kb = PAGE_SIZE >> 10;
	long anon, file, shmem, swap, rss;
	struct vm_area_struct *vma;

	if (!mm)
		return;
	size = mm_vm_pages(mm, false) * kb;
	data = mm_vm_pages(mm, true) * kb;
	/* faults on other CPUs count on meanwhile: each counter read once, as Linux's */
	anon = READ_ONCE(mm->rss_anon);
	file = READ_ONCE(mm->rss_file);
	shmem = READ_ONCE(mm->rss_shmem);
	swap = READ_ONCE(mm->rss_swap);
	rss = anon + file + shmem;
	list_for_each_entry(vma, &mm->mmap, vm_list)
		if (vma_is_stack(vma))
			stack += (vma->vm_end - vma->vm_start) >> 10;
	seq_printf(m, "VmSize:\t%8lu kB\nVmLck:\t%8lu kB\nVmHWM:\t%8lu kB\nVmRSS:\t%8lu kB\n"
		   "RssAnon:\t%8lu kB\nRssFile:\t%8lu kB\nRssShmem:\t%8lu kB\nVmData:\t%8lu kB\n"
		   "VmStk:\t%8lu kB\nVmSwap:\t%8lu kB\n", size, mm_locked_vm(mm) * kb,
		   MAX(READ_ONCE(mm->hiwater_rss), rss) * kb, rss * kb,
		   anon * kb, file * kb, shmem * kb, data, stack, swap * kb);
	proc_mm_unlock(mm);
}
