/*
 * In Linux's formats (Linux's fs/proc/task_mmu.c),
 * the memory views of /proc/self/ and /proc/<pid>/: maps, smaps,
 * smaps_rollup, numa_maps and pagemap (soft-dirty bit too), clear_refs, and
 * status's memory lines.  The
 * file's inode holds the process's mm (fs/proc/base.c).
 *
 * What the mapcount modes change (MISSING.md §17-19): with
 * CONFIG_PAGE_MAPCOUNT a page's mapcount is its precise one; without, the
 * folio's average, and "private" / PM_MMAP_EXCLUSIVE come from
 * !folio_maybe_mapped_shared().  Anon folios count as dirty: they have no
 * backing store to be clean against.
 *
 * Lock order: see mm/rmap.c; none taken, as in fs/proc/root.c.
 */
#include "linux/errno.h"
#include "fs/proc/internal.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/sched.h"
#include "mm/pgtable.h"
#include "mm/rmap.h"
#include "mm/mm_id.h"
#include "mm/thp_policy.h"
#include "mm/mm_api.h"

#define PSS_SHIFT       12

struct mem_size_stats {
	unsigned long resident, shared_clean, shared_dirty, private_clean, private_dirty;
	unsigned long referenced, anonymous, anonymous_thp;
	u64 pss, pss_anon, pss_dirty;
	unsigned long pages, mapcount_max;      /* numa_maps */
};

/* A page's mapcount as /proc shows it: precise, or the folio's average. */
int proc_page_mapcount(struct folio *folio, struct page *page)
{
	if (!folio_test_large(folio))
		return folio_mapcount(folio);
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		return folio_precise_page_mapcount(folio, page);
	return folio_average_page_mapcount(folio);
}

/* Is this mapping of page the only one (pagemap's PM_MMAP_EXCLUSIVE, smaps' "private")? */
static bool page_mapped_exclusively(struct folio *folio, struct page *page)
{
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT) || !folio_test_large(folio))
		return proc_page_mapcount(folio, page) < 2;
	return !folio_maybe_mapped_shared(folio);
}

static void smaps_page_accumulate(struct mem_size_stats *mss, unsigned long size, u64 pss,
				  bool private)
{
	mss->pss += pss;
	mss->pss_anon += pss;
	mss->pss_dirty += pss;
	if (private)
		mss->private_dirty += size;
	else
		mss->shared_dirty += size;
}

/*
 * Account one mapping (Linux's smaps_account): a PTE maps one page, a PMD
 * leaf all of its folio.  A folio with one reference is this mapping's
 * alone; else each page counts 1/mapcount of itself to Pss.
 */
static void smaps_account(struct mem_size_stats *mss, struct page *page, bool pmd, bool young)
{
	struct folio *folio = page_folio(page);
	unsigned long nr = pmd ? folio_nr_pages(folio) : 1, size = nr * PAGE_SIZE;

	mss->resident += size;
	mss->anonymous += size;
	mss->pages += nr;
	if (young)
		mss->referenced += size;
	if (pmd)
		mss->anonymous_thp += size;
	if (folio_ref_count(folio) == 1) {
		smaps_page_accumulate(mss, size, (u64)size << PSS_SHIFT, true);
		mss->mapcount_max = MAX(mss->mapcount_max, 1UL);
		return;
	}
	for (unsigned long i = 0; i < nr; i++, page++) {
		int mapcount = proc_page_mapcount(folio, page);
		u64 pss = (u64)PAGE_SIZE << PSS_SHIFT;

		if (mapcount >= 2)
			pss /= mapcount;
		smaps_page_accumulate(mss, PAGE_SIZE, pss, page_mapped_exclusively(folio, page));
		mss->mapcount_max = MAX(mss->mapcount_max, (unsigned long)mapcount);
	}
}

/*
 * Walk the present entries of vma and account each (Linux's
 * smaps_pte_range); the zero pages are no normal pages and count nowhere,
 * not even in Rss (Linux: vm_normal_page() is NULL for them).
 */
