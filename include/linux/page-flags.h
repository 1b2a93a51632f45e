/*
 * A folio's flags and the helpers every user of a folio needs: the head
 * of a page, the folio of a page, its order and size, references, the
 * folio lock, PageAnonExclusive (Linux's include/linux/page-flags.h, and
 * the folio_* accessors of linux/mm.h).  struct folio: linux/mm_types.h.
 */
#ifndef _LINUX_PAGE_FLAGS_H
#define _LINUX_PAGE_FLAGS_H

#include "linux/mm.h"
#include "linux/printk.h"
#include "linux/lockdep.h"
#include <asm/bitops.h>

/*
 * The word that holds a large folio's mapcount (stored minus one): the
 * seeds' _large_mapcount, or with CONFIG_MAPCOUNT_PAGES page[1]'s own
 * _mapcount, which reads -1 — a tail page's value — while nothing maps
 * the folio.
 */
static __always_inline atomic_t *folio_large_mapcount_ptr(const struct folio *folio)
{
	struct folio *f = (struct folio *)folio;

	return IS_ENABLED(CONFIG_MAPCOUNT_PAGES) ? &f->_mapcount_1 : &f->_large_mapcount;
}

static inline bool PageTail(const struct page *page)
{
	return page->compound_head & 1;
}

static inline struct page *compound_head(const struct page *page)
{
	return PageTail(page) ? (struct page *)(page->compound_head - 1) : (struct page *)page;
}

static inline struct folio *page_folio(const struct page *page)
{
	return (struct folio *)compound_head(page);
}

static inline struct page *folio_page(struct folio *folio, unsigned long n)
{
	return &folio->page + n;
}

static inline unsigned long folio_pfn(const struct folio *folio)
{
	return page_to_pfn(&folio->page);
}

static inline bool folio_test_large(const struct folio *folio)
{
	return PageHead(&folio->page);
}

static inline unsigned int folio_large_order(const struct folio *folio)
{
	return folio->_flags_1 & FOLIO_ORDER_MASK;
}

static inline unsigned int folio_order(const struct folio *folio)
{
	return folio_test_large(folio) ? folio_large_order(folio) : 0;
}

static inline long folio_large_nr_pages(const struct folio *folio)
{
	return folio->_nr_pages;
}

static inline long folio_nr_pages(const struct folio *folio)
{
	return folio_test_large(folio) ? folio_large_nr_pages(folio) : 1;
}

static inline bool folio_test_pmd_mappable(const struct folio *folio)
{
	return folio_order(folio) >= HPAGE_PMD_ORDER;
}

static inline int folio_ref_count(const struct folio *folio)
{
	return page_ref_count(&folio->page);
}

static inline void folio_get(struct folio *folio)
{
	get_page(&folio->page);
}

/*
 * A reference to a folio found without one (a PFN, a queue, a lockless
 * walk; Linux's folio_try_get): fails while the folio is being freed or
 * its refcount is frozen for a split.  The caller checks afterwards that
 * the page still belongs to this folio.
 */
static inline bool folio_try_get(struct folio *folio)
{
	return get_page_unless_zero(&folio->page);
}

static inline bool folio_ref_freeze(struct folio *folio, int count)
{
	return page_ref_freeze(&folio->page, count);
}

static inline void folio_ref_unfreeze(struct folio *folio, int count)
{
	page_ref_unfreeze(&folio->page, count);
}

static inline void folio_ref_add(struct folio *folio, int nr)
{
	page_ref_add(&folio->page, nr);
}

static inline bool folio_test_anon(const struct folio *folio)
{
	return (unsigned long)folio->mapping & PAGE_MAPPING_ANON;
}

#define FOLIO_FLAG_1(name, bit)                                               \
static inline bool folio_test_##name(const struct folio *f)                  \
{                                                                             \
	return folio_test_large(f) && test_bit(bit, &f->_flags_1);                 \
}                                                                             \
static inline void folio_set_##name(struct folio *f) { set_bit(bit, &f->_flags_1); } \
static inline void folio_clear_##name(struct folio *f) { clear_bit(bit, &f->_flags_1); }
FOLIO_FLAG_1(partially_mapped, FOLIO_PF_partially_mapped)
FOLIO_FLAG_1(large_rmappable, FOLIO_PF_large_rmappable)
#undef FOLIO_FLAG_1

/*
 * The page-cache flags of a folio, in its head page (Linux's page-flags.h):
 * folio_test_X, folio_set_X (atomic), __folio_set_X (nobody else sees the
 * folio yet), folio_clear_X.
 */
