/*
 * Reclaim's first half (Linux's mm/vmscan.c: get_scan_count,
 * shrink_lruvec, shrink_active_list, shrink_inactive_list,
 * do_try_to_free_pages): how much of which LRU list to look at, and the
 * look itself.  What becomes of each folio taken: mm/vmscan.c.  Who
 * calls it: an allocation below the min watermark (try_to_free_pages,
 * direct reclaim) and kswapd (mm/vmscan_kswapd.c).
 *
 *   active list   ──shrink_active_list──> inactive list   (used through an
 *     ^ (used twice)    tail: made old,       │          executable file
 *     │                  moved to the head    │          mapping: stays)
 *     └──────── shrink_inactive_list <────────┘ tail: folio_check_references,
 *                                                then to swap or dropped
 *
 * Each pass of shrink_lruvec scans every evictable list by its size >>
 * priority, the anon lists against the file ones as swappiness and the
 * recent cost of each kind say (get_scan_count), and deactivates what an
 * inactive list needs when it has become smaller than its active list
 * (inactive_is_low).  Priority starts at DEF_PRIORITY (1/4096 of each
 * list) and falls by one per pass that freed too little, to 0 (all).
 *
 * Locks: lru_lock only to take folios off and count; the folios are
 * judged with it dropped (folio_referenced takes the rmap locks, the
 * folio lock is trylocked).  May sleep: the caller holds no spinlock.
 */
#include "linux/mm_inline.h"
#include "linux/swap.h"
#include "linux/rmap.h"
#include "mm/deferred_split.h"
#include "mm/vmscan.h"

int vm_swappiness = 60;                 /* /proc/sys/vm/swappiness: 0 .. 200, Linux's default */

/*
 * Take up to max folios from the tail of list lru (Linux's
 * isolate_lru_folios), looking at no more than nr_to_scan pages: each
 * gets a reference and leaves the list with PG_lru clear.  One being
 * freed (no reference to take) moves to the head for its freer to find.
 * *nr_scanned: the pages looked at.  Returns how many were taken.
 */
static unsigned int isolate_lru_folios(struct lruvec *lruvec, enum lru_list lru,
				       unsigned long nr_to_scan, struct folio **folios,
				       unsigned int max, unsigned long *nr_scanned)
{
	struct list_head *src = &lruvec->lists[lru];
	unsigned long scanned = 0, taken = 0, flags;
	unsigned int n = 0;

	spin_lock_irqsave(&lruvec->lru_lock, flags);
	while (n < max && scanned < nr_to_scan && !list_empty(src)) {
		struct folio *folio = list_last_entry(src, struct folio, lru);

		scanned += folio_nr_pages(folio);
		if (!folio_try_get(folio)) {
			list_move(&folio->lru, src);
			continue;
		}
		folio_clear_lru(folio);
		lruvec_del_folio(lruvec, folio);
		taken += folio_nr_pages(folio);
		folios[n++] = folio;
	}
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
	mod_node_page_state(NR_ISOLATED_ANON + is_file_lru(lru), taken);
	*nr_scanned = scanned;
	return n;
}

/* Undo isolate_lru_folios' count: the folios are back, or freed. */
static void isolated_done(enum lru_list lru, unsigned long taken)
{
	mod_node_page_state(NR_ISOLATED_ANON + is_file_lru(lru), -(long)taken);
}

static unsigned long folios_pages(struct folio **folios, unsigned int n)
{
	unsigned long pages = 0;

	for (unsigned int i = 0; i < n; i++)
		pages += folio_nr_pages(folios[i]);
	return pages;
}

/*
 * Reclaim from the tail of an inactive list (Linux's
 * shrink_inactive_list): up to SWAP_CLUSTER_MAX folios judged and paged
 * out by shrink_folio_list; what it cost goes to lru_note_cost.  The
 * pages freed.
 */
static unsigned long shrink_inactive_list(unsigned long nr_to_scan, struct lruvec *lruvec,
					  struct scan_control *sc, enum lru_list lru)
{
	struct folio *folios[SWAP_CLUSTER_MAX];
	unsigned long nr_scanned, taken, reclaimed;
	bool file = is_file_lru(lru);
	unsigned int n;

