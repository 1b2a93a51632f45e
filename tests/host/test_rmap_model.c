/*
 * Model-based randomized test of the rmap core (both mapcount modes).
 *
 * A reference model records every mapping exactly: for each live folio,
 * per mm, how many PTEs map each page and how many PMDs map the folio.
 * Random operations — new folio, map/unmap PTE ranges, map/unmap/split
 * PMDs, fork (dup of every mapping of an mm into a new mm), mm exit — run
 * on the real code and on the model; after each one the touched folios are
 * compared field by field:
 *   - large and entire mapcount exact; per-page mapcounts and
 *     _nr_pages_mapped exact with PAGE_MAPCOUNT, untouched without;
 *   - folio_maybe_mapped_shared() never false while two mms map the folio;
 *     exactly right while no more than two mms have mapped it at once since
 *     its allocation (then the slot counts are exact too);
 *   - slot counts never below -1 stored, free slots at -1, a fully
 *     unmapped folio with both slots free and the shared bit clear, no slot
 *     naming an mm that exited;
 *   - AnonPages/AnonHugePages, and the deferred split queue, as the
 *     table in docs/large-folio-series.md says.
 * It also measures the false-positive rate of folio_maybe_mapped_shared():
 * the share of checks where it said "maybe shared" while one mm held all
 * mappings.
 *
 * Bounded by FOLIOS_MODEL_OPS (default 1000000 operations in all);
 * FOLIOS_SEED picks the seed; both are printed, and a failure prints the
 * seed, scenario and operation number to reproduce it.
 */
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define PM IS_ENABLED(CONFIG_PAGE_MAPCOUNT)
#define MAX_MMS 6
#define MAX_FOLIOS 12

struct mfolio {
	struct folio *f;
	int nr;
	short pte[MAX_MMS][512];        /* PTE mappings of each page by each mm */
	short pmd[MAX_MMS];             /* PMD mappings of the folio by each mm */
	/* kept in step by model_pte()/model_pmd(): */
	int total[MAX_MMS];             /* all mappings of each mm */
	short page_sum[512];            /* PTE mappings of each page, all mms */
	int lm, em, pte_pages;
	int npm_raw;                    /* _nr_pages_mapped as allocated */
	int max_mms;                    /* most mms mapping it at once, ever */
	bool queued;                    /* expected on the deferred split queue */
};

struct scenario {
	const char *name;
	int live_mms_max;               /* mms alive at once */
	int w_new, w_map, w_unmap, w_pmd, w_fork, w_exit;
};

static struct mfolio folios[MAX_FOLIOS];
static struct test_mm mms[MAX_MMS];
static bool live[MAX_MMS];
static u64 rng;
static unsigned long seed, op_no;
static const char *scenario_name;
static long expect_anon, expect_thps;
static unsigned long fp_checks, fp_hits, checks_done;

#define CHECK(cond, ...) do {                                                  \
	if (!(cond)) {                                                         \
		fprintf(stderr, "model: seed %lu scenario %s op %lu: ", seed,  \
			scenario_name, op_no);                                 \
		fprintf(stderr, __VA_ARGS__);                                  \
		fprintf(stderr, "\n");                                         \
		if (fuzz_data)                                                 \
			abort();        /* a finding for libFuzzer */          \
		fail_msg("model check failed: %s", #cond);                     \
	}                                                                      \
} while (0)

/*
 * The fuzz target (tests/host/fuzz_rmap.c) replaces the PRNG by its input
 * bytes: each draw takes two; when they run out, the PRNG finishes the
 * operation under way (so no picking loop can spin) and the run ends.
 */
static const u8 *fuzz_data;
static size_t fuzz_len;