#define FOLIO_FLAG(name, bit)                                                 \
static inline bool folio_test_##name(const struct folio *f)                  \
{                                                                             \
	return test_bit(bit, &f->flags);                                      \
}                                                                             \
static inline void folio_set_##name(struct folio *f) { set_bit(bit, &f->flags); } \
static inline void __folio_set_##name(struct folio *f) { __set_bit(bit, &f->flags); } \
static inline void folio_clear_##name(struct folio *f) { clear_bit(bit, &f->flags); }
FOLIO_FLAG(locked, PG_locked)
FOLIO_FLAG(uptodate, PG_uptodate)
FOLIO_FLAG(dirty, PG_dirty)
FOLIO_FLAG(swapbacked, PG_swapbacked)
FOLIO_FLAG(swapcache, PG_swapcache)
FOLIO_FLAG(lru, PG_lru)
FOLIO_FLAG(active, PG_active)
FOLIO_FLAG(referenced, PG_referenced)
FOLIO_FLAG(unevictable, PG_unevictable)
FOLIO_FLAG(mlocked, PG_mlocked)
#undef FOLIO_FLAG

/* Clear the flag and say whether it was set, atomically (Linux's folio_test_clear_X). */
#define FOLIO_TEST_CLEAR_FLAG(name, bit)                                      \
static inline bool folio_test_clear_##name(struct folio *f)                   \
{                                                                             \
	return test_and_clear_bit(bit, &f->flags);                            \
}
FOLIO_TEST_CLEAR_FLAG(lru, PG_lru)
FOLIO_TEST_CLEAR_FLAG(active, PG_active)
FOLIO_TEST_CLEAR_FLAG(referenced, PG_referenced)
#undef FOLIO_TEST_CLEAR_FLAG

/* PG_mlocked changes under no lock: whoever flips it accounts NR_MLOCK (mm/mlock.c). */
static inline bool folio_test_set_mlocked(struct folio *folio)
{
	return test_and_set_bit(PG_mlocked, &folio->flags);
}

static inline bool folio_test_clear_mlocked(struct folio *folio)
{
	return test_and_clear_bit(PG_mlocked, &folio->flags);
}

/*
 * The folio lock (PG_locked, Linux's): held to add, remove, truncate or
 * split a page-cache folio; the holder may sleep, and a task that finds it
 * taken sleeps until folio_unlock (mm/filemap.c: __folio_lock, PG_waiters).
 * Never taken in atomic context (might_sleep).
 */
static inline bool folio_trylock(struct folio *folio)
{
	return likely(!test_and_set_bit_lock(PG_locked, &folio->flags));
}

void __folio_lock(struct folio *folio);
void folio_wait_locked(struct folio *folio);
void folio_wake_bit(struct folio *folio);

static inline void folio_lock(struct folio *folio)
{
	might_sleep();
	if (!folio_trylock(folio))
		__folio_lock(folio);
}

/* Release the lock (a full barrier on x86: the PG_waiters test comes after). */
static inline void folio_unlock(struct folio *folio)
{
	VM_WARN_ON_ONCE_FOLIO(!folio_test_locked(folio), folio);
	clear_bit_unlock(PG_locked, &folio->flags);
	if (unlikely(test_bit(PG_waiters, &folio->flags)))
		folio_wake_bit(folio);
}

static inline bool PageAnonExclusive(const struct page *page)
{
	return page->flags & BIT(PG_anon_exclusive);
}

/*
 * page->flags is shared with other flags that may change concurrently, so
 * the bit is set and cleared atomically; the __ variant is for a folio
 * nobody else can see yet (Linux's __SetPageAnonExclusive).
 */
static inline void SetPageAnonExclusive(struct page *page)
{
	set_bit(PG_anon_exclusive, &page->flags);
}

static inline void __SetPageAnonExclusive(struct page *page)
{
	__set_bit(PG_anon_exclusive, &page->flags);
}

static inline void ClearPageAnonExclusive(struct page *page)
{
	clear_bit(PG_anon_exclusive, &page->flags);
}

static inline bool folio_test_large_maybe_mapped_shared(const struct folio *folio)
{
	return test_bit(FOLIO_MM_IDS_SHARED_BITNUM, &folio->_mm_ids);
}

struct folio *folio_alloc(gfp_t gfp, unsigned int order);
void folio_put(struct folio *folio);
void folio_put_refs(struct folio *folio, int refs);

#endif
