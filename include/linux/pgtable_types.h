/*
 * One C type per page-table level (Linux's pte_t, pmd_t, pud_t, pgd_t) and
 * each level's accessors, over the entry format of <asm/pgtable.h>.
 *
 *   pgd_t  a PGD entry (x86 PML4E)  -> a PUD table             mm->pgd[i]
 *   pud_t  a PUD entry (x86 PDPTE)  -> a PMD table
 *   pmd_t  a PMD entry (x86 PDE)    -> a PTE table, or a 2 MiB leaf (THP)
 *   pte_t  a PTE       (x86 PTE)    -> a 4 KiB page
 *
 * Every level has the same bits (pgval_t), but each is its own struct: a
 * PMD passed where a PTE belongs, or a PTE table indexed as a PMD table,
 * does not compile.  A struct of one u64 is passed and returned in a
 * register, so the types cost nothing.  As in Linux, x86-64 has 4 levels:
 * the P4D level is folded into the PGD (pud_offset() takes a pgd_t *).
 *
 * Reading an entry another CPU may change: ptep_get()/pmdp_get()
 * (Linux's; READ_ONCE of the one word).  Comparing two: pte_same()/
 * pmd_same().  The host build's software MMU has its own layout behind the
 * same accessors (tests/host/include/asm/pgtable.h).
 *
 * Locks: none here; linux/pgtable.h says which lock guards which entry.
 */
#ifndef _LINUX_PGTABLE_TYPES_H
#define _LINUX_PGTABLE_TYPES_H

#include "linux/types.h"
#include "linux/compiler.h"
#include <asm/pgtable.h>

typedef struct { pgval_t pte; } pte_t;
typedef struct { pgval_t pmd; } pmd_t;
typedef struct { pgval_t pud; } pud_t;
typedef struct { pgval_t pgd; } pgd_t;

#define pte_val(x)      ((x).pte)
#define pmd_val(x)      ((x).pmd)
#define pud_val(x)      ((x).pud)
#define pgd_val(x)      ((x).pgd)
#define __pte(x)        ((pte_t){ (x) })
#define __pmd(x)        ((pmd_t){ (x) })
#define __pud(x)        ((pud_t){ (x) })
#define __pgd(x)        ((pgd_t){ (x) })

/*
 * __always_inline, not inline: a volatile read is a side effect, so until
 * it is inlined GCC's branch predictor sees a guarded call, and inside an
 * __always_inline function (handle_pte_fault) ordinary inlines are only
 * inlined after the profile is guessed.  As calls, these made the reuse
 * fault look cold enough that folio_unlock() went out of line.
 */
static __always_inline pte_t ptep_get(const pte_t *ptep) { return __pte(READ_ONCE(ptep->pte)); }
static __always_inline pmd_t pmdp_get(const pmd_t *pmdp) { return __pmd(READ_ONCE(pmdp->pmd)); }
static __always_inline pud_t pudp_get(const pud_t *pudp) { return __pud(READ_ONCE(pudp->pud)); }
static __always_inline pgd_t pgdp_get(const pgd_t *pgdp) { return __pgd(READ_ONCE(pgdp->pgd)); }

/* Store an entry the MMU may be walking, in one write (Linux's set_pte/set_pmd). */
static inline void set_pte(pte_t *ptep, pte_t pte) { WRITE_ONCE(ptep->pte, pte_val(pte)); }
static inline void set_pmd(pmd_t *pmdp, pmd_t pmd) { WRITE_ONCE(pmdp->pmd, pmd_val(pmd)); }

static inline bool pte_same(pte_t a, pte_t b) { return pte_val(a) == pte_val(b); }
static inline bool pmd_same(pmd_t a, pmd_t b) { return pmd_val(a) == pmd_val(b); }

/* ---- PTE: a 4 KiB page, or a swap-format entry (linux/swapops.h) ---- */
static inline bool pte_none(pte_t pte)        { return pgval_none(pte_val(pte)); }
/* A mapping, accessible or PROT_NONE. */
static inline bool pte_present(pte_t pte)     { return pgval_present(pte_val(pte)); }
static inline bool pte_protnone(pte_t pte)    { return pgval_protnone(pte_val(pte)); }
static inline bool pte_write(pte_t pte)       { return pgval_write(pte_val(pte)); }
static inline bool pte_dirty(pte_t pte)       { return pgval_dirty(pte_val(pte)); }
static inline bool pte_young(pte_t pte)       { return pgval_young(pte_val(pte)); }
static inline bool pte_soft_dirty(pte_t pte)  { return pgval_soft_dirty(pte_val(pte)); }
/* A PTE of no normal page: the zero page (vm_normal_page()). */
static inline bool pte_special(pte_t pte)     { return pgval_special(pte_val(pte)); }
static inline unsigned long pte_pfn(pte_t pte) { return pgval_pfn(pte_val(pte)); }

