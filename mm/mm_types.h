/*
 * struct page: one per 4 KiB physical frame, 64 bytes, in the memmap array.
 *
 *   offset  field
 *    0      flags            PG_* bits
 *    8      union (40 bytes) buddy: lru + private (= order)
 *                            page table: pt_nr_used
 *                            tail page: compound_head (bit 0 set)
 *   48      _mapcount        stored minus one: -1 = unmapped
 *   52      _refcount
 *   56      memcg_data       unused by foliOS (the folio overlays it)
 *
 * The struct folio overlay on page[0..3] lives in mm/folio.h.
 */
#ifndef MM_MM_TYPES_H
#define MM_MM_TYPES_H

#include "kernel/types.h"
#include "kernel/list.h"

struct page {
	unsigned long flags;
	union {
		struct {                /* buddy free pages, folio heads */
			struct list_head lru;
			void *mapping;
			unsigned long index;
			unsigned long private;
		};
		struct {                /* page-table pages */
			unsigned long _pt_pad_1;
			unsigned long _pt_pad_2;
			unsigned long _pt_pad_3;
			unsigned long _pt_pad_4;
			unsigned long pt_nr_used; /* entries in use: freed at 0 */
		};
		struct {                /* tail pages of a compound page */
			unsigned long compound_head;
		};
	};
	int _mapcount;
	int _refcount;
	unsigned long memcg_data;
};

_Static_assert(sizeof(struct page) == 64, "struct page must be 64 bytes");

/* Page flags (bit numbers in page->flags). */
enum pageflags {
	PG_locked,
	PG_reserved,     /* not managed by the buddy: holes, kernel image, memmap */
	PG_buddy,        /* free, on a buddy free list; private = order */
	PG_table,        /* a page-table page */
	PG_head,         /* first page of a compound page */
	PG_anon_exclusive,
	PG_slab,         /* backs kmalloc objects */
	NR_PAGEFLAGS,
};

#define PAGEFLAG(name, bit)                                                   \
static inline bool Page##name(const struct page *p)                           \
{                                                                             \
	return p->flags & BIT(bit);                                           \
}                                                                             \
static inline void SetPage##name(struct page *p) { p->flags |= BIT(bit); }   \
static inline void ClearPage##name(struct page *p) { p->flags &= ~BIT(bit); }
PAGEFLAG(Reserved, PG_reserved)
PAGEFLAG(Buddy, PG_buddy)
PAGEFLAG(Table, PG_table)
PAGEFLAG(Head, PG_head)
PAGEFLAG(Slab, PG_slab)
#undef PAGEFLAG

extern const char *const pageflag_names[NR_PAGEFLAGS];

#endif
