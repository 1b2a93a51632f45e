/*
 * Swap-format page-table entries (Linux's include/linux/swapops.h): a
 * swap entry (type < MAX_SWAPFILES: a device and a slot, linux/swap.h) or
 * a special entry, of which foliOS uses one kind: the migration entry.
 *
 * A split or a migration first makes a folio's mappings unreachable:
 * try_to_migrate() (mm/rmap_migrate.c) replaces each PTE that maps a page
 * of the folio by a migration entry naming that page; a fault or GUP that
 * meets one waits until the folio is unlocked (migration_entry_wait(),
 * mm/migrate.c); remove_migration_ptes() turns each entry back into a PTE,
 * of the same page (split) or of its copy (migration).  The entry keeps
 * what the PTE said that the page does not:
 *
 *   type    SWP_MIGRATION_WRITE           the PTE was writable (and so
 *                                         the page AnonExclusive)
 *           SWP_MIGRATION_READ_EXCLUSIVE  read-only, AnonExclusive
 *           SWP_MIGRATION_READ            read-only, maybe shared
 *   offset  [ dirty | young | pfn (SWP_PFN_BITS) ]
 *   soft-dirty in the entry itself (pte_swp_soft_dirty)
 *
 * While a page is behind migration entries its folio holds no mapping
 * of it (the rmap was removed with the PTE), but Rss, fork, mprotect,
 * mremap, zap, smaps and pagemap still see the page there.
 */
#ifndef _LINUX_SWAPOPS_H
#define _LINUX_SWAPOPS_H

#include "linux/pgtable.h"
#include "linux/page-flags.h"
#include "linux/xarray.h"

#define SWP_TYPE_SHIFT          __SWP_OFFSET_BITS
#define SWP_OFFSET_MASK         (BIT(SWP_TYPE_SHIFT) - 1)

/*
 * The types (Linux's include/linux/swap.h): 0 .. MAX_SWAPFILES - 1 name a
 * swap device, the ones above them special entries.  As in Debian's Linux
 * 6.1 (no device-private memory, no hwpoison entries): three migration
 * types, then the PTE marker (which foliOS does not use), so pagemap
 * shows a migration entry's type as Linux does.
 */
#define MAX_SWAPFILES_SHIFT     5
#define SWP_MIGRATION_NUM       3
#define SWP_PTE_MARKER_NUM      1
#define MAX_SWAPFILES           ((1 << MAX_SWAPFILES_SHIFT) - SWP_MIGRATION_NUM - SWP_PTE_MARKER_NUM)
enum {
	SWP_MIGRATION_READ = MAX_SWAPFILES,
	SWP_MIGRATION_READ_EXCLUSIVE,
	SWP_MIGRATION_WRITE,
};

/* What a migration entry's offset holds above the pfn (Linux's SWP_MIG_*_BIT). */
#define SWP_PFN_BITS            (52 - PAGE_SHIFT)
#define SWP_MIG_YOUNG           BIT(SWP_PFN_BITS)
#define SWP_MIG_DIRTY           BIT(SWP_PFN_BITS + 1)

static inline swp_entry_t swp_entry(unsigned int type, unsigned long offset)
{
	return (swp_entry_t){ ((unsigned long)type << SWP_TYPE_SHIFT) | (offset & SWP_OFFSET_MASK) };
}
static inline unsigned int swp_type(swp_entry_t entry)  { return entry.val >> SWP_TYPE_SHIFT; }
static inline unsigned long swp_offset(swp_entry_t entry) { return entry.val & SWP_OFFSET_MASK; }

/* A swap entry as shmem's page cache holds it, and back (Linux's swp_to_radix_entry). */
static inline void *swp_to_radix_entry(swp_entry_t entry)
{
	return xa_mk_value(entry.val);
}

static inline swp_entry_t radix_to_swp_entry(const void *arg)
{
	return (swp_entry_t){ xa_to_value(arg) };
}