static void smap_gather_stats(struct vm_area_struct *vma, struct mem_size_stats *mss)
{
	pgd_t *pgd = vma->vm_mm->pgd;
	unsigned long addr = vma->vm_start, next;
	pmd_t *pmd;

	for (; (pmd = pmd_entry_next(pgd, &addr, vma->vm_end, &next)); addr = next) {
		pte_t *pte;

		if (pgent_huge(*pmd)) {
			if (!is_huge_zero_pmd(*pmd))
				smaps_account(mss, pfn_to_page(pgent_pfn(*pmd)), true, pgent_young(*pmd));
			continue;
		}
		pte = pte_offset(pmd, addr);
		for (unsigned long a = addr; a < next; a += PAGE_SIZE, pte++) {
			struct page *page = pgent_present(*pte) ? vm_normal_page(vma, a, *pte) : NULL;

			if (page)
				smaps_account(mss, page, false, pgent_young(*pte));
		}
	}
}

static bool vma_is_heap(const struct vm_area_struct *vma)
{
	return vma->vm_start <= vma->vm_mm->brk && vma->vm_end >= vma->vm_mm->start_brk;
}

static bool vma_is_stack(const struct vm_area_struct *vma)
{
	return vma->vm_flags & VM_GROWSDOWN;
}

/* The maps line (Linux's show_map_vma): no file, so offset, device and inode are 0. */
static void show_map_vma(struct seq_file *m, struct vm_area_struct *vma)
{
	unsigned long f = vma->vm_flags;

	seq_printf(m, "%08lx-%08lx %c%c%cp %08x %02x:%02x %lu ", vma->vm_start, vma->vm_end,
		   f & VM_READ ? 'r' : '-', f & VM_WRITE ? 'w' : '-', f & VM_EXEC ? 'x' : '-', 0, 0, 0,
		   0UL);
	if (vma_is_heap(vma) || vma_is_stack(vma)) {
		seq_pad(m, 25 + sizeof(void *) * 6 - 1, ' ');
		seq_printf(m, "%s", vma_is_heap(vma) ? "[heap]" : "[stack]");
	}
	seq_printf(m, "\n");
}

int maps_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = PROC_I(m->private)->mm;
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list)
		show_map_vma(m, vma);
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
			   (unsigned long long)(mss->pss_anon >> (10 + PSS_SHIFT)), 0UL, 0UL);
	seq_printf(m, "Shared_Clean:   %8lu kB\nShared_Dirty:   %8lu kB\n"
		   "Private_Clean:  %8lu kB\nPrivate_Dirty:  %8lu kB\nReferenced:     %8lu kB\n"
		   "Anonymous:      %8lu kB\nKSM:            %8lu kB\nLazyFree:       %8lu kB\n"
		   "AnonHugePages:  %8lu kB\nShmemPmdMapped: %8lu kB\nFilePmdMapped:  %8lu kB\n"
		   "Shared_Hugetlb: %8lu kB\nPrivate_Hugetlb: %7lu kB\nSwap:           %8lu kB\n"
		   "SwapPss:        %8lu kB\nLocked:         %8lu kB\n",
		   mss->shared_clean >> 10, mss->shared_dirty >> 10, mss->private_clean >> 10,
		   mss->private_dirty >> 10, mss->referenced >> 10, mss->anonymous >> 10, 0UL, 0UL,
		   mss->anonymous_thp >> 10, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL);
}

/* Linux's VmFlags mnemonics for the flags foliOS has (anon VMAs may read/write/exec). */
static void show_smap_vma_flags(struct seq_file *m, const struct vm_area_struct *vma)
{
	unsigned long f = vma->vm_flags;

	seq_printf(m, "VmFlags: %s%s%smr mw me %s%s%s%s%s%s%s%s%s\n", f & VM_READ ? "rd " : "",
		   f & VM_WRITE ? "wr " : "", f & VM_EXEC ? "ex " : "", f & VM_GROWSDOWN ? "gd " : "",
		   f & VM_DONTCOPY ? "dc " : "", f & VM_ACCOUNT ? "ac " : "",
		   f & VM_NORESERVE ? "nr " : "",
		   f & VM_WIPEONFORK ? "wf " : "", f & VM_DONTDUMP ? "dd " : "",
		   f & VM_SOFTDIRTY ? "sd " : "", f & VM_HUGEPAGE ? "hg " : "",
		   f & VM_NOHUGEPAGE ? "nh " : "");
}