static u64 rnd(void)
{
	if (fuzz_data && fuzz_len >= 2) {
		u64 v = (u64)fuzz_data[0] << 8 | fuzz_data[1];

		fuzz_data += 2;
		fuzz_len -= 2;
		return v * 0x9e3779b97f4a7c15ULL >> 16;
	}
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int rnd_below(int n)
{
	return (int)(rnd() % (u64)n);
}

static void model_pte(struct mfolio *m, int mm, int i, int delta)
{
	m->pte[mm][i] += delta;
	m->total[mm] += delta;
	m->lm += delta;
	if (delta > 0 && m->page_sum[i] == 0)
		m->pte_pages++;
	m->page_sum[i] += delta;
	if (delta < 0 && m->page_sum[i] == 0)
		m->pte_pages--;
}

static void model_pmd(struct mfolio *m, int mm, int delta)
{
	m->pmd[mm] += delta;
	m->total[mm] += delta;
	m->lm += delta;
	m->em += delta;
}

static int mm_total(const struct mfolio *m, int mm)
{
	return m->total[mm];
}

static int nr_mapping_mms(const struct mfolio *m)
{
	int n = 0;

	for (int mm = 0; mm < MAX_MMS; mm++)
		n += m->total[mm] > 0;
	return n;
}

/* Pages mapped, summed over every mapping: the RFC's _total_mapped_pages. */
static long model_total_mapped_pages(const struct mfolio *m)
{
	long total = (long)m->em * m->nr;

	for (int i = 0; i < m->nr; i++)
		total += m->page_sum[i];
	return total;
}

/* What this folio adds to NR_ANON_MAPPED / NR_ANON_THPS in this mode. */
static void contribution(const struct mfolio *m, long *anon, long *thps)
{
	*thps = m->em ? m->nr : 0;
	if (!PM)
		*anon = m->lm ? m->nr : 0;
	else
		*anon = m->em ? m->nr : m->pte_pages;
}

static void check_slot(const struct mfolio *m, int idx)
{
	const struct folio *f = m->f;
	unsigned int id = folio_mm_id(f, idx);
	int stored = f->_mm_id_mapcount[idx];

	CHECK(stored >= -1, "slot %d count %d below -1", idx, stored);
	if (id == MM_ID_DUMMY) {
		CHECK(stored == -1, "free slot %d with count %d", idx, stored);
		return;
	}
	for (int mm = 0; mm < MAX_MMS; mm++) {
		if (!live[mm] || mms[mm].mm->mm_id != id)
			continue;
		CHECK(stored + 1 <= mm_total(m, mm), "slot %d counts %d > mm's %d", idx,
		      stored + 1, mm_total(m, mm));
		if (m->max_mms <= 2)
			CHECK(stored + 1 == mm_total(m, mm), "slot %d counts %d, mm has %d",
			      idx, stored + 1, mm_total(m, mm));
		return;
	}
	CHECK(false, "slot %d names MM ID %u, which no live mm has", idx, id);
}

/* Compare one folio with the model, field by field. */
static void check_folio(struct mfolio *m)
{
	const struct folio *f = m->f;
	int lm = m->lm, em = m->em, nmms = nr_mapping_mms(m);
	bool shared = folio_maybe_mapped_shared(f);

	CHECK(folio_large_mapcount(f) == lm, "large mapcount %d, model %d",
	      folio_large_mapcount(f), lm);
	CHECK(folio_entire_mapcount(f) == em, "entire mapcount %d, model %d",
	      folio_entire_mapcount(f), em);
	CHECK(folio_total_mapped_pages(f) == (unsigned long)model_total_mapped_pages(m),
	      "total mapped pages %lu, model %ld", folio_total_mapped_pages(f),
	      model_total_mapped_pages(m));
	for (int i = 0; i < m->nr; i++) {
		int got = atomic_read(&folio_page((struct folio *)f, i)->_mapcount) + 1;

		if (IS_ENABLED(CONFIG_MAPCOUNT_PAGES) && i == 1)
			continue;       /* page[1]'s _mapcount is the large mapcount */

		CHECK(got == (PM ? m->page_sum[i] : 0), "page %d mapcount %d, model %d", i, got,
		      PM ? m->page_sum[i] : 0);
	}
	if (!PM && !IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		CHECK(atomic_read(&f->_nr_pages_mapped) == m->npm_raw,
		      "NO_PAGE_MAPCOUNT touched _nr_pages_mapped (%#x -> %#x)", m->npm_raw,
		      atomic_read(&f->_nr_pages_mapped));
	if (PM)
		CHECK(atomic_read(&f->_nr_pages_mapped) == m->pte_pages + (em ? ENTIRELY_MAPPED : 0),
		      "nr_pages_mapped %#x, model %#x", atomic_read(&f->_nr_pages_mapped),
		      m->pte_pages + (em ? ENTIRELY_MAPPED : 0));
	if (nmms >= 2)
		CHECK(shared, "false 'exclusive' with %d mms mapping", nmms);
	if (m->max_mms <= 2)
		CHECK(shared == (nmms >= 2), "maybe_mapped_shared %d with %d mms (never >2)",
		      shared, nmms);
	check_slot(m, 0);
	check_slot(m, 1);
	if (!lm)
		CHECK(f->_mm_ids == 0 && f->_mm_id_mapcount[0] == -1 &&
		      f->_mm_id_mapcount[1] == -1, "unmapped folio with slots %#lx", f->_mm_ids);
	CHECK(folio_test_partially_mapped(f) == m->queued, "partially_mapped %d, model %d",
	      folio_test_partially_mapped(f), m->queued);
	if (nmms == 1) {
		fp_checks++;
		fp_hits += shared;
	}
	checks_done++;
}

static void account(struct mfolio *m, int sign)
{
	long a, t;

	contribution(m, &a, &t);
	expect_anon += sign * a;
	expect_thps += sign * t;
}

/* Record "most mms at once" after a mapping was added. */
static void note_mms(struct mfolio *m)
{
	m->max_mms = MAX(m->max_mms, nr_mapping_mms(m));
}

/* Free a folio nobody maps any more, as the last reference drop would. */
static void maybe_free(struct mfolio *m)
{
	if (m->lm)
		return;
	set_page_count(&m->f->page, 1);
	folio_put(m->f);
	CHECK(nr_bad_pages == 0, "bad page on free");
	memset(m, 0, sizeof(*m));
}

static int pick_live_mm(void)
{
	for (;;) {
		int mm = rnd_below(MAX_MMS);

		if (live[mm])
			return mm;
	}
}

static void op_new(void)
{
	static const unsigned char orders[] = { 1, 2, 2, 3, 4, 4, 5, 6, 9, 9 };
	int mm = pick_live_mm(), slot = -1;
	unsigned int order = orders[rnd_below(sizeof(orders))];
	struct mfolio *m;

	for (int i = 0; i < MAX_FOLIOS && slot < 0; i++)
		if (!folios[i].f)
			slot = i;
	if (slot < 0)
		return;
	m = &folios[slot];
	m->f = folio_alloc(0, order);
	CHECK(m->f, "out of memory");
	m->nr = 1 << order;
	m->npm_raw = atomic_read(&m->f->_nr_pages_mapped);
	folio_add_new_anon_rmap(m->f, &mms[mm].vma, 0, RMAP_EXCLUSIVE);
	if (order == HPAGE_PMD_ORDER)
		model_pmd(m, mm, 1);
	else
		for (int i = 0; i < m->nr; i++)
			model_pte(m, mm, i, 1);
	m->max_mms = 1;
	account(m, 1);
	check_folio(m);
}

static struct mfolio *pick_folio(void)
{
	for (int tries = 0; tries < 4 * MAX_FOLIOS; tries++) {
		struct mfolio *m = &folios[rnd_below(MAX_FOLIOS)];

		if (m->f)
			return m;
	}
	return NULL;
}

/*
 * Expected deferred-split decision after removing mappings (docs/large-folio-series.md;
 * with MAPCOUNT_PAGES the RFC's: fewer pages mapped in all than the folio
 * has, after any removal).
 */
static void expect_queue(struct mfolio *m, int pte_pages_before, bool pmd_op, bool last_pmd)
{
	bool partial;

	if (PM && !pmd_op)
		partial = !m->em && m->pte_pages < pte_pages_before && m->pte_pages;
	else if (PM)
		partial = last_pmd && m->pte_pages && m->pte_pages < m->nr;
	else if (IS_ENABLED(CONFIG_MAPCOUNT_PAGES))
		partial = model_total_mapped_pages(m) && model_total_mapped_pages(m) < m->nr;
	else if (!pmd_op)
		partial = m->lm && m->lm < m->nr && !m->em;
	else
		partial = last_pmd && m->lm && m->lm < m->nr;
	if (partial && m->nr > 2)
		m->queued = true;
}

static int pte_mapped_pages(const struct mfolio *m)
{
	return m->pte_pages;
}

/* Remove len PTE mappings of mm from the model and the folio. */
static void remove_ptes(struct mfolio *m, int mm, int start, int len)
{
	int before = pte_mapped_pages(m);

	account(m, -1);
	folio_remove_rmap_ptes(m->f, folio_page(m->f, start), len, &mms[mm].vma);
	for (int i = start; i < start + len; i++)
		model_pte(m, mm, i, -1);
	account(m, 1);
	expect_queue(m, before, false, false);
}

/* Remove one PMD mapping of mm from the model and the folio. */
static void remove_pmd(struct mfolio *m, int mm)
{
	int before = pte_mapped_pages(m);

	account(m, -1);
	folio_remove_rmap_pmd(m->f, &m->f->page, &mms[mm].vma);
	model_pmd(m, mm, -1);
	account(m, 1);
	expect_queue(m, before, true, m->em == 0);
}

/* Unmap a run of pages that one mm maps by PTEs. */
static void op_unmap_ptes(void)
{
	struct mfolio *m = pick_folio();
	int mm, start, len = 0;

	if (!m)
		return;
	mm = pick_live_mm();
	start = rnd_below(m->nr);
	while (start < m->nr && !m->pte[mm][start])
		start++;
	if (start == m->nr)
		return;
	while (start + len < m->nr && m->pte[mm][start + len] && len < 1 + rnd_below(m->nr))
		len++;
	remove_ptes(m, mm, start, len);
	check_folio(m);
	maybe_free(m);
}

/*
 * Map a run of pages again by PTEs, as a swap-in or migration would: only
 * pages this mm does not map yet (an mm maps an anon page at most once).
 */
static void op_map_ptes(void)
{
	struct mfolio *m = pick_folio();
	int mm, start, len = 0, max;

	if (!m)
		return;
	mm = pick_live_mm();
	if (m->pmd[mm])
		return;
	start = rnd_below(m->nr);
	max = 1 + rnd_below(m->nr - start);
	while (len < max && !m->pte[mm][start + len])
		len++;
	if (!len)
		return;
	/* pages that more than one mapping reaches were shared: none is exclusive */
	for (int i = 0; i < m->nr; i++)
		ClearPageAnonExclusive(folio_page(m->f, i));
	account(m, -1);
	folio_add_anon_rmap_ptes(m->f, folio_page(m->f, start), len, &mms[mm].vma,
				 (unsigned long)start << PAGE_SHIFT, RMAP_NONE);
	for (int i = start; i < start + len; i++)
		model_pte(m, mm, i, 1);
	account(m, 1);
	note_mms(m);
	check_folio(m);
}

/* PMD operations on a PMD-sized folio: map another, unmap one, or split one. */
static void op_pmd(void)
{
	struct mfolio *m = pick_folio();
	int mm, kind;

	if (!m || m->nr != 1 << HPAGE_PMD_ORDER)
		return;
	mm = pick_live_mm();
	kind = rnd_below(3);
	if (kind > 0 && !m->pmd[mm])
		kind = 0;
	if (kind == 0 && mm_total(m, mm))
		return;                 /* this mm maps it already */
	if (kind == 2 && mm_total(m, mm) != 1)
		return;                 /* split only a PMD that maps it alone */
	if (kind == 1) {
		remove_pmd(m, mm);
		check_folio(m);
		maybe_free(m);
		return;
	}
	account(m, -1);
	if (kind == 0) {
		for (int i = 0; i < m->nr; i++)
			ClearPageAnonExclusive(folio_page(m->f, i));
		folio_add_anon_rmap_pmd(m->f, &m->f->page, &mms[mm].vma, 0, RMAP_NONE);
		model_pmd(m, mm, 1);
		note_mms(m);
	} else {
		folio_remap_pmd_as_ptes(m->f, &m->f->page, &mms[mm].vma, 0);
		model_pmd(m, mm, -1);
		for (int i = 0; i < m->nr; i++)
			model_pte(m, mm, i, 1);
	}
	account(m, 1);
	check_folio(m);
}

/* fork: a new mm gets every mapping the parent has (PTEs and PMDs). */
static void op_fork(int live_max)
{
	int parent = pick_live_mm(), child = -1, nlive = 0;

	for (int mm = 0; mm < MAX_MMS; mm++) {
		nlive += live[mm];
		if (!live[mm] && child < 0)
			child = mm;
	}
	if (child < 0 || nlive >= live_max)
		return;
	test_mm_init(&mms[child], &mms[parent]);
	CHECK(mms[child].mm, "mm_alloc failed");
	live[child] = true;
	for (int k = 0; k < MAX_FOLIOS; k++) {
		struct mfolio *m = &folios[k];

		if (!m->f)
			continue;
		account(m, -1);
		for (int p = 0; p < m->pmd[parent]; p++) {
			CHECK(!folio_try_dup_anon_rmap_pmd(m->f, &m->f->page, &mms[child].vma,
							   &mms[parent].vma), "dup pmd");
			model_pmd(m, child, 1);
		}
		for (int layer = 1; ; layer++) {        /* pages mapped >= layer times */
			bool any = false;

			for (int i = 0; i < m->nr; ) {
				int len = 0;

				while (i + len < m->nr && m->pte[parent][i + len] >= layer)
					len++;
				if (!len) {
					i++;
					continue;
				}
				CHECK(!folio_try_dup_anon_rmap_ptes(m->f, folio_page(m->f, i), len,
								    &mms[child].vma, &mms[parent].vma),
				      "dup ptes");
				for (int j = i; j < i + len; j++)
					model_pte(m, child, j, 1);
				any = true;
				i += len;
			}
			if (!any)
				break;
		}
		account(m, 1);
		note_mms(m);
		check_folio(m);
	}
}

/* exit: an mm unmaps everything it maps, then goes; its MM ID is freed. */
static void op_exit(void)
{
	int mm = pick_live_mm(), nlive = 0;
	unsigned int id;

	for (int i = 0; i < MAX_MMS; i++)
		nlive += live[i];
	if (nlive <= 1)
		return;
	for (int k = 0; k < MAX_FOLIOS; k++) {
		struct mfolio *m = &folios[k];

		if (!m->f || !mm_total(m, mm))
			continue;
		while (m->pmd[mm])
			remove_pmd(m, mm);
		while (mm_total(m, mm)) {
			int start = 0, len = 0;

			while (!m->pte[mm][start])
				start++;
			while (start + len < m->nr && m->pte[mm][start + len])
				len++;
			remove_ptes(m, mm, start, len);
		}
		check_folio(m);
	}
	id = mms[mm].mm->mm_id;
	live[mm] = false;
	for (int k = 0; k < MAX_FOLIOS; k++)
		if (folios[k].f)
			CHECK(folio_mm_id(folios[k].f, 0) != id && folio_mm_id(folios[k].f, 1) != id,
			      "a slot still names exited MM ID %u", id);
	test_mm_exit(&mms[mm]);
	for (int k = 0; k < MAX_FOLIOS; k++)
		if (folios[k].f)
			maybe_free(&folios[k]);
}

static void run_scenario(const struct scenario *sc, unsigned long nr_ops)
{
	int total = sc->w_new + sc->w_map + sc->w_unmap + sc->w_pmd + sc->w_fork + sc->w_exit;

	host_machine_boot(96UL << 20);
	memset(folios, 0, sizeof(folios));
	memset(live, 0, sizeof(live));
	test_mm_init(&mms[0], NULL);
	live[0] = true;
	expect_anon = expect_thps = 0;
	fp_checks = fp_hits = checks_done = 0;
	scenario_name = sc->name;
	rng = seed * 2654435761UL + 1;
	for (op_no = 0; op_no < nr_ops && (!fuzz_data || fuzz_len >= 2); op_no++) {
		int r = rnd_below(total);

		if ((r -= sc->w_new) < 0)
			op_new();
		else if ((r -= sc->w_map) < 0)
			op_map_ptes();
		else if ((r -= sc->w_unmap) < 0)
			op_unmap_ptes();
		else if ((r -= sc->w_pmd) < 0)
			op_pmd();
		else if ((r -= sc->w_fork) < 0)
			op_fork(sc->live_mms_max);
		else
			op_exit();
		CHECK(anon_pages() == expect_anon, "AnonPages %ld, model %ld", anon_pages(), expect_anon);
		CHECK(anon_thps() == expect_thps, "AnonHugePages %ld, model %ld", anon_thps(), expect_thps);
		CHECK(nr_warnings == 0, "a sanity check warned: %s", host_log());
	}
	if (fuzz_data)
		return;
	printf("# model %-10s %s: %lu ops, %lu folio checks; maybe_mapped_shared false positives: "
	       "%lu of %lu single-mm checks (%.2f%%)\n",
	       sc->name, MAPCOUNT_VARIANT, nr_ops, checks_done, fp_hits,
	       fp_checks, fp_checks ? 100.0 * fp_hits / fp_checks : 0.0);
	if (sc->live_mms_max <= 2)
		CHECK(fp_hits == 0, "false positives although never more than two mms");
}

static const struct scenario scenarios[] = {
	/* name        mms  new map unmap pmd fork exit */
	{ "two-mms",     2,  10,  10,  40,  10,  8,  6 },
	{ "fork-exit",   6,  10,  10,  40,  10,  8,  8 },
	{ "many-mms",    6,  10,  15,  30,  10, 12,  3 },
};

static unsigned long total_ops;

static void test_scenario(void **state)
{
	const struct scenario *sc = *state;

	run_scenario(sc, total_ops / ARRAY_SIZE(scenarios));
}

static int set_state(void **state)
{
	(void)state;
	return 0;
}

#ifndef RMAP_MODEL_FUZZ
int main(void)
{
	const char *s = getenv("FOLIOS_SEED"), *n = getenv("FOLIOS_MODEL_OPS");
	struct CMUnitTest tests[ARRAY_SIZE(scenarios)];

	seed = s ? strtoul(s, NULL, 0) : 20250303;
	total_ops = n ? strtoul(n, NULL, 0) : 1000000;
	printf("# rmap model: seed %lu (FOLIOS_SEED), %lu operations (FOLIOS_MODEL_OPS)\n",
	       seed, total_ops);
	for (unsigned int i = 0; i < ARRAY_SIZE(scenarios); i++)
		tests[i] = (struct CMUnitTest){ scenarios[i].name, test_scenario, set_state, NULL,
						(void *)&scenarios[i] };
	return cmocka_run_group_tests_name("rmap model", tests, NULL, NULL);
}
#endif
