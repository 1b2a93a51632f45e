/*
 * Reverse-map accounting of anon folios (Linux's include/linux/rmap.h and
 * the mapcount readers of include/linux/mm.h).
 *
 * For a large folio, every page-table entry mapping part of it counts once
 * in _large_mapcount (a PMD counts once, a PTE once), and each of the two
 * MM ID slots remembers one mm and how many of those mappings are its own:
 *
 *   _large_mapcount    = all mappings, by all mms
 *   _mm_id[i], _mm_id_mapcount[i]  = slot i: an mm, and its mappings
 *   SHARED bit          = "maybe mapped shared": set once a second mm (or
 *                         an untracked third one) maps the folio; cleared
 *                         when one slot holds all mappings again
 *
 * With CONFIG_PAGE_MAPCOUNT each page also counts its own PTE mappings in
 * page->_mapcount and _nr_pages_mapped counts pages mapped by PTE (plus
 * ENTIRELY_MAPPED while a PMD maps the folio); CONFIG_NO_PAGE_MAPCOUNT keeps
 * neither.  Both count PMD mappings of the (PMD-sized) folio in
 * _entire_mapcount.  These counts are stored minus one; the readers return
 * the logical value.
 *
 * CONFIG_MAPCOUNT_PAGES (the 2026 RFC) replaces _entire_mapcount by
 *
 *   _total_mapped_pages = pages mapped, summed over all mappings: a PTE
 *                         adds 1, a PMD 512 (stored as is, from 0)
 *
 * updated with _large_mapcount under the same bit lock.  The average
 * mapcount of a page, "partially mapped" and the PMD statistics all follow
 * from the two counts, so one folio may be mapped by PTEs and by several
 * PMDs at once (a 4 MiB folio by two).  The MM ID slots still count
 * mappings, and each mapping still holds one folio reference.
 *
 * Lock order: see mm/rmap.c.  The folio's mapcount bit lock
 * (FOLIO_MM_IDS_LOCK_BITNUM of _mm_ids) is held only around a slot update.
 */
#ifndef _LINUX_RMAP_H
#define _LINUX_RMAP_H

#include "linux/page-flags.h"
#include "linux/mm_types.h"
#include "linux/bit_spinlock.h"
#include "linux/rwsem.h"
#include "linux/rcupdate.h"
#include "linux/printk.h"
#include "linux/errno.h"

/*
 * The anon reverse map (Linux's struct anon_vma; mm/anon_vma.c): an anon
 * folio's mapping points to the anon_vma of the VMA that first faulted it
 * in (or that became its sole user: folio_move_anon_rmap).  Every VMA that
 * may map the folio — that VMA, its splits and mremap copies, and every
 * VMA forked from one of them — is linked to that anon_vma by an
 * anon_vma_chain, so rmap_walk_anon() finds them all.
 */
struct anon_vma {
	struct anon_vma *root;          /* the root of this anon_vma tree */
	/*
	 * The root's rwsem locks the whole tree (anon_vma_lock_write/read):
	 * write to link or unlink a chain or move a linked VMA's range, read
	 * to walk.  Other anon_vmas' rwsems are unused, as in Linux.
	 */
	struct rw_semaphore rwsem;
	atomic_t refcount;              /* one while chains link it + children + walkers */
	struct rcu_head rcu;            /* its free, a grace period after the last put */
	/*
	 * Linux's rb_root is an interval tree of the chains, keyed by the
	 * VMAs' page-offset ranges.  foliOS keeps a plain list: the walk skips
	 * the VMAs whose range misses the folio (anon_vma_interval_tree_foreach).
	 */
	struct list_head rb_root;
};

/* One (vma, anon_vma) link: in vma->anon_vma_chain and in anon_vma->rb_root. */
struct anon_vma_chain {
	struct vm_area_struct *vma;
	struct anon_vma *anon_vma;
	struct list_head same_vma;      /* in vma->anon_vma_chain */
	struct list_head rb;            /* in anon_vma->rb_root */
};

/* The tree's lock, which is its root's (Linux's anon_vma_lock_write and friends). */
static inline void anon_vma_lock_write(struct anon_vma *anon_vma)
{
	down_write(&anon_vma->root->rwsem);
}

static inline void anon_vma_unlock_write(struct anon_vma *anon_vma)
{
	up_write(&anon_vma->root->rwsem);
}

