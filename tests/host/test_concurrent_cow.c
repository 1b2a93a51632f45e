/*
 * Concurrent COW with real threads (issue 19's "concurrent COW proven"):
 * one 2 MiB anon folio, filled and shared by fork between NR_MMS mms;
 * one host thread per mm (two per mm in the PMD-split round) write-faults
 * a random subset of its pages in random order, all at once, through
 * handle_mm_fault() under mmap_read_lock — the page-table locks, the
 * mapcount bit lock and the refcount are all contended for real.
 *
 * Afterwards the result is checked against the exact model of what must
 * be: every page an mm wrote reads back its value through the software
 * MMU, every page it did not still maps the original page with the
 * original data; the original folio's large mapcount and refcount are the
 * number of PTEs left on it (per page too with CONFIG_PAGE_MAPCOUNT); a
 * written page still on the original folio was reused, so it is
 * PageAnonExclusive and mapped nowhere else; no two mms share a copy.
 * Then every mm exits and all memory must come back.
 *
 * Rounds: the folio PTE-mapped before the fork (COW copy and reuse at the
 * PTE level), and PMD-mapped (the first writers race on pmd_lock to split
 * the PMD of their mm while the other thread of that mm faults its PTEs).
 * FOLIOS_CONC_ROUNDS sets how many rounds of each (default 20).
 */
#include "linux/errno.h"
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include "linux/huge_mm.h"
#include "linux/mmap_lock.h"
#include "mm/internal.h"
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/host/mm_helpers.h"

#define BASE    0x40000000UL            /* PMD-aligned */
#define NR      512                     /* pages of the folio */
#define NR_MMS  4
#define RW      (PROT_READ | PROT_WRITE)

MM_TEST_FIXTURE()

struct worker {
	pthread_t thread;
	struct mm_struct *mm;
	unsigned int first, last;       /* the pages [first, last) it may write */
	unsigned int seed;
	unsigned char *written;         /* per page: the value written, 0 = none */
	int failures;
};

static pthread_barrier_t start;

static unsigned char orig_value(unsigned int i)
{
	return 0xa0 ^ (i & 0x3f);
}

/*
 * Write v to addr of m as a user store would: fault until the software
 * MMU lets the write through, under the mmap_lock as the fault handler.
 * The page cannot change between the walk and the store: only this
 * thread writes this page of m.
 */
