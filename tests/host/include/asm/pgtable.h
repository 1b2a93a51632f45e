/*
 * The software MMU's page-table entry format (tests/host/softmmu.c), a
 * deliberately different layout from x86's so that mm/ cannot depend on it:
 *
 *   63    52 51            12 11  10   9     8    7    6   5   4     3   2   1   0
 *   [  0   ][      pfn       ][0][SVW][SPEC][SD][NONE][D] [A] [LEAF][X] [U] [W] [P]
 *
 * LEAF marks a PUD/PMD entry that maps memory itself (a huge page); NONE a
 * PROT_NONE leaf, which has P clear: the MMU faults, mm/ sees a mapping;
 * SPEC a PTE of no normal page (the zero page: Linux's pte_special).
 * SD is the software soft-dirty bit (the MMU never sets it); SVW keeps W
 * while a migration write-protects the page to copy it.
 *
 * Locks: as <asm/pgtable.h> of x86: none here; the soft MMU sets A/D
 * from any thread, so the helpers that change entries are atomic.
 */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include <asm/page.h>
#include <asm/bitops.h>

#define PGDIR_SHIFT     39
#define PUD_SHIFT       30
#define PMD_SHIFT       21
#define PTRS_PER_TABLE  512
#define USER_PGD_PTRS   256

#define SW_BIT_W 1
#define SW_BIT_A 5
#define SW_P    BIT(0)
#define SW_W    BIT(SW_BIT_W)
#define SW_U    BIT(2)
#define SW_X    BIT(3)
#define SW_LEAF BIT(4)
#define SW_A    BIT(SW_BIT_A)
#define SW_D    BIT(6)
#define SW_NONE BIT(7)
#define SW_SOFT_DIRTY BIT(8)
#define SW_SPECIAL BIT(9)
#define SW_SAVED_WRITE BIT(10)
#define SW_PFN_MASK 0x000ffffffffff000UL

typedef struct { u64 pgprot; } pgprot_t;
#define __pgprot(x)     ((pgprot_t){ (x) })
#define pgprot_val(p)   ((p).pgprot)

#define PAGE_KERNEL       __pgprot(SW_P | SW_W)
#define PAGE_KERNEL_RO    __pgprot(SW_P)
#define PAGE_KERNEL_EXEC  __pgprot(SW_P | SW_X)
#define PAGE_USER_RW      __pgprot(SW_P | SW_W | SW_U)
#define PAGE_USER_RO      __pgprot(SW_P | SW_U)
#define PAGE_USER_RX      __pgprot(SW_P | SW_U | SW_X)

/* The bits of an entry at any level; linux/pgtable_types.h types them per level. */
typedef u64 pgval_t;

static inline bool pgval_none(pgval_t e)     { return e == 0; }
static inline bool pgval_present(pgval_t e)  { return e & (SW_P | SW_NONE); }
static inline bool pgval_protnone(pgval_t e)  { return (e & (SW_P | SW_NONE)) == SW_NONE; }
static inline bool pgval_write(pgval_t e)    { return e & SW_W; }
static inline bool pgval_user(pgval_t e)     { return e & SW_U; }
static inline bool pgval_exec(pgval_t e)     { return e & SW_X; }
static inline bool pgval_dirty(pgval_t e)    { return e & SW_D; }
static inline bool pgval_young(pgval_t e)    { return e & SW_A; }
static inline bool pgval_soft_dirty(pgval_t e) { return e & SW_SOFT_DIRTY; }
static inline bool pgval_huge(pgval_t e)     { return e & SW_LEAF; }
static inline pgval_t pgval_mkinvalid(pgval_t e) { return e & ~(SW_P | SW_NONE); }
static inline bool pgval_special(pgval_t e)  { return e & SW_SPECIAL; }
static inline unsigned long pgval_pfn(pgval_t e) { return (e & SW_PFN_MASK) >> PAGE_SHIFT; }

static inline pgval_t mk_table_entry(unsigned long pfn)
{
	return (pfn << PAGE_SHIFT) | SW_P | SW_W | SW_U | SW_X;
}

static inline pgval_t mk_pte_entry(unsigned long pfn, pgprot_t prot)
{
	return (pfn << PAGE_SHIFT) | pgprot_val(prot);
}

static inline pgval_t mk_huge_entry(unsigned long pfn, pgprot_t prot)
{
	return (pfn << PAGE_SHIFT) | pgprot_val(prot) | SW_LEAF;
}