static inline void anon_vma_lock_read(struct anon_vma *anon_vma)
{
	down_read(&anon_vma->root->rwsem);
}

static inline void anon_vma_unlock_read(struct anon_vma *anon_vma)
{
	up_read(&anon_vma->root->rwsem);
}

/* What rmap_walk_anon() does at each (vma, address) that may map the folio. */
struct rmap_walk_control {
	void *arg;
	/* false stops the walk */
	bool (*rmap_one)(struct folio *folio, struct vm_area_struct *vma,
			 unsigned long addr, void *arg);
};

int __anon_vma_prepare(struct vm_area_struct *vma);
void unlink_anon_vmas(struct vm_area_struct *vma);
int anon_vma_clone(struct vm_area_struct *dst, struct vm_area_struct *src);
int anon_vma_fork(struct vm_area_struct *vma, struct vm_area_struct *pvma);
struct anon_vma *folio_get_anon_vma(const struct folio *folio);
void put_anon_vma(struct anon_vma *anon_vma);
void rmap_walk_anon(struct folio *folio, struct rmap_walk_control *rwc, bool locked);

/* mm/rmap_migrate.c: the unmap half of split and migration. */
typedef bool (*folio_pte_table_fn)(struct folio *folio, struct vm_area_struct *vma,
				   unsigned long addr, pte_t *pte, unsigned long i, int nr, void *arg);
bool folio_walk_vma_ptes(struct folio *folio, struct vm_area_struct *vma,
			 folio_pte_table_fn fn, void *arg);
enum ttu_flags {
	TTU_SPLIT_HUGE_PMD = BIT(0),    /* split the folio's PMD mappings into PTEs first */
};
void try_to_migrate(struct folio *folio, enum ttu_flags flags);
void try_to_unmap(struct folio *folio);
/* mm/rmap_referenced.c: reclaim's question, made old on the way. */
int folio_referenced(struct folio *folio, bool is_locked, unsigned long *vm_flags);

/*
 * A folio this vma's mm alone maps became exclusive (COW reuse): point it
 * at vma's own anon_vma, so later walks skip the VMAs of the processes it
 * was shared with (Linux's folio_move_anon_rmap).  Under the folio lock,
 * as in Linux: it orders the move against another reuse, a split and a
 * migration, which all hold it.  Inline: every reuse of a small folio
 * does it.
 */
static inline void folio_move_anon_rmap(struct folio *folio, struct vm_area_struct *vma)
{
	VM_BUG_ON_FOLIO(!folio_test_locked(folio), folio);
	VM_WARN_ON_ONCE(!vma->anon_vma, "folio_move_anon_rmap: vma without anon_vma");
	WRITE_ONCE(folio->mapping, (void *)((unsigned long)vma->anon_vma | PAGE_MAPPING_ANON));
}

/* Give vma an anon_vma before its first anon folio (Linux's anon_vma_prepare).  0 or -ENOMEM. */
static inline int anon_vma_prepare(struct vm_area_struct *vma)
{
	if (likely(vma->anon_vma))
		return 0;
	return __anon_vma_prepare(vma);
}

/* The anon_vma an anon folio points to (Linux's folio_anon_vma); NULL for others. */
static inline struct anon_vma *folio_anon_vma(const struct folio *folio)
{
	unsigned long mapping = (unsigned long)folio->mapping;

	if (!(mapping & PAGE_MAPPING_ANON))
		return NULL;
	return (struct anon_vma *)(mapping - PAGE_MAPPING_ANON);
}

/* The page offset address has in vma (Linux's linear_page_index). */
static inline unsigned long linear_page_index(const struct vm_area_struct *vma,
					      unsigned long address)
{
	return ((address - vma->vm_start) >> PAGE_SHIFT) + vma->vm_pgoff;
}

/*
 * Where in vma the first of nr_pages pages from page offset pgoff is, or
 * the start of vma if the range begins before it; -EFAULT if vma does not
 * hold it (Linux's vma_address).
 */
static inline unsigned long vma_address(const struct vm_area_struct *vma, unsigned long pgoff,
					unsigned long nr_pages)
{
	unsigned long address;

	if (pgoff >= vma->vm_pgoff) {
		address = vma->vm_start + ((pgoff - vma->vm_pgoff) << PAGE_SHIFT);
		if (address < vma->vm_start || address >= vma->vm_end)
			address = -EFAULT;
	} else if (pgoff + nr_pages - 1 >= vma->vm_pgoff) {
		address = vma->vm_start;
	} else {
		address = -EFAULT;
	}
	return address;
}

