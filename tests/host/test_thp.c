/*
 * Host tests of large folios on page tables: the THP policy (knob text,
 * Linux's command-line syntax, which orders a VMA may use), mTHP and PMD
 * faults, fork of a PMD leaf, COW reuse and copy, PMD split, and folio
 * split by deferred split — through the software MMU, in both modes.
 */
#include "linux/errno.h"
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include "linux/huge_mm.h"
#include "mm/deferred_split.h"
#include "mm/rmap_trace.h"
#include "linux/fault-inject.h"
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

#define BASE    0x40000000UL            /* 1 GiB: PMD-aligned */
#define RW      (PROT_READ | PROT_WRITE)

MM_TEST_FIXTURE()

static const char *show(int order)
{
	static char buf[64];

	thp_enabled_show(order, buf, sizeof(buf));
	return buf;
}

static void test_policy_text(void **state)
{
	(void)state;
	assert_string_equal(show(-1), "[always] madvise never\n");
	assert_string_equal(show(9), "always [inherit] madvise never\n");
	assert_string_equal(show(4), "always inherit madvise [never]\n");
	assert_int_equal(thp_enabled_store(-1, "madvise\n", 8), 0);
	assert_string_equal(show(-1), "always [madvise] never\n");
	assert_int_equal(thp_enabled_store(-1, "inherit", 7), -EINVAL);
	assert_int_equal(thp_enabled_store(4, "alway", 5), -EINVAL);
	assert_int_equal(thp_enabled_store(1, "always", 6), -EINVAL);      /* 8K: not an anon order */
	assert_int_equal(thp_anon_cmdline("16K,32K:always;64K-256K:inherit;2M:never"), 0);
	assert_string_equal(show(2), "[always] inherit madvise never\n");
	assert_string_equal(show(3), "[always] inherit madvise never\n");
	for (int o = 4; o <= 6; o++)
		assert_string_equal(show(o), "always [inherit] madvise never\n");
	assert_string_equal(show(7), "always inherit madvise [never]\n");
	assert_string_equal(show(9), "always inherit madvise [never]\n");
	assert_int_equal(thp_anon_cmdline("3K:always"), -EINVAL);
	assert_int_equal(thp_anon_cmdline("64K"), -EINVAL);
	assert_int_equal(thp_anon_cmdline("256K-64K:always"), -EINVAL);
	assert_int_equal(thp_enabled_cmdline("never"), 0);
	assert_string_equal(show(-1), "always madvise [never]\n");
}

static void test_allowable_orders(void **state)
{
	struct vm_area_struct vma = { .vm_start = BASE, .vm_end = BASE + 4 * PMD_SIZE, .vm_mm = mm };
	const unsigned long all = THP_ORDERS_ALL_ANON;

	(void)state;
	assert_int_equal(thp_vma_allowable_orders(&vma, all), BIT(9));    /* defaults */
	thp_enabled_store(-1, "madvise", 7);
	assert_int_equal(thp_vma_allowable_orders(&vma, all), 0);
	vma.vm_flags = VM_HUGEPAGE;
	assert_int_equal(thp_vma_allowable_orders(&vma, all), BIT(9));
	thp_enabled_store(4, "madvise", 7);
	thp_enabled_store(2, "always", 6);
	assert_int_equal(thp_vma_allowable_orders(&vma, all), BIT(9) | BIT(4) | BIT(2));
	vma.vm_flags = 0;
	assert_int_equal(thp_vma_allowable_orders(&vma, all), BIT(2));
	vma.vm_flags = VM_NOHUGEPAGE;
	assert_int_equal(thp_vma_allowable_orders(&vma, all), 0);
	assert_true(thp_vma_suitable_order(&vma, BASE + PMD_SIZE + 5, 9));
	vma.vm_start = BASE + PAGE_SIZE;
	assert_false(thp_vma_suitable_order(&vma, BASE + 5, 9));
	assert_true(thp_vma_suitable_order(&vma, BASE + 16 * PAGE_SIZE, 4));
	thp_policy_init();
}

static struct folio *folio_at(struct mm_struct *m, unsigned long addr, int *level)
{
	struct pgwalk w;

