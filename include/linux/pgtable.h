/*
 * Generic 4-level page tables (Linux's pgd/pud/pmd/pte naming).
 *
 *   level 4: PGD (x86 PML4)  one entry maps 512 GiB
 *   level 3: PUD (x86 PDPT)  one entry maps   1 GiB
 *   level 2: PMD (x86 PD)    one entry maps   2 MiB   (leaf: a PMD-mapped THP)
 *   level 1: PTE (x86 PT)    one entry maps   4 KiB
 *
 * The entry format comes from <asm/pgtable.h>: the x86 hardware format in
 * the kernel, a software MMU's format in host tests.  Page-table pages come
 * from the buddy and count their used entries in page->pt_nr_used: the
 * store helpers below (Linux's set_ptes(), ptep_get_and_clear(),
 * set_pmd_at()...) keep that count, and free_empty_tables() frees the
 * tables a walker's clears left empty.
 *
 * Locks (Linux's split page-table locks; order in mm/rmap.c): the entries
 * of a PTE table change under that table's lock (pte_offset_map_lock), the
 * entries of a PMD table under that table's lock (pmd_lock), PUD and PGD
 * entries under mm->page_table_lock; each lock also guards its table's
 * pt_nr_used.  Tables are freed only where nobody else can be walking
 * them (free_empty_tables()): with the mmap_lock held for write, which
 * keeps faults, /proc and GUP out, and with the rmap locks of the one VMA
 * that reaches the table (take_rmap_locks(), vma_table_ceiling()), which
 * keep rmap walkers of other processes out — Linux's free_pgtables()
 * unlinks the VMAs from the rmap before it frees their tables.
 */
#ifndef _LINUX_PGTABLE_H
#define _LINUX_PGTABLE_H

#include "linux/types.h"
#include "linux/mm.h"
#include <asm/pgtable.h>
#include <asm/tlbflush.h>

enum pt_level { PT_PTE = 1, PT_PMD = 2, PT_PUD = 3, PT_PGD = 4 };

#define PMD_SIZE        (1UL << PMD_SHIFT)
#define PMD_MASK        (~(PMD_SIZE - 1))
#define PUD_SIZE        (1UL << PUD_SHIFT)
#define PGDIR_SIZE      (1UL << PGDIR_SHIFT)
#define HPAGE_PMD_SIZE  PMD_SIZE

/* Shift of the address bits that index a table at this level. */
static inline unsigned int level_shift(enum pt_level level)
{
	return PAGE_SHIFT + 9 * (level - 1);
}

static inline unsigned long level_size(enum pt_level level)
{
	return 1UL << level_shift(level);
}

static inline unsigned int pt_index(unsigned long addr, enum pt_level level)
{
	return (addr >> level_shift(level)) & (PTRS_PER_TABLE - 1);
}

/*
 * Where the block of "size" (a level's reach) holding addr ends, clipped
 * to end: the step of a walk at that level (Linux's p?d_addr_end below).
 */
static inline unsigned long p_addr_end(unsigned long addr, unsigned long end, unsigned long size)
{
	unsigned long boundary = (addr + size) & ~(size - 1);

	return boundary - 1 < end - 1 ? boundary : end;
}

#define pgd_addr_end(addr, end) p_addr_end(addr, end, PGDIR_SIZE)
#define pud_addr_end(addr, end) p_addr_end(addr, end, PUD_SIZE)
#define pmd_addr_end(addr, end) p_addr_end(addr, end, PMD_SIZE)

/* The PGD entry of addr in mm's tree (Linux's pgd_offset). */
static inline pgd_t *pgd_offset(struct mm_struct *mm, unsigned long addr)
{
	return pgd_offset_pgd(mm->pgd, addr);
}

/* The split lock in a page-table page (Linux's ptlock_ptr). */
static inline spinlock_t *ptlock_ptr(struct page *table_page)
{
	return &table_page->ptl;
}

/* The lock of the PTE table a PMD entry points to (Linux's pte_lockptr). */
static inline spinlock_t *pte_lockptr(struct mm_struct *mm, pmd_t pmdval)
{
	return ptlock_ptr(pfn_to_page(pmd_pfn(pmdval)));
}

