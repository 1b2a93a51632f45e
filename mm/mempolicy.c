/*
 * NUMA memory policies (Linux's mm/mempolicy.c) on a machine with one
 * node, node 0: mbind, set_mempolicy and get_mempolicy check their
 * arguments as Linux does, and a policy, having only node 0 to choose,
 * changes nothing and is not kept (numa_maps would say "default").  What
 * is real is mbind's MPOL_MF_MOVE: Linux queues the pages of the range
 * that sit on a node outside the given node mask (queue_pages_range with
 * MPOL_MF_INVERT), and MPOL_LOCAL's mask is empty — so even on one node
 * every page moves to a new page (mm/migrate.c).
 *
 * Lock order: see mm/rmap.c; the caller owns current's mm (linux/mm.h).
 */
#include "linux/errno.h"
#include "linux/sched.h"
#include "linux/uaccess.h"
#include "linux/syscalls.h"
#include "uapi/linux/mempolicy.h"
#include "linux/mm.h"
#include "linux/rmap.h"
#include "linux/pgtable.h"
#include "mm/internal.h"
#include "mm/migrate.h"
#include "linux/mmap_lock.h"

/* Linux's MAX_NUMNODES on distribution kernels (CONFIG_NODES_SHIFT=10). */
#define MAX_NUMNODES    1024
#define BITS_PER_LONG   (8 * sizeof(unsigned long))
#define NODE_WORDS      (MAX_NUMNODES / 64)

/* A node mask; bit n is node n.  Only node 0 has memory. */
typedef struct { unsigned long bits[NODE_WORDS]; } nodemask_t;

static bool nodes_empty(const nodemask_t *nodes)
{
	for (int i = 0; i < NODE_WORDS; i++)
		if (nodes->bits[i])
			return false;
	return true;
}

/*
 * Split the mode argument into policy and flags (Linux's
 * sanitize_mpol_flags).  0 or -EINVAL.
 */
static int sanitize_mpol_flags(int *mode, unsigned short *flags)
{
	*flags = *mode & MPOL_MODE_FLAGS;
	*mode &= ~MPOL_MODE_FLAGS;
	if ((unsigned int)*mode >= MPOL_MAX)
		return -EINVAL;
	if ((*flags & MPOL_F_STATIC_NODES) && (*flags & MPOL_F_RELATIVE_NODES))
		return -EINVAL;
	if ((*flags & MPOL_F_NUMA_BALANCING) && *mode != MPOL_BIND && *mode != MPOL_PREFERRED_MANY)
		return -EINVAL;
	return 0;
}

/*
 * Read the user's node mask of maxnode - 1 bits (Linux's get_nodes): no
 * mask or maxnode <= 1 is the empty mask; more than a page of bits is
 * -EINVAL, and so is a bit set above MAX_NUMNODES; -EFAULT if unreadable.
 */
static int get_nodes(nodemask_t *nodes, const unsigned long *nmask, unsigned long maxnode)
{
	unsigned long nlongs;

	--maxnode;
	*nodes = (nodemask_t){ 0 };
	if (maxnode == 0 || !nmask)
		return 0;
	if (maxnode > PAGE_SIZE * 8)
		return -EINVAL;
	nlongs = (maxnode + BITS_PER_LONG - 1) / BITS_PER_LONG;
	for (unsigned long k = 0; k < nlongs; k++) {
		unsigned long t;

		if (copy_from_user(&t, nmask + k, sizeof(t)))
			return -EFAULT;
		if (k == nlongs - 1 && maxnode % BITS_PER_LONG)
			t &= (1UL << (maxnode % BITS_PER_LONG)) - 1;
		if (k < NODE_WORDS)
			nodes->bits[k] = t;
		else if (t)
			return -EINVAL;
	}
	return 0;
}

/*
 * Would Linux create this policy on a machine whose only node is 0
 * (mpol_new, then mpol_set_nodemask: the mask is cut to the nodes with
 * memory, and a mode that names nodes must keep one)?  0 or -EINVAL.
 */
