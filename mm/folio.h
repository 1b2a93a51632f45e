/*
 * struct folio: the first pages of a compound page, seen as one object.
 * It overlays struct page exactly (Linux's include/linux/mm_types.h after
 * the "MM owner tracking" series, 64-bit layout):
 *
 *   page[0]  flags  lru/mapping/index/private    _mapcount  _refcount  memcg
 *   page[1]  _flags_1 (order in bits 0-7)  _head_1
 *            +16 _large_mapcount _nr_pages_mapped _entire_mapcount _pincount
 *            +32 _mm_id_mapcount[0] _mm_id_mapcount[1]
 *            +40 _mm_id[0] _mm_id[1]  == unsigned long _mm_ids
 *            +48 _mapcount_1  _refcount_1  +56 _nr_pages
 *
 * CONFIG_MAPCOUNT_PAGES (the 2026 RFC "mm/rmap: support arbitrary folio
 * mappings") keeps neither _nr_pages_mapped nor _entire_mapcount.  Its
 * 64-bit count of mapped pages takes the first 8 bytes, and the large
 * mapcount moves into page[1]'s own _mapcount (the RFC's patch 9), which
 * no tail page needs once tail pages keep no mapcount:
 *
 *   page[1]  +16 _total_mapped_pages (8 bytes)  +24 (unused) _pincount
 *            +32 ... as above ...  +48 large mapcount (in _mapcount_1)
 *   page[2]  _flags_2  _head_2  _deferred_list
 *   page[3]  _flags_3  _head_3  (hugetlb's fields in Linux; reserved here)
 *
 * _mm_ids packs both MM IDs (31 bits each) with two flags in their top bits:
 *
 *    63      62 ........ 32   31     30 ......... 0
 *   [SHARED][ _mm_id[1]     ][LOCK ][ _mm_id[0]     ]
 *
 * A field of page[1] that overlays page[1]'s own _mapcount/_refcount must
 * keep them at their tail-page values; FOLIO_MATCH checks the overlay.
 * An order-1 folio has no page[2]: its _deferred_list does not exist.
 */
#ifndef MM_FOLIO_H
#define MM_FOLIO_H

#include "mm/mm.h"
#include "linux/printk.h"
#include "linux/lockdep.h"
#include <asm/bitops.h>

typedef int mm_id_mapcount_t;
#define MM_ID_MAPCOUNT_MAX      INT32_MAX
typedef unsigned int mm_id_t;

/* The dummy ID is never allocated: an MM ID slot holding it is free. */
#define MM_ID_DUMMY             0
#define MM_ID_MIN               (MM_ID_DUMMY + 1)
#define MM_ID_BITS              ((sizeof(mm_id_t) * 8) - 1)
#define MM_ID_MASK              ((1U << MM_ID_BITS) - 1)
#define MM_ID_MAX               MM_ID_MASK

#define FOLIO_MM_IDS_LOCK_BITNUM        MM_ID_BITS
#define FOLIO_MM_IDS_LOCK_BIT           BIT(FOLIO_MM_IDS_LOCK_BITNUM)
#define FOLIO_MM_IDS_SHARED_BITNUM      (2 * MM_ID_BITS + 1)
#define FOLIO_MM_IDS_SHARED_BIT         BIT(FOLIO_MM_IDS_SHARED_BITNUM)

/* Flags kept in page[1] (_flags_1), above the order byte and the PG_ bits. */
#define FOLIO_ORDER_MASK                0xffUL
#define FOLIO_PF_partially_mapped       32  /* queued for deferred split */
#define FOLIO_PF_large_rmappable        33  /* may be on the deferred list */

/* page->mapping of an anon folio: bit 0 says "anon" (Linux's PAGE_MAPPING_ANON). */
#define PAGE_MAPPING_ANON       0x1UL

/* The mapcount a large folio's _nr_pages_mapped gets for a PMD mapping. */
#define ENTIRELY_MAPPED         0x800000
#define FOLIO_PAGES_MAPPED      (ENTIRELY_MAPPED - 1)

