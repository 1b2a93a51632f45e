/*
 * The shadow exact counter: what each mapcount scheme gives up, counted
 * against the truth (issue 20's "schemes side by side").  Like Linux's
 * CONFIG_PAGE_TABLE_CHECK it keeps its own record of real mappings,
 * beside the rmap and fed by the same calls: for every large anon folio
 *
 *   exact[pfn]           how often each page is mapped, by all mms
 *   pages_mapped[head]   how many of the folio's pages are mapped at all
 *   nr_mms[head]         how many mms map some page of it
 *   hash (head, mm)      how many page mappings each mm has (for nr_mms)
 *
 * After each rmap change of such a folio it asks the scheme what /proc and
 * the kernel ask it, and counts the wrong answers:
 *
 *   maybe shared      folio_maybe_mapped_shared() while one mm maps it
 *                     (false "shared"; a false "exclusive" would be a bug)
 *   partially mapped  a removal leaves pages unmapped and others mapped,
 *                     and the folio is not on the deferred split queue
 *   kpagecount, Pss   a mapped page's proc_page_mapcount() != exact
 *   USS               page_mapped_exclusively() != (exact == 1)
 *
 * On with "mapcount_shadow" on the command line (the arrays are allocated
 * at boot, 12 bytes per page of RAM); /proc/mapcount_report shows the
 * counts, writing "reset" zeroes them.  Exact with --smp 1; with several CPUs, an
 * rmap change of another CPU may fall between a change and its check.
 * The changes come from the rmap functions' observation hook
 * (mm/rmap_observe.h), which the mapcount trace shares: when an rmap
 * function returns, mapcount_shadow_rmap() counts what it did.
 *
 * Lock order: see mm/rmap.c; mapcount_shadow_lock is taken under the
 * page-table lock of the change, and takes nothing.
 */
#include "linux/errno.h"
#include "linux/spinlock.h"
#include "linux/string.h"
#include "mm/mapcount_shadow.h"
#include "mm/rmap_observe.h"
#include "linux/rmap.h"

#define SHADOW_HASH_ORDER       16      /* (folio, mm) pairs: 64 Ki slots */
#define SHADOW_HASH_SIZE        (1UL << SHADOW_HASH_ORDER)

struct shadow_slot {
	u64 key;                        /* head pfn << 32 | mm id, 0: never used */
	long count;                     /* page mappings; 0: free again */
};


bool mapcount_shadow_on;
static int *exact, *pages_mapped, *nr_mms;
static struct shadow_slot *hash;
static struct mapcount_shadow_stats stats;
static spinlock_t mapcount_shadow_lock = SPINLOCK_INIT("mapcount_shadow");

/*
 * The (folio, mm) slot of key: found, or the first free one on its probe
 * path; NULL when the hash is full.
 */
static struct shadow_slot *shadow_slot(u64 key)
{
	struct shadow_slot *free = NULL;
	unsigned long i = (key * 0x9e3779b97f4a7c15ULL) >> (64 - SHADOW_HASH_ORDER);

	for (unsigned long n = 0; n < SHADOW_HASH_SIZE; n++, i = (i + 1) & (SHADOW_HASH_SIZE - 1)) {
		struct shadow_slot *s = &hash[i];

		if (s->key == key)
			return s;
		if (!free && !s->count)
			free = s;
		if (!s->key)
			break;
	}
	if (free)
		free->key = key;
	return free;
}

/* The truth about one page and the scheme's answers for it. */
static void shadow_check_page(struct folio *folio, struct page *page)
{
	int truth = exact[page_to_pfn(page)], answer;

	if (!truth)
		return;
	stats.page_checks++;
	answer = proc_page_mapcount(folio, page);
	if (answer != truth) {
		stats.kpagecount_wrong++;
		stats.kpagecount_error += answer > truth ? answer - truth : truth - answer;
	}
	if (page_mapped_exclusively(folio, page) != (truth == 1))
		stats.uss_wrong++;
}

/* After a change of folio: compare the scheme's answers with the truth. */
static void shadow_check(struct folio *folio, bool removal)
{
	const unsigned long head = folio_pfn(folio);
	const long nr = folio_nr_pages(folio);
	bool shared = folio_maybe_mapped_shared(folio);

	stats.changes++;
	if (nr_mms[head]) {
		stats.shared_answers++;
		stats.false_shared += shared && nr_mms[head] == 1;
		stats.false_exclusive += !shared && nr_mms[head] > 1;
	}
	if (removal && pages_mapped[head] && pages_mapped[head] < nr) {
		stats.partial_removals++;
		if (folio_test_partially_mapped(folio))
			stats.partial_queued++;
		else
			stats.partial_missed++;
	}
	for (long i = 0; i < nr; i++)
		shadow_check_page(folio, folio_page(folio, i));
}

