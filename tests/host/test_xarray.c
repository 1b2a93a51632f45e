/*
 * Host tests of the page-cache index (lib/xarray.c): random stores,
 * loads, erases, range stores and finds against a model (a plain array),
 * sparse and dense, and running out of memory halfway through a store.
 * Every node must be freed when the tree empties (kmalloc_bytes).  And
 * lockless readers (rcu_read_lock) racing with a writer that grows and
 * shrinks the tree only ever see an index's entry or nothing.
 */
#include "linux/errno.h"
#include "linux/xarray.h"
#include "tests/host/hostenv.h"
#include "linux/mm.h"
#include "linux/fault-inject.h"
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define MODEL_SIZE      4096

/* The model: what each index of [base, base + MODEL_SIZE) holds. */
struct model {
	unsigned long base;
	void *slot[MODEL_SIZE];
};

static struct mem_counts before;

static int boot(void **state)
{
	(void)state;
	host_machine_boot(16UL << 20);
	mem_counts_snapshot(&before);
	return 0;
}

static int shutdown(void **state)
{
	struct mem_counts after;

	(void)state;
	rcu_barrier();
	mem_counts_snapshot(&after);
	assert_true(mem_counts_equal(&before, &after));
	host_machine_shutdown();
	return 0;
}

/* Levels of nodes under xa_head: 0 while it holds the entry at index 0 alone. */
static unsigned int height(const struct xarray *xa)
{
	return xa_is_node(xa->xa_head) ? xa_to_node(xa->xa_head)->shift / XA_CHUNK_SHIFT + 1 : 0;
}

/* Nodes are freed a grace period after they leave the tree: wait for that. */
static unsigned long kmalloc_bytes_settled(void)
{
	rcu_barrier();
	return kmalloc_bytes;
}

/* A fake entry: any kernel pointer with the two low bits clear will do. */
static void *entry_of(unsigned long v)
{
	return (void *)((v << 3) | 0x1000);
}

/* Every index of the model (and just around it) loads what the model says. */
static void check_loads(const struct xarray *xa, const struct model *m)
{
	for (unsigned long i = 0; i < MODEL_SIZE; i++)
		assert_ptr_equal(xa_load(xa, m->base + i), m->slot[i]);
	if (m->base)
		assert_null(xa_load(xa, m->base - 1));
	assert_null(xa_load(xa, m->base + MODEL_SIZE));
	assert_null(xa_load(xa, ~0UL));
}

/* xa_find from each of some starting points agrees with a scan of the model. */
static void check_find(const struct xarray *xa, const struct model *m, unsigned long from,
		       unsigned long max)
{
	unsigned long index = m->base + from, expect = from;
	void *entry = xa_find(xa, &index, m->base + max);

	while (expect <= max && !m->slot[expect])
		expect++;
	if (expect > max) {
		assert_null(entry);
		return;
	}
	assert_ptr_equal(entry, m->slot[expect]);
	assert_int_equal(index, m->base + expect);
}

/* Count the entries xa_for_each_range visits; each must be where the model has it. */
static unsigned long check_for_each(const struct xarray *xa, const struct model *m)
{
	unsigned long index, n = 0;
	void *entry;

	xa_for_each_range(xa, index, entry, m->base, m->base + MODEL_SIZE - 1) {
		assert_ptr_equal(entry, m->slot[index - m->base]);
		n++;
	}
	return n;
}

/* ops random operations within [0, span) of the model, span <= MODEL_SIZE. */
static void random_ops(struct xarray *xa, struct model *m, unsigned long span, int ops)
{
	for (int op = 0; op < ops; op++) {
		unsigned long i = rand() % span, n = 1 + rand() % 16, last = i + rand() % 200;
		void *e = entry_of(rand());

		switch (rand() % 5) {
		case 0:
		case 1:
			assert_int_equal(xa_store(xa, m->base + i, e), 0);
			m->slot[i] = e;
			break;
		case 2:
			assert_ptr_equal(xa_erase(xa, m->base + i), m->slot[i]);
			m->slot[i] = NULL;
			break;
		case 3:
			n = MIN(n, span - i);
			assert_int_equal(xa_store_range(xa, m->base + i, m->base + i + n - 1, e), 0);
			for (unsigned long k = i; k < i + n; k++)
				m->slot[k] = e;
			break;
		default:
			check_find(xa, m, i, MIN(span - 1, last));
		}
	}
}

static void run_model(unsigned long base, unsigned long span, int ops)
{
	static struct model m;
	struct xarray xa = XARRAY_INIT("test xarray");
	unsigned long present = 0;

	memset(&m, 0, sizeof(m));
	m.base = base;
	xa_lock(&xa);                   /* changes need it; it also makes loads safe */
	random_ops(&xa, &m, span, ops);
	check_loads(&xa, &m);
	for (unsigned long i = 0; i < MODEL_SIZE; i++)
		present += m.slot[i] != NULL;
	assert_int_equal(check_for_each(&xa, &m), present);
	for (unsigned long i = 0; i < MODEL_SIZE; i++) {
		assert_ptr_equal(xa_erase(&xa, base + i), m.slot[i]);
		m.slot[i] = NULL;
	}
	assert_true(xa_empty(&xa));
	assert_int_equal(height(&xa), 0);
	xa_unlock(&xa);
	assert_int_equal(kmalloc_bytes_settled(), before.kmalloc_bytes);
}