/* Neither none nor a mapping (PROT_NONE counts as one): a swap-format entry. */
static inline bool is_swap_pte(pte_t pte)
{
	return !pte_none(pte) && !pte_present(pte);
}

static inline swp_entry_t pte_to_swp_entry(pte_t pte)
{
	return swp_entry(__pgval_swp_type(pte_val(pte)), __pgval_swp_offset(pte_val(pte)));
}

static inline pte_t swp_entry_to_pte(swp_entry_t entry)
{
	return __pte(__swp_entry_to_pgval(swp_type(entry), swp_offset(entry)));
}

/* A special entry, not one naming a swap device's slot (Linux's non_swap_entry). */
static inline bool non_swap_entry(swp_entry_t entry)
{
	return swp_type(entry) >= MAX_SWAPFILES;
}

static inline bool is_migration_entry(swp_entry_t entry)
{
	return swp_type(entry) >= SWP_MIGRATION_READ && swp_type(entry) <= SWP_MIGRATION_WRITE;
}
static inline bool is_writable_migration_entry(swp_entry_t entry)
{
	return swp_type(entry) == SWP_MIGRATION_WRITE;
}
static inline bool is_readable_migration_entry(swp_entry_t entry)
{
	return swp_type(entry) == SWP_MIGRATION_READ;
}
static inline bool is_readable_exclusive_migration_entry(swp_entry_t entry)
{
	return swp_type(entry) == SWP_MIGRATION_READ_EXCLUSIVE;
}

static inline swp_entry_t make_readable_migration_entry(unsigned long offset)
{
	return swp_entry(SWP_MIGRATION_READ, offset);
}
static inline swp_entry_t make_readable_exclusive_migration_entry(unsigned long offset)
{
	return swp_entry(SWP_MIGRATION_READ_EXCLUSIVE, offset);
}
static inline swp_entry_t make_writable_migration_entry(unsigned long offset)
{
	return swp_entry(SWP_MIGRATION_WRITE, offset);
}

static inline swp_entry_t make_migration_entry_young(swp_entry_t entry)
{
	return swp_entry(swp_type(entry), swp_offset(entry) | SWP_MIG_YOUNG);
}
static inline swp_entry_t make_migration_entry_dirty(swp_entry_t entry)
{
	return swp_entry(swp_type(entry), swp_offset(entry) | SWP_MIG_DIRTY);
}
static inline bool is_migration_entry_young(swp_entry_t entry)
{
	return swp_offset(entry) & SWP_MIG_YOUNG;
}
static inline bool is_migration_entry_dirty(swp_entry_t entry)
{
	return swp_offset(entry) & SWP_MIG_DIRTY;
}

/* The page a migration entry names (Linux's pfn_swap_entry_to_page). */
static inline unsigned long swp_offset_pfn(swp_entry_t entry)
{
	return swp_offset(entry) & (BIT(SWP_PFN_BITS) - 1);
}
static inline struct page *pfn_swap_entry_to_page(swp_entry_t entry)
{
	return pfn_to_page(swp_offset_pfn(entry));
}
static inline struct folio *pfn_swap_entry_folio(swp_entry_t entry)
{
	return page_folio(pfn_swap_entry_to_page(entry));
}

/*
 * The migration entry of pfn for a mapping with these bits (Linux's
 * try_to_migrate_one builds it): its writability, the page's
 * AnonExclusive, young and dirty.
 */
static inline swp_entry_t make_migration_entry_for(unsigned long pfn, bool write,
						   bool anon_exclusive, bool young, bool dirty)
{
	swp_entry_t entry;

	if (write)
		entry = make_writable_migration_entry(pfn);
	else if (anon_exclusive)
		entry = make_readable_exclusive_migration_entry(pfn);
	else
		entry = make_readable_migration_entry(pfn);
	if (young)
		entry = make_migration_entry_young(entry);
	if (dirty)
		entry = make_migration_entry_dirty(entry);
	return entry;
}

