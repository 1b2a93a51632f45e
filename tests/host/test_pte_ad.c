/*
 * Host tests: an accessed or dirty bit that another CPU's MMU sets in an
 * entry while linux/pgtable.h rewrites it is never lost.  A second thread is
 * that CPU: each round it walks the soft MMU (tests/host/softmmu.c, which
 * sets A/D by compare-and-swap as x86 does) through a freshly made, clean
 * and old entry, at a random moment, while this thread runs one helper on
 * the same entry at a random moment.  Whenever the walk succeeded, its bit
 * must show in the entry the helper returned or in the one it left.  A
 * plain load, change and store loses the bit whenever the walk lands
 * between the two; the helpers' single atomic instructions never do.
 *
 * Locks: none are needed by the helpers under test beyond the caller's
 * PTL, which the test's one writer stands for; the "CPU" thread takes none,
 * as an MMU takes none.  The two threads meet only through the round
 * counters below (acquire/release).
 */
#include "tests/host/hostenv.h"
#include "tests/host/softmmu.h"
#include "tests/host/rmap_helpers.h"
#include "linux/mm.h"
#include "linux/mm_types.h"
#include "linux/pgtable.h"
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>

#define VA_PTE          0x400000UL
#define VA_PMD          0x40000000UL
#define MAX_ROUNDS      40000
#define ROUND_NS        500000000L      /* each helper: at most 0.5 s of rounds */

static struct mm_struct mm;

/* What the helper under test did: the entry it returned (0: none). */
typedef pgval_t (*helper_fn)(pgval_t *entry);

static struct {
	unsigned long va;
	unsigned int access;            /* ACC_WRITE: the walk sets D; else A */
	unsigned long round, started, done;     /* this thread's / the CPU thread's */
	bool walked;                    /* the CPU's walk of this round succeeded */
	bool stop;
} race;

/* A short random pause: where in the round each side acts. */
static void pause_random(unsigned int *seed, unsigned int max)
{
	unsigned int n = rand_r(seed) % max;

	for (volatile unsigned int i = 0; i < n; i++)
		;
}

/*
 * Wait for *word to become (or, if !equal, to leave) v: spin, and yield
 * now and then so that a busy host does not leave the partner thread
 * descheduled for a whole time slice.
 */
static unsigned long wait_word(unsigned long *word, unsigned long v, bool equal)
{
	unsigned long w;

	for (unsigned int spins = 1; ((w = __atomic_load_n(word, __ATOMIC_ACQUIRE)) == v) != equal;
	     spins++)
		if (!(spins % 1024)) {
			if (__atomic_load_n(&race.stop, __ATOMIC_RELAXED))
				break;
			sched_yield();
		}
	return w;
}

/* The other CPU: one walk per round, from an empty TLB. */
static void *cpu_thread(void *arg)
{
	unsigned int seed = 12345;
	unsigned long seen = 0, r;
	phys_addr_t pa;

	(void)arg;
	for (;;) {
		r = wait_word(&race.round, seen, false);
		if (__atomic_load_n(&race.stop, __ATOMIC_RELAXED))
			return NULL;
		seen = r;
		softmmu_flush_local();
		__atomic_store_n(&race.started, r, __ATOMIC_RELEASE);
		pause_random(&seed, 128);
		race.walked = softmmu_translate(mm.pgd, race.va, ACC_USER | race.access, &pa) ==
			      SOFTMMU_OK;
		__atomic_store_n(&race.done, r, __ATOMIC_RELEASE);
	}
}

static long elapsed_ns(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000000L + t.tv_nsec - t0->tv_nsec;
}

/*
 * Race helper against the CPU thread on *entry, reset to fresh before each
 * round; returns the rounds in which the walk's bit was lost.
 */