	n = isolate_lru_folios(lruvec, lru, nr_to_scan, folios, SWAP_CLUSTER_MAX, &nr_scanned);
	sc->nr_scanned += nr_scanned;
	count_vm_events(sc->kswapd ? PGSCAN_KSWAPD : PGSCAN_DIRECT, nr_scanned);
	count_vm_events(file ? PGSCAN_FILE : PGSCAN_ANON, nr_scanned);
	if (!n)
		return 0;
	taken = folios_pages(folios, n);
	sc->nr_activate[0] = sc->nr_activate[1] = sc->nr_io = 0;
	reclaimed = shrink_folio_list(folios, n, sc);
	isolated_done(lru, taken);
	count_vm_events(sc->kswapd ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT, reclaimed);
	count_vm_events(file ? PGSTEAL_FILE : PGSTEAL_ANON, reclaimed);
	lru_note_cost(lruvec, file, sc->nr_io, sc->nr_activate[file]);
	return reclaimed;
}

/*
 * Age an active list (Linux's shrink_active_list): folios from its tail
 * are made old and moved to the head of the inactive list — but a file
 * folio used through an executable mapping gets another round (code is
 * worth keeping).  Unevictable ones go to their list.
 */
static void shrink_active_list(unsigned long nr_to_scan, struct lruvec *lruvec,
			       struct scan_control *sc, enum lru_list lru)
{
	struct folio *folios[SWAP_CLUSTER_MAX];
	unsigned long nr_scanned, taken, rotated = 0, deactivated = 0;
	unsigned int n = isolate_lru_folios(lruvec, lru, nr_to_scan, folios, SWAP_CLUSTER_MAX,
					    &nr_scanned);

	count_vm_events(PGREFILL, nr_scanned);
	taken = folios_pages(folios, n);
	for (unsigned int i = 0; i < n; i++) {
		struct folio *folio = folios[i];
		unsigned long vm_flags;

		if (folio_evictable(folio) && folio_referenced(folio, false, &vm_flags) &&
		    (vm_flags & VM_EXEC) && folio_is_file_lru(folio)) {
			rotated += folio_nr_pages(folio);
		} else if (folio_evictable(folio)) {
			folio_clear_active(folio);
			deactivated += folio_nr_pages(folio);
		}
		folio_putback_lru(folio);
	}
	isolated_done(lru, taken);
	count_vm_events(PGDEACTIVATE, deactivated);
	if (rotated)
		lru_note_cost(lruvec, is_file_lru(lru), 0, rotated);
}

/*
 * Is the inactive list of a kind smaller than its active list (Linux's
 * inactive_is_low)?  Then the active list feeds it.  Linux wants the
 * inactive list sqrt(10 x GiB) times smaller on large machines; below 1
 * GiB, as here, just not the smaller one.
 */
static bool inactive_is_low(struct lruvec *lruvec, enum lru_list inactive_lru)
{
	unsigned long inactive = lruvec->nr_pages[inactive_lru];
	unsigned long active = lruvec->nr_pages[inactive_lru + LRU_ACTIVE];
	unsigned long gb = (inactive + active) >> (30 - PAGE_SHIFT);
	unsigned long ratio = 1;

	while (gb && (ratio + 1) * (ratio + 1) <= 10 * gb)
		ratio++;
	return inactive * ratio < active;
}

enum scan_balance {
	SCAN_EQUAL,                     /* every list by its size */
	SCAN_FRACT,                     /* anon against file by swappiness and cost */
	SCAN_ANON,
	SCAN_FILE,
};

/*
 * How many pages of each evictable list to scan this pass (Linux's
 * get_scan_count): no swap left, file only; at priority 0 everything;
 * hardly any page cache (with free memory under high), anon only; an
 * inactive file list big enough to trim, file only (the cache goes
 * first); else in proportion, anon weighted by swappiness, file by 200 -
 * swappiness, each divided by what reclaiming it cost lately.
 */