/* The migration entry that stands for the PTE pteval of page, soft-dirty as it. */
static inline pte_t mk_migration_pte(pte_t pteval, struct page *page, bool anon_exclusive)
{
	pte_t pte = swp_entry_to_pte(make_migration_entry_for(page_to_pfn(page), pte_write(pteval),
							      anon_exclusive, pte_young(pteval),
							      pte_dirty(pteval)));

	return pte_soft_dirty(pteval) ? pte_swp_mksoft_dirty(pte) : pte;
}

/*
 * The migration entry made read-only (Linux's fork and mprotect do this):
 * a writable one stays exclusive if exclusive says so.
 */
static inline swp_entry_t migration_entry_wrprotect(swp_entry_t entry, bool exclusive)
{
	unsigned long offset = swp_offset(entry);

	if (!is_writable_migration_entry(entry) &&
	    (exclusive || !is_readable_exclusive_migration_entry(entry)))
		return entry;
	return exclusive ? make_readable_exclusive_migration_entry(offset) :
			   make_readable_migration_entry(offset);
}

/* The same for a migration entry in a PTE; the soft-dirty bit stays. */
static inline pte_t migration_pte_wrprotect(pte_t pte, bool exclusive)
{
	pte_t new = swp_entry_to_pte(migration_entry_wrprotect(pte_to_swp_entry(pte), exclusive));

	return pte_swp_soft_dirty(pte) ? pte_swp_mksoft_dirty(new) : new;
}

/*
 * A PMD migration entry (Linux's, with THP migration): the same format in a
 * PMD, naming the head page; PS clear, so no walker takes it for a leaf
 * (and a leaf being split, pmdp_invalidate's non-present one, keeps PS).
 */
static inline swp_entry_t pmd_to_swp_entry(pmd_t pmd)
{
	return swp_entry(__pgval_swp_type(pmd_val(pmd)), __pgval_swp_offset(pmd_val(pmd)));
}

static inline pmd_t swp_entry_to_pmd(swp_entry_t entry)
{
	return __pmd(__swp_entry_to_pgval(swp_type(entry), swp_offset(entry)));
}

/* The PMD migration entry that stands for the PMD leaf pmdval of head. */
static inline pmd_t mk_migration_pmd(pmd_t pmdval, struct page *head, bool anon_exclusive)
{
	pmd_t pmd = swp_entry_to_pmd(make_migration_entry_for(page_to_pfn(head), pmd_write(pmdval),
							      anon_exclusive, pmd_young(pmdval),
							      pmd_dirty(pmdval)));

	return pmd_soft_dirty(pmdval) ? pmd_swp_mksoft_dirty(pmd) : pmd;
}

static inline pmd_t migration_pmd_wrprotect(pmd_t pmd, bool exclusive)
{
	pmd_t new = swp_entry_to_pmd(migration_entry_wrprotect(pmd_to_swp_entry(pmd), exclusive));

	return pmd_swp_soft_dirty(pmd) ? pmd_swp_mksoft_dirty(new) : new;
}

static inline bool is_swap_pmd(pmd_t pmd)
{
	return !pmd_none(pmd) && !pmd_present(pmd) && !pmd_trans_huge(pmd);
}

static inline bool is_pmd_migration_entry(pmd_t pmd)
{
	return is_swap_pmd(pmd) && is_migration_entry(pmd_to_swp_entry(pmd));
}

/* The PTE migration entry of page i of a PMD migration entry (its split). */
static inline pte_t pmd_migration_entry_page(pmd_t pmd, unsigned long i)
{
	swp_entry_t entry = pmd_to_swp_entry(pmd);
	pte_t pte = swp_entry_to_pte(swp_entry(swp_type(entry), swp_offset(entry) + i));

	return pmd_swp_soft_dirty(pmd) ? pte_swp_mksoft_dirty(pte) : pte;
}

/* mm/filemap.c */
extern atomic_t nr_migration_waiters;
void migration_entry_wait_on_locked(swp_entry_t entry, spinlock_t *ptl);

#endif