static inline pgval_t pgval_wrprotect(pgval_t e) { return e & ~SW_W; }
static inline pgval_t pgval_save_write(pgval_t e)
{
	return e & SW_W ? (e & ~SW_W) | SW_SAVED_WRITE : e;
}
static inline pgval_t pgval_restore_write(pgval_t e)
{
	return e & SW_SAVED_WRITE ? (e & ~SW_SAVED_WRITE) | SW_W : e;
}
static inline pgval_t pgval_mkwrite(pgval_t e)   { return e | SW_W; }
static inline pgval_t pgval_mksoft_dirty(pgval_t e)    { return e | SW_SOFT_DIRTY; }
static inline pgval_t pgval_clear_soft_dirty(pgval_t e) { return e & ~SW_SOFT_DIRTY; }
static inline pgval_t pgval_mkyoung(pgval_t e)   { return e | SW_A; }
/* Dirty, and soft-dirty too (Linux's pte_mkdirty on x86). */
static inline pgval_t pgval_mkdirty(pgval_t e)   { return e | SW_D | SW_SOFT_DIRTY; }
static inline pgval_t pgval_mkold(pgval_t e)     { return e & ~SW_A; }
static inline pgval_t pgval_mkclean(pgval_t e)   { return e & ~SW_D; }
static inline pgval_t pgval_mkspecial(pgval_t e) { return e | SW_SPECIAL; }
/* The same entry for the page frame nr frames on (Linux's pte_advance_pfn). */
static inline pgval_t pgval_advance_pfn(pgval_t e, unsigned long nr) { return e + (nr << PAGE_SHIFT); }
/* A leaf at the PMD or PUD level (Linux's pmd_mkhuge). */
static inline pgval_t pgval_mkhuge(pgval_t e)    { return e | SW_LEAF; }

/*
 * A swap-format entry (linux/swapops.h), laid out unlike x86's: P, LEAF
 * and NONE clear, SD its soft-dirty bit, X its exclusive bit, the type in bits 11-15 and the
 * offset inverted in bits 16-63 (so that no entry, type 0 offset 0
 * included, is none).
 */
#define __SWP_TYPE_BITS         5
#define __SWP_OFFSET_BITS       48
static inline pgval_t __swp_entry_to_pgval(unsigned int type, unsigned long offset)
{
	return ((pgval_t)(type & 0x1f) << 11) | (~(pgval_t)offset << 16);
}
static inline unsigned int __pgval_swp_type(pgval_t e)   { return (e >> 11) & 0x1f; }
static inline unsigned long __pgval_swp_offset(pgval_t e) { return ~e >> 16; }
static inline bool pgval_swp_soft_dirty(pgval_t e)       { return e & SW_SOFT_DIRTY; }
static inline pgval_t pgval_swp_mksoft_dirty(pgval_t e)  { return e | SW_SOFT_DIRTY; }
static inline pgval_t pgval_swp_clear_soft_dirty(pgval_t e) { return e & ~SW_SOFT_DIRTY; }
/* The exclusive bit of a swap entry (x86's bit 3, as here: SW_X means nothing in one). */
static inline bool pgval_swp_exclusive(pgval_t e)        { return e & SW_X; }
static inline pgval_t pgval_swp_mkexclusive(pgval_t e)   { return e | SW_X; }
static inline pgval_t pgval_swp_clear_exclusive(pgval_t e) { return e & ~SW_X; }

/*
 * Changes to an entry the soft MMU may be using: its walk sets A and D by
 * compare-and-swap (tests/host/softmmu.c), as a CPU by a locked write, so
 * these are atomic too (x86's: xchg, lock btr).
 */
static inline pgval_t pgval_xchg(pgval_t *entry, pgval_t e)
{
	return __atomic_exchange_n(entry, e, __ATOMIC_SEQ_CST);
}

static inline void pgval_clear_write(pgval_t *entry)
{
	clear_bit(SW_BIT_W, (volatile unsigned long *)entry);
}

static inline bool pgval_test_and_clear_young(pgval_t *entry)
{
	return test_and_clear_bit(SW_BIT_A, (volatile unsigned long *)entry);
}

int pgval_decode(pgval_t e, char *buf, size_t size);

static inline pgprot_t user_pgprot(bool access, bool write, bool exec)
{
	if (!access)
		return __pgprot(SW_NONE);
	return __pgprot(SW_P | SW_U | (write ? SW_W : 0) | (exec ? SW_X : 0));
}

static inline pgval_t pgval_modify(pgval_t e, pgprot_t prot)
{
	return (e & (SW_PFN_MASK | SW_A | SW_D | SW_SOFT_DIRTY | SW_LEAF | SW_SPECIAL)) | pgprot_val(prot);
}

/* The PTE for page i of the 2 MiB page a huge entry maps, same permissions (a PMD split). */
static inline pgval_t pgval_huge_to_pte(pgval_t e, unsigned long i)
{
	return (e & ~SW_LEAF) + (i << PAGE_SHIFT);
}

#endif
