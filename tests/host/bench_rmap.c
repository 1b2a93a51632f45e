/*
 * Host microbenchmark of the rmap core (not a test: `make bench-host`).
 * Built without sanitizers at -O2.  For nr = 1, 16 and 512 pages it times
 *   - folio_add_large_mapcount + folio_sub_large_mapcount (one pair),
 *   - folio_try_dup_anon_rmap_ptes of nr pages into a second mm, plus the
 *     folio_remove_rmap_ptes that undoes it,
 * and prints the median over 31 runs of ns per call, for this build's
 * mapcount mode.  With NO_PAGE_MAPCOUNT the mapcount work of a dup is one
 * update of the folio, whatever nr is; only PageAnonExclusive is per page.
 */
#include "tests/host/hostenv.h"
#include "tests/host/rmap_helpers.h"
#include <stdio.h>
#include <stdlib.h>
#include "tests/host/bench_util.h"

#define RUNS 31

int main(void)
{
	static const int nrs[] = { 1, 16, 512 };
	struct test_mm a, b;
	struct folio *f;
	const char *mode = MAPCOUNT_VARIANT;

	host_machine_boot(64UL << 20);
	test_mm_init(&a, NULL);
	test_mm_init(&b, &a);
	f = folio_alloc(0, HPAGE_PMD_ORDER);
	folio_add_new_anon_rmap(f, &a.vma, 0, RMAP_EXCLUSIVE);
	folio_remap_pmd_as_ptes(f, &f->page, &a.vma, 0);          /* 512 PTE mappings by a */
	printf("%-17s %5s %22s %26s\n", "mode", "nr", "add+sub large mapcount",
	       "try_dup_anon_rmap_ptes");
	for (unsigned int k = 0; k < 3; k++) {
		int nr = nrs[k], iters = 200000 / nr + 1000;
		double add_sub[RUNS], dup[RUNS];

		for (int r = 0; r < RUNS; r++) {
			double t0 = now_ns(), t1, t2;

			for (int i = 0; i < iters; i++) {
				folio_add_large_mapcount(f, nr, nr, &b.vma);
				folio_sub_large_mapcount(f, nr, nr, &b.vma);
			}
			t1 = now_ns();
			for (int i = 0; i < iters; i++) {
				folio_try_dup_anon_rmap_ptes(f, folio_page(f, 0), nr, &b.vma, &a.vma);
				folio_remove_rmap_ptes(f, folio_page(f, 0), nr, &b.vma);
			}
			t2 = now_ns();
			add_sub[r] = (t1 - t0) / iters;
			dup[r] = (t2 - t1) / iters;
		}
		printf("%-17s %5d %19.1f ns %17.1f ns (dup+remove)\n", mode, nr, median(add_sub, RUNS),
		       median(dup, RUNS));
	}
	return 0;
}