/*
 * nr_pages pages of folio from page were mapped (delta 1) or unmapped
 * (delta -1) once more by vma's mm: count it, then compare the scheme's
 * answers with the truth.
 */
static void mapcount_shadow_mod(struct folio *folio, struct page *page, int nr_pages,
				struct vm_area_struct *vma, int delta)
{
	const unsigned long head = folio_pfn(folio);
	struct shadow_slot *slot;
	unsigned long flags;
	long before;

	spin_lock_irqsave(&mapcount_shadow_lock, flags);
	for (int i = 0; i < nr_pages; i++) {
		int *e = &exact[page_to_pfn(page + i)];

		*e += delta;
		VM_WARN_ON_ONCE(*e < 0, "mapcount_shadow: a page unmapped more often than mapped");
		pages_mapped[head] += (delta > 0 && *e == 1) - (delta < 0 && *e == 0);
	}
	slot = shadow_slot((u64)head << 32 | vma->vm_mm->mm_id);
	if (!slot) {                    /* the counts are no longer the truth: stop */
		stats.overflowed = true;
		WRITE_ONCE(mapcount_shadow_on, false);
		goto out;
	}
	before = slot->count;
	slot->count += (long)nr_pages * delta;
	nr_mms[head] += (!before && slot->count) - (before && !slot->count);
	shadow_check(folio, delta < 0);
out:
	spin_unlock_irqrestore(&mapcount_shadow_lock, flags);
}

/*
 * The observation hook's call (mm/rmap_observe.c) when an rmap function
 * returns: a large anon folio's mappings moved, unless a try_dup failed.
 */
void mapcount_shadow_rmap(struct folio *folio, struct page *page, int nr_pages,
			  struct vm_area_struct *vma, enum rmap_trace_op op, int ret)
{
	const bool dup = op == RMAP_TRACE_DUP_PTES || op == RMAP_TRACE_DUP_PMD;

	if (dup && ret)                 /* -EBUSY: the caller copies instead */
		return;
	if (READ_ONCE(mapcount_shadow_on) && folio_test_large(folio) && folio_test_anon(folio))
		mapcount_shadow_mod(folio, page, nr_pages, vma, mapcount_shadow_delta(op));
}

/*
 * Three arrays by pfn and the hash, zeroed from the buddy, and the rmap
 * functions' observation hook on.  0, -ENOMEM, or -EOPNOTSUPP: built
 * without the hook (make RMAP_TRACE=0).
 */
int mapcount_shadow_setup(void)
{
	const unsigned long bytes = max_pfn * sizeof(int);
	unsigned int order = 0;
	struct folio *f[4];

	if (!IS_ENABLED(CONFIG_RMAP_TRACE))
		return -EOPNOTSUPP;
	while ((PAGE_SIZE << order) < bytes)
		order++;
	f[0] = folio_alloc(__GFP_ZERO, order);
	f[1] = folio_alloc(__GFP_ZERO, order);
	f[2] = folio_alloc(__GFP_ZERO, order);
	f[3] = folio_alloc(__GFP_ZERO, 8);      /* 64 Ki slots of 16 bytes */
	if (!f[0] || !f[1] || !f[2] || !f[3] || order > MAX_PAGE_ORDER)
		return -ENOMEM;
	exact = page_address(&f[0]->page);
	pages_mapped = page_address(&f[1]->page);
	nr_mms = page_address(&f[2]->page);
	hash = page_address(&f[3]->page);
	WRITE_ONCE(mapcount_shadow_on, true);
	rmap_observe_update();
	return 0;
}

void mapcount_shadow_reset(void)
{
	unsigned long flags;

	spin_lock_irqsave(&mapcount_shadow_lock, flags);
	memset(&stats, 0, sizeof(stats));
	spin_unlock_irqrestore(&mapcount_shadow_lock, flags);
}

/* A copy of the counts since boot or the last reset. */
void mapcount_shadow_read(struct mapcount_shadow_stats *s)
{
	unsigned long flags;

	spin_lock_irqsave(&mapcount_shadow_lock, flags);
	*s = stats;
	spin_unlock_irqrestore(&mapcount_shadow_lock, flags);
}