static unsigned long race_helper(pgval_t *entry, pgval_t fresh, unsigned int access,
				 unsigned long va, helper_fn helper)
{
	pgval_t bit = pgval_mkdirty(0) & ~pgval_mksoft_dirty(0);
	unsigned long lost = 0, walked = 0, r;
	unsigned int seed = 54321;
	struct timespec t0;
	pthread_t cpu;

	if (!(access & ACC_WRITE))
		bit = pgval_mkyoung(0);
	race = (typeof(race)){ .va = va, .access = access };
	assert_int_equal(pthread_create(&cpu, NULL, cpu_thread, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (r = 1; r <= MAX_ROUNDS && elapsed_ns(&t0) < ROUND_NS; r++) {
		pgval_t old, now;

		WRITE_ONCE(*entry, fresh);
		__atomic_store_n(&race.round, r, __ATOMIC_RELEASE);
		wait_word(&race.started, r, true);
		pause_random(&seed, 128);
		old = helper(entry);
		wait_word(&race.done, r, true);
		now = READ_ONCE(*entry);
		walked += race.walked;
		lost += race.walked && !((old | now) & bit);
	}
	__atomic_store_n(&race.stop, true, __ATOMIC_RELAXED);
	pthread_join(cpu, NULL);
	print_message("# %lu rounds, the CPU's walk won %lu, its bit lost %lu\n", r - 1, walked,
		      lost);
	assert_true(walked > 0);
	return lost;
}

static pgval_t *pte_entry(void)
{
	return &test_find_pte(&mm, VA_PTE)->pte;
}

static pgval_t *pmd_entry(void)
{
	return &mm_find_pmd(&mm, VA_PMD)->pmd;
}

/* The helpers, each as its caller uses it; the count of used entries is the test's to keep. */
static pgval_t do_ptep_set_wrprotect(pgval_t *e)
{
	ptep_set_wrprotect(&mm, VA_PTE, (pte_t *)e);
	return 0;
}

static pgval_t do_ptep_get_and_clear(pgval_t *e)
{
	pgval_t old = pte_val(ptep_get_and_clear(&mm, VA_PTE, (pte_t *)e));

	pte_table_add_used((pte_t *)e, 1);      /* the next round's fresh entry is stored plainly */
	return old;
}

static pgval_t do_ptep_test_and_clear_young(pgval_t *e)
{
	return ptep_test_and_clear_young(&mm, VA_PTE, (pte_t *)e) ? pgval_mkyoung(0) : 0;
}

/* mprotect's way: read-only, built from what start took out. */
static pgval_t do_ptep_modify_prot(pgval_t *e)
{
	pte_t old = ptep_modify_prot_start(&mm, VA_PTE, (pte_t *)e);

	ptep_modify_prot_commit(&mm, VA_PTE, (pte_t *)e, old, pte_modify(old, PAGE_USER_RO));
	return 0;
}

/* fork's: the parent's PTE write-protected, the child's a copy. */
static pgval_t do_copy_ptes(pgval_t *e)
{
	pte_t child;

	__copy_ptes(&child, (pte_t *)e, 1, true);
	return 0;
}

/* zap's batch clear. */
static pgval_t do_get_and_clear_ptes(pgval_t *e)
{
	return pte_val(__get_and_clear_ptes((pte_t *)e, 1));
}

static pgval_t do_pmdp_set_wrprotect(pgval_t *e)
{
	pmdp_set_wrprotect(&mm, VA_PMD, (pmd_t *)e);
	return 0;
}

/* A split's first step: its PTEs are built from the returned leaf. */
static pgval_t do_pmdp_invalidate(pgval_t *e)
{
	return pmd_val(pmdp_invalidate(&mm, VA_PMD, (pmd_t *)e));
}

static void test_pte_helpers_keep_ad(void **state)
{
	pgval_t fresh = pte_val(pfn_pte(page_to_pfn(alloc_page(0)), PAGE_USER_RW));

	(void)state;
	assert_int_equal(pgtable_map(mm.pgd, VA_PTE, pgval_pfn(fresh), PAGE_USER_RW, PT_PTE), 0);
	assert_int_equal(race_helper(pte_entry(), fresh, ACC_WRITE, VA_PTE, do_ptep_set_wrprotect), 0);
	assert_int_equal(race_helper(pte_entry(), fresh, ACC_WRITE, VA_PTE, do_ptep_get_and_clear), 0);
	assert_int_equal(race_helper(pte_entry(), fresh, 0, VA_PTE, do_ptep_test_and_clear_young), 0);
	assert_int_equal(race_helper(pte_entry(), fresh, ACC_WRITE, VA_PTE, do_ptep_modify_prot), 0);
	assert_int_equal(race_helper(pte_entry(), fresh, ACC_WRITE, VA_PTE, do_copy_ptes), 0);
	assert_int_equal(race_helper(pte_entry(), fresh, ACC_WRITE, VA_PTE, do_get_and_clear_ptes), 0);
	WRITE_ONCE(*pte_entry(), fresh);
	assert_int_equal(pgtable_unmap(mm.pgd, VA_PTE, PT_PTE, NULL), 0);
	__free_page(pfn_to_page(pgval_pfn(fresh)));
}

static void test_pmd_helpers_keep_ad(void **state)
{
	struct page *huge = alloc_pages(0, HPAGE_PMD_ORDER);
	pgval_t fresh = pmd_val(pfn_pmd_huge(page_to_pfn(huge), PAGE_USER_RW));

	(void)state;
	assert_int_equal(pgtable_map(mm.pgd, VA_PMD, page_to_pfn(huge), PAGE_USER_RW, PT_PMD), 0);
	assert_int_equal(race_helper(pmd_entry(), fresh, ACC_WRITE, VA_PMD, do_pmdp_set_wrprotect), 0);
	assert_int_equal(race_helper(pmd_entry(), fresh, ACC_WRITE, VA_PMD, do_pmdp_invalidate), 0);
	WRITE_ONCE(*pmd_entry(), fresh);
	assert_int_equal(pgtable_unmap(mm.pgd, VA_PMD, PT_PMD, NULL), 0);
	__free_pages(huge, HPAGE_PMD_ORDER);
}

static int boot(void **state)
{
	(void)state;
	host_machine_boot(64UL << 20);
	mm.pgd = pgd_alloc();
	return mm.pgd ? 0 : -1;
}

static int shutdown(void **state)
{
	(void)state;
	host_machine_shutdown();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pte_helpers_keep_ad, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_pmd_helpers_keep_ad, boot, shutdown),
	};

	return cmocka_run_group_tests_name("pte_ad", tests, NULL, NULL);
}
