/*
 * What the swap host tests share (tests/host/test_swap.c,
 * tests/host/test_swap_fork.c): a machine booted with the host's fake swap
 * device (tests/host/hostswap.c) and one mm, torn down with the device
 * checked empty — every slot free but the header's, nothing in the swap
 * cache or swap_cont, no mm on swap_mmlist — and the machine's leak check
 * (mm_test_shutdown); and the helpers that read PTEs, swap entries, slot
 * counts and page contents through the software MMU.
 */
#ifndef TESTS_HOST_SWAP_HELPERS_H
#define TESTS_HOST_SWAP_HELPERS_H

#include "linux/errno.h"
#include "tests/host/hostenv.h"
#include "tests/host/softmmu.h"
#include "tests/host/rmap_helpers.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include "linux/huge_mm.h"
#include "linux/mmap_lock.h"
#include "linux/fs.h"
#include "linux/swap.h"
#include "linux/swapops.h"
#include "linux/vmstat.h"
#include "linux/fault-inject.h"
#include "mm/internal.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

#define BASE    0x40000000UL            /* 1 GiB: PMD-aligned */
#define RW      (PROT_READ | PROT_WRITE)
#define PS      PAGE_SIZE
#define SLOTS   2048                    /* a THP's 512 leave swap less than half full */

extern struct list_head swap_mmlist;    /* mm/swapfile_alloc.c: swapoff's list of mms */

static struct mm_struct *mm;
static struct mem_counts before;
static struct swap_info_struct *const si = &swap_info[0];

static inline int boot(void **state)
{
	(void)state;
	mm = mm_test_boot(&before);
	thp_policy_init();
	host_swapon(SLOTS);
	return 0;
}

/* An mm's exit as mmput() does it: mappings, swapoff's list, the struct. */
static inline void mm_exit_swap(struct mm_struct *m)
{
	exit_mmap(m);
	swap_mmlist_del(m);
	mmdrop(m);
}