static void get_scan_count(struct lruvec *lruvec, struct scan_control *sc, unsigned long *nr)
{
	unsigned long anon_cost, file_cost, total_cost, ap, fp, file, flags;
	int swappiness = READ_ONCE(vm_swappiness);
	enum scan_balance balance = SCAN_FRACT;
	enum lru_list lru;

	spin_lock_irqsave(&lruvec->lru_lock, flags);
	total_cost = lruvec->anon_cost + lruvec->file_cost;
	anon_cost = total_cost + lruvec->anon_cost;
	file_cost = total_cost + lruvec->file_cost;
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
	file = lruvec->nr_pages[LRU_INACTIVE_FILE] + lruvec->nr_pages[LRU_ACTIVE_FILE];
	if (atomic_long_read(&nr_swap_pages) <= 0)
		balance = SCAN_FILE;
	else if (!sc->priority && swappiness)
		balance = SCAN_EQUAL;
	else if (file + READ_ONCE(zone.free_pages) <= high_wmark_pages(&zone))
		balance = SCAN_ANON;
	else if (!inactive_is_low(lruvec, LRU_INACTIVE_FILE) &&
		 lruvec->nr_pages[LRU_INACTIVE_FILE] >> sc->priority)
		balance = SCAN_FILE;
	total_cost = anon_cost + file_cost;
	ap = swappiness * (total_cost + 1) / (anon_cost + 1);
	fp = (200 - swappiness) * (total_cost + 1) / (file_cost + 1);
	for_each_evictable_lru(lru) {
		unsigned long size = lruvec->nr_pages[lru], scan = size >> sc->priority;
		bool is_file = is_file_lru(lru);

		if (balance == SCAN_FRACT)
			scan = DIV_ROUND_UP(scan * (is_file ? fp : ap), ap + fp);
		else if (balance == SCAN_ANON)
			scan = is_file ? 0 : scan;
		else if (balance == SCAN_FILE)
			scan = is_file ? scan : 0;
		nr[lru] = scan;
	}
}

/*
 * One pass over the node's lists at sc->priority (Linux's shrink_lruvec
 * and shrink_node): the inactive lists shrunk in SWAP_CLUSTER_MAX steps,
 * each list its share, until nr_to_reclaim is met; then the active lists
 * aged where an inactive one has run low; and the deferred split queue
 * shrunk (Linux's shrinker: the unmapped parts of large folios).
 */
void shrink_node(struct scan_control *sc)
{
	struct lruvec *lruvec = &NODE_DATA(0)->__lruvec;
	unsigned long nr[NR_LRU_LISTS] = { 0 };
	enum lru_list lru;
	bool more = true;

	get_scan_count(lruvec, sc, nr);
	while (more && sc->nr_reclaimed < sc->nr_to_reclaim) {
		more = false;
		for_each_evictable_lru(lru) {
			unsigned long step = MIN(nr[lru], SWAP_CLUSTER_MAX);

			if (is_active_lru(lru) || !step)
				continue;
			nr[lru] -= step;
			sc->nr_reclaimed += shrink_inactive_list(step, lruvec, sc, lru);
			more = true;
		}
		cond_resched();
	}
	for (lru = LRU_INACTIVE_ANON; lru <= LRU_INACTIVE_FILE; lru += LRU_FILE)
		if (inactive_is_low(lruvec, lru) &&     /* no swap: anon cannot go, so no aging (can_age_anon_pages) */
		    (is_file_lru(lru) || atomic_long_read(&nr_swap_pages) > 0))
			shrink_active_list(MAX(SWAP_CLUSTER_MAX, lruvec->nr_pages[lru + LRU_ACTIVE] >>
					   sc->priority), lruvec, sc, lru + LRU_ACTIVE);
	deferred_split_scan(SWAP_CLUSTER_MAX);
	if (sc->nr_reclaimed)
		WRITE_ONCE(NODE_DATA(0)->kswapd_failures, 0);  /* progress: kswapd may try again */
}

/*
 * Reclaim at rising priority until nr_to_reclaim pages are free or every
 * priority was tried (Linux's do_try_to_free_pages).  The pages freed.
 */
unsigned long do_try_to_free_pages(struct scan_control *sc)
{
	lru_add_drain();
	for (sc->priority = DEF_PRIORITY; sc->priority >= 0; sc->priority--) {
		shrink_node(sc);
		if (sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;
	}
	return sc->nr_reclaimed;
}

/*
 * Direct reclaim for an allocation of 2^order pages that found free
 * memory at the min watermark (Linux's try_to_free_pages): a batch of
 * SWAP_CLUSTER_MAX pages, or the order's size.  The pages freed.  May
 * sleep; the caller holds no spinlock.
 */
unsigned long try_to_free_pages(unsigned int order)
{
	struct scan_control sc = { .nr_to_reclaim = MAX(SWAP_CLUSTER_MAX, 1UL << order) };

	might_sleep();
	count_vm_event(ALLOCSTALL_NORMAL);
	return do_try_to_free_pages(&sc);
}