	*level = pgtable_lookup((pgd_t *)m->pgd, addr, &w);
	return *level ? page_folio(pfn_to_page(w.phys >> PAGE_SHIFT)) : NULL;
}

/* A fault takes the largest allowed order that fits; the PTE range must be empty. */
static void test_mthp_fault(void **state)
{
	struct folio *f;
	int level;

	(void)state;
	thp_enabled_store(9, "never", 5);
	thp_enabled_store(4, "always", 6);
	thp_enabled_store(2, "always", 6);
	assert_int_equal(do_mmap(mm, NULL, BASE, 64 * PAGE_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	user_write(mm, BASE + 3 * PAGE_SIZE, 1);
	f = folio_at(mm, BASE, &level);
	assert_int_equal(level, PT_PTE);
	assert_int_equal(folio_order(f), 4);
	assert_int_equal(folio_large_mapcount(f), 16);
	assert_int_equal(folio_ref_count(f), 16);
	assert_true(PageAnonExclusive(folio_page(f, 7)));
	assert_int_equal(mm->rss_anon, 16);
	thp_enabled_store(4, "never", 5);
	thp_enabled_store(2, "never", 5);
	user_write(mm, BASE + 20 * PAGE_SIZE, 1);       /* a 4 KiB page inside the next 64K block */
	thp_enabled_store(4, "always", 6);
	thp_enabled_store(2, "always", 6);
	user_write(mm, BASE + 16 * PAGE_SIZE, 1);       /* 64K block not empty: 16K */
	assert_int_equal(folio_order(folio_at(mm, BASE + 16 * PAGE_SIZE, &level)), 2);
	assert_int_equal(folio_order(folio_at(mm, BASE + 20 * PAGE_SIZE, &level)), 0);
	assert_int_equal(mm->rss_anon, 16 + 1 + 4);
	thp_policy_init();
}

/* 2 MiB fault -> PMD leaf; fork shares it; the child's write splits its PMD and copies a page. */
static void test_pmd_fork_cow_reuse(void **state)
{
	struct mm_struct *child;
	struct folio *f, *g;
	int level;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	user_write(mm, BASE + 5, 'p');
	f = folio_at(mm, BASE, &level);
	assert_int_equal(level, PT_PMD);
	assert_int_equal(folio_order(f), 9);
	assert_int_equal(folio_entire_mapcount(f), 1);
	assert_int_equal(global_node_page_state(NR_ANON_THPS), 512);
	child = dup_mm(mm);
	assert_non_null(child);
	assert_int_equal(folio_entire_mapcount(f), 2);
	assert_true(folio_maybe_mapped_shared(f));
	user_write(child, BASE + 3 * PAGE_SIZE, 'c');
	assert_int_equal(read_byte(mm, BASE + 3 * PAGE_SIZE, ACC_USER), 0);
	g = folio_at(child, BASE + 3 * PAGE_SIZE, &level);
	assert_int_equal(level, PT_PTE);
	assert_true(g != f && folio_order(g) == 0);
	assert_int_equal(folio_at(child, BASE, &level), f);
	assert_int_equal(folio_entire_mapcount(f), 1);
	assert_int_equal(folio_large_mapcount(f), 1 + 511);
	assert_int_equal(folio_ref_count(f), 1 + 511);
	exit_mmap(child);
	mmdrop(child);
	assert_false(folio_maybe_mapped_shared(f));
	user_write(mm, BASE + 9 * PAGE_SIZE, 'q');      /* refcount 1: the whole PMD is reused */
	assert_int_equal(folio_at(mm, BASE + 9 * PAGE_SIZE, &level), f);
	assert_int_equal(level, PT_PMD);
	assert_int_equal(read_byte(mm, BASE + 5, ACC_USER | ACC_WRITE), 'p');
}

/* A PTE-mapped large folio: reuse through the slots once the child is gone. */
static void test_pte_mapped_reuse(void **state)
{
	struct mm_struct *child;
	struct folio *f;
	int level;

	(void)state;
	thp_enabled_store(9, "never", 5);
	thp_enabled_store(4, "always", 6);
	assert_int_equal(do_mmap(mm, NULL, BASE, 16 * PAGE_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	user_write(mm, BASE, 'a');
	f = folio_at(mm, BASE, &level);
	child = dup_mm(mm);
	user_write(mm, BASE + PAGE_SIZE, 'b');          /* shared: one page copied */
	assert_true(folio_at(mm, BASE + PAGE_SIZE, &level) != f);
	assert_int_equal(folio_large_mapcount(f), 31);
	exit_mmap(child);
	mmdrop(child);
	user_write(mm, BASE + 2 * PAGE_SIZE, 'c');      /* exclusive again: reused */
	assert_int_equal(folio_at(mm, BASE + 2 * PAGE_SIZE, &level), f);
	assert_true(PageAnonExclusive(folio_page(f, 2)));
	assert_false(PageAnonExclusive(folio_page(f, 3)));
	assert_int_equal(read_byte(mm, BASE + 3 * PAGE_SIZE, ACC_USER | ACC_WRITE), -1);
	thp_policy_init();
}

/*
 * Partial munmap of a PMD THP splits the PMD.  Two mms unmap different
 * halves: every page is still mapped by one of them, so the folio is not
 * partially mapped; split_folio() then gives each page the mapcount the
 * rmap walk counts in both mms (in both modes).
 */
static void test_partial_unmap_and_split(void **state)
{
	struct mm_struct *child;
	unsigned long free0;
	struct folio *f;
	int level;

	(void)state;
	assert_int_equal(do_mmap(mm, NULL, BASE, PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	user_write(mm, BASE, 'x');
	user_write(mm, BASE + 300 * PAGE_SIZE, 'y');
	f = folio_at(mm, BASE, &level);
	child = dup_mm(mm);
	assert_int_equal(do_munmap(mm, BASE, 256 * PAGE_SIZE), 0);
	assert_int_equal(do_munmap(child, BASE + 384 * PAGE_SIZE, 128 * PAGE_SIZE), 0);
	assert_int_equal(folio_large_mapcount(f), 256 + 384);
	assert_int_equal(folio_entire_mapcount(f), 0);
	assert_int_equal(deferred_split_count(), 0);    /* every page is still mapped by someone */
	free0 = zone.free_pages;
	folio_get(f);
	folio_lock(f);
	assert_int_equal(split_folio(f), 0);
	folio_unlock(f);
	folio_put(f);
	assert_int_equal(zone.free_pages, free0);
	assert_int_equal(folio_mapcount(page_folio(pfn_to_page(folio_pfn(f) + 10))), 1);
	assert_int_equal(folio_mapcount(page_folio(pfn_to_page(folio_pfn(f) + 300))), 2);
	assert_int_equal(folio_mapcount(page_folio(pfn_to_page(folio_pfn(f) + 400))), 1);
	assert_int_equal(global_node_page_state(NR_ANON_MAPPED), 512);
	assert_int_equal(read_byte(mm, BASE + 300 * PAGE_SIZE, ACC_USER), 'y');
	assert_int_equal(read_byte(child, BASE, ACC_USER), 'x');
	exit_mmap(child);
	mmdrop(child);
	assert_int_equal(global_node_page_state(NR_ANON_MAPPED), 256);
}

/*
 * A PMD THP at BASE whose first 500 pages were mapped over by a new
 * mapping: 12 pages stay mapped, the folio waits on the deferred split
 * queue.  Its last byte is 'z'.
 */
static struct folio *thp_with_last_12_pages_mapped(void)
{
	struct folio *f;
	int level;

	assert_int_equal(do_mmap(mm, NULL, BASE, PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	user_write(mm, BASE + PMD_SIZE - 1, 'z');
	f = folio_at(mm, BASE, &level);
	assert_int_equal(do_mmap(mm, NULL, BASE, 500 * PAGE_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	return f;
}

/* A split frees the pages nobody maps. */
static void test_split_frees(void **state)
{
	unsigned long free0;
	struct folio *f;

	(void)state;
	f = thp_with_last_12_pages_mapped();
	assert_int_equal(folio_large_mapcount(f), 12);
	assert_int_equal(global_node_page_state(NR_ANON_MAPPED),
			 IS_ENABLED(CONFIG_PAGE_MAPCOUNT) ? 12 : 512);
	free0 = zone.free_pages;
	assert_int_equal(deferred_split_scan(~0UL), 1);
	assert_int_equal(zone.free_pages - free0, 500);
	assert_int_equal(global_node_page_state(NR_ANON_MAPPED), 12);
	assert_int_equal(read_byte(mm, BASE + PMD_SIZE - 1, ACC_USER | ACC_WRITE), 'z');
}

/* The mapcount trace: commands, selection, and the before/after state it records. */
static void test_rmap_trace(void **state)
{
	struct rmap_trace_rec r;
	struct mm_struct *child;
	struct folio *f;
	char mode[32];
	int level;

	(void)state;
	if (!IS_ENABLED(CONFIG_RMAP_TRACE))
		skip();        /* RMAP_TRACE=0: no trace to test */
	assert_int_equal(rmap_trace_control("bogus"), -EINVAL);
	assert_int_equal(rmap_trace_control("pfn"), -EINVAL);
	assert_int_equal(rmap_trace_control("order:9"), 0);
	rmap_trace_describe(mode, sizeof(mode));
	assert_string_equal(mode, "order 9");
	assert_int_equal(do_mmap(mm, NULL, BASE, PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	user_write(mm, BASE, 1);
	f = folio_at(mm, BASE, &level);
	child = dup_mm(mm);
	exit_mmap(child);
	mmdrop(child);
	assert_int_equal(rmap_trace_control("off"), 0);
	assert_true(rmap_trace_get(0, &r));
	assert_int_equal(r.op, RMAP_TRACE_NEW);
	assert_int_equal(r.pfn, folio_pfn(f));
	/* em: the PMD mappings, or the total of mapped pages (MAPCOUNT_PAGES) */
	assert_int_equal(r.after.em, IS_ENABLED(CONFIG_MAPCOUNT_PAGES) ? 512 : 1);
	assert_int_equal(r.after.id[0], mm->mm_id);
	assert_true(rmap_trace_get(1, &r));
	assert_int_equal(r.op, RMAP_TRACE_DUP_PMD);
	assert_false(r.before.shared);
	assert_true(r.after.shared);
	assert_int_equal(r.after.em, IS_ENABLED(CONFIG_MAPCOUNT_PAGES) ? 1024 : 2);
	assert_true(rmap_trace_get(2, &r));
	assert_int_equal(r.op, RMAP_TRACE_REMOVE_PMD);
	assert_false(r.after.shared);
	assert_false(rmap_trace_get(3, &r));
	user_write(mm, BASE + PAGE_SIZE, 2);            /* off: not recorded */
	assert_false(rmap_trace_get(3, &r));
	assert_int_equal(rmap_trace_control("clear"), 0);
	assert_false(rmap_trace_get(0, &r));
}

/*
 * A split's records: try_to_migrate() first takes the 12 PTEs away (one
 * remove of 12: LM 12 -> 0, they are migration entries now), then the
 * split itself, recorded when it returns (the trace's return hook) on a
 * folio no PTE maps: LM 0 before, and after, the head page's state as an
 * order-0 folio not yet remapped.  The remap of the order-0 folios is not
 * traced: "order 9" chose the 2 MiB folio only.
 */
static void test_rmap_trace_split(void **state)
{
	struct rmap_trace_rec r, prev = { 0 }, last = { 0 };
	struct folio *f;

	(void)state;
	if (!IS_ENABLED(CONFIG_RMAP_TRACE))
		skip();        /* RMAP_TRACE=0: no trace to test */
	assert_int_equal(rmap_trace_control("order 9"), 0);
	f = thp_with_last_12_pages_mapped();
	assert_int_equal(deferred_split_scan(~0UL), 1);
	assert_int_equal(rmap_trace_control("off"), 0);
	for (unsigned long i = 0; rmap_trace_get(i, &r); i++) {
		prev = last;
		last = r;
	}
	assert_int_equal(prev.op, RMAP_TRACE_REMOVE_PTES);
	assert_int_equal(prev.nr, 12);
	assert_int_equal(prev.before.lm, 12);
	assert_int_equal(prev.after.lm, 0);
	assert_int_equal(last.op, RMAP_TRACE_SPLIT);
	assert_int_equal(last.pfn, folio_pfn(f));
	assert_int_equal(last.nr, 512);
	assert_int_equal(last.before.lm, 0);
	assert_int_equal(last.order, 0);
	assert_int_equal(last.after.lm, 0);
	assert_true(last.caller != 0);
	assert_int_equal(read_byte(mm, BASE + PMD_SIZE - 1, ACC_USER), 'z');
}

/* Fault injection: Linux's attribute syntax, interval, space, times, and the arming. */
static void test_fault_inject(void **state)
{
	struct page *first;
	int failed = 0;

	(void)state;
	assert_int_equal(setup_fault_attr(&fail_page_alloc, "1,100"), -EINVAL);
	assert_int_equal(setup_fault_attr(&fail_page_alloc, "0,100,0,-1"), -EINVAL);
	assert_int_equal(setup_fault_attr(&fail_page_alloc, "2,100,4,3"), 0);
	first = alloc_page(0);                                  /* not armed yet: no failure */
	assert_non_null(first);
	__free_page(first);
	fault_inject_arm(true);
	for (int i = 0; i < 20; i++) {
		struct page *p = alloc_page(0);

		failed += !p;
		if (p)
			__free_page(p);
	}
	fault_inject_arm(false);
	assert_int_equal(failed, 3);                            /* times = 3 */
	assert_int_equal(fail_page_alloc.failures, 3);
	assert_int_equal(fail_page_alloc.calls, 20);
	fault_inject_init();
}

/* A folio of the parent and its rmap state before a fork. */
struct fork_snap {
	struct folio *f;
	struct folio_state st;
	int ref, mapcount[16];
};

/* Every distinct folio mapped in [start, end) of m, with its state, into snaps. */
static int snapshot_folios(struct mm_struct *m, unsigned long start, unsigned long end,
			   struct fork_snap *snaps, int n)
{
	for (unsigned long a = start; a < end; a += PAGE_SIZE) {
		int level;
		struct folio *f = folio_at(m, a, &level);

		if (!f || (n && snaps[n - 1].f == f))
			continue;
		snaps[n] = (struct fork_snap){ .f = f, .st = folio_state(f), .ref = folio_ref_count(f) };
		for (int i = 0; i < 16 && i < folio_nr_pages(f); i++)
			snaps[n].mapcount[i] = folio_precise_page_mapcount(f, folio_page(f, i));
		n++;
	}
	return n;
}

/* Is every writable leaf of m in [start, end) a mapping of an AnonExclusive page? */
static bool writable_means_exclusive(struct mm_struct *m, unsigned long start, unsigned long end)
{
	for (unsigned long a = start; a < end; a += PAGE_SIZE) {
		struct pgwalk w;
		int level = pgtable_lookup((pgd_t *)m->pgd, a, &w);
		struct page *page = level ? pfn_to_page(w.phys >> PAGE_SHIFT) : NULL;

		if (level == PT_PMD)
			page = &page_folio(page)->page;
		if (level && pgval_write(w.entry[level]) && !PageAnonExclusive(page))
			return false;
	}
	return true;
}

/*
 * fork under allocation failure: whichever allocation of dup_mm() fails
 * (page or kmalloc, the 1st, the 2nd, ...), the parent is left as before —
 * every folio's mapcounts, MM ID slots, shared bit and refcount — and no
 * writable PTE or PMD maps a page that lost PageAnonExclusive (which would
 * let the parent write a page a later child still sees).
 */
static void test_fork_fault_injection(void **state)
{
	const unsigned long regions[] = { BASE, BASE + (1UL << 30), BASE + (2UL << 30) };
	struct fault_attr *attrs[] = { &fail_page_alloc, &failslab };
	struct fork_snap before_fork[64], after[64];
	int nr = 0, failures = 0;

	(void)state;
	thp_enabled_store(4, "always", 6);
	for (int r = 0; r < 3; r++) {
		assert_int_equal(do_mmap(mm, NULL, regions[r], 2 * PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0),
				 regions[r]);
		user_write(mm, regions[r], 'a' + r);            /* a PMD leaf */
		user_write(mm, regions[r] + PMD_SIZE + 3 * PAGE_SIZE, 'A' + r); /* a 64K folio */
		do_mprotect(mm, regions[r] + PMD_SIZE + 64 * PAGE_SIZE, PAGE_SIZE, PROT_READ);
	}
	thp_enabled_store(4, "never", 5);
	for (int r = 0; r < 3; r++)
		nr = snapshot_folios(mm, regions[r], regions[r] + 2 * PMD_SIZE, before_fork, nr);
	assert_int_equal(nr, 6);
	for (int k = 0; k < 2; k++) {
		for (int n = 0;; n++) {
			struct mm_struct *child;
			char spec[32];
			int got = 0;

			snprintf(spec, sizeof(spec), "1,100,%d,1", n);
			assert_int_equal(setup_fault_attr(attrs[k], spec), 0);
			fault_inject_arm(true);
			child = dup_mm(mm);
			fault_inject_arm(false);
			fault_inject_init();
			if (child) {                    /* past the last allocation */
				exit_mmap(child);
				mmdrop(child);
				break;
			}
			failures++;
			for (int r = 0; r < 3; r++) {
				assert_true(writable_means_exclusive(mm, regions[r],
								     regions[r] + 2 * PMD_SIZE));
				got = snapshot_folios(mm, regions[r], regions[r] + 2 * PMD_SIZE,
						      after, got);
			}
			assert_int_equal(got, nr);
			for (int i = 0; i < nr; i++) {
				assert_ptr_equal(after[i].f, before_fork[i].f);
				assert_true(folio_state_equal(&after[i].st, &before_fork[i].st));
				assert_int_equal(after[i].ref, before_fork[i].ref);
				assert_memory_equal(after[i].mapcount, before_fork[i].mapcount,
						    sizeof(after[i].mapcount));
			}
		}
	}
	print_message("# dup_mm: %d allocation failure points checked\n", failures);
	assert_true(failures >= 6);             /* both allocators failed at several points */
}

/* The tables of these mms, deposited ones too, are their pgtables_bytes; the roots are not. */
static void assert_pgtables_bytes(struct mm_struct *const *mms, int n)
{
	unsigned long bytes = 0;

	for (int i = 0; i < n; i++)
		bytes += mm_pgtables_bytes(mms[i]);
	assert_int_equal(bytes, (nr_pagetable_pages - n) * PAGE_SIZE);
}

/*
 * mm->pgtables_bytes (Linux's mm_pgtables_bytes, part of the OOM badness)
 * follows each table in and out: a PMD fault's deposit, fork's copies, a
 * PMD split that hooks the deposit in, munmap's freed tables.
 */
static void test_pgtables_bytes(void **state)
{
	struct mm_struct *child;

	(void)state;
	assert_pgtables_bytes(&mm, 1);
	assert_int_equal(do_mmap(mm, NULL, BASE, 2 * PMD_SIZE, RW, MAP_PRIVATE | MAP_FIXED, 0), BASE);
	user_write(mm, BASE, 'a');
	user_write(mm, BASE + PMD_SIZE + 7 * PAGE_SIZE, 'b');
	assert_true(mm_pgtables_bytes(mm) >= 4 * PAGE_SIZE);   /* PUD, PMD, two deposits at least */
	assert_pgtables_bytes(&mm, 1);
	child = dup_mm(mm);
	assert_non_null(child);
	assert_pgtables_bytes((struct mm_struct *const[]){ mm, child }, 2);
	assert_int_equal(do_mprotect(mm, BASE + PAGE_SIZE, PAGE_SIZE, PROT_READ), 0);
	assert_pgtables_bytes((struct mm_struct *const[]){ mm, child }, 2);
	exit_mmap(child);
	mmdrop(child);
	assert_pgtables_bytes(&mm, 1);
	assert_int_equal(do_munmap(mm, BASE, 2 * PMD_SIZE), 0);
	assert_pgtables_bytes(&mm, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_policy_text, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_allowable_orders, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_mthp_fault, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_pmd_fork_cow_reuse, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_pte_mapped_reuse, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_partial_unmap_and_split, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_split_frees, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_rmap_trace, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_rmap_trace_split, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_fault_inject, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_fork_fault_injection, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_pgtables_bytes, boot, shutdown),
	};

	return cmocka_run_group_tests_name(VARIANT_LABEL("thp"), tests, NULL, NULL);
}