/* RMAP flags. */
typedef int rmap_t;
#define RMAP_NONE       0
#define RMAP_EXCLUSIVE  BIT(0)  /* the mapped pages are exclusive to this mm */

enum rmap_level {
	RMAP_LEVEL_PTE = 0,
	RMAP_LEVEL_PMD,
};

/* The page order of one mapping at this level: a PTE maps 1 page, a PMD 512. */
static __always_inline unsigned int rmap_level_to_order(enum rmap_level level)
{
	return level == RMAP_LEVEL_PMD ? HPAGE_PMD_ORDER : 0;
}

static inline int folio_large_mapcount(const struct folio *folio)
{
	return atomic_read(folio_large_mapcount_ptr(folio)) + 1;
}

/*
 * How many PMDs map this folio.  The seeds' schemes count them in
 * _entire_mapcount; the RFC's follows from its two counts: a PMD mapping
 * adds 511 more to the total of mapped pages than to the mapcount, a PTE
 * the same to both.
 */
static inline int folio_nr_pmd_mappings(const struct folio *folio)
{
	if (!folio_test_pmd_mappable(folio))
		return 0;
	if (!IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		return atomic_read(&folio->_entire_mapcount) + 1;
	return (atomic_long_read(&folio->_total_mapped_pages) - folio_large_mapcount(folio)) /
	       (HPAGE_PMD_NR - 1);
}

/*
 * How often one entry maps the whole folio: the PMDs of a PMD-sized one.
 * Kept by the seeds' schemes; with CONFIG_MAPCOUNT_PAGES, which has no
 * such field, derived (and 0 for a folio larger than a PMD).
 */
static inline int folio_entire_mapcount(const struct folio *folio)
{
	if (folio_order(folio) != HPAGE_PMD_ORDER)
		return 0;
	return folio_nr_pmd_mappings(folio);
}

/* How many page-table entries map some page of this folio. */
static inline int folio_mapcount(const struct folio *folio)
{
	if (!folio_test_large(folio))
		return atomic_read(&folio->_mapcount) + 1;
	return folio_large_mapcount(folio);
}

static inline bool folio_mapped(const struct folio *folio)
{
	return folio_mapcount(folio) >= 1;
}

/*
 * Pages mapped, summed over all mappings: a page mapped twice counts
 * twice, a PMD mapping counts 512 (Linux's folio_total_mapped_pages, from
 * the RFC).  The seeds' schemes keep no such count, but it follows
 * exactly from theirs: every mapping counts once in the large mapcount,
 * and each PMD maps 511 pages more than that.
 */
static inline unsigned long folio_total_mapped_pages(const struct folio *folio)
{
	if (!folio_test_large(folio))
		return folio_mapcount(folio);
	if (IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		return atomic_long_read(&folio->_total_mapped_pages);
	return folio_large_mapcount(folio) +
	       (unsigned long)folio_nr_pmd_mappings(folio) * (HPAGE_PMD_NR - 1);
}

static inline unsigned int folio_mm_id(const struct folio *folio, int idx)
{
	VM_WARN_ON_ONCE(idx != 0 && idx != 1, "folio_mm_id: slot index");
	return folio->_mm_id[idx] & MM_ID_MASK;
}

static inline void folio_set_mm_id(struct folio *folio, int idx, mm_id_t id)
{
	VM_WARN_ON_ONCE(idx != 0 && idx != 1, "folio_set_mm_id: slot index");
	folio->_mm_id[idx] &= ~MM_ID_MASK;
	folio->_mm_id[idx] |= id;
}

/* Per CPU: how the mapcount bit lock was taken and spun on (/proc/lock_stat). */
extern struct bit_spin_lock_stats mapcount_lock_stats[NR_CPUS];

static inline void folio_lock_large_mapcount(struct folio *folio)
{
	bit_spin_lock_stat(FOLIO_MM_IDS_LOCK_BITNUM, &folio->_mm_ids, mapcount_lock_stats);
}

static inline void folio_unlock_large_mapcount(struct folio *folio)
{
	__bit_spin_unlock(FOLIO_MM_IDS_LOCK_BITNUM, &folio->_mm_ids);
}

/*
 * "Certainly mapped by exactly one mm" (false) or "maybe mapped by more
 * than one" (true).  Never false while two mms map the folio; may be true
 * for an exclusive large folio that more than two mms once mapped at the
 * same time (Linux's folio_maybe_mapped_shared()).
 */
static inline bool folio_maybe_mapped_shared(const struct folio *folio)
{
	int mapcount = folio_mapcount(folio);

	if (!folio_test_large(folio))
		return mapcount > 1;
	/* A single mapping means "exclusive", whatever the bit says. */
	if (mapcount <= 1)
		return false;
	return folio_test_large_maybe_mapped_shared(folio);
}

/*
 * Average number of mappings per page, rounded, at least 1 if any page is
 * mapped (fs/proc/internal.h: kpagecount and smaps with NO_PAGE_MAPCOUNT).
 * The RFC's form; for the seeds' schemes it gives exactly what their
 * entire-mapcount form gives.
 */
static inline int folio_average_page_mapcount(const struct folio *folio)
{
	unsigned long total_mapped_pages = folio_total_mapped_pages(folio);
	const unsigned int order = folio_order(folio);

	if (!total_mapped_pages || !order)
		return total_mapped_pages;
	total_mapped_pages += 1UL << (order - 1);       /* round to closest... */
	return MAX(total_mapped_pages >> order, 1UL);   /* ...but at least 1 */
}

/*
 * How often this page is mapped: by PTEs, plus by the PMDs that map the
 * whole folio.  Only CONFIG_PAGE_MAPCOUNT can say; -1 otherwise.
 */
static inline int folio_precise_page_mapcount(const struct folio *folio,
					      const struct page *page)
{
	int mapcount;

	if (!IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		return -1;
	mapcount = atomic_read(&page->_mapcount) + 1;
	if (folio_test_large(folio))
		mapcount += folio_entire_mapcount(folio);
	return mapcount;
}

/*
 * A page's mapcount as /proc shows it (kpagecount, smaps' Pss): precise,
 * or the folio's average (fs/proc/internal.h's folio_average_page_mapcount).
 */
static inline int proc_page_mapcount(const struct folio *folio, const struct page *page)
{
	if (!folio_test_large(folio))
		return folio_mapcount(folio);
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT))
		return folio_precise_page_mapcount(folio, page);
	return folio_average_page_mapcount(folio);
}

/* Is this mapping of page the only one (pagemap's PM_MMAP_EXCLUSIVE, smaps' "private")? */
static inline bool page_mapped_exclusively(const struct folio *folio, const struct page *page)
{
	if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT) || !folio_test_large(folio))
		return proc_page_mapcount(folio, page) < 2;
	return !folio_maybe_mapped_shared(folio);
}