/* Dense: every index near 0 in use, ops crowd 300 slots (several leaf nodes). */
static void test_dense(void **state)
{
	(void)state;
	srand(1);
	run_model(0, 300, 20000);
}

/* Sparse: a wide span, and a base so high the tree needs every level. */
static void test_sparse(void **state)
{
	(void)state;
	srand(2);
	run_model(0, MODEL_SIZE, 20000);
	run_model(0x123456789000UL, MODEL_SIZE, 20000);
	run_model(~0UL - MODEL_SIZE + 1, MODEL_SIZE, 10000);
}

/* Height: grows for a far index, shrinks back when only index 0 is left. */
static void test_grow_shrink(void **state)
{
	struct xarray xa = XARRAY_INIT("test xarray");
	unsigned long index = 1;

	(void)state;
	xa_lock(&xa);
	assert_int_equal(xa_store(&xa, 0, entry_of(1)), 0);
	assert_int_equal(height(&xa), 0);                      /* in xa_head itself */
	assert_int_equal(xa_store(&xa, 64 * 64, entry_of(2)), 0);
	assert_int_equal(height(&xa), 3);
	assert_int_equal(xa_store(&xa, ~0UL, entry_of(3)), 0);
	assert_int_equal(height(&xa), 11);
	assert_ptr_equal(xa_find(&xa, &index, ~0UL), entry_of(2));
	assert_int_equal(index, 64 * 64);
	index++;
	assert_ptr_equal(xa_find(&xa, &index, ~0UL), entry_of(3));
	assert_int_equal(index, ~0UL);
	assert_ptr_equal(xa_erase(&xa, ~0UL), entry_of(3));
	assert_int_equal(height(&xa), 3);
	assert_ptr_equal(xa_erase(&xa, 64 * 64), entry_of(2));
	assert_int_equal(height(&xa), 0);
	assert_ptr_equal(xa_load(&xa, 0), entry_of(1));
	assert_int_equal(kmalloc_bytes_settled(), before.kmalloc_bytes);
	assert_ptr_equal(xa_erase(&xa, 0), entry_of(1));
	assert_true(xa_empty(&xa));
	xa_unlock(&xa);
}

/*
 * A 512-slot range (a 2 MiB folio) stored while kmalloc fails at each
 * allocation in turn: -ENOMEM leaves the tree as it was, then it works.
 */
static void test_store_range_nomem(void **state)
{
	struct xarray xa = XARRAY_INIT("test xarray");
	unsigned long index;
	int failures = 0;

	(void)state;
	xa_lock(&xa);
	assert_int_equal(xa_store(&xa, 5, entry_of(5)), 0);
	for (int n = 0;; n++) {
		char spec[32];
		int ret;

		snprintf(spec, sizeof(spec), "1,100,%d,1", n);
		assert_int_equal(setup_fault_attr(&failslab, spec), 0);
		fault_inject_arm(true);
		ret = xa_store_range(&xa, 4096 + 512, 4096 + 1023, entry_of(7));
		fault_inject_arm(false);
		fault_inject_init();
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		failures++;
		assert_int_equal(height(&xa), 1);
		index = 6;
		assert_null(xa_find(&xa, &index, ~0UL));
		assert_ptr_equal(xa_load(&xa, 5), entry_of(5));
	}
	assert_true(failures >= 3);     /* the new root, a level-2 node, a leaf */
	index = 6;
	assert_ptr_equal(xa_find(&xa, &index, ~0UL), entry_of(7));
	assert_int_equal(index, 4096 + 512);
	index = 4096 + 1024;
	assert_null(xa_find(&xa, &index, ~0UL));
	assert_ptr_equal(xa_load(&xa, 4096 + 1023), entry_of(7));
	assert_int_equal(xa_store_range(&xa, 4096 + 512, 4096 + 1023, NULL), 0);
	assert_int_equal(height(&xa), 1);
	xa_destroy(&xa);
	xa_unlock(&xa);
	assert_int_equal(kmalloc_bytes_settled(), before.kmalloc_bytes);
}

/* xa_destroy frees every node of a full tree. */
static void test_destroy(void **state)
{
	struct xarray xa = XARRAY_INIT("test xarray");

	(void)state;
	xa_lock(&xa);
	for (unsigned long i = 0; i < 5000; i += 3)
		assert_int_equal(xa_store(&xa, i * 97, entry_of(i)), 0);
	xa_destroy(&xa);
	xa_unlock(&xa);
	assert_true(xa_empty(&xa));
	assert_int_equal(kmalloc_bytes_settled(), before.kmalloc_bytes);
}