static int mpol_check(int mode, unsigned short flags, const nodemask_t *nodes)
{
	bool empty = nodes_empty(nodes);

	if (mode == MPOL_DEFAULT)
		return empty ? 0 : -EINVAL;
	if (mode == MPOL_PREFERRED && empty)
		return flags & (MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES) ? -EINVAL : 0;
	if (mode == MPOL_LOCAL)
		return empty && !(flags & (MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES)) ? 0 : -EINVAL;
	if (empty)
		return -EINVAL;
	/* MPOL_F_RELATIVE_NODES folds any mask onto the nodes there are. */
	return (nodes->bits[0] & 1) || (flags & MPOL_F_RELATIVE_NODES) ? 0 : -EINVAL;
}

/* What the walk of an mbind range does and counts (Linux's queue_pages). */
struct queue_pages {
	unsigned long flags;            /* MPOL_MF_* */
	long nr_failed;                 /* folios that could not be moved */
};

/*
 * One folio of the range lies outside the node mask (all do: node 0 is
 * never in a mask that moves anything); the caller holds a reference.
 * Without MPOL_MF_MOVE that is -EIO (only MPOL_MF_STRICT walks then); a
 * folio other mms may map stays unless MPOL_MF_MOVE_ALL, not a failure
 * (Linux's migrate_folio_add).  Returns 0 or -EIO.
 */
static int queue_folio(struct folio *folio, struct queue_pages *qp)
{
	if (!(qp->flags & (MPOL_MF_MOVE | MPOL_MF_MOVE_ALL)))
		return -EIO;
	if (!(qp->flags & MPOL_MF_MOVE_ALL) && folio_maybe_mapped_shared(folio))
		return 0;
	if (migrate_anon_folio(folio))
		qp->nr_failed++;
	return 0;
}

/*
 * The folio the PTE at addr maps, with a reference, and in *next the
 * address past the run of PTEs from addr (below end, in this table) that
 * map its next pages; NULL if no normal page is mapped there (none, the
 * zero page, or a migration entry: a split or migration elsewhere holds
 * that page for a moment).  Under the table's lock, as Linux's
 * queue_folios_pte_range: a folio a present PTE maps is not frozen, so
 * the reference is safe to take; the migration runs after the unlock.
 */
static struct folio *folio_run_get(struct vm_area_struct *vma, pmd_t *pmd, unsigned long addr,
				   unsigned long end, unsigned long *next)
{
	spinlock_t *ptl;
	pte_t *pte = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);
	struct folio *folio = NULL;
	struct page *page;

	*next = pte ? addr + PAGE_SIZE : end;
	if (!pte)
		return NULL;
	page = pte_present(*pte) ? vm_normal_page(vma, addr, *pte) : NULL;
	if (page) {
		unsigned long pfn = page_to_pfn(page);

		folio = page_folio(page);
		folio_get(folio);
		for (const pte_t *p = pte + 1; *next < end && pfn < folio_pfn(folio) +
		     folio_nr_pages(folio) - 1; *next += PAGE_SIZE, p++)
			if (!pte_present(*p) || pte_special(*p) || pte_pfn(*p) != ++pfn)
				break;
	}
	pte_unmap_unlock(pte, ptl);
	return folio;
}

/* The PTEs of [addr, end) under pmd: each run of a folio's pages once.  0 or -EIO. */
static int queue_pages_pte_range(struct vm_area_struct *vma, pmd_t *pmd, unsigned long addr,
				 unsigned long end, struct queue_pages *qp)
{
	while (addr < end) {
		unsigned long next;
		struct folio *folio = folio_run_get(vma, pmd, addr, end, &next);
		int ret = 0;

		if (folio) {
			ret = queue_folio(folio, qp);
			folio_put(folio);
		}
		if (ret)
			return ret;
		addr = next;
	}
	return 0;
}

/*
 * The THP a PMD leaf at addr maps (not the huge zero folio), with a
 * reference, under pmd_lock; or NULL.  *nr_pmds: how many PMD leaves from
 * this one (in its table) map its next pages in turn — 2 for a 4 MiB
 * folio's two — so the walk moves the folio once.
 */
