/*
 * x86-64 page-table entries, behind the interface mm/pgtable.c uses.
 * Every level has the same 64-bit format; a PUD/PMD entry with PS set is
 * a leaf (1 GiB / 2 MiB page), otherwise it points to the next table.
 *
 *   63  62    52 51                  12 11 10 9 8 7  6 5 4   3   2 1 0
 *   [NX][ avail ][  page frame number   ][SD][avl][G][PS][D][A][PCD][PWT][U][W][P]
 *
 * PROT_NONE (Linux's _PAGE_PROTNONE): a user leaf with P clear and bit 8
 * set.  The CPU ignores every bit of a non-present entry, so each access
 * faults; the kernel still reads it as a present mapping of its frame, so
 * zap, fork, split, pagemap and smaps treat the page as mapped.  Bit 8 is
 * G in a present entry, which user leaves never use.
 *
 * Bit 9 (a software bit the CPU ignores) is Linux's _PAGE_SPECIAL: the
 * PTE maps a frame that is no normal page — the shared zero page — so
 * nothing that walks the tables may touch its refcount or rmap.
 *
 * SD, soft-dirty (Linux's _PAGE_SOFT_DIRTY, software bit 11 as Linux's
 * _PAGE_BIT_SOFTW3): set by software when a page is written through this
 * entry since /proc/<pid>/clear_refs last cleared it (the CPU never sets
 * it: clear_refs write-protects the entry so the write faults).
 *
 * Locks: none here; linux/pgtable.h says which lock guards which entry.  The
 * MMU of every CPU sets A and D without any lock: see pgval_xchg() below.
 */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include <asm/page.h>
#include <asm/bitops.h>

#define PGDIR_SHIFT     39
#define PUD_SHIFT       30
#define PMD_SHIFT       21
#define PTRS_PER_TABLE  512

#define _PAGE_BIT_RW    1
#define _PAGE_BIT_ACCESSED 5
#define _PAGE_PRESENT   BIT(0)
#define _PAGE_RW        BIT(_PAGE_BIT_RW)
#define _PAGE_USER      BIT(2)
#define _PAGE_PWT       BIT(3)
#define _PAGE_PCD       BIT(4)
#define _PAGE_ACCESSED  BIT(_PAGE_BIT_ACCESSED)
#define _PAGE_DIRTY     BIT(6)
#define _PAGE_PSE       BIT(7)
#define _PAGE_GLOBAL    BIT(8)
#define _PAGE_SPECIAL   BIT(9)
#define _PAGE_SAVED_WRITE BIT(10)     /* write-protected while a migration copies the page */
#define _PAGE_SOFT_DIRTY BIT(11)
#define _PAGE_NX        BIT(63)
#define _PAGE_PROTNONE  _PAGE_GLOBAL
#define PTE_PFN_MASK    0x000ffffffffff000UL

/* A non-leaf entry: permissions are decided by the leaf. */
#define _PAGE_TABLE     (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_ACCESSED)

typedef struct { u64 pgprot; } pgprot_t;
#define __pgprot(x)     ((pgprot_t){ (x) })
#define pgprot_val(p)   ((p).pgprot)

#define PAGE_KERNEL       __pgprot(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_GLOBAL | _PAGE_NX)
#define PAGE_KERNEL_RO    __pgprot(_PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_GLOBAL | _PAGE_NX)
#define PAGE_KERNEL_EXEC  __pgprot(_PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_GLOBAL)
#define PAGE_KERNEL_NOCACHE __pgprot(pgprot_val(PAGE_KERNEL) | _PAGE_PCD | _PAGE_PWT)  /* MMIO */
#define PAGE_USER_RW      __pgprot(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_NX)
#define PAGE_USER_RO      __pgprot(_PAGE_PRESENT | _PAGE_USER | _PAGE_NX)
#define PAGE_USER_RX      __pgprot(_PAGE_PRESENT | _PAGE_USER)

/*
 * The bits of an entry, the same format at every level.  Only this header,
 * linux/pgtable_types.h (which wraps them in one type per level: pte_t,
 * pmd_t, pud_t, pgd_t) and the level-generic walks of mm/pgtable.c use
 * pgval_t and the pgval_*() helpers below; the rest of the kernel uses the
 * typed accessors (pte_young(), pmd_trans_huge()...).
 */
typedef u64 pgval_t;

