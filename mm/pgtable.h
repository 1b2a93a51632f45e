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
 * from the buddy, count their used entries in page->pt_nr_used, and are freed
 * when the last entry in them is cleared.
 *
 * Locking: callers serialize changes to one page-table tree (later: the mm's
 * page_table_lock); this file takes no locks of its own.
 */
#ifndef MM_PGTABLE_H
#define MM_PGTABLE_H

#include "linux/types.h"
#include "mm/mm.h"
#include <asm/pgtable.h>
#include <asm/tlbflush.h>

typedef pgent_t pgd_t;
typedef pgent_t pud_t;
typedef pgent_t pmd_t;
typedef pgent_t pte_t;

enum pt_level { PT_PTE = 1, PT_PMD = 2, PT_PUD = 3, PT_PGD = 4 };

#define PMD_SIZE        (1UL << PMD_SHIFT)
#define PMD_MASK        (~(PMD_SIZE - 1))
#define PUD_SIZE        (1UL << PUD_SHIFT)
#define PGDIR_SIZE      (1UL << PGDIR_SHIFT)
#define HPAGE_PMD_NR    (1UL << HPAGE_PMD_ORDER)
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

/* The table an entry points to (non-leaf entries only). */
static inline pgent_t *pgent_table(pgent_t e)
{
	return __va((phys_addr_t)pgent_pfn(e) << PAGE_SHIFT);
}

/* The PTE of addr in the PTE table a (non-leaf) PMD entry points to. */
static inline pte_t *pte_offset(pmd_t *pmd, unsigned long addr)
{
	return pgent_table(*pmd) + pt_index(addr, PT_PTE);
}

/* What a lookup found: the entry at every level it passed, and the leaf. */
struct pgwalk {
	enum pt_level leaf_level;       /* 0 if nothing is mapped */
	pgent_t entry[PT_PGD + 1];      /* entry[level], valid down to the stop */
	enum pt_level stop_level;       /* lowest level looked at */
	phys_addr_t phys;               /* translated address, if mapped */
};

extern unsigned long nr_pagetable_pages;

pgd_t *pgd_alloc(void);
void pgd_free(pgd_t *pgd);
pgent_t *pgtable_entry(pgd_t *pgd, unsigned long addr, enum pt_level level, bool alloc);
int pgtable_map(pgd_t *pgd, unsigned long addr, unsigned long pfn, pgprot_t prot,
		enum pt_level level);
int pgtable_unmap(pgd_t *pgd, unsigned long addr, enum pt_level level, pgent_t *old);
int pgtable_lookup(pgd_t *pgd, unsigned long addr, struct pgwalk *w);
void pgtable_account_ptes(pgd_t *pgd, unsigned long addr, int delta);
int pgtable_set_leaf(pgd_t *pgd, unsigned long addr, enum pt_level level, pgent_t entry);
pmd_t *pmd_entry_next(pgd_t *pgd, unsigned long *addr, unsigned long end, unsigned long *next);
pte_t *pte_alloc_one(void);
void pte_free(pte_t *table);
void pmd_populate(pmd_t *pmd, pte_t *table, int nr_used);
void pgtable_free_range(pgd_t *pgd, unsigned long start, unsigned long end);

/* What pgtable_floor() measured: cycles to copy and to clear, entries seen. */
struct pgtable_floor {
	u64 copy, clear;
	unsigned long ptes, pmds;
};
void pgtable_floor(pgd_t *pgd, unsigned long start, unsigned long end, pte_t *scratch,
		   u64 (*clock)(void), struct pgtable_floor *r);

/* Early page tables come from here until the buddy is up (arch sets it). */
extern phys_addr_t (*pgtable_early_alloc)(void);

#endif