static struct folio *pmd_folio_get(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
				   unsigned long *nr_pmds)
{
	spinlock_t *ptl = pmd_lock(mm, pmd);
	struct folio *folio = NULL;
	unsigned long pfn = pmd_pfn(*pmd);

	*nr_pmds = 1;
	if (pmd_present(*pmd) && pmd_trans_huge(*pmd) && !is_huge_zero_pmd(*pmd)) {
		folio = page_folio(pfn_to_page(pfn));
		folio_get(folio);
		while (pfn + *nr_pmds * HPAGE_PMD_NR < folio_pfn(folio) + folio_nr_pages(folio) &&
		       pt_index(addr, PT_PMD) + *nr_pmds < PTRS_PER_TABLE &&
		       pmd_present(pmd[*nr_pmds]) && pmd_trans_huge(pmd[*nr_pmds]) &&
		       pmd_pfn(pmd[*nr_pmds]) == pfn + *nr_pmds * HPAGE_PMD_NR)
			(*nr_pmds)++;
	}
	spin_unlock(ptl);
	return folio;
}

/* Walk [start, end) of vma by PMDs (Linux's queue_folios_pmd and _pte_range). */
static int queue_pages_vma(struct vm_area_struct *vma, unsigned long start, unsigned long end,
			   struct queue_pages *qp)
{
	unsigned long addr, next, nr_pmds;
	struct folio *folio;
	int ret = 0;

	for (addr = start; addr < end && !ret; addr = next) {
		pmd_t *pmd = mm_find_pmd(vma->vm_mm, addr);

		next = MIN((addr & PMD_MASK) + PMD_SIZE, end);
		if (!pmd || !pmd_present(*pmd))
			continue;
		if (!pmd_trans_huge(*pmd)) {
			ret = queue_pages_pte_range(vma, pmd, addr, next, qp);
		} else if ((folio = pmd_folio_get(vma->vm_mm, pmd, addr, &nr_pmds))) {
			next = MIN((addr & PMD_MASK) + nr_pmds * PMD_SIZE, end);
			ret = queue_folio(folio, qp);
			folio_put(folio);
		}
	}
	return ret;
}

/*
 * Is [start, end) mapped without a hole (discontig_ok: mapped anywhere at
 * all)?  Linux's queue_pages_test_walk and its "whole range in hole" test.
 */
static bool range_mapped(struct mm_struct *mm, unsigned long start, unsigned long end,
			 bool discontig_ok)
{
	struct vm_area_struct *vma = find_vma(mm, start);
	unsigned long addr = start;

	if (!vma || vma->vm_start >= end)
		return false;
	if (discontig_ok)
		return true;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (vma->vm_end <= addr)
			continue;
		if (vma->vm_start > addr || addr >= end)
			break;
		addr = vma->vm_end;
	}
	return addr >= end;
}

/*
 * Move the pages of [start, end) that lie outside nodes (Linux's
 * queue_pages_range with MPOL_MF_INVERT, then migrate_pages).  Returns
 * the folios that could not be moved, or -EIO (a page outside nodes and
 * only MPOL_MF_STRICT).
 */
static long queue_pages_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			      const nodemask_t *nodes, unsigned long flags)
{
	struct queue_pages qp = { .flags = flags };
	struct vm_area_struct *vma;
	int ret = 0;

	/* Node 0 in the mask: the pages are where the policy wants them. */
	if ((nodes->bits[0] & 1) || !(flags & (MPOL_MF_STRICT | MPOL_MF_MOVE | MPOL_MF_MOVE_ALL)))
		return 0;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (vma->vm_end <= start)
			continue;
		if (ret || vma->vm_start >= end)
			break;
		ret = queue_pages_vma(vma, MAX(start, vma->vm_start), MIN(end, vma->vm_end), &qp);
	}
	return ret ? ret : qp.nr_failed;
}

/*
 * mbind (Linux's kernel_mbind and do_mbind, their checks in order): the
 * policy is checked and dropped, the range's pages move as flags say.
 * MPOL_MF_MOVE_ALL needs CAP_SYS_NICE, which every task here has.
 * MPOL_MF_STRICT turns pages left behind into -EIO.
 */