/* _nr_pages_mapped's count of PTE-mapped pages; -1 without PAGE_MAPCOUNT. */
static inline int folio_nr_pages_mapped(const struct folio *folio)
{
	if (IS_ENABLED(CONFIG_NO_PAGE_MAPCOUNT))
		return -1;
	return atomic_read(&folio->_nr_pages_mapped) & FOLIO_PAGES_MAPPED;
}

/*
 * A pin (FOLL_PIN) of a small folio adds this much to its refcount; a
 * large folio counts pins in _pincount (and one reference each).
 */
#define GUP_PIN_COUNTING_BIAS   (1U << 10)

/*
 * May the folio be pinned (for DMA)?  Never false while it is; for a small
 * folio, about 1024 plain references also read as a pin (Linux's false
 * positive, harmless: a fork then copies a page it could have shared).
 */
static inline bool folio_maybe_dma_pinned(const struct folio *folio)
{
	if (folio_test_large(folio))
		return atomic_read(&folio->_pincount) > 0;
	return (unsigned int)folio_ref_count(folio) >= GUP_PIN_COUNTING_BIAS;
}

/* Must a fork copy this folio now, because it may be pinned for DMA? */
static inline bool folio_needs_cow_for_dma(const struct vm_area_struct *vma,
					   const struct folio *folio)
{
	return test_bit(MMF_HAS_PINNED, &vma->vm_mm->flags) && folio_maybe_dma_pinned(folio);
}

/*
 * Invariants of a large folio's mapcount state, checked on every change of
 * nr_mappings mappings that map nr_pages pages.
 */