static inline pte_t pfn_pte(unsigned long pfn, pgprot_t prot) { return __pte(mk_pte_entry(pfn, prot)); }
static inline pte_t pte_mkwrite(pte_t pte)     { return __pte(pgval_mkwrite(pte_val(pte))); }
static inline pte_t pte_wrprotect(pte_t pte)   { return __pte(pgval_wrprotect(pte_val(pte))); }
/* Dirty, and soft-dirty too (x86 Linux's pte_mkdirty). */
static inline pte_t pte_mkdirty(pte_t pte)     { return __pte(pgval_mkdirty(pte_val(pte))); }
static inline pte_t pte_mkclean(pte_t pte)     { return __pte(pgval_mkclean(pte_val(pte))); }
static inline pte_t pte_mkyoung(pte_t pte)     { return __pte(pgval_mkyoung(pte_val(pte))); }
static inline pte_t pte_mkold(pte_t pte)       { return __pte(pgval_mkold(pte_val(pte))); }
static inline pte_t pte_mkspecial(pte_t pte)   { return __pte(pgval_mkspecial(pte_val(pte))); }
static inline pte_t pte_mksoft_dirty(pte_t pte) { return __pte(pgval_mksoft_dirty(pte_val(pte))); }
static inline pte_t pte_clear_soft_dirty(pte_t pte) { return __pte(pgval_clear_soft_dirty(pte_val(pte))); }
/* New permissions; frame, A/D/soft-dirty and special stay (Linux's pte_modify). */
static inline pte_t pte_modify(pte_t pte, pgprot_t prot) { return __pte(pgval_modify(pte_val(pte), prot)); }
/* Write-protected for a migration's copy, the write bit kept aside; and back. */
static inline pte_t pte_save_write(pte_t pte)    { return __pte(pgval_save_write(pte_val(pte))); }
static inline pte_t pte_restore_write(pte_t pte) { return __pte(pgval_restore_write(pte_val(pte))); }
/* The same entry for the page frame nr frames on (Linux's pte_advance_pfn). */
static inline pte_t pte_advance_pfn(pte_t pte, unsigned long nr)
{
	return __pte(pgval_advance_pfn(pte_val(pte), nr));
}
static inline pte_t pte_next_pfn(pte_t pte)    { return pte_advance_pfn(pte, 1); }

static inline bool pte_swp_soft_dirty(pte_t pte)        { return pgval_swp_soft_dirty(pte_val(pte)); }
static inline pte_t pte_swp_mksoft_dirty(pte_t pte)     { return __pte(pgval_swp_mksoft_dirty(pte_val(pte))); }
static inline pte_t pte_swp_clear_soft_dirty(pte_t pte) { return __pte(pgval_swp_clear_soft_dirty(pte_val(pte))); }
static inline bool pte_swp_exclusive(pte_t pte)         { return pgval_swp_exclusive(pte_val(pte)); }
static inline pte_t pte_swp_mkexclusive(pte_t pte)      { return __pte(pgval_swp_mkexclusive(pte_val(pte))); }
static inline pte_t pte_swp_clear_exclusive(pte_t pte)  { return __pte(pgval_swp_clear_exclusive(pte_val(pte))); }

/* ---- PMD: a PTE table, a 2 MiB leaf, or a swap-format entry ---- */
static inline bool pmd_none(pmd_t pmd)        { return pgval_none(pmd_val(pmd)); }
static inline bool pmd_present(pmd_t pmd)     { return pgval_present(pmd_val(pmd)); }
/* A leaf mapping 2 MiB (Linux's pmd_leaf); present, PROT_NONE or invalidated. */
static inline bool pmd_leaf(pmd_t pmd)        { return pgval_huge(pmd_val(pmd)); }
/* A leaf of a transparent huge page: every PMD leaf of user memory is one. */
static inline bool pmd_trans_huge(pmd_t pmd)  { return pmd_leaf(pmd); }
static inline bool pmd_write(pmd_t pmd)       { return pgval_write(pmd_val(pmd)); }
static inline bool pmd_dirty(pmd_t pmd)       { return pgval_dirty(pmd_val(pmd)); }
static inline bool pmd_young(pmd_t pmd)       { return pgval_young(pmd_val(pmd)); }
static inline bool pmd_soft_dirty(pmd_t pmd)  { return pgval_soft_dirty(pmd_val(pmd)); }
static inline unsigned long pmd_pfn(pmd_t pmd) { return pgval_pfn(pmd_val(pmd)); }