/*
 * The PTE of addr under *pmd, with the PTE table's lock taken into *ptlp
 * (Linux's pte_offset_map_lock): NULL when *pmd holds no PTE table (none,
 * a PMD leaf, or one being split).  Rechecks after locking that *pmd
 * still points to that table, so a table replaced meanwhile is not used.
 * The _nested form takes a second lock of the class (fork: the parent's
 * table under the child's).
 */
static inline pte_t *pte_offset_map_lock_nested(struct mm_struct *mm, pmd_t *pmd,
						unsigned long addr, spinlock_t **ptlp,
						unsigned int subclass)
{
	for (;;) {
		pmd_t pmdval = pmdp_get(pmd);
		spinlock_t *ptl;

		if (!pmd_present(pmdval) || pmd_trans_huge(pmdval))
			return NULL;
		ptl = pte_lockptr(mm, pmdval);
		spin_lock_nested(ptl, subclass);
		if (likely(pmd_same(pmdp_get(pmd), pmdval))) {
			*ptlp = ptl;
			return pmd_page_vaddr(pmdval) + pte_index(addr);
		}
		spin_unlock(ptl);
	}
}

static inline pte_t *pte_offset_map_lock(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
					 spinlock_t **ptlp)
{
	return pte_offset_map_lock_nested(mm, pmd, addr, ptlp, 0);
}

/* Drop what pte_offset_map_lock() took (Linux's pte_unmap_unlock). */
static inline void pte_unmap_unlock(pte_t *pte, spinlock_t *ptl)
{
	spin_unlock(ptl);
}

/*
 * The lock of the PMD table holding pmd (Linux's pmd_lockptr with split
 * PMD locks): guards that table's entries, PMD leaves included.
 */
static inline spinlock_t *pmd_lockptr(struct mm_struct *mm, pmd_t *pmd)
{
	return ptlock_ptr(virt_to_page(pmd));
}

static inline spinlock_t *pmd_lock(struct mm_struct *mm, pmd_t *pmd)
{
	spinlock_t *ptl = pmd_lockptr(mm, pmd);

	spin_lock(ptl);
	return ptl;
}

/*
 * Entry stores for user page tables (all their tables are buddy pages),
 * with Linux's names.  Each keeps the used-entry count of the table it
 * writes.  None frees a table (a walker may still be on it):
 * free_empty_tables() does, once the walker is done with it.  mm and addr
 * name the entry, as in Linux.
 */
static inline void pt_add_used(const void *entry, long nr)
{
	pfn_to_page(__pa_direct(entry) >> PAGE_SHIFT)->pt_nr_used += nr;     /* a buddy page */
}

/*
 * Set one entry, whatever it was (the count follows none <-> in use; the
 * table's struct page is touched only when the count changes).
 */
static inline void __set_entry(pgval_t *entry, pgval_t e)
{
	long delta = (long)!pgval_none(e) - (long)!pgval_none(*entry);

	if (delta)
		pt_add_used(entry, delta);
	*entry = e;
}

static inline void set_pte_at(struct mm_struct *mm, unsigned long addr, pte_t *ptep, pte_t pte)
{
	__set_entry(&ptep->pte, pte_val(pte));
}

static inline void set_pmd_at(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp, pmd_t pmd)
{
	__set_entry(&pmdp->pmd, pmd_val(pmd));
}

/* Map nr consecutive pages, pte's and the ones after it, into nr none PTEs. */
static inline void set_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep, pte_t pte,
			    unsigned int nr)
{
	pt_add_used(ptep, nr);
	for (; nr; nr--, ptep++, pte = pte_next_pfn(pte))
		*ptep = pte;
}

/*
 * The MMU of every CPU sets accessed and dirty bits in present leaves
 * whatever lock is held (<asm/pgtable.h>): every store helper that reads a
 * present entry and writes back a changed one does it in one atomic
 * instruction, so that no such bit is lost between the read and the write.
 */
static inline pgval_t __get_and_clear_entry(pgval_t *entry)
{
	pgval_t old = pgval_xchg(entry, 0);

	if (!pgval_none(old))
		pt_add_used(entry, -1);
	return old;
}