int smaps_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = PROC_I(m->private)->mm;
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list) {
		struct mem_size_stats mss = { 0 };

		smap_gather_stats(vma, &mss);
		show_map_vma(m, vma);
		seq_printf(m, "Size:           %8lu kB\nKernelPageSize: %8lu kB\n"
			   "MMUPageSize:    %8lu kB\n", (vma->vm_end - vma->vm_start) >> 10,
			   PAGE_SIZE >> 10, PAGE_SIZE >> 10);
		__show_smap(m, &mss, false);
		seq_printf(m, "THPeligible:    %8d\n",
			   thp_vma_allowable_orders(vma, THP_ORDERS_ALL_ANON) != 0);
		show_smap_vma_flags(m, vma);
	}
	return 0;
}

int smaps_rollup_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = PROC_I(m->private)->mm;
	struct mem_size_stats mss = { 0 };
	struct vm_area_struct *vma;
	unsigned long start = 0, end = 0;

	list_for_each_entry(vma, &mm->mmap, vm_list) {
		smap_gather_stats(vma, &mss);
		start = start ? start : vma->vm_start;
		end = vma->vm_end;
	}
	seq_printf(m, "%08lx-%08lx ---p 00000000 00:00 0", start, end);
	seq_pad(m, 25 + sizeof(void *) * 6 - 1, ' ');
	seq_printf(m, "[rollup]\n");
	__show_smap(m, &mss, true);
	return 0;
}

/* numa_maps, one node: page counts and the highest page mapcount ("mapmax"). */
int numa_maps_show(struct seq_file *m, void *v)
{
	struct mm_struct *mm = PROC_I(m->private)->mm;
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list) {
		struct mem_size_stats mss = { 0 };

		smap_gather_stats(vma, &mss);
		seq_printf(m, "%08lx default%s", vma->vm_start,
			   vma_is_heap(vma) ? " heap" : vma_is_stack(vma) ? " stack" : "");
		if (mss.pages) {
			seq_printf(m, " anon=%lu dirty=%lu", mss.pages, mss.pages);
			if (mss.mapcount_max > 1)
				seq_printf(m, " mapmax=%lu", mss.mapcount_max);
			seq_printf(m, " active=0 N0=%lu kernelpagesize_kB=%lu", mss.pages,
				   PAGE_SIZE >> 10);
		}
		seq_printf(m, "\n");
	}
	return 0;
}

/* status's memory lines (Linux's task_mem), for a process that has an mm. */
void task_mem(struct seq_file *m, struct mm_struct *mm)
{
	unsigned long stack = 0, kb = PAGE_SIZE >> 10;
	unsigned long size = mm_vm_pages(mm, false) * kb, data = mm_vm_pages(mm, true) * kb;
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list)
		if (vma_is_stack(vma))
			stack += (vma->vm_end - vma->vm_start) >> 10;
	seq_printf(m, "VmSize:\t%8lu kB\nVmHWM:\t%8lu kB\nVmRSS:\t%8lu kB\nRssAnon:\t%8lu kB\n"
		   "RssFile:\t%8lu kB\nRssShmem:\t%8lu kB\nVmData:\t%8lu kB\nVmStk:\t%8lu kB\n"
		   "VmSwap:\t%8lu kB\n", size, MAX(mm->hiwater_rss, mm->rss_anon) * kb,
		   mm->rss_anon * kb, mm->rss_anon * kb, 0UL, 0UL, data, stack, 0UL);
}

#define PM_PFRAME_MASK          ((1UL << 55) - 1)
#define PM_SOFT_DIRTY           (1UL << 55)
#define PM_MMAP_EXCLUSIVE       (1UL << 56)
#define PM_FILE                 (1UL << 61)
#define PM_PRESENT              (1UL << 63)

/*
 * The pagemap entry of one virtual page of the bound mm.  Soft-dirty:
 * its entry's bit, or all of a VMA mapped or made soft-dirty since the
 * last clear_refs 4 (Linux's VM_SOFTDIRTY), holes in it too.  A zero page
 * shows its PFN, never PM_MMAP_EXCLUSIVE: it is everybody's; the huge
 * zero folio, no anon folio, shows PM_FILE as in Linux.
 */