/* A PMD leaf of the 2 MiB at pfn (Linux's pmd_mkhuge(pfn_pmd())). */
static inline pmd_t pfn_pmd_huge(unsigned long pfn, pgprot_t prot) { return __pmd(mk_huge_entry(pfn, prot)); }
static inline pmd_t pmd_mkhuge(pmd_t pmd)      { return __pmd(pgval_mkhuge(pmd_val(pmd))); }
static inline pmd_t pmd_mkwrite(pmd_t pmd)     { return __pmd(pgval_mkwrite(pmd_val(pmd))); }
static inline pmd_t pmd_wrprotect(pmd_t pmd)   { return __pmd(pgval_wrprotect(pmd_val(pmd))); }
static inline pmd_t pmd_mkdirty(pmd_t pmd)     { return __pmd(pgval_mkdirty(pmd_val(pmd))); }
static inline pmd_t pmd_mkclean(pmd_t pmd)     { return __pmd(pgval_mkclean(pmd_val(pmd))); }
static inline pmd_t pmd_mkyoung(pmd_t pmd)     { return __pmd(pgval_mkyoung(pmd_val(pmd))); }
static inline pmd_t pmd_mkold(pmd_t pmd)       { return __pmd(pgval_mkold(pmd_val(pmd))); }
static inline pmd_t pmd_mksoft_dirty(pmd_t pmd) { return __pmd(pgval_mksoft_dirty(pmd_val(pmd))); }
static inline pmd_t pmd_clear_soft_dirty(pmd_t pmd) { return __pmd(pgval_clear_soft_dirty(pmd_val(pmd))); }
static inline pmd_t pmd_modify(pmd_t pmd, pgprot_t prot) { return __pmd(pgval_modify(pmd_val(pmd), prot)); }
/* Not present to the MMU, still a leaf to software (Linux's pmd_mkinvalid). */
static inline pmd_t pmd_mkinvalid(pmd_t pmd)   { return __pmd(pgval_mkinvalid(pmd_val(pmd))); }
static inline pmd_t pmd_save_write(pmd_t pmd)    { return __pmd(pgval_save_write(pmd_val(pmd))); }
static inline pmd_t pmd_restore_write(pmd_t pmd) { return __pmd(pgval_restore_write(pmd_val(pmd))); }
/* The PTE of the first page of a PMD leaf, same bits (a split advances it). */
static inline pte_t pmd_pte(pmd_t pmd)          { return __pte(pgval_huge_to_pte(pmd_val(pmd), 0)); }

static inline bool pmd_swp_soft_dirty(pmd_t pmd)        { return pgval_swp_soft_dirty(pmd_val(pmd)); }
static inline pmd_t pmd_swp_mksoft_dirty(pmd_t pmd)     { return __pmd(pgval_swp_mksoft_dirty(pmd_val(pmd))); }
static inline pmd_t pmd_swp_clear_soft_dirty(pmd_t pmd) { return __pmd(pgval_swp_clear_soft_dirty(pmd_val(pmd))); }

/* ---- PUD and PGD: tables (foliOS maps no 1 GiB leaf in user memory) ---- */
static inline bool pud_none(pud_t pud)        { return pgval_none(pud_val(pud)); }
static inline bool pud_present(pud_t pud)     { return pgval_present(pud_val(pud)); }
static inline bool pud_leaf(pud_t pud)        { return pgval_huge(pud_val(pud)); }
static inline bool pgd_none(pgd_t pgd)        { return pgval_none(pgd_val(pgd)); }
static inline bool pgd_present(pgd_t pgd)     { return pgval_present(pgd_val(pgd)); }

/* The table a non-leaf entry points to (Linux's pmd_page_vaddr, pud_pgtable, p4d_pgtable). */
static inline pte_t *pmd_page_vaddr(pmd_t pmd) { return __va((phys_addr_t)pmd_pfn(pmd) << PAGE_SHIFT); }
static inline pmd_t *pud_pgtable(pud_t pud)
{
	return __va((phys_addr_t)pgval_pfn(pud_val(pud)) << PAGE_SHIFT);
}
static inline pud_t *pgd_pgtable(pgd_t pgd)
{
	return __va((phys_addr_t)pgval_pfn(pgd_val(pgd)) << PAGE_SHIFT);
}

/* Index of addr in a table of each level (Linux's pte_index...pgd_index). */
static inline unsigned long pte_index(unsigned long addr) { return (addr >> PAGE_SHIFT) & (PTRS_PER_TABLE - 1); }
static inline unsigned long pmd_index(unsigned long addr) { return (addr >> PMD_SHIFT) & (PTRS_PER_TABLE - 1); }
static inline unsigned long pud_index(unsigned long addr) { return (addr >> PUD_SHIFT) & (PTRS_PER_TABLE - 1); }
static inline unsigned long pgd_index(unsigned long addr) { return (addr >> PGDIR_SHIFT) & (PTRS_PER_TABLE - 1); }

/*
 * One step down the tree (Linux's offset helpers): the entry of addr in
 * the table the (non-leaf, present) entry above points to.  A plain read,
 * as Linux's: the caller has checked that entry, and a table, once
 * installed, stays while the caller may walk it (linux/pgtable.h).
 */
static inline pgd_t *pgd_offset_pgd(pgd_t *pgd, unsigned long addr) { return pgd + pgd_index(addr); }
static inline pud_t *pud_offset(pgd_t *pgd, unsigned long addr)
{
	return pgd_pgtable(*pgd) + pud_index(addr);
}
static inline pmd_t *pmd_offset(pud_t *pud, unsigned long addr)
{
	return pud_pgtable(*pud) + pmd_index(addr);
}
static inline pte_t *pte_offset_kernel(pmd_t *pmd, unsigned long addr)
{
	return pmd_page_vaddr(*pmd) + pte_index(addr);
}

#endif