/* Nothing on the swap device: every slot free but the header, no cache, no count. */
static inline void assert_swap_empty(void)
{
	assert_int_equal(atomic_long_read(&nr_swap_pages), total_swap_pages);
	assert_int_equal(si->inuse_pages, 0);
	assert_int_equal(si->swap_map[0], SWAP_MAP_BAD);
	for (unsigned int i = 1; i < si->max; i++)
		if (si->swap_map[i])
			fail_msg("slot %u still has swap_map %#x", i, si->swap_map[i]);
	assert_true(xa_empty(&si->swap_cont));
	assert_true(xa_empty(&swap_address_space(swp_entry(0, 1))->i_pages));
	assert_int_equal(swap_address_space(swp_entry(0, 1))->nrpages, 0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_true(list_empty(&swap_mmlist));
}

static inline int shutdown(void **state)
{
	(void)state;
	if (mm)
		mm_exit_swap(mm);
	mm = NULL;
	assert_swap_empty();
	host_swapoff();
	thp_policy_init();
	mm_test_shutdown(NULL, &before);
	return 0;
}

/* --- helpers ------------------------------------------------------------- */

static inline pte_t pte_of(struct mm_struct *m, unsigned long addr)
{
	pte_t *pte = test_find_pte(m, addr);

	assert_non_null(pte);
	return ptep_get(pte);
}

/* The swap entry (of device 0) in addr's PTE; fails if the PTE holds none. */
static inline swp_entry_t swap_entry_at(struct mm_struct *m, unsigned long addr)
{
	pte_t pte = pte_of(m, addr);
	swp_entry_t entry;

	assert_true(is_swap_pte(pte));
	entry = pte_to_swp_entry(pte);
	assert_false(non_swap_entry(entry));
	assert_int_equal(swp_type(entry), 0);
	assert_int_not_equal(swp_offset(entry), 0);
	assert_true(swp_offset(entry) < si->max);
	return entry;
}

static inline unsigned char map_of(swp_entry_t entry)
{
	return si->swap_map[swp_offset(entry)];
}

static inline long swap_used(void)
{
	return total_swap_pages - atomic_long_read(&nr_swap_pages);
}

static inline long event(enum vm_event_item item)
{
	return atomic_long_read(&vm_events[item]);
}

/* The buddy's free pages, once the RCU-delayed frees (xarray nodes) are done. */
static inline unsigned long free_pages_now(void)
{
	struct mem_counts c;

	rcu_barrier();
	mem_counts_snapshot(&c);
	return c.free_pages;
}

/* A user fault at addr under the mmap_lock, as the trap handler takes it. */
static inline vm_fault_t fault(struct mm_struct *m, unsigned long addr, bool write)
{
	vm_fault_t ret;

	mmap_read_lock(m);
	ret = handle_mm_fault(find_vma(m, addr), addr, FAULT_FLAG_USER | (write ? FAULT_FLAG_WRITE : 0));
	mmap_read_unlock(m);
	return ret;
}

static inline int madvise(struct mm_struct *m, unsigned long addr, unsigned long len, int advice)
{
	int ret;

	mmap_read_lock(m);
	ret = do_madvise(m, addr, len, advice);
	mmap_read_unlock(m);
	return ret;
}

static inline void pageout(struct mm_struct *m, unsigned long addr, unsigned long len)
{
	assert_int_equal(madvise(m, addr, len, MADV_PAGEOUT), 0);
}

/* The folio mapped at addr (fails if none). */
static inline struct folio *folio_of(struct mm_struct *m, unsigned long addr)
{
	phys_addr_t pa;

	assert_int_equal(softmmu_translate((pgd_t *)m->pgd, addr, ACC_USER, &pa), SOFTMMU_OK);
	return page_folio(pfn_to_page(pa >> PAGE_SHIFT));
}

static inline unsigned long pfn_of(struct mm_struct *m, unsigned long addr)
{
	phys_addr_t pa;

	assert_int_equal(softmmu_translate((pgd_t *)m->pgd, addr, ACC_USER, &pa), SOFTMMU_OK);
	return pa >> PAGE_SHIFT;
}

static inline unsigned char pattern(unsigned char seed, unsigned long i)
{
	return (unsigned char)(seed + i * 7 + (i >> 8));
}

/*
 * A user write of v at addr.  The soft MMU's TLB keeps no dirty bit: a
 * write through a translation a read cached would not set the PTE's D as
 * an x86 CPU does (it walks again to set it), and a page written so would
 * look clean to pageout.  So the TLB is flushed first, making the write
 * walk the tables and set D.
 */
static inline void write_byte(struct mm_struct *m, unsigned long addr, unsigned char v)
{
	softmmu_flush_local();
	user_write(m, addr, v);
}

/* Fault in addr's page for writing and fill it with seed's pattern. */
static inline void fill_page(struct mm_struct *m, unsigned long addr, unsigned char seed)
{
	unsigned char *p;
	phys_addr_t pa;

	write_byte(m, addr, seed);
	assert_int_equal(softmmu_translate((pgd_t *)m->pgd, addr, ACC_USER | ACC_WRITE, &pa), SOFTMMU_OK);
	p = __va(pa & PAGE_MASK);
	for (unsigned long i = 0; i < PS; i++)
		p[i] = pattern(seed, i);
}

/* One page at BASE holding seed's pattern, paged out: its swap entry. */
static inline swp_entry_t one_swapped_page(unsigned char seed)
{
	assert_int_equal(do_mmap(mm, NULL, BASE, PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	fill_page(mm, BASE, seed);
	pageout(mm, BASE, PS);
	return swap_entry_at(mm, BASE);
}

/* Is addr's page mapped, holding seed's pattern (byte changed_at = changed_to if >= 0)? */
static inline bool page_holds2(struct mm_struct *m, unsigned long addr, unsigned char seed, long changed_at,
			unsigned char changed_to)
{
	const unsigned char *p;
	phys_addr_t pa;

	if (softmmu_translate((pgd_t *)m->pgd, addr, ACC_USER, &pa) != SOFTMMU_OK)
		return false;
	p = __va(pa & PAGE_MASK);
	for (unsigned long i = 0; i < PS; i++)
		if (p[i] != ((long)i == changed_at ? changed_to : pattern(seed, i)))
			return false;
	return true;
}

static inline bool page_holds(struct mm_struct *m, unsigned long addr, unsigned char seed)
{
	return page_holds2(m, addr, seed, -1, 0);
}

/* The swap count of entry, checked against its swap_map byte (no continuation below 62). */
static inline void assert_count(swp_entry_t entry, int count, bool cached)
{
	assert_int_equal(swp_swapcount(entry), count);
	assert_int_equal(map_of(entry), count | (cached ? SWAP_HAS_CACHE : 0));
}

/* A 64 KiB mTHP at BASE (a VMA of 16 pages), each page with its own pattern. */
static inline struct folio *map_mthp(unsigned long len)
{
	struct folio *f;

	thp_enabled_store(9, "never", 5);
	thp_enabled_store(4, "always", 6);
	assert_int_equal(do_mmap(mm, NULL, BASE, len, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	for (int i = 0; i < 16; i++)
		fill_page(mm, BASE + i * PS, 0x40 + i);
	thp_enabled_store(4, "never", 5);
	f = folio_of(mm, BASE);
	assert_int_equal(folio_order(f), 4);
	for (int i = 0; i < 16; i++)
		assert_int_equal(pfn_of(mm, BASE + i * PS), folio_pfn(f) + i);
	return f;
}

#endif