static inline void __folio_large_mapcount_sanity_checks(const struct folio *folio,
							int nr_mappings, int nr_pages,
							mm_id_t mm_id)
{
	VM_WARN_ON_ONCE(!folio_test_large(folio), "large mapcount of a small folio");
	VM_WARN_ON_ONCE(nr_mappings <= 0 || nr_mappings > nr_pages,
			"large mapcount: no mappings, or more mappings than pages");
	VM_WARN_ON_ONCE(mm_id < MM_ID_MIN || mm_id > MM_ID_MAX, "MM ID out of range");
	VM_WARN_ON_ONCE(nr_pages > folio_large_nr_pages(folio), "mapped pages > folio pages");
	VM_WARN_ON_ONCE(folio_large_nr_pages(folio) - 1 > MM_ID_MAPCOUNT_MAX,
			"folio too large for a per-MM mapcount");
	VM_WARN_ON_ONCE(folio_mm_id(folio, 0) == MM_ID_DUMMY && folio->_mm_id_mapcount[0] != -1,
			"free slot 0 with a mapcount");
	VM_WARN_ON_ONCE(folio_mm_id(folio, 0) != MM_ID_DUMMY && folio->_mm_id_mapcount[0] < 0,
			"used slot 0 without mappings");
	VM_WARN_ON_ONCE(folio_mm_id(folio, 1) == MM_ID_DUMMY && folio->_mm_id_mapcount[1] != -1,
			"free slot 1 with a mapcount");
	VM_WARN_ON_ONCE(folio_mm_id(folio, 1) != MM_ID_DUMMY && folio->_mm_id_mapcount[1] < 0,
			"used slot 1 without mappings");
	VM_WARN_ON_ONCE(!folio_mapped(folio) && folio_test_large_maybe_mapped_shared(folio),
			"unmapped folio marked maybe-shared");
}

/*
 * With CONFIG_MAPCOUNT_PAGES, move the count of mapped pages by diff pages
 * (under the bit lock, with the mapcount) and return its new value; the
 * seeds' schemes keep no such count: 0.
 */
