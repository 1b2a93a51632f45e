/*
 * Host tests of swap (linux/swap.h): anon folios out to the host's fake
 * swap device (tests/host/hostswap.c) by MADV_PAGEOUT and back by faults,
 * through the software MMU, in every mapcount variant.
 *
 *   order 0     pageout leaves an exclusive swap entry (count 1), frees the
 *               page, moves RSS to VmSwap; a read fault reads it back
 *               AnonExclusive, the slot only cached; a write reuses it; a
 *               clean cached folio goes out again without a write; a write
 *               fault frees the slot at once; swap more than half full
 *               frees it on a read too
 *   mTHP, THP   16 (512) slots aligned to 16 (512); one fault maps the
 *               whole folio from the swap cache; once freed, order-0
 *               swap-ins page by page; no aligned run: split, page by page
 *   fork        the entry shared (exclusive bit cleared in both, count 2),
 *               one folio for both swap-ins, read-only in both, found by
 *               reclaim from either; COW after it; zap of both frees it
 *   counts      continuation above SWAP_MAP_MAX (swap_cont), by
 *               swap_duplicate_nr and by 70 forks; fork under allocation
 *               failure undoes its counts and leaves no mm on swap_mmlist
 *   I/O errors  a failed write leaves the entry and the folio in the swap
 *               cache, dirty, for the next fault and the next pageout; a
 *               failed read is SIGBUS with the entry kept, and a retry
 *               reads again
 *
 * Each test ends with the swap device empty (every slot free but the
 * header's, nothing in the swap cache or swap_cont, no mm on swap_mmlist)
 * and the machine's leak check (mm_test_shutdown).
 */
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

static int boot(void **state)
{
	(void)state;
	mm = mm_test_boot(&before);
	thp_policy_init();
	host_swapon(SLOTS);
	return 0;
}

/* An mm's exit as mmput() does it: mappings, swapoff's list, the struct. */
static void mm_exit_swap(struct mm_struct *m)
{
	exit_mmap(m);
	swap_mmlist_del(m);
	mmdrop(m);
}

/* Nothing on the swap device: every slot free but the header, no cache, no count. */
static void assert_swap_empty(void)
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

static int shutdown(void **state)
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

static pte_t pte_of(struct mm_struct *m, unsigned long addr)
{
	pte_t *pte = test_find_pte(m, addr);

	assert_non_null(pte);
	return ptep_get(pte);
}

/* The swap entry (of device 0) in addr's PTE; fails if the PTE holds none. */
static swp_entry_t swap_entry_at(struct mm_struct *m, unsigned long addr)
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

static unsigned char map_of(swp_entry_t entry)
{
	return si->swap_map[swp_offset(entry)];
}

static long swap_used(void)
{
	return total_swap_pages - atomic_long_read(&nr_swap_pages);
}

static long event(enum vm_event_item item)
{
	return atomic_long_read(&vm_events[item]);
}

/* The buddy's free pages, once the RCU-delayed frees (xarray nodes) are done. */
static unsigned long free_pages_now(void)
{
	struct mem_counts c;

	rcu_barrier();
	mem_counts_snapshot(&c);
	return c.free_pages;
}

/* A user fault at addr under the mmap_lock, as the trap handler takes it. */
static vm_fault_t fault(struct mm_struct *m, unsigned long addr, bool write)
{
	vm_fault_t ret;

	mmap_read_lock(m);
	ret = handle_mm_fault(find_vma(m, addr), addr, FAULT_FLAG_USER | (write ? FAULT_FLAG_WRITE : 0));
	mmap_read_unlock(m);
	return ret;
}

static int madvise(struct mm_struct *m, unsigned long addr, unsigned long len, int advice)
{
	int ret;

	mmap_read_lock(m);
	ret = do_madvise(m, addr, len, advice);
	mmap_read_unlock(m);
	return ret;
}

static void pageout(struct mm_struct *m, unsigned long addr, unsigned long len)
{
	assert_int_equal(madvise(m, addr, len, MADV_PAGEOUT), 0);
}

/* The folio mapped at addr (fails if none). */
static struct folio *folio_of(struct mm_struct *m, unsigned long addr)
{
	phys_addr_t pa;

	assert_int_equal(softmmu_translate((pgd_t *)m->pgd, addr, ACC_USER, &pa), SOFTMMU_OK);
	return page_folio(pfn_to_page(pa >> PAGE_SHIFT));
}

static unsigned long pfn_of(struct mm_struct *m, unsigned long addr)
{
	phys_addr_t pa;

	assert_int_equal(softmmu_translate((pgd_t *)m->pgd, addr, ACC_USER, &pa), SOFTMMU_OK);
	return pa >> PAGE_SHIFT;
}

static unsigned char pattern(unsigned char seed, unsigned long i)
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
static void write_byte(struct mm_struct *m, unsigned long addr, unsigned char v)
{
	softmmu_flush_local();
	user_write(m, addr, v);
}