static int write_user(struct mm_struct *m, unsigned long addr, unsigned char v)
{
	phys_addr_t pa;
	int ret = 0;

	mmap_read_lock(m);
	while (softmmu_translate((pgd_t *)m->pgd, addr, ACC_USER | ACC_WRITE, &pa) != SOFTMMU_OK) {
		ret = handle_mm_fault(find_vma(m, addr), addr, FAULT_FLAG_WRITE | FAULT_FLAG_USER);
		if (ret)
			break;
	}
	if (!ret)
		*(volatile unsigned char *)__va(pa) = v;
	mmap_read_unlock(m);
	return ret;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	unsigned int n = w->last - w->first, order[NR];

	for (unsigned int i = 0; i < n; i++)
		order[i] = w->first + i;
	for (unsigned int i = n - 1; i > 0; i--) {     /* a random order */
		unsigned int j = rand_r(&w->seed) % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	pthread_barrier_wait(&start);
	for (unsigned int k = 0; k < n; k++) {
		unsigned int i = order[k];
		unsigned char v = 1 + rand_r(&w->seed) % 255;

		if (rand_r(&w->seed) % 3 == 0)
			continue;               /* this page stays shared */
		if (write_user(w->mm, BASE + i * PAGE_SIZE, v))
			w->failures++;
		else
			w->written[i] = v;
	}
	return NULL;
}

/* The parent: one 2 MiB folio at BASE, filled; PTE-mapped unless pmd. */
static struct folio *make_folio(bool pmd)
{
	phys_addr_t pa;

	assert_int_equal(do_mmap(mm, NULL, BASE, PMD_SIZE, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0),
			 BASE);
	for (unsigned int i = 0; i < NR; i++)
		user_write(mm, BASE + i * PAGE_SIZE, orig_value(i));
	if (!pmd)
		split_huge_pmd_address(find_vma(mm, BASE), BASE + PAGE_SIZE);
	assert_int_equal(softmmu_translate((pgd_t *)mm->pgd, BASE, ACC_USER, &pa), SOFTMMU_OK);
	assert_true(folio_test_pmd_mappable(page_folio(pfn_to_page(pa >> PAGE_SHIFT))));
	return page_folio(pfn_to_page(pa >> PAGE_SHIFT));
}

/*
 * Check one mm's page i against the model; count a mapping of the original
 * in on_orig[i], and in reused[i] if it was written.
 */
static void check_page(struct mm_struct *m, unsigned int i, unsigned char written,
		       struct folio *orig, int *on_orig, int *reused, phys_addr_t *copies,
		       int *nr_copies)
{
	phys_addr_t pa;
	struct page *page;

	assert_int_equal(softmmu_translate((pgd_t *)m->pgd, BASE + i * PAGE_SIZE, ACC_USER, &pa),
			 SOFTMMU_OK);
	page = pfn_to_page(pa >> PAGE_SHIFT);
	assert_int_equal(*(unsigned char *)__va(pa), written ? written : orig_value(i));
	if (page == folio_page(orig, i)) {
		on_orig[i]++;
		if (written) {
			assert_true(PageAnonExclusive(page));   /* reused */
			reused[i]++;
		}
		return;
	}
	assert_true(written);           /* only a write makes a copy */
	for (int k = 0; k < *nr_copies; k++)
		assert_true(copies[k] != (pa & PAGE_MASK));
	copies[(*nr_copies)++] = pa & PAGE_MASK;
}

/* Compare the mms and the original folio with the model, written[mm][page]. */
static void check_model(struct mm_struct **mms, unsigned char (*written)[NR], struct folio *orig)
{
	static phys_addr_t copies[NR_MMS * NR];
	int on_orig[NR] = { 0 }, reused[NR] = { 0 }, nr_copies = 0, total = 0;

	for (int t = 0; t < NR_MMS; t++)
		for (unsigned int i = 0; i < NR; i++)
			check_page(mms[t], i, written[t][i], orig, on_orig, reused, copies,
				   &nr_copies);
	for (unsigned int i = 0; i < NR; i++) {
		total += on_orig[i];
		assert_true(!reused[i] || on_orig[i] == 1);     /* reused: nobody else maps it */
		if (IS_ENABLED(CONFIG_PAGE_MAPCOUNT) && on_orig[i])
			assert_int_equal(folio_precise_page_mapcount(orig, folio_page(orig, i)), on_orig[i]);
	}
	if (!total)
		return;         /* every page was copied: the folio is gone */
	assert_int_equal(folio_large_mapcount(orig), total);
	assert_int_equal(folio_ref_count(orig), total);
	assert_int_equal(folio_entire_mapcount(orig), 0);
}

/* One round: fork, run the threads (per_mm of them per mm), check, exit. */
static void round_run(bool pmd, int per_mm, unsigned int seed)
{
	static unsigned char written[NR_MMS][NR];
	struct worker w[NR_MMS * 2];
	struct mm_struct *mms[NR_MMS];
	struct folio *orig = make_folio(pmd);

	memset(written, 0, sizeof(written));
	mms[0] = mm;
	for (int t = 1; t < NR_MMS; t++)
		assert_non_null(mms[t] = dup_mm(mm));
	assert_int_equal(pthread_barrier_init(&start, NULL, NR_MMS * per_mm), 0);
	for (int k = 0; k < NR_MMS * per_mm; k++) {
		w[k] = (struct worker){ .mm = mms[k / per_mm], .written = written[k / per_mm],
					.first = (k % per_mm) * NR / per_mm,
					.last = (k % per_mm + 1) * NR / per_mm, .seed = seed * 131 + k };
		assert_int_equal(pthread_create(&w[k].thread, NULL, worker_fn, &w[k]), 0);
	}
	for (int k = 0; k < NR_MMS * per_mm; k++) {
		pthread_join(w[k].thread, NULL);
		assert_int_equal(w[k].failures, 0);
	}
	pthread_barrier_destroy(&start);
	check_model(mms, written, orig);
	for (int t = 1; t < NR_MMS; t++)
		mm_exit(mms[t]);
	assert_int_equal(do_munmap(mm, BASE, PMD_SIZE), 0);
	assert_int_equal(global_node_page_state(NR_ANON_MAPPED), 0);
}

static unsigned int rounds(void)
{
	const char *s = getenv("FOLIOS_CONC_ROUNDS");

	return s ? (unsigned int)atoi(s) : 20;
}

static void test_concurrent_pte_cow(void **state)
{
	(void)state;
	thp_enabled_store(-1, "always", 6);
	for (unsigned int r = 0; r < rounds(); r++)
		round_run(false, 1, r);
}

static void test_concurrent_pmd_split_cow(void **state)
{
	(void)state;
	thp_enabled_store(-1, "always", 6);
	for (unsigned int r = 0; r < rounds(); r++)
		round_run(true, 2, r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_concurrent_pte_cow, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_concurrent_pmd_split_cow, boot, shutdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