static u64 pagemap_record(struct inode *inode, unsigned long vpn)
{
	struct mm_struct *mm = PROC_I(inode)->mm;
	unsigned long addr = vpn << PAGE_SHIFT, pfn;
	struct vm_area_struct *vma = find_vma(mm, addr);
	u64 sd = vma && vma->vm_start <= addr && (vma->vm_flags & VM_SOFTDIRTY) ? PM_SOFT_DIRTY : 0;
	struct pgwalk w;
	struct page *page;
	bool zero;

	if (list_empty(&mm->mmap) || !pgtable_lookup(mm->pgd, addr, &w))
		return sd;
	pfn = w.phys >> PAGE_SHIFT;
	page = pfn_to_page(pfn);
	zero = is_zero_pfn(pfn) || is_huge_zero_pfn(pfn);
	return (pfn & PM_PFRAME_MASK) | PM_PRESENT | (is_huge_zero_pfn(pfn) ? PM_FILE : 0) |
	       (pgent_soft_dirty(w.entry[w.leaf_level]) ? PM_SOFT_DIRTY : sd) |
	       (!zero && page_mapped_exclusively(page_folio(page), page) ? PM_MMAP_EXCLUSIVE : 0);
}

/* Does a task still use mm (Linux's mmget_not_zero: mm_users > 0)? */
bool mm_has_users(struct mm_struct *mm)
{
	struct task_struct *t;

	for_each_process(t)
		if (t->mm == mm)
			return true;
	return false;
}

/* Records from the file position on; EOF (0) once the mm has gone (exit, exec), as Linux. */
static long pagemap_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	struct mm_struct *mm = PROC_I(file_inode(file))->mm;

	if (!mm || !mm_has_users(mm))
		return 0;
	return proc_read_records(file, ubuf, count, pos, TASK_SIZE_MAX >> PAGE_SHIFT,
				 pagemap_record);
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

/* A present entry after clear_refs: old, or (soft-dirty) write-protected and soft-clean. */
static pgent_t clear_refs_entry(pgent_t e, int type)
{
	if (type == CLEAR_REFS_SOFT_DIRTY)
		return pgent_clear_soft_dirty(pgent_wrprotect(e));
	return pgent_mkold(e);
}

/*
 * Clear the referenced or soft-dirty state of every present entry of vma
 * (Linux's clear_refs_pte_range).  Write-protecting makes the next write
 * fault, and the fault marks the entry soft-dirty again; an exclusive
 * page is reused then, not copied.
 */
static void clear_refs_vma(struct vm_area_struct *vma, int type)
{
	pgd_t *pgd = vma->vm_mm->pgd;
	unsigned long addr = vma->vm_start, next;
	pmd_t *pmd;

	for (; (pmd = pmd_entry_next(pgd, &addr, vma->vm_end, &next)); addr = next) {
		pte_t *pte;

		if (pgent_huge(*pmd)) {
			*pmd = clear_refs_entry(*pmd, type);
			continue;
		}
		pte = pte_offset(pmd, addr);
		for (unsigned long a = addr; a < next; a += PAGE_SIZE, pte++)
			if (pgent_present(*pte))
				*pte = clear_refs_entry(*pte, type);
	}
}

/*
 * /proc/<pid>/clear_refs (Linux's clear_refs_write): 1 or 2 clear the
 * referenced (accessed) bits of the anon memory, 3 those of file pages
 * (foliOS maps none), 4 the soft-dirty bits; 5 resets the peak RSS
 * (VmHWM) to the current one.  0 (also once the process has exited), or
 * -EINVAL for another value.
 */
int clear_refs_write(struct file *file, char *buf, size_t len)
{
	struct mm_struct *mm = PROC_I(file_inode(file))->mm;
	struct vm_area_struct *vma;
	const char *end;
	long type = simple_strtoul(buf, &end, 10);

	if (end == buf || (*end && strcmp(end, "\n")) || type < CLEAR_REFS_ALL ||
	    type >= CLEAR_REFS_LAST)
		return -EINVAL;
	if (!mm || !mm_has_users(mm))
		return 0;                               /* exited: nothing to clear, as Linux */
	if (type == CLEAR_REFS_MM_HIWATER_RSS)
		mm->hiwater_rss = mm->rss_anon;         /* Linux's reset_mm_hiwater_rss */
	if (type == CLEAR_REFS_MAPPED || type == CLEAR_REFS_MM_HIWATER_RSS)
		return 0;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (type == CLEAR_REFS_SOFT_DIRTY)
			vma->vm_flags &= ~VM_SOFTDIRTY;
		clear_refs_vma(vma, type);
	}
	flush_tlb_mm(mm->pgd);
	return 0;
}

/* Reading clear_refs gives nothing (Linux's file is write-only). */
int clear_refs_show(struct seq_file *m, void *v)
{
	return 0;
}