/* Fault in addr's page for writing and fill it with seed's pattern. */
static void fill_page(struct mm_struct *m, unsigned long addr, unsigned char seed)
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
static swp_entry_t one_swapped_page(unsigned char seed)
{
	assert_int_equal(do_mmap(mm, NULL, BASE, PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	fill_page(mm, BASE, seed);
	pageout(mm, BASE, PS);
	return swap_entry_at(mm, BASE);
}

/* Is addr's page mapped, holding seed's pattern (byte changed_at = changed_to if >= 0)? */
static bool page_holds2(struct mm_struct *m, unsigned long addr, unsigned char seed, long changed_at,
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

static bool page_holds(struct mm_struct *m, unsigned long addr, unsigned char seed)
{
	return page_holds2(m, addr, seed, -1, 0);
}

/* The swap count of entry, checked against its swap_map byte (no continuation below 62). */
static void assert_count(swp_entry_t entry, int count, bool cached)
{
	assert_int_equal(swp_swapcount(entry), count);
	assert_int_equal(map_of(entry), count | (cached ? SWAP_HAS_CACHE : 0));
}

/* --- order 0 ------------------------------------------------------------- */

/*
 * A 4 KiB page out and back: MADV_COLD only ages it; MADV_PAGEOUT leaves an
 * exclusive entry of count 1 and frees the page; a read fault reads it in
 * AnonExclusive, writable (VM_SOFTDIRTY), the slot kept by the swap cache;
 * a write through the MMU keeps the page (same PFN); the next pageout
 * finds it in the cache, writes it (dirty) and frees it; a write fault
 * reads it and frees the slot at once; munmap of an entry frees its slot.
 */
static void test_small_out_and_in(void **state)
{
	long out0 = event(PSWPOUT), in0 = event(PSWPIN);
	unsigned long free0, maj0, pfn;
	struct folio *f;
	swp_entry_t e;
	pte_t pte;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 2 * PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	fill_page(mm, BASE, 0x11);
	fill_page(mm, BASE + PS, 0x22);
	f = folio_of(mm, BASE);
	assert_int_equal(folio_order(f), 0);
	assert_true(PageAnonExclusive(&f->page));
	assert_int_equal(mm->rss_anon, 2);

	/* MADV_COLD: old, still there, no swap */
	assert_true(pte_young(pte_of(mm, BASE)));
	assert_int_equal(madvise(mm, BASE, PS, MADV_COLD), 0);
	assert_true(pte_present(pte_of(mm, BASE)));
	assert_false(pte_young(pte_of(mm, BASE)));
	assert_int_equal(swap_used(), 0);

	/* out */
	free0 = free_pages_now();
	pageout(mm, BASE, PS);
	e = swap_entry_at(mm, BASE);
	assert_true(pte_swp_exclusive(pte_of(mm, BASE)));
	assert_count(e, 1, false);
	assert_int_equal(free_pages_now(), free0 + 1);         /* the folio went */
	assert_int_equal(mm->rss_swap, 1);
	assert_int_equal(mm->rss_anon, 1);                     /* the other page's */
	assert_int_equal(swap_used(), 1);
	assert_int_equal(si->inuse_pages, 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_int_equal(event(PSWPOUT), out0 + 1);
	assert_false(list_empty(&mm->mmlist));                 /* on swapoff's list */
	assert_int_equal(read_byte(mm, BASE, ACC_USER), -1);
	assert_true(page_holds(mm, BASE + PS, 0x22));          /* the neighbour stayed */

	/* a read fault reads it back: exclusive, the slot kept for the swap cache */
	maj0 = host_maj_flt;
	assert_int_equal(fault(mm, BASE, false), VM_FAULT_MAJOR);
	assert_int_equal(host_maj_flt, maj0 + 1);
	assert_int_equal(event(PSWPIN), in0 + 1);
	pte = pte_of(mm, BASE);
	assert_true(pte_present(pte));
	assert_true(pte_write(pte));                            /* exclusive, VM_SOFTDIRTY: no COW fault */
	assert_false(pte_dirty(pte));
	assert_true(page_holds(mm, BASE, 0x11));
	f = folio_of(mm, BASE);
	pfn = folio_pfn(f);
	assert_true(PageAnonExclusive(&f->page));
	assert_true(folio_test_anon(f));
	assert_true(folio_test_swapcache(f));
	assert_int_equal(f->swap.val, e.val);
	assert_false(folio_test_dirty(f));
	assert_int_equal(folio_ref_count(f), 2);               /* the PTE's, the cache's */
	assert_count(e, 0, true);
	assert_int_equal(swap_used(), 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 1);
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(mm->rss_anon, 2);

	/* a write keeps the page: no copy */
	write_byte(mm, BASE + 5, 0xee);
	assert_int_equal(pfn_of(mm, BASE), pfn);
	assert_true(page_holds2(mm, BASE, 0x11, 5, 0xee));
	assert_true(pte_dirty(pte_of(mm, BASE)));

	/* out again: the cached folio keeps its slot, is written (dirty), freed */
	free0 = free_pages_now();
	pageout(mm, BASE, PS);
	assert_int_equal(swap_entry_at(mm, BASE).val, e.val);
	assert_true(pte_swp_exclusive(pte_of(mm, BASE)));
	assert_count(e, 1, false);
	assert_int_equal(event(PSWPOUT), out0 + 2);
	assert_int_equal(free_pages_now(), free0 + 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);

	/* a write fault reads it and frees the slot at once */
	assert_int_equal(fault(mm, BASE, true), VM_FAULT_MAJOR);
	pte = pte_of(mm, BASE);
	assert_true(pte_present(pte) && pte_write(pte) && pte_dirty(pte));
	f = folio_of(mm, BASE);
	assert_true(PageAnonExclusive(&f->page));
	assert_false(folio_test_swapcache(f));
	assert_int_equal(folio_ref_count(f), 1);
	assert_true(page_holds2(mm, BASE, 0x11, 5, 0xee));    /* the second write-out's data */
	assert_int_equal(map_of(e), 0);
	assert_int_equal(swap_used(), 0);
	assert_int_equal(si->inuse_pages, 0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_int_equal(mm->rss_swap, 0);

	/* munmap of a swap entry frees its slot */
	pageout(mm, BASE, 2 * PS);
	assert_int_equal(mm->rss_swap, 2);
	assert_int_equal(swap_used(), 2);
	e = swap_entry_at(mm, BASE);
	assert_count(e, 1, false);
	assert_int_equal(do_munmap(mm, BASE, PS), 0);
	assert_int_equal(mm->rss_swap, 1);
	assert_int_equal(swap_used(), 1);
	assert_int_equal(map_of(e), 0);
	assert_int_equal(fault(mm, BASE + PS, false), VM_FAULT_MAJOR);
	assert_true(page_holds(mm, BASE + PS, 0x22));
}

/*
 * More than half the swap space in use (vm_swap_full): a read fault frees
 * the slot at once, as a write fault does.
 */
static void test_swap_full_frees_on_read(void **state)
{
	swp_entry_t e;

	(void)state;
	host_swapoff();
	host_swapon(8);                                         /* 7 slots */
	assert_int_equal(do_mmap(mm, NULL, BASE, 4 * PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	for (int i = 0; i < 4; i++)
		fill_page(mm, BASE + i * PS, 0x30 + i);
	pageout(mm, BASE, 4 * PS);
	assert_int_equal(swap_used(), 4);
	assert_true(vm_swap_full());
	e = swap_entry_at(mm, BASE + 2 * PS);
	assert_int_equal(fault(mm, BASE + 2 * PS, false), VM_FAULT_MAJOR);
	assert_true(page_holds(mm, BASE + 2 * PS, 0x32));
	assert_int_equal(map_of(e), 0);                         /* not kept for the cache */
	assert_false(folio_test_swapcache(folio_of(mm, BASE + 2 * PS)));
	assert_int_equal(swap_used(), 3);
	for (int i = 0; i < 4; i++) {
		if (i != 2)
			assert_int_equal(fault(mm, BASE + i * PS, false), VM_FAULT_MAJOR);
		assert_true(page_holds(mm, BASE + i * PS, 0x30 + i));
	}
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 3);   /* swap no longer full: kept */
}

/* --- large folios --------------------------------------------------------- */

/* A 64 KiB mTHP at BASE (a VMA of 16 pages), each page with its own pattern. */
static struct folio *map_mthp(unsigned long len)
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

/*
 * An mTHP goes out whole: 16 slots in a row, aligned to 16, each PTE the
 * entry of its page, exclusive.  Kept in the swap cache (a reference held
 * across the pageout, as a GUP would), one read fault in its middle maps
 * all 16 pages of it again, not major; out again it is not written (clean)
 * and freed; then each fault reads one order-0 page.
 */
static void test_mthp_out_and_in(void **state)
{
	long out0 = event(PSWPOUT), mthp_out0 = sum_mthp_stat(4, MTHP_STAT_SWPOUT);
	unsigned long free0;
	struct folio *f;
	swp_entry_t e0;

	(void)state;
	f = map_mthp(16 * PS);
	folio_get(f);                                           /* someone else's reference */
	pageout(mm, BASE, 16 * PS);
	e0 = swap_entry_at(mm, BASE);
	assert_int_equal(swp_offset(e0) % 16, 0);
	for (int i = 0; i < 16; i++) {
		pte_t pte = pte_of(mm, BASE + i * PS);

		assert_int_equal(swap_entry_at(mm, BASE + i * PS).val, swp_entry_add(e0, i).val);
		assert_true(pte_swp_exclusive(pte));
		assert_count(swp_entry_add(e0, i), 1, true);
	}
	assert_true(folio_test_swapcache(f));
	assert_int_equal(f->swap.val, e0.val);
	assert_false(folio_mapped(f));
	assert_false(folio_test_dirty(f));                      /* written */
	assert_int_equal(folio_ref_count(f), 1 + 16);
	assert_int_equal(event(PSWPOUT), out0 + 16);
	assert_int_equal(sum_mthp_stat(4, MTHP_STAT_SWPOUT), mthp_out0 + 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 16);
	assert_int_equal(swap_used(), 16);
	assert_int_equal(mm->rss_swap, 16);
	assert_int_equal(mm->rss_anon, 0);
	folio_put(f);

	/* one fault maps the whole folio from the swap cache */
	assert_int_equal(fault(mm, BASE + 5 * PS, false), 0);    /* no I/O */
	for (int i = 0; i < 16; i++) {
		assert_int_equal(pfn_of(mm, BASE + i * PS), folio_pfn(f) + i);
		assert_true(page_holds(mm, BASE + i * PS, 0x40 + i));
		assert_true(PageAnonExclusive(folio_page(f, i)));
		assert_count(swp_entry_add(e0, i), 0, true);
	}
	assert_int_equal(folio_mapcount(f), 16);
	assert_int_equal(folio_ref_count(f), 16 + 16);
	assert_false(folio_maybe_mapped_shared(f));
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(mm->rss_anon, 16);

	/* out again, clean: same slots, not written, freed */
	free0 = free_pages_now();
	pageout(mm, BASE, 16 * PS);
	for (int i = 0; i < 16; i++) {
		assert_int_equal(swap_entry_at(mm, BASE + i * PS).val, swp_entry_add(e0, i).val);
		assert_count(swp_entry_add(e0, i), 1, false);
	}
	assert_int_equal(event(PSWPOUT), out0 + 16);
	assert_int_equal(free_pages_now(), free0 + 16);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);

	/* the folio is gone: order-0 swap-ins, one page per fault */
	assert_int_equal(fault(mm, BASE + 5 * PS, false), VM_FAULT_MAJOR);
	assert_int_equal(folio_order(folio_of(mm, BASE + 5 * PS)), 0);
	assert_true(page_holds(mm, BASE + 5 * PS, 0x45));
	assert_count(swp_entry_add(e0, 5), 0, true);
	assert_int_equal(swap_entry_at(mm, BASE + 4 * PS).val, swp_entry_add(e0, 4).val);
	assert_int_equal(swap_entry_at(mm, BASE + 6 * PS).val, swp_entry_add(e0, 6).val);
	assert_int_equal(mm->rss_swap, 15);
	for (int i = 0; i < 16; i++) {
		if (i != 5)
			assert_int_equal(fault(mm, BASE + i * PS, false), VM_FAULT_MAJOR);
		assert_int_equal(folio_order(folio_of(mm, BASE + i * PS)), 0);
		assert_true(page_holds(mm, BASE + i * PS, 0x40 + i));
		assert_true(PageAnonExclusive(pfn_to_page(pfn_of(mm, BASE + i * PS))));
	}
	assert_int_equal(mm->rss_anon, 16);
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 16);
}

/*
 * No 16 aligned free slots (a device of 16: slot 0 is the header): the
 * mTHP is split and its pages go one by one, as many as there are slots
 * (15); the last stays.  Every page comes back with its data.
 */
static void test_mthp_split_without_slots(void **state)
{
	long fallback0 = sum_mthp_stat(4, MTHP_STAT_SWPOUT_FALLBACK);
	int swapped = 0;

	(void)state;
	host_swapoff();
	host_swapon(16);
	map_mthp(16 * PS);
	pageout(mm, BASE, 16 * PS);
	assert_int_equal(sum_mthp_stat(4, MTHP_STAT_SWPOUT_FALLBACK), fallback0 + 1);
	assert_int_equal(swap_used(), 15);
	for (int i = 0; i < 16; i++) {
		pte_t pte = pte_of(mm, BASE + i * PS);

		if (pte_present(pte)) {
			assert_int_equal(folio_order(folio_of(mm, BASE + i * PS)), 0);
			continue;
		}
		swapped++;
		assert_true(pte_swp_exclusive(pte));
		assert_count(swap_entry_at(mm, BASE + i * PS), 1, false);
	}
	assert_int_equal(swapped, 15);
	assert_int_equal(mm->rss_swap, 15);
	assert_int_equal(mm->rss_anon, 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	for (int i = 0; i < 16; i++) {
		if (!pte_present(pte_of(mm, BASE + i * PS)))
			assert_int_equal(fault(mm, BASE + i * PS, false), VM_FAULT_MAJOR);
		assert_true(page_holds(mm, BASE + i * PS, 0x40 + i));
	}
}

/*
 * A PMD THP: split to PTEs on the way out, 512 slots aligned to 512
 * (thp_swpout); kept in the cache by a failed write, one fault maps all
 * 512 pages back by PTEs.
 */
static void test_thp_out_and_in(void **state)
{
	long thp_out0 = event(THP_SWPOUT);
	struct folio *f;
	swp_entry_t e0;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	fill_page(mm, BASE, 0x50);
	fill_page(mm, BASE + 300 * PS, 0x53);
	f = folio_of(mm, BASE);
	assert_int_equal(folio_order(f), HPAGE_PMD_ORDER);
	assert_true(pmd_trans_huge(*mm_find_pmd(mm, BASE)));

	/* a write error: all 512 entries in place, the folio kept in the swap cache */
	host_swap_fail_io = 1;
	pageout(mm, BASE, PMD_SIZE);
	assert_int_equal(host_swap_fail_io, 0);
	assert_int_equal(event(THP_SWPOUT), thp_out0);
	e0 = swap_entry_at(mm, BASE);
	assert_int_equal(swp_offset(e0) % HPAGE_PMD_NR, 0);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
		assert_int_equal(swap_entry_at(mm, BASE + i * PS).val, swp_entry_add(e0, i).val);
		assert_true(pte_swp_exclusive(pte_of(mm, BASE + i * PS)));
	}
	assert_true(folio_test_swapcache(f) && folio_test_dirty(f));
	assert_int_equal(mm->rss_swap, HPAGE_PMD_NR);
	assert_int_equal(global_node_page_state(NR_ANON_THPS), 0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), HPAGE_PMD_NR);

	/* one fault maps all 512 pages from the cache */
	assert_int_equal(fault(mm, BASE + 300 * PS, false), 0);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++)
		assert_int_equal(pfn_of(mm, BASE + i * PS), folio_pfn(f) + i);
	assert_true(page_holds(mm, BASE, 0x50));
	assert_true(page_holds(mm, BASE + 300 * PS, 0x53));
	assert_int_equal(folio_mapcount(f), HPAGE_PMD_NR);
	assert_int_equal(mm->rss_anon, HPAGE_PMD_NR);
	assert_int_equal(mm->rss_swap, 0);

	/* out again, now written whole; back page by page */
	pageout(mm, BASE, PMD_SIZE);
	assert_int_equal(event(THP_SWPOUT), thp_out0 + 1);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_int_equal(swap_used(), HPAGE_PMD_NR);
	assert_int_equal(fault(mm, BASE + 300 * PS, true), VM_FAULT_MAJOR);
	assert_int_equal(folio_order(folio_of(mm, BASE + 300 * PS)), 0);
	assert_true(page_holds(mm, BASE + 300 * PS, 0x53));
	assert_int_equal(swap_used(), HPAGE_PMD_NR - 1);        /* the write freed its slot */
	assert_int_equal(fault(mm, BASE, false), VM_FAULT_MAJOR);
	assert_true(page_holds(mm, BASE, 0x50));
}

/* --- fork ------------------------------------------------------------------ */

/*
 * fork of a swap entry: both PTEs hold it, neither exclusive, count 2;
 * the child's swap-in then the parent's give one folio, read-only in both;
 * reclaim of it from the child's side unmaps both (the folio is in the
 * parent's anon_vma tree); after the next swap-ins the child's write
 * copies, the parent's then reuses and frees the slot.
 */
static void test_fork_shares_entry(void **state)
{
	struct mm_struct *child;
	struct folio *f;
	unsigned long free0;
	swp_entry_t e;

	(void)state;
	e = one_swapped_page(0x60);
	assert_true(pte_swp_exclusive(pte_of(mm, BASE)));
	child = dup_mm(mm);
	assert_non_null(child);
	assert_int_equal(swap_entry_at(child, BASE).val, e.val);
	assert_int_equal(swap_entry_at(mm, BASE).val, e.val);
	assert_false(pte_swp_exclusive(pte_of(mm, BASE)));
	assert_false(pte_swp_exclusive(pte_of(child, BASE)));
	assert_count(e, 2, false);
	assert_int_equal(child->rss_swap, 1);
	assert_int_equal(child->rss_anon, 0);
	assert_false(list_empty(&child->mmlist));
	assert_int_equal(swap_used(), 1);

	/* the child first: read in, shared; the parent finds it in the cache */
	assert_int_equal(fault(child, BASE, false), VM_FAULT_MAJOR);
	f = folio_of(child, BASE);
	assert_false(PageAnonExclusive(&f->page));
	assert_false(pte_write(pte_of(child, BASE)));
	assert_true(page_holds(child, BASE, 0x60));
	assert_count(e, 1, true);
	assert_int_equal(swap_entry_at(mm, BASE).val, e.val);
	assert_int_equal(fault(mm, BASE, false), 0);
	assert_ptr_equal(folio_of(mm, BASE), f);
	assert_false(pte_write(pte_of(mm, BASE)));
	assert_true(page_holds(mm, BASE, 0x60));
	assert_int_equal(folio_mapcount(f), 2);
	assert_int_equal(folio_ref_count(f), 2 + 1);
	assert_count(e, 0, true);
	assert_int_equal(mm->rss_anon, 1);
	assert_int_equal(child->rss_anon, 1);

	/* reclaim of the shared folio unmaps it from both (MADV_PAGEOUT leaves it: shared) */
	pageout(child, BASE, PS);
	assert_true(pte_present(pte_of(child, BASE)));
	free0 = free_pages_now();
	folio_get(f);
	assert_int_equal(reclaim_pages(&f, 1), 1);
	folio_put(f);
	assert_int_equal(free_pages_now(), free0 + 1);
	assert_int_equal(swap_entry_at(mm, BASE).val, e.val);
	assert_int_equal(swap_entry_at(child, BASE).val, e.val);
	assert_false(pte_swp_exclusive(pte_of(mm, BASE)));
	assert_false(pte_swp_exclusive(pte_of(child, BASE)));
	assert_count(e, 2, false);
	assert_int_equal(mm->rss_swap, 1);
	assert_int_equal(child->rss_swap, 1);

	/* in again in both; the child's write copies, the parent's reuses */
	assert_int_equal(fault(child, BASE, false), VM_FAULT_MAJOR);
	assert_int_equal(fault(mm, BASE, false), 0);
	f = folio_of(mm, BASE);
	assert_ptr_equal(folio_of(child, BASE), f);
	write_byte(child, BASE, 'c');
	assert_ptr_not_equal(folio_of(child, BASE), f);
	assert_true(page_holds2(child, BASE, 0x60, 0, 'c'));
	assert_true(page_holds(mm, BASE, 0x60));
	assert_true(folio_test_swapcache(f));
	write_byte(mm, BASE, 'm');
	assert_ptr_equal(folio_of(mm, BASE), f);                /* no copy */
	assert_true(PageAnonExclusive(&f->page));
	assert_false(folio_test_swapcache(f));                  /* the swap copy is stale now */
	assert_int_equal(map_of(e), 0);
	assert_int_equal(swap_used(), 0);
	assert_true(page_holds2(mm, BASE, 0x60, 0, 'm'));
	assert_true(page_holds2(child, BASE, 0x60, 0, 'c'));
	mm_exit_swap(child);
}

/*
 * The parent swaps in first and writes: the child's entry still needs the
 * swap copy, so the write copies; the child then gets the cached folio,
 * and its write reuses it.  Then a fork of an entry and the zap of both
 * mms' entries gives the slot back.
 */
static void test_fork_parent_first_and_zap(void **state)
{
	struct mm_struct *child;
	struct folio *f;
	swp_entry_t e;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 2 * PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	fill_page(mm, BASE, 0x70);
	fill_page(mm, BASE + PS, 0x71);
	pageout(mm, BASE, 2 * PS);
	e = swap_entry_at(mm, BASE);
	child = dup_mm(mm);
	assert_non_null(child);
	assert_count(e, 2, false);

	assert_int_equal(fault(mm, BASE, false), VM_FAULT_MAJOR);
	f = folio_of(mm, BASE);
	assert_false(PageAnonExclusive(&f->page));
	assert_false(pte_write(pte_of(mm, BASE)));
	assert_count(e, 1, true);
	write_byte(mm, BASE, 'P');
	assert_ptr_not_equal(folio_of(mm, BASE), f);           /* copied: the child's entry needs it */
	assert_true(PageAnonExclusive(pfn_to_page(pfn_of(mm, BASE))));
	assert_true(folio_test_swapcache(f));
	assert_false(folio_mapped(f));
	assert_count(e, 1, true);

	assert_int_equal(fault(child, BASE, false), 0);        /* from the cache */
	assert_ptr_equal(folio_of(child, BASE), f);
	assert_true(page_holds(child, BASE, 0x70));
	write_byte(child, BASE, 'C');
	assert_ptr_equal(folio_of(child, BASE), f);             /* the last user: reused */
	assert_false(folio_test_swapcache(f));
	assert_int_equal(map_of(e), 0);
	assert_true(page_holds2(mm, BASE, 0x70, 0, 'P'));
	assert_true(page_holds2(child, BASE, 0x70, 0, 'C'));

	/* the second page: entries in both, zapped in both */
	e = swap_entry_at(mm, BASE + PS);
	assert_count(e, 2, false);
	assert_int_equal(do_munmap(mm, BASE + PS, PS), 0);
	assert_count(e, 1, false);
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(swap_used(), 1);
	mm_exit_swap(child);
	assert_int_equal(map_of(e), 0);
	assert_int_equal(swap_used(), 0);
}

/* --- swap counts ----------------------------------------------------------- */

/*
 * Counts past SWAP_MAP_MAX continue in swap_cont: 100 more on one slot
 * (count 101: 62 in the byte, 39 in swap_cont, COUNT_CONTINUED), and back
 * down to 1, swap_cont empty again; then the same by 70 forks, with the
 * swap cache's bit beside the continuation while a child has it in.
 */
static void test_count_continuation(void **state)
{
	struct mm_struct *children[70];
	unsigned long off;
	swp_entry_t e;

	(void)state;
	e = one_swapped_page(0x80);
	off = swp_offset(e);
	for (int i = 1; i <= 100; i++) {
		assert_int_equal(swap_duplicate_nr(e, 1), 0);
		assert_int_equal(swp_swapcount(e), 1 + i);
		assert_int_equal(!!(map_of(e) & COUNT_CONTINUED), 1 + i > SWAP_MAP_MAX);
	}
	assert_int_equal(map_of(e), COUNT_CONTINUED | SWAP_MAP_MAX);
	assert_int_equal((unsigned long)xa_load(&si->swap_cont, off) >> 2, 101 - SWAP_MAP_MAX);
	assert_int_equal(si->inuse_pages, 1);
	assert_int_equal(swap_used(), 1);
	for (int i = 99; i >= 0; i--) {
		swap_free_nr(e, 1);
		assert_int_equal(swp_swapcount(e), 1 + i);
	}
	assert_count(e, 1, false);
	assert_true(xa_empty(&si->swap_cont));
	assert_int_equal(swap_used(), 1);

	/* 70 forks: count 71 */
	for (int i = 0; i < 70; i++) {
		children[i] = dup_mm(mm);
		assert_non_null(children[i]);
	}
	assert_int_equal(swp_swapcount(e), 71);
	assert_int_equal(map_of(e), COUNT_CONTINUED | SWAP_MAP_MAX);
	assert_int_equal(fault(children[3], BASE, false), VM_FAULT_MAJOR);
	assert_int_equal(swp_swapcount(e), 70);
	assert_int_equal(map_of(e), COUNT_CONTINUED | SWAP_HAS_CACHE | SWAP_MAP_MAX);
	assert_true(page_holds(children[3], BASE, 0x80));
	for (int i = 0; i < 70; i++)
		mm_exit_swap(children[i]);
	assert_count(e, 1, true);
	assert_true(xa_empty(&si->swap_cont));
	assert_int_equal(fault(mm, BASE, false), 0);            /* the folio the child read */
	assert_true(page_holds(mm, BASE, 0x80));
	assert_count(e, 0, true);
}

/* Is swap_mmlist exactly [m]?  (Reads only the head and m: a stale entry may be freed memory.) */
static bool mmlist_is_only(struct mm_struct *m)
{
	return swap_mmlist.next == &m->mmlist && swap_mmlist.prev == &m->mmlist &&
	       m->mmlist.next == &swap_mmlist && m->mmlist.prev == &swap_mmlist;
}

/*
 * fork under allocation failure, at every point (page and kmalloc): the
 * parent keeps its entries exclusive-cleared or not but counted once, the
 * half-built child's copies are undone, and no freed mm is left on
 * swap_mmlist.  The slot's count sits at SWAP_MAP_MAX, so the child's
 * copy needs a swap_cont node: its failure is among the points.
 */
static void test_fork_failure(void **state)
{
	struct fault_attr *attrs[] = { &fail_page_alloc, &failslab };
	int failures = 0;
	swp_entry_t e;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	assert_int_equal(do_mmap(mm, NULL, BASE + (1UL << 30), PS, RW, MAP_PRIVATE | MAP_FIXED, 0),
			 BASE + (1UL << 30));
	fill_page(mm, BASE, 0x90);
	fill_page(mm, BASE + (1UL << 30), 0x91);       /* copied after the entry: tables to allocate */
	pageout(mm, BASE, PS);
	e = swap_entry_at(mm, BASE);
	assert_true(mmlist_is_only(mm));
	for (int i = 1; i < SWAP_MAP_MAX; i++)                  /* 61 other sharers */
		assert_int_equal(swap_duplicate_nr(e, 1), 0);
	assert_int_equal(map_of(e), SWAP_MAP_MAX);
	for (int k = 0; k < 2; k++) {
		for (int n = 0;; n++) {
			struct mm_struct *child;
			char spec[32];

			snprintf(spec, sizeof(spec), "1,100,%d,1", n);
			assert_int_equal(setup_fault_attr(attrs[k], spec), 0);
			fault_inject_arm(true);
			child = dup_mm(mm);
			fault_inject_arm(false);
			fault_inject_init();
			if (child) {
				assert_int_equal(swp_swapcount(e), SWAP_MAP_MAX + 1);
				assert_int_equal(map_of(e), COUNT_CONTINUED | SWAP_MAP_MAX);
				mm_exit_swap(child);
				break;
			}
			failures++;
			assert_int_equal(swap_entry_at(mm, BASE).val, e.val);
			assert_int_equal(swp_swapcount(e), SWAP_MAP_MAX);
			assert_int_equal(map_of(e), SWAP_MAP_MAX);
			assert_true(xa_empty(&si->swap_cont));
			assert_int_equal(mm->rss_swap, 1);
			assert_true(mmlist_is_only(mm));       /* the failed child is off it */
		}
	}
	print_message("# dup_mm: %d allocation failure points checked\n", failures);
	assert_true(failures >= 4);
	for (int i = 1; i < SWAP_MAP_MAX; i++)
		swap_free_nr(e, 1);
	assert_count(e, 1, false);
	assert_int_equal(fault(mm, BASE, false), VM_FAULT_MAJOR);
	assert_true(page_holds(mm, BASE, 0x90));
}

/* --- I/O errors ------------------------------------------------------------ */

/*
 * A write error: try_to_unmap ran first, so the PTE is the swap entry; the
 * folio stays in the swap cache, dirty, the page not freed; a fault maps
 * it from the cache (no read), data intact; the next pageout writes it.
 * Then the same with an mTHP, left in the cache and zapped by munmap.
 */
static void test_write_error(void **state)
{
	long out0 = event(PSWPOUT), in0 = event(PSWPIN);
	unsigned long free0;
	struct folio *f;
	swp_entry_t e;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	fill_page(mm, BASE, 0xa0);
	f = folio_of(mm, BASE);
	host_swap_fail_io = 1;
	pageout(mm, BASE, PS);
	assert_int_equal(host_swap_fail_io, 0);                 /* the write was tried */
	e = swap_entry_at(mm, BASE);
	assert_true(pte_swp_exclusive(pte_of(mm, BASE)));
	assert_count(e, 1, true);
	assert_true(folio_test_swapcache(f));
	assert_int_equal(f->swap.val, e.val);
	assert_true(folio_test_dirty(f));
	assert_false(folio_test_locked(f));
	assert_false(folio_mapped(f));
	assert_int_equal(folio_ref_count(f), 1);               /* the cache's: not freed */
	assert_int_equal(event(PSWPOUT), out0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 1);
	assert_int_equal(mm->rss_swap, 1);
	assert_int_equal(mm->rss_anon, 0);

	assert_int_equal(fault(mm, BASE, false), 0);  /* from the cache */
	assert_int_equal(event(PSWPIN), in0);
	assert_ptr_equal(folio_of(mm, BASE), f);
	assert_true(page_holds(mm, BASE, 0xa0));
	assert_true(PageAnonExclusive(&f->page));
	assert_count(e, 0, true);

	pageout(mm, BASE, PS);                                  /* still dirty: written now */
	assert_int_equal(event(PSWPOUT), out0 + 1);
	assert_count(e, 1, false);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_int_equal(fault(mm, BASE, false), VM_FAULT_MAJOR);
	assert_true(page_holds(mm, BASE, 0xa0));
	assert_int_equal(do_munmap(mm, BASE, PS), 0);

	/* an mTHP left in the cache by a write error; munmap of its entries frees it */
	f = map_mthp(16 * PS);
	host_swap_fail_io = 1;
	pageout(mm, BASE, 16 * PS);
	assert_true(folio_test_swapcache(f) && folio_test_dirty(f) && !folio_mapped(f));
	assert_int_equal(mm->rss_swap, 16);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 16);
	assert_int_equal(swap_used(), 16);
	free0 = free_pages_now();
	assert_int_equal(do_munmap(mm, BASE, 16 * PS), 0);
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(swap_used(), 0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_true(free_pages_now() >= free0 + 16);            /* and its page table */
}

/*
 * A read error: the fault is SIGBUS, the PTE still the entry, the slot
 * still counted; a retry without the error reads the page in.
 */
static void test_read_error(void **state)
{
	vm_fault_t ret;
	swp_entry_t e;

	(void)state;
	e = one_swapped_page(0xb0);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);   /* evicted: the fault must read */
	host_swap_fail_io = 1;
	assert_int_equal(fault(mm, BASE, false), VM_FAULT_SIGBUS);
	assert_int_equal(host_swap_fail_io, 0);
	assert_int_equal(swap_entry_at(mm, BASE).val, e.val);
	assert_true(pte_swp_exclusive(pte_of(mm, BASE)));
	assert_int_equal(swp_swapcount(e), 1);
	assert_int_equal(mm->rss_swap, 1);
	assert_int_equal(mm->rss_anon, 0);
	assert_int_equal(read_byte(mm, BASE, ACC_USER), -1);

	ret = fault(mm, BASE, false);
	assert_int_equal(ret, VM_FAULT_MAJOR);
	assert_true(pte_present(pte_of(mm, BASE)));
	assert_true(page_holds(mm, BASE, 0xb0));
	assert_true(PageAnonExclusive(folio_page(folio_of(mm, BASE), 0)));
	assert_int_equal(mm->rss_swap, 0);
	assert_int_equal(mm->rss_anon, 1);
	assert_count(e, 0, true);
}

/* --- no leak ----------------------------------------------------------------- */

/*
 * 64 pages out (two pageout batches), half back in, some written, then
 * munmap: every slot back, nothing cached, no page or table left (the
 * teardown's checks); a second mapping is left swapped for exit_mmap.
 */
static void test_munmap_and_exit(void **state)
{
	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, 64 * PS, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	assert_int_equal(do_mmap(mm, NULL, BASE + PMD_SIZE, 8 * PS, RW, MAP_PRIVATE | MAP_FIXED, 0),
			 BASE + PMD_SIZE);
	for (int i = 0; i < 64; i++)
		fill_page(mm, BASE + i * PS, i);
	for (int i = 0; i < 8; i++)
		fill_page(mm, BASE + PMD_SIZE + i * PS, 0xc0 + i);
	pageout(mm, BASE, 64 * PS);
	pageout(mm, BASE + PMD_SIZE, 8 * PS);
	assert_int_equal(mm->rss_swap, 72);
	assert_int_equal(mm->rss_anon, 0);
	assert_int_equal(swap_used(), 72);
	for (int i = 0; i < 64; i += 2) {
		assert_int_equal(fault(mm, BASE + i * PS, i % 4 == 0), VM_FAULT_MAJOR);
		assert_true(page_holds(mm, BASE + i * PS, i));
	}
	assert_int_equal(mm->rss_swap, 40);
	assert_int_equal(swap_used(), 72 - 16);                 /* the writes freed theirs */
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 16);
	assert_int_equal(do_munmap(mm, BASE, 64 * PS), 0);
	assert_int_equal(swap_used(), 8);
	assert_int_equal(global_node_page_state(NR_SWAPCACHE), 0);
	assert_int_equal(mm->rss_swap, 8);
	assert_int_equal(mm->rss_anon, 0);
	/* the other 8 entries go with the mm (shutdown's exit_mmap) */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_small_out_and_in, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_swap_full_frees_on_read, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_mthp_out_and_in, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_mthp_split_without_slots, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_thp_out_and_in, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_fork_shares_entry, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_fork_parent_first_and_zap, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_count_continuation, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_fork_failure, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_write_error, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_read_error, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_munmap_and_exit, boot, shutdown),
	};

	return cmocka_run_group_tests_name(VARIANT_LABEL("swap"), tests, NULL, NULL);
}