static inline bool pgval_none(pgval_t e)     { return e == 0; }
/* A mapping, accessible or PROT_NONE (Linux's pte_present). */
static inline bool pgval_present(pgval_t e)  { return e & (_PAGE_PRESENT | _PAGE_PROTNONE); }
static inline bool pgval_protnone(pgval_t e)
{
	return (e & (_PAGE_PRESENT | _PAGE_PROTNONE)) == _PAGE_PROTNONE;
}
static inline bool pgval_write(pgval_t e)    { return e & _PAGE_RW; }
static inline bool pgval_user(pgval_t e)     { return e & _PAGE_USER; }
static inline bool pgval_exec(pgval_t e)     { return !(e & _PAGE_NX); }
static inline bool pgval_dirty(pgval_t e)    { return e & _PAGE_DIRTY; }
static inline bool pgval_young(pgval_t e)    { return e & _PAGE_ACCESSED; }
static inline bool pgval_soft_dirty(pgval_t e) { return e & _PAGE_SOFT_DIRTY; }
/* Leaf at the PUD or PMD level ("huge"): the PS bit. */
static inline bool pgval_huge(pgval_t e)     { return e & _PAGE_PSE; }
/* Not present to the MMU, still a leaf to software (Linux's pmd_mkinvalid). */
static inline pgval_t pgval_mkinvalid(pgval_t e) { return e & ~(_PAGE_PRESENT | _PAGE_PROTNONE); }
/* A PTE of no normal page (Linux's pte_special): the zero page. */
static inline bool pgval_special(pgval_t e)  { return e & _PAGE_SPECIAL; }
static inline unsigned long pgval_pfn(pgval_t e)
{
	return (e & PTE_PFN_MASK) >> PAGE_SHIFT;
}

static inline pgval_t mk_table_entry(unsigned long pfn)
{
	return (pfn << PAGE_SHIFT) | _PAGE_TABLE;
}

static inline pgval_t mk_pte_entry(unsigned long pfn, pgprot_t prot)
{
	return (pfn << PAGE_SHIFT) | pgprot_val(prot);
}

static inline pgval_t mk_huge_entry(unsigned long pfn, pgprot_t prot)
{
	return (pfn << PAGE_SHIFT) | pgprot_val(prot) | _PAGE_PSE;
}

static inline pgval_t pgval_wrprotect(pgval_t e) { return e & ~_PAGE_RW; }
/* Write-protect, remembering the write bit in a software bit (migration). */
static inline pgval_t pgval_save_write(pgval_t e)
{
	return e & _PAGE_RW ? (e & ~_PAGE_RW) | _PAGE_SAVED_WRITE : e;
}
static inline pgval_t pgval_restore_write(pgval_t e)
{
	return e & _PAGE_SAVED_WRITE ? (e & ~_PAGE_SAVED_WRITE) | _PAGE_RW : e;
}
/* Writable (Linux's pte_mkwrite); a write fault makes it dirty too (pte_mkdirty). */
static inline pgval_t pgval_mkwrite(pgval_t e)   { return e | _PAGE_RW; }
static inline pgval_t pgval_mksoft_dirty(pgval_t e)    { return e | _PAGE_SOFT_DIRTY; }
static inline pgval_t pgval_clear_soft_dirty(pgval_t e) { return e & ~_PAGE_SOFT_DIRTY; }
static inline pgval_t pgval_mkyoung(pgval_t e)   { return e | _PAGE_ACCESSED; }
/* Dirty, and soft-dirty too (Linux's pte_mkdirty on x86). */
static inline pgval_t pgval_mkdirty(pgval_t e)   { return e | _PAGE_DIRTY | _PAGE_SOFT_DIRTY; }
static inline pgval_t pgval_mkold(pgval_t e)     { return e & ~_PAGE_ACCESSED; }
static inline pgval_t pgval_mkclean(pgval_t e)   { return e & ~_PAGE_DIRTY; }
static inline pgval_t pgval_mkspecial(pgval_t e) { return e | _PAGE_SPECIAL; }
/* The same entry for the page frame nr frames on (Linux's pte_advance_pfn). */
static inline pgval_t pgval_advance_pfn(pgval_t e, unsigned long nr) { return e + (nr << PAGE_SHIFT); }
/* A leaf at the PMD or PUD level (Linux's pmd_mkhuge). */
static inline pgval_t pgval_mkhuge(pgval_t e)    { return e | _PAGE_PSE; }

/*
 * A swap-format entry (Linux's x86-64 swap PTE): not present, not
 * PROT_NONE, not none; the CPU ignores every bit of it.  foliOS has no
 * swap yet; linux/swapops.h uses the format for migration entries.
 *
 *   63   59 58                              9  8  7  4   3    2   1    0
 *   [ type ][ ~offset (50 bits, inverted)    ][0][0][0..][EX][0 ][SD][P=0]
 *
 * As Linux's __swp_entry: the type in the top 5 bits, the offset stored
 * inverted (an L1TF mitigation there: the "frame" a CPU might speculate
 * on lies above all RAM; here it keeps offset 0 of type 0 from being
 * none), bit 8 clear so no entry reads as PROT_NONE, bit 7 clear so no
 * PMD entry reads as a leaf.  SD, bit 1, is the entry's soft-dirty bit
 * (Linux's _PAGE_SWP_SOFT_DIRTY, the present entry's RW); EX, bit 3,
 * says the page was AnonExclusive when it went to swap (Linux's
 * _PAGE_SWP_EXCLUSIVE, the present entry's PWT), so its swap-in may map
 * it writable without a copy.
 */