/* Clear the PTE at ptep and return what it was, A and D as of the clear. */
static inline pte_t ptep_get_and_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	return __pte(__get_and_clear_entry(&ptep->pte));
}

/* Clear a PMD leaf and return it. */
static inline pmd_t pmdp_huge_get_and_clear(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp)
{
	return __pmd(__get_and_clear_entry(&pmdp->pmd));
}

/* Write-protect a present PTE, keeping its A/D bits (fork, clear_refs); the count stays. */
static inline void ptep_set_wrprotect(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	pgval_clear_write(&ptep->pte);
}

/* Write-protect a PMD leaf (fork's copy-on-write); the count stays. */
static inline void pmdp_set_wrprotect(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp)
{
	pgval_clear_write(&pmdp->pmd);
}

/* Make a present PTE old; was it young?  The caller flushes if it must. */
static inline bool ptep_test_and_clear_young(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	return pgval_test_and_clear_young(&ptep->pte);
}

/*
 * Store new if the entry still is *old, in one compare-and-swap (x86
 * Linux's try_cmpxchg on an entry): false, with *old what the entry is
 * now, if the MMU or another CPU changed it meanwhile.  The count stays.
 */
static inline bool ptep_try_cmpxchg(pte_t *ptep, pte_t *old, pte_t new)
{
	return __atomic_compare_exchange_n(&ptep->pte, &old->pte, pte_val(new), false,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static inline bool pmdp_try_cmpxchg(pmd_t *pmdp, pmd_t *old, pmd_t new)
{
	return __atomic_compare_exchange_n(&pmdp->pmd, &old->pmd, pmd_val(new), false,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/*
 * Replace the PMD leaf at pmdp by pmd, returning the old one with the A/D
 * bits it had at that instant (Linux's pmdp_establish); neither is none,
 * so the count stays.  Under pmd_lock.
 */
static inline pmd_t pmdp_establish(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp,
				   pmd_t pmd)
{
	return __pmd(pgval_xchg(&pmdp->pmd, pmd_val(pmd)));
}

/*
 * Make a PMD leaf not present, keeping it a leaf to software, and return
 * it as it was (Linux's pmdp_invalidate_ad): no CPU sets A or D in it from
 * then on, so the caller may build the entry that replaces it from the
 * returned one.  No flush: a CPU may still write through a stale TLB entry
 * until the caller's flush (which it must do before it relies on that).
 */
static inline pmd_t pmdp_invalidate_ad(struct mm_struct *mm, unsigned long haddr, pmd_t *pmdp)
{
	return pmdp_establish(mm, haddr, pmdp, pmd_mkinvalid(pmdp_get(pmdp)));
}

/*
 * pmdp_invalidate_ad() and a flush from every TLB before the leaf is
 * replaced (Linux's pmdp_invalidate): no CPU writes through the old 2 MiB
 * translation while the PTEs of a split are built; they carry the
 * returned entry's A/D bits.  Under pmd_lock; the count stays.
 */
static inline pmd_t pmdp_invalidate(struct mm_struct *mm, unsigned long haddr, pmd_t *pmdp)
{
	pmd_t old = pmdp_invalidate_ad(mm, haddr, pmdp);

	flush_tlb_mm_range(mm, haddr, haddr + PMD_SIZE, PMD_SHIFT, false);
	return old;
}

/*
 * Change a present PTE's protection in two steps (Linux's
 * ptep_modify_prot_start/_commit, mprotect): start clears it and returns
 * it, A and D as of the clear — no CPU can set them in a none entry; the
 * caller builds the new entry from that one, and commit stores it.  The
 * count stays (the entry is none only in between, under the PTE lock).
 * Stale TLB entries are the caller's to flush, after commit.
 */
static inline pte_t ptep_modify_prot_start(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	return __pte(pgval_xchg(&ptep->pte, 0));
}

static inline void ptep_modify_prot_commit(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
					   pte_t old_pte, pte_t pte)
{
	set_pte(ptep, pte);
}

/*
 * The batch forms for the two walkers that go through a whole PTE table,
 * one folio's run of PTEs at a time: fork's copy_pte_range() and
 * zap_pte_range().  They leave the count alone, and the walker settles it
 * once per table (pte_table_add_used()): a count update per run would cost
 * fork and munmap of order-0 pages about 10 %.
 */

/*
 * Copy nr present PTEs into nr none PTEs of the child, each as it is
 * (accessed and dirty bits included), write-protecting them in both first
 * if wrprotect (Linux's wrprotect_ptes(), then set_ptes()): the parent's
 * by clear_bit, keeping the A/D bits its other threads' CPUs set.
 */
static inline void __copy_ptes(pte_t *dst_pte, pte_t *src_pte, unsigned int nr, bool wrprotect)
{
	if (wrprotect) {
		for (unsigned int i = 0; i < nr; i++) {
			pgval_clear_write(&src_pte[i].pte);
			dst_pte[i] = ptep_get(&src_pte[i]);
		}
	} else {
		for (unsigned int i = 0; i < nr; i++)
			dst_pte[i] = ptep_get(&src_pte[i]);
	}
}

/*
 * Clear nr PTEs in use and return the first as it was, with the accessed
 * and dirty bits of all nr merged in (Linux's get_and_clear_full_ptes):
 * each by an atomic exchange, so a bit another CPU's MMU sets up to the
 * clear is not lost — a write through any of them dirtied the folio.
 */
static inline pte_t __get_and_clear_ptes(pte_t *ptep, unsigned int nr)
{
	pte_t pte = __pte(pgval_xchg(&ptep->pte, 0));
	pgval_t others = 0;

	for (unsigned int i = 1; i < nr; i++)
		others |= pgval_xchg(&ptep[i].pte, 0);
	if (pgval_young(others))
		pte = pte_mkyoung(pte);
	if (pgval_dirty(others))
		pte = pte_mkdirty(pte);
	return pte;
}

/*
 * Clear nr PTEs by plain stores, where no A/D bit can matter: a table no
 * MMU can reach any more (khugepaged's, detached and flushed), or entries
 * whose bits die with them (an anon folio's, zapped).  Each store is one
 * write: an MMU that comes to set a bit afterwards finds the entry not
 * present and faults; one that came before loses only that bit.
 */
static inline void __clear_ptes(pte_t *ptep, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		ptep[i] = __pte(0);
}

/* nr entries of the PTE table holding ptep came into use (< 0: went out of use). */
static inline void pte_table_add_used(pte_t *ptep, long nr)
{
	pt_add_used(ptep, nr);
}

/*
 * The zero pages (Linux's ZERO_PAGE and huge zero folio): a read fault on
 * untouched private anon memory maps the shared 4 KiB zero page by a
 * special PTE, or the 2 MiB huge zero folio by a PMD leaf, read-only.
 * Neither is a normal page: no rmap, no refcount per mapping, no RSS.  A
 * PTE says so with its special bit, a PMD leaf by its frame (Linux's
 * is_huge_zero_pmd); the walkers ask vm_normal_page() / is_huge_zero_pmd().
 */
extern unsigned long zero_pfn;          /* memory.c: allocated once at boot */
extern unsigned long huge_zero_pfn;     /* huge_memory.c: ~0UL while there is none */

void init_zero_pfn(void);
void huge_zero_init(void);
void mm_put_huge_zero_folio(struct mm_struct *mm);

static inline bool is_zero_pfn(unsigned long pfn)
{
	return pfn == zero_pfn;
}

/* The zero page for a user address (one for all on x86: Linux's my_zero_pfn). */
static inline unsigned long my_zero_pfn(unsigned long addr)
{
	return zero_pfn;
}

/* Is pfn a page of the huge zero folio? */
static inline bool is_huge_zero_pfn(unsigned long pfn)
{
	return READ_ONCE(huge_zero_pfn) == (pfn & ~(HPAGE_PMD_NR - 1));
}

static inline bool is_huge_zero_pmd(pmd_t pmd)
{
	return pmd_present(pmd) && pmd_trans_huge(pmd) && is_huge_zero_pfn(pmd_pfn(pmd));
}

/*
 * The page a present PTE maps, or NULL for a special one: the zero page
 * (Linux's vm_normal_page).  A normal page is never NULL; saying so lets
 * the compiler drop the callers' second test on the hot path.
 */
static inline struct page *vm_normal_page(struct vm_area_struct *vma, unsigned long addr,
					  pte_t pte)
{
	struct page *page;

	if (pte_special(pte))
		return NULL;
	page = pfn_to_page(pte_pfn(pte));
	if (!page)
		__builtin_unreachable();
	return page;
}

/* What a lookup found: the entry at every level it passed, and the leaf. */
struct pgwalk {
	enum pt_level leaf_level;       /* 0 if nothing is mapped */
	pgval_t entry[PT_PGD + 1];      /* entry[level], valid down to the stop */
	enum pt_level stop_level;       /* lowest level looked at */
	phys_addr_t phys;               /* translated address, if mapped */
};

extern unsigned long nr_pagetable_pages;

/* A new root: its kernel half (entries USER_PGD_PTRS..511) is init_pgd's (arch). */
void arch_pgd_init(pgd_t *pgd);
pgd_t *pgd_alloc(void);
void pgd_free(pgd_t *pgd);
pmd_t *mm_find_pmd(struct mm_struct *mm, unsigned long addr);
int __pud_alloc(struct mm_struct *mm, pgd_t *pgd);
int __pmd_alloc(struct mm_struct *mm, pud_t *pud);
int __pte_alloc(struct mm_struct *mm, pmd_t *pmd);

/*
 * The PUD, PMD entry of addr below pgd, pud, giving the entry a table
 * first if it has none (Linux's pud_alloc, pmd_alloc): the table is
 * installed under the lock that guards the entry (__pud_alloc...).  NULL
 * when out of memory.  Every fault but the first of a GiB finds the
 * tables there: a load and a test per level, inline.
 */
static inline pud_t *pud_alloc(struct mm_struct *mm, pgd_t *pgd, unsigned long addr)
{
	if (unlikely(pgd_none(*pgd)) && __pud_alloc(mm, pgd))
		return NULL;
	return pud_offset(pgd, addr);
}

static inline pmd_t *pmd_alloc(struct mm_struct *mm, pud_t *pud, unsigned long addr)
{
	if (unlikely(pud_none(*pud)) && __pmd_alloc(mm, pud))
		return NULL;
	return pmd_offset(pud, addr);
}

/* Give a none *pmd a PTE table; true when out of memory (Linux's pte_alloc). */
static inline bool pte_alloc(struct mm_struct *mm, pmd_t *pmd)
{
	return unlikely(pmd_none(pmdp_get(pmd))) && __pte_alloc(mm, pmd);
}

/* The PMD entry of addr in mm, the tables above it allocated as needed; NULL when out of memory. */
static inline pmd_t *mm_alloc_pmd(struct mm_struct *mm, unsigned long addr)
{
	pud_t *pud = pud_alloc(mm, pgd_offset(mm, addr), addr);

	return pud ? pmd_alloc(mm, pud, addr) : NULL;
}
pte_t *pte_alloc_map_lock(struct mm_struct *mm, unsigned long addr, spinlock_t **ptlp);
int pgtable_map(pgd_t *pgd, unsigned long addr, unsigned long pfn, pgprot_t prot,
		enum pt_level level);
int pgtable_unmap(pgd_t *pgd, unsigned long addr, enum pt_level level, pgval_t *old);
int pgtable_lookup(pgd_t *pgd, unsigned long addr, struct pgwalk *w);
void free_empty_tables(struct vm_area_struct *vma, unsigned long addr, enum pt_level level);
enum pt_level vma_table_ceiling(struct vm_area_struct *vma, unsigned long addr);
int detach_empty_tables(struct mm_struct *mm, unsigned long addr, enum pt_level level,
			enum pt_level top,
			void **to_free);
void pt_free_table(void *table);
pmd_t *pmd_entry_next(pgd_t *pgd, unsigned long *addr, unsigned long end, unsigned long *next);
pte_t *pte_alloc_one(void);
void pte_free(pte_t *table);
void pmd_populate(struct mm_struct *mm, pmd_t *pmd, pte_t *table);
void pgtable_free_range(pgd_t *pgd, unsigned long start, unsigned long end);

/* Early page tables come from here until the buddy is up (arch sets it). */
extern phys_addr_t (*pgtable_early_alloc)(void);

#endif
