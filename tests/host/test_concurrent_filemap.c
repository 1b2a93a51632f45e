/*
 * The page cache with real threads (issue 31): host threads fight over the
 * same few indices of one mapping, as faults and reads on several CPUs do.
 *
 *   finders     look an index up; on a miss allocate a page stamped with
 *               its index and insert it: of two finders inserting at once
 *               exactly one wins (filemap_add_folio's check and store are
 *               one step under xa_lock); the loser gets -EEXIST, drops its
 *               page and takes the winner's
 *   splitter    inserts order-2 folios and splits them under the folio
 *               lock: the refcount is frozen under xa_lock while the
 *               struct pages and slots are rewritten, so a finder's
 *               reference never lands in the middle (the split fails with
 *               -EAGAIN while a finder holds one)
 *   truncator   truncates random page ranges: each folio locked, and only
 *               truncated if still in the mapping
 *
 * Afterwards every cached folio must be consistent — at its index, owned
 * by the mapping, holding exactly the cache's references, nrpages the sum
 * of what is cached — every page a finder got carried its own index (or
 * zeros: truncation zeroes before it removes), and once the cache is
 * truncated every page is back (the fixture's leak check), with no warning.
 * FOLIOS_CONC_ROUNDS sets the rounds (default 10).
 */
#include "linux/errno.h"
#include "linux/pagemap.h"
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include "linux/mm.h"
#include "linux/vmstat.h"
#include <pthread.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

/* <stdlib.h> would bring <sys/types.h>'s loff_t, which include/linux/fs.h defines its own way. */
char *getenv(const char *name);
int atoi(const char *s);

/* A per-thread PRNG (xorshift32): rand_r is <stdlib.h>'s too. */
static unsigned int next_rand(unsigned int *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}
#include "tests/host/mm_helpers.h"

#define NR_IDX          64              /* the indices fought over */
#define NR_FINDERS      3
#define ITERS           3000
#define STAMP(i)        (0x5ca1ab1e00000000UL | (i))

MM_TEST_FIXTURE()

static struct inode inode;
static struct address_space *mapping;
static pthread_barrier_t start;

struct worker {
	pthread_t thread;
	unsigned int seed;
	unsigned long inserted, failures;
};

static unsigned long *page_stamp(struct folio *folio, pgoff_t index)
{
	return page_address(folio_page(folio, index - folio->index));
}

/* A new folio of order for aligned index, each page stamped with its index; NULL if none. */
static struct folio *stamped_folio(pgoff_t index, unsigned int order)
{
	struct folio *folio = folio_alloc(__GFP_ZERO, order);

	if (folio) {
		__folio_set_swapbacked(folio);
		for (unsigned long i = 0; i < (1UL << order); i++)
			*(unsigned long *)page_address(folio_page(folio, i)) = STAMP(index + i);
	}
	return folio;
}

/* Insert a stamped folio of order at index; true if this call's folio went in. */
static bool insert(pgoff_t index, unsigned int order, unsigned long *failures)
{
	struct folio *folio = stamped_folio(index, order);
	int err;

	if (!folio)
		return false;
	err = filemap_add_folio(mapping, folio, index);
	if (err && err != -EEXIST)
		(*failures)++;
	folio_put(folio);
	return !err;
}

/* What a fault does: find index, inserting a page on a miss; check what it got. */
static void *finder_fn(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(&start);
	for (int n = 0; n < ITERS; n++) {
		pgoff_t index = next_rand(&w->seed) % NR_IDX;
		struct folio *folio;
		unsigned long stamp;

		while (!(folio = filemap_get_folio(mapping, index)))
			w->inserted += insert(index, 0, &w->failures);
		stamp = *page_stamp(folio, index);
		if (index < folio->index || index >= folio->index + folio_nr_pages(folio) ||
		    (stamp != STAMP(index) && stamp != 0))
			w->failures++;
		folio_put(folio);
	}
	return NULL;
}

/* Insert order-2 folios and split them, under the folio lock. */
static void *splitter_fn(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(&start);
	for (int n = 0; n < ITERS; n++) {
		pgoff_t index = ALIGN_DOWN(next_rand(&w->seed) % NR_IDX, 4);
		struct folio *folio;

		w->inserted += insert(index, 2, &w->failures);
		folio = filemap_get_folio(mapping, index);
		if (!folio)
			continue;
		folio_lock(folio);
		if (folio->mapping == mapping && folio_test_large(folio))
			split_file_folio_to_order(folio, 0);
		folio_unlock(folio);
		folio_put(folio);
	}
	return NULL;
}

/* Truncate random page ranges (the one truncator: Linux's callers hold inode_lock). */
static void *truncator_fn(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(&start);
	for (int n = 0; n < ITERS; n++) {
		pgoff_t first = next_rand(&w->seed) % NR_IDX, last = first + next_rand(&w->seed) % 8;

		truncate_inode_pages_range(mapping, (loff_t)first << PAGE_SHIFT,
					   ((loff_t)(last + 1) << PAGE_SHIFT) - 1);
	}
	return NULL;
}

/* With the threads gone: every cached folio consistent, nrpages their sum. */
static void check_cache(void)
{
	unsigned long pages = 0;

	for (pgoff_t index = 0; index < NR_IDX; index++) {
		struct folio *folio = xa_load(&mapping->i_pages, index);

		if (!folio)
			continue;
		assert_ptr_equal(folio->mapping, mapping);
		assert_true(index >= folio->index && index < folio->index + folio_nr_pages(folio));
		assert_int_equal(folio_ref_count(folio), folio_nr_pages(folio));
		if (index == folio->index)
			pages += folio_nr_pages(folio);
	}
	assert_int_equal(mapping->nrpages, pages);
	assert_int_equal(global_node_page_state(NR_FILE_PAGES), pages);
}

static unsigned int rounds(void)
{
	const char *s = getenv("FOLIOS_CONC_ROUNDS");

	return s ? (unsigned int)atoi(s) : 10;
}

static void round_run(unsigned int seed)
{
	struct worker w[NR_FINDERS + 2];
	void *(*fn[NR_FINDERS + 2])(void *) = { finder_fn, finder_fn, finder_fn, splitter_fn,
						 truncator_fn };
	unsigned long inserted = 0;

	assert_int_equal(pthread_barrier_init(&start, NULL, NR_FINDERS + 2), 0);
	for (int k = 0; k < NR_FINDERS + 2; k++) {
		w[k] = (struct worker){ .seed = seed * 977 + k + 1 };
		assert_int_equal(pthread_create(&w[k].thread, NULL, fn[k], &w[k]), 0);
	}
	for (int k = 0; k < NR_FINDERS + 2; k++) {
		pthread_join(w[k].thread, NULL);
		assert_int_equal(w[k].failures, 0);
		inserted += w[k].inserted;
	}
	pthread_barrier_destroy(&start);
	assert_true(inserted > 0);
	check_cache();
	truncate_inode_pages_final(mapping);
	assert_int_equal(mapping->nrpages, 0);
	assert_int_equal(global_node_page_state(NR_FILE_PAGES), 0);
}

static void test_concurrent_filemap(void **state)
{
	(void)state;
	memset(&inode, 0, sizeof(inode));
	address_space_init_once(&inode.i_data, &inode);
	inode.i_mapping = mapping = &inode.i_data;
	inode.i_size = NR_IDX << PAGE_SHIFT;
	for (unsigned int r = 0; r < rounds(); r++)
		round_run(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_concurrent_filemap, boot, shutdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