/* Indices that make the tree grow to each height and shrink back. */
static const unsigned long race_index[] = {
	0, 1, 63, 64, 4095, 4096, 1UL << 20, (1UL << 30) + 5, 1UL << 45, ~0UL,
};
#define NR_RACE_INDEX (sizeof(race_index) / sizeof(race_index[0]))
#define NR_READERS 3
#define NR_PHASES 50
#define PHASE_OPS 2000

static struct xarray race_xa = XARRAY_INIT("race xarray");
static bool race_done;

static unsigned long race_rand(unsigned long *seed)
{
	*seed = *seed * 6364136223846793005UL + 1442695040888963407UL;
	return *seed >> 33;
}

/* Loads and finds under rcu_read_lock(): an index's own entry, or nothing. */
static void *race_reader(void *arg)
{
	unsigned long seed = (unsigned long)arg, bad = 0;

	while (!__atomic_load_n(&race_done, __ATOMIC_ACQUIRE)) {
		unsigned long index = race_index[race_rand(&seed) % NR_RACE_INDEX], found = index;
		void *entry;

		XA_STATE(xas, &race_xa, index);

		rcu_read_lock();
		entry = xa_load(&race_xa, index);
		bad += entry && entry != entry_of(index);
		entry = xas_load(&xas);
		if (entry && !xa_is_retry(entry)) {
			/* a node, if the entry was xa_head and the tree grew since */
			void *again = xas_reload(&xas);

			bad += entry != entry_of(index) || (again && !xa_is_retry(again) &&
							     !xa_is_node(again) &&
							     again != entry_of(index));
		}
		entry = xa_find(&race_xa, &found, ~0UL);
		bad += entry && (found < index || entry != entry_of(found));
		rcu_read_unlock();
	}
	return (void *)bad;
}

/*
 * A writer storing and erasing at those indices under xa_lock, in phases:
 * between two, with the readers gone, the freed nodes are let go (the
 * host's rcu_barrier, see tests/host/hostenv.c).
 */
static void race_phase(unsigned long *seed)
{
	pthread_t readers[NR_READERS];

	__atomic_store_n(&race_done, false, __ATOMIC_RELEASE);
	for (long i = 0; i < NR_READERS; i++)
		assert_int_equal(pthread_create(&readers[i], NULL, race_reader,
						(void *)(*seed + i)), 0);
	for (int n = 0; n < PHASE_OPS; n++) {
		unsigned long index = race_index[race_rand(seed) % NR_RACE_INDEX];

		xa_lock(&race_xa);
		if (race_rand(seed) % 2)
			assert_int_equal(xa_store(&race_xa, index, entry_of(index)), 0);
		else
			xa_erase(&race_xa, index);
		xa_unlock(&race_xa);
	}
	__atomic_store_n(&race_done, true, __ATOMIC_RELEASE);
	for (int i = 0; i < NR_READERS; i++) {
		void *bad;

		pthread_join(readers[i], &bad);
		assert_int_equal((unsigned long)bad, 0);
	}
	rcu_barrier();
}

static void test_lockless_readers(void **state)
{
	unsigned long seed = 1;

	(void)state;
	for (int phase = 0; phase < NR_PHASES; phase++)
		race_phase(&seed);
	xa_lock(&race_xa);
	xa_destroy(&race_xa);
	xa_unlock(&race_xa);
	assert_int_equal(kmalloc_bytes_settled(), before.kmalloc_bytes);
}

/*
 * A lookup's second look (xas_reload) reads the slot it found the entry
 * in: after the tree shrank the entry into xa_head, that slot says retry.
 */
static void test_reload_after_shrink(void **state)
{
	struct xarray xa = XARRAY_INIT("test xarray");
	XA_STATE(xas, &xa, 0);

	(void)state;
	xa_lock(&xa);
	assert_int_equal(xa_store(&xa, 0, entry_of(1)), 0);
	assert_int_equal(xa_store(&xa, 64, entry_of(2)), 0);
	assert_ptr_equal(xas_load(&xas), entry_of(1));
	assert_ptr_equal(xas_reload(&xas), entry_of(1));
	assert_ptr_equal(xa_erase(&xa, 64), entry_of(2));
	assert_int_equal(height(&xa), 0);
	assert_true(xa_is_retry(xas_reload(&xas)));
	assert_ptr_equal(xa_load(&xa, 0), entry_of(1));
	assert_ptr_equal(xas_load(&xas), entry_of(1));
	assert_ptr_equal(xas_reload(&xas), entry_of(1));
	xa_erase(&xa, 0);
	xa_unlock(&xa);
	assert_int_equal(kmalloc_bytes_settled(), before.kmalloc_bytes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dense, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_sparse, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_grow_shrink, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_store_range_nomem, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_destroy, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_lockless_readers, boot, shutdown),
		cmocka_unit_test_setup_teardown(test_reload_after_shrink, boot, shutdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