struct folio {
	union {
		struct {
			unsigned long flags;
			struct list_head lru;
			void *mapping;
			unsigned long index;
			void *private;
			atomic_t _mapcount;
			atomic_t _refcount;
			unsigned long memcg_data;
		};
		struct page page;
	};
	union {
		struct {
			unsigned long _flags_1;
			unsigned long _head_1;
			union {
				struct {
					union {
						struct {
							atomic_t _large_mapcount;
							atomic_t _nr_pages_mapped;
						};
						/* CONFIG_MAPCOUNT_PAGES only */
						atomic_long_t _total_mapped_pages;
					};
					atomic_t _entire_mapcount;
					atomic_t _pincount;
					mm_id_mapcount_t _mm_id_mapcount[2];
					union {
						mm_id_t _mm_id[2];
						unsigned long _mm_ids;
					};
				};
				unsigned long _usable_1[4];
			};
			atomic_t _mapcount_1;
			atomic_t _refcount_1;
			unsigned int _nr_pages;
		};
		struct page __page_1;
	};
	union {
		struct {
			unsigned long _flags_2;
			unsigned long _head_2;
			struct list_head _deferred_list;
		};
		struct page __page_2;
	};
	union {
		struct {
			unsigned long _flags_3;
			unsigned long _head_3;
		};
		struct page __page_3;
	};
};

#define FOLIO_MATCH(pg, fl) \
	_Static_assert(offsetof(struct page, pg) == offsetof(struct folio, fl), #fl)
FOLIO_MATCH(flags, flags);
FOLIO_MATCH(lru, lru);
FOLIO_MATCH(mapping, mapping);
FOLIO_MATCH(index, index);
FOLIO_MATCH(private, private);
FOLIO_MATCH(_mapcount, _mapcount);
FOLIO_MATCH(_refcount, _refcount);
FOLIO_MATCH(memcg_data, memcg_data);
#undef FOLIO_MATCH
#define FOLIO_MATCH(pg, fl, n) \
	_Static_assert(offsetof(struct folio, fl) == \
		       offsetof(struct page, pg) + (n) * sizeof(struct page), #fl)
FOLIO_MATCH(flags, _flags_1, 1);
FOLIO_MATCH(compound_head, _head_1, 1);
FOLIO_MATCH(_mapcount, _mapcount_1, 1);
FOLIO_MATCH(_refcount, _refcount_1, 1);
FOLIO_MATCH(memcg_data, _nr_pages, 1);
FOLIO_MATCH(flags, _flags_2, 2);
FOLIO_MATCH(compound_head, _head_2, 2);
FOLIO_MATCH(flags, _flags_3, 3);
FOLIO_MATCH(compound_head, _head_3, 3);
#undef FOLIO_MATCH
/* Every field of page[1] at the seeds' 64-bit offset. */
#define FOLIO_PAGE1_OFFSET(fl, off) \
	_Static_assert(offsetof(struct folio, fl) == sizeof(struct page) + (off), #fl " at +" #off)
FOLIO_PAGE1_OFFSET(_flags_1, 0);
FOLIO_PAGE1_OFFSET(_head_1, 8);
FOLIO_PAGE1_OFFSET(_large_mapcount, 16);
FOLIO_PAGE1_OFFSET(_nr_pages_mapped, 20);
FOLIO_PAGE1_OFFSET(_total_mapped_pages, 16);
FOLIO_PAGE1_OFFSET(_entire_mapcount, 24);
FOLIO_PAGE1_OFFSET(_pincount, 28);
FOLIO_PAGE1_OFFSET(_mm_id_mapcount, 32);
FOLIO_PAGE1_OFFSET(_mm_id, 40);
FOLIO_PAGE1_OFFSET(_mm_ids, 40);
FOLIO_PAGE1_OFFSET(_mapcount_1, 48);
FOLIO_PAGE1_OFFSET(_refcount_1, 52);
FOLIO_PAGE1_OFFSET(_nr_pages, 56);
#undef FOLIO_PAGE1_OFFSET
_Static_assert(offsetof(struct folio, _deferred_list) == 2 * sizeof(struct page) + 16,
	       "_deferred_list at +16 of page[2]");
_Static_assert(sizeof(struct folio) == 4 * sizeof(struct page), "folio spans four pages");

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
#undef FOLIO_FLAG

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
	VM_WARN_ON_ONCE(!folio_test_locked(folio), "folio_unlock: not locked");
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
void dump_folio(const struct folio *folio, const struct page *page);

#endif