static __always_inline unsigned long folio_mod_total_mapped_pages(struct folio *folio, long diff)
{
	unsigned long total;

	if (!IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		return 0;
	total = atomic_long_read(&folio->_total_mapped_pages) + diff;
	atomic_long_set(&folio->_total_mapped_pages, total);
	return total;
}

/* First mappings of a new folio, all by vma's mm: slot 0 takes them. */
static inline void folio_set_large_mapcount(struct folio *folio, int nr_mappings, int nr_pages,
					     struct vm_area_struct *vma)
{
	__folio_large_mapcount_sanity_checks(folio, nr_mappings, nr_pages, vma->vm_mm->mm_id);
	VM_WARN_ON_ONCE(folio_mm_id(folio, 0) != MM_ID_DUMMY, "new folio: slot 0 in use");
	VM_WARN_ON_ONCE(folio_mm_id(folio, 1) != MM_ID_DUMMY, "new folio: slot 1 in use");
	atomic_set(folio_large_mapcount_ptr(folio), nr_mappings - 1);
	folio_mod_total_mapped_pages(folio, nr_pages);
	folio->_mm_id_mapcount[0] = nr_mappings - 1;
	folio_set_mm_id(folio, 0, vma->vm_mm->mm_id);
}

/*
 * Add nr_mappings mappings, of nr_pages pages in all, by vma's mm.  Its
 * slot grows; without one it takes a free slot, and the folio becomes
 * "maybe shared" if others map it too; with no free slot the mappings are
 * counted in the large mapcount only (the folio is already marked shared
 * then).  Returns the new logical large mapcount, and the new total of
 * mapped pages in *nr_mapped_pages (0 in the seeds' schemes).
 */
static inline int folio_add_return_large_mapcount(struct folio *folio, int nr_mappings,
						  int nr_pages, struct vm_area_struct *vma,
						  unsigned long *nr_mapped_pages)
{
	const mm_id_t mm_id = vma->vm_mm->mm_id;
	int new_mapcount_val;

	folio_lock_large_mapcount(folio);
	__folio_large_mapcount_sanity_checks(folio, nr_mappings, nr_pages, mm_id);
	new_mapcount_val = atomic_read(folio_large_mapcount_ptr(folio)) + nr_mappings;
	atomic_set(folio_large_mapcount_ptr(folio), new_mapcount_val);
	*nr_mapped_pages = folio_mod_total_mapped_pages(folio, nr_pages);
	if (folio_mm_id(folio, 0) == mm_id) {
		folio->_mm_id_mapcount[0] += nr_mappings;
	} else if (folio_mm_id(folio, 1) == mm_id) {
		folio->_mm_id_mapcount[1] += nr_mappings;
	} else if (folio_mm_id(folio, 0) == MM_ID_DUMMY) {
		folio_set_mm_id(folio, 0, mm_id);
		folio->_mm_id_mapcount[0] = nr_mappings - 1;
		/* We might have other mappings already. */
		if (new_mapcount_val != nr_mappings - 1)
			folio->_mm_ids |= FOLIO_MM_IDS_SHARED_BIT;
	} else if (folio_mm_id(folio, 1) == MM_ID_DUMMY) {
		folio_set_mm_id(folio, 1, mm_id);
		folio->_mm_id_mapcount[1] = nr_mappings - 1;
		/* Slot 0 certainly has mappings as well. */
		folio->_mm_ids |= FOLIO_MM_IDS_SHARED_BIT;
	}
	folio_unlock_large_mapcount(folio);
	return new_mapcount_val + 1;
}

/*
 * Remove nr_mappings mappings, of nr_pages pages in all, by vma's mm.  A
 * slot whose count goes negative is freed: that happens legitimately when
 * some of this mm's mappings were added while no slot was free.  When one
 * slot holds every remaining mapping (or none are left) the folio is
 * "exclusive" again.  Returns the new logical large mapcount, and the new
 * total of mapped pages in *nr_mapped_pages (0 in the seeds' schemes).
 */
static inline int folio_sub_return_large_mapcount(struct folio *folio, int nr_mappings,
						  int nr_pages, struct vm_area_struct *vma,
						  unsigned long *nr_mapped_pages)
{
	const mm_id_t mm_id = vma->vm_mm->mm_id;
	int new_mapcount_val;

	folio_lock_large_mapcount(folio);
	__folio_large_mapcount_sanity_checks(folio, nr_mappings, nr_pages, mm_id);
	new_mapcount_val = atomic_read(folio_large_mapcount_ptr(folio)) - nr_mappings;
	atomic_set(folio_large_mapcount_ptr(folio), new_mapcount_val);
	*nr_mapped_pages = folio_mod_total_mapped_pages(folio, -(long)nr_pages);
	if (folio_mm_id(folio, 0) == mm_id) {
		folio->_mm_id_mapcount[0] -= nr_mappings;
		if (folio->_mm_id_mapcount[0] >= 0)
			goto out;
		folio->_mm_id_mapcount[0] = -1;
		folio_set_mm_id(folio, 0, MM_ID_DUMMY);
	} else if (folio_mm_id(folio, 1) == mm_id) {
		folio->_mm_id_mapcount[1] -= nr_mappings;
		if (folio->_mm_id_mapcount[1] >= 0)
			goto out;
		folio->_mm_id_mapcount[1] = -1;
		folio_set_mm_id(folio, 1, MM_ID_DUMMY);
	}
	/*
	 * If one slot owns all mappings, the folio is mapped exclusively; if
	 * it is now unmapped (-1), both slots are free (-1) and it is too.
	 */
	if (folio->_mm_id_mapcount[0] == new_mapcount_val ||
	    folio->_mm_id_mapcount[1] == new_mapcount_val)
		folio->_mm_ids &= ~FOLIO_MM_IDS_SHARED_BIT;
out:
	folio_unlock_large_mapcount(folio);
	return new_mapcount_val + 1;
}

static __always_inline void folio_add_large_mapcount(struct folio *folio, int nr_mappings,
						     int nr_pages, struct vm_area_struct *vma)
{
	unsigned long nr_mapped_pages;

	folio_add_return_large_mapcount(folio, nr_mappings, nr_pages, vma, &nr_mapped_pages);
}

static __always_inline void folio_sub_large_mapcount(struct folio *folio, int nr_mappings,
						     int nr_pages, struct vm_area_struct *vma)
{
	unsigned long nr_mapped_pages;

	folio_sub_return_large_mapcount(folio, nr_mappings, nr_pages, vma, &nr_mapped_pages);
}

/* One more PMD mapping, by dst_vma's mm (fork; no statistic moves). */
static __always_inline void __folio_dup_rmap_pmd(struct folio *folio,
						 struct vm_area_struct *dst_vma)
{
	if (!IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		atomic_inc(&folio->_entire_mapcount);
	folio_add_large_mapcount(folio, 1, HPAGE_PMD_NR, dst_vma);
}

/*
 * A PMD maps 512 pages: in the seeds' schemes the whole PMD-sized folio,
 * with CONFIG_MAPCOUNT_PAGES any 512 naturally aligned pages of a folio of
 * order 9 or more (the RFC's "arbitrary folio mappings").
 */
static __always_inline void __folio_rmap_sanity_checks(const struct folio *folio,
							const struct page *page, int nr_pages,
							enum rmap_level level)
{
	const unsigned long mapping_nr = 1UL << rmap_level_to_order(level);

	VM_WARN_ON_ONCE(nr_pages <= 0, "rmap of no pages");
	VM_WARN_ON_ONCE(page_folio(page) != folio, "page not in folio");
	VM_WARN_ON_ONCE(page_folio(page + nr_pages - 1) != folio, "page range leaves the folio");
	if (IS_ENABLED(CONFIG_MAPCOUNT_PAGES)) {
		VM_WARN_ON_ONCE(nr_pages % mapping_nr || (page - &folio->page) % mapping_nr,
				"rmap of pages not aligned to the mapping size");
		return;
	}
	VM_WARN_ON_ONCE(level == RMAP_LEVEL_PMD && (folio_order(folio) != HPAGE_PMD_ORDER ||
						    page != &folio->page),
			"PMD rmap of a folio that is not PMD-sized");
}

void folio_add_new_anon_rmap(struct folio *folio, struct vm_area_struct *vma,
			     unsigned long address, rmap_t flags);
void folio_add_anon_rmap_ptes(struct folio *folio, struct page *page, int nr_pages,
			      struct vm_area_struct *vma, unsigned long address, rmap_t flags);
#define folio_add_anon_rmap_pte(folio, page, vma, address, flags) \
	folio_add_anon_rmap_ptes(folio, page, 1, vma, address, flags)
void folio_add_anon_rmap_pmd(struct folio *folio, struct page *page,
			     struct vm_area_struct *vma, unsigned long address, rmap_t flags);
int folio_try_dup_anon_rmap_ptes(struct folio *folio, struct page *page, int nr_pages,
				 struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma);
#define folio_try_dup_anon_rmap_pte(folio, page, dst_vma, src_vma) \
	folio_try_dup_anon_rmap_ptes(folio, page, 1, dst_vma, src_vma)
int folio_try_dup_anon_rmap_pmd(struct folio *folio, struct page *page,
				struct vm_area_struct *dst_vma, struct vm_area_struct *src_vma);
void folio_remove_rmap_ptes(struct folio *folio, struct page *page, int nr_pages,
			    struct vm_area_struct *vma);
#define folio_remove_rmap_pte(folio, page, vma) \
	folio_remove_rmap_ptes(folio, page, 1, vma)
void folio_remove_rmap_pmd(struct folio *folio, struct page *page, struct vm_area_struct *vma);
void folio_remap_pmd_as_ptes(struct folio *folio, struct page *page, struct vm_area_struct *vma,
			     unsigned long haddr);

/* Page-cache folios (mm/rmap.c, mm/rmap_file.c). */
void folio_add_file_rmap_ptes(struct folio *folio, struct page *page, int nr_pages,
			      struct vm_area_struct *vma);
#define folio_add_file_rmap_pte(folio, page, vma) \
	folio_add_file_rmap_ptes(folio, page, 1, vma)
void folio_add_file_rmap_pmd(struct folio *folio, struct page *page, struct vm_area_struct *vma);
void folio_dup_file_rmap_ptes(struct folio *folio, struct page *page, int nr_pages,
			      struct vm_area_struct *dst_vma);
#define folio_dup_file_rmap_pte(folio, page, dst_vma) \
	folio_dup_file_rmap_ptes(folio, page, 1, dst_vma)
void folio_dup_file_rmap_pmd(struct folio *folio, struct page *page,
			     struct vm_area_struct *dst_vma);
void rmap_walk_file(struct folio *folio, struct rmap_walk_control *rwc);
void rmap_walk(struct folio *folio, struct rmap_walk_control *rwc);

#endif