#define __SWP_TYPE_BITS         5
#define __SWP_OFFSET_FIRST_BIT  9
#define __SWP_OFFSET_BITS       (64 - __SWP_TYPE_BITS - __SWP_OFFSET_FIRST_BIT)
#define _PAGE_SWP_SOFT_DIRTY    _PAGE_RW
#define _PAGE_SWP_EXCLUSIVE     _PAGE_PWT
static inline pgval_t __swp_entry_to_pgval(unsigned int type, unsigned long offset)
{
	return (~(pgval_t)offset << (__SWP_OFFSET_FIRST_BIT + __SWP_TYPE_BITS) >> __SWP_TYPE_BITS) |
	       ((pgval_t)type << (64 - __SWP_TYPE_BITS));
}
static inline unsigned int __pgval_swp_type(pgval_t e)   { return e >> (64 - __SWP_TYPE_BITS); }
static inline unsigned long __pgval_swp_offset(pgval_t e)
{
	return ~e << __SWP_TYPE_BITS >> (__SWP_OFFSET_FIRST_BIT + __SWP_TYPE_BITS);
}
static inline bool pgval_swp_soft_dirty(pgval_t e)       { return e & _PAGE_SWP_SOFT_DIRTY; }
static inline pgval_t pgval_swp_mksoft_dirty(pgval_t e)  { return e | _PAGE_SWP_SOFT_DIRTY; }
static inline pgval_t pgval_swp_clear_soft_dirty(pgval_t e) { return e & ~_PAGE_SWP_SOFT_DIRTY; }
static inline bool pgval_swp_exclusive(pgval_t e)        { return e & _PAGE_SWP_EXCLUSIVE; }
static inline pgval_t pgval_swp_mkexclusive(pgval_t e)   { return e | _PAGE_SWP_EXCLUSIVE; }
static inline pgval_t pgval_swp_clear_exclusive(pgval_t e) { return e & ~_PAGE_SWP_EXCLUSIVE; }

/*
 * Changes to an entry the MMU may be using.  A CPU's page walk sets A
 * (any access) and D (a write) in the leaf with a locked read-modify-write
 * of its own, at any time, unless the entry is not present; a plain load,
 * change and store of a present entry can overwrite that update, and a
 * lost D is a lost write once something cleans pages.  So each change is
 * one locked instruction (Linux's native_ptep_get_and_clear, and
 * ptep_set_wrprotect and ptep_test_and_clear_young by clear_bit).
 */

/* Store e, return the entry as it was at that instant: xchg. */
static inline pgval_t pgval_xchg(pgval_t *entry, pgval_t e)
{
	return __atomic_exchange_n(entry, e, __ATOMIC_SEQ_CST);
}

/* Clear W, keeping whatever the MMU sets meanwhile: lock btr. */
static inline void pgval_clear_write(pgval_t *entry)
{
	clear_bit(_PAGE_BIT_RW, (volatile unsigned long *)entry);
}

/* Clear A; was it set?  lock btr. */
static inline bool pgval_test_and_clear_young(pgval_t *entry)
{
	return test_and_clear_bit(_PAGE_BIT_ACCESSED, (volatile unsigned long *)entry);
}

/* Decode an entry's bits into "P W U A D PS G NX" for dumps and helpers. */
int pgval_decode(pgval_t e, char *buf, size_t size);

/* A new root shares the kernel half (entries 256..511) of init_pgd. */
#define USER_PGD_PTRS   256

/*
 * The PTE protection of user memory: no access at all (PROT_NONE), or
 * readable and maybe writable and executable (x86 cannot deny reads alone).
 */
static inline pgprot_t user_pgprot(bool access, bool write, bool exec)
{
	if (!access)
		return __pgprot(_PAGE_PROTNONE | _PAGE_NX);
	return __pgprot(_PAGE_PRESENT | _PAGE_USER | (write ? _PAGE_RW : 0) | (exec ? 0 : _PAGE_NX));
}

/* New permissions for an entry; its frame, accessed/dirty/soft-dirty, huge and special bits stay (pte_modify). */
static inline pgval_t pgval_modify(pgval_t e, pgprot_t prot)
{
	return (e & (PTE_PFN_MASK | _PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_SOFT_DIRTY | _PAGE_PSE | _PAGE_SPECIAL)) |
	       pgprot_val(prot);
}

/* The PTE for page i of the 2 MiB page a huge entry maps, same permissions (a PMD split). */
static inline pgval_t pgval_huge_to_pte(pgval_t e, unsigned long i)
{
	return (e & ~_PAGE_PSE) + (i << PAGE_SHIFT);
}

#endif