long sys_mbind(unsigned long start, unsigned long len, unsigned long mode,
	       const unsigned long *nmask, unsigned long maxnode, unsigned int flags)
{
	unsigned short mode_flags;
	int lmode = (int)mode, err;
	nodemask_t nodes;
	unsigned long end;
	long nr_failed;

	err = sanitize_mpol_flags(&lmode, &mode_flags);
	if (!err)
		err = get_nodes(&nodes, nmask, maxnode);
	if (err)
		return err;
	if ((flags & ~(unsigned int)MPOL_MF_VALID) || (start & ~PAGE_MASK))
		return -EINVAL;
	if (lmode == MPOL_DEFAULT)
		flags &= ~MPOL_MF_STRICT;
	len = ALIGN_UP(len, PAGE_SIZE);
	end = start + len;
	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	err = mpol_check(lmode, mode_flags, &nodes);
	if (err)
		return err;
	mmap_write_lock(current->mm);   /* Linux's do_mbind */
	/* MPOL_DEFAULT may span holes (Linux: MPOL_MF_DISCONTIG_OK). */
	if (range_mapped(current->mm, start, end, lmode == MPOL_DEFAULT))
		nr_failed = queue_pages_range(current->mm, start, end, &nodes, flags);
	else
		nr_failed = -EFAULT;
	mmap_write_unlock(current->mm);
	if (nr_failed < 0)
		return nr_failed;
	return nr_failed && (flags & MPOL_MF_STRICT) ? -EIO : 0;
}

/* set_mempolicy (Linux's kernel_set_mempolicy): checked, not kept. */
long sys_set_mempolicy(int mode, const unsigned long *nmask, unsigned long maxnode)
{
	unsigned short mode_flags;
	nodemask_t nodes;
	int err;

	err = sanitize_mpol_flags(&mode, &mode_flags);
	if (!err)
		err = get_nodes(&nodes, nmask, maxnode);
	return err ? err : mpol_check(mode, mode_flags, &nodes);
}

/*
 * The policy Linux's do_get_mempolicy reports here: MPOL_DEFAULT, an empty
 * mask (node 0 for MPOL_F_MEMS_ALLOWED), node 0 for MPOL_F_NODE|MPOL_F_ADDR.
 * Returns the mode value or -EINVAL/-EFAULT; *mems is bit 0 or nothing.
 */
static long do_get_mempolicy(unsigned long addr, unsigned long flags, unsigned long *mems)
{
	*mems = 0;
	if (flags & ~(unsigned long)(MPOL_F_NODE | MPOL_F_ADDR | MPOL_F_MEMS_ALLOWED))
		return -EINVAL;
	if (flags & MPOL_F_MEMS_ALLOWED) {
		if (flags & (MPOL_F_NODE | MPOL_F_ADDR))
			return -EINVAL;
		*mems = 1;
		return 0;
	}
	if (flags & MPOL_F_ADDR) {
		struct vm_area_struct *vma;
		bool mapped;

		/* Linux's lookup is under it too: another thread may unmap the VMA. */
		mmap_read_lock(current->mm);
		vma = find_vma(current->mm, addr);
		mapped = vma && addr >= vma->vm_start;
		mmap_read_unlock(current->mm);
		if (!mapped)
			return -EFAULT;
	} else if (addr) {
		return -EINVAL;
	}
	if ((flags & MPOL_F_NODE) && !(flags & MPOL_F_ADDR))
		return -EINVAL;         /* the node of an interleave policy: none here */
	return MPOL_DEFAULT;
}

/* get_mempolicy (Linux's kernel_get_mempolicy and copy_nodes_to_user). */
long sys_get_mempolicy(int *policy, unsigned long *nmask, unsigned long maxnode,
		       unsigned long addr, unsigned long flags)
{
	unsigned long mems, copy, zero = 0;
	long pval;
	int mode;

	if (nmask && maxnode < 1)
		return -EINVAL;
	pval = do_get_mempolicy(addr, flags, &mems);
	if (pval < 0)
		return pval;
	mode = (int)pval;
	if (policy && copy_to_user(policy, &mode, sizeof(mode)))
		return -EFAULT;
	if (!nmask)
		return 0;
	copy = ALIGN_UP(maxnode - 1, 64) / 8;
	if (copy > PAGE_SIZE)
		return -EINVAL;
	for (unsigned long off = 0; off < copy; off += sizeof(zero))
		if (copy_to_user((char *)nmask + off, off ? &zero : &mems, sizeof(zero)))
			return -EFAULT;
	return 0;
}
