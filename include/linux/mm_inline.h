/*
 * A folio on its LRU list (Linux's include/linux/mm_inline.h): which
 * list its flags name, and the list operations every caller does under
 * lruvec->lru_lock (linux/mmzone.h has the lists and their lock).
 */
#ifndef _LINUX_MM_INLINE_H
#define _LINUX_MM_INLINE_H

#include "linux/mmzone.h"
#include "linux/page-flags.h"
#include "linux/pagemap.h"
#include "linux/vmstat.h"

/* The flags a split's new folios take from the head: its place on the LRU. */
#define LRU_SPLIT_FLAGS (BIT(PG_lru) | BIT(PG_active) | BIT(PG_referenced) | BIT(PG_unevictable))

/* The node's lists (one node): where any folio belongs. */
static inline struct lruvec *folio_lruvec(const struct folio *folio)
{
	return &NODE_DATA(0)->__lruvec;
}

/*
 * A file folio is one its file can read back; swap-backed ones (anon,
 * shmem, the swap cache) need swap to leave memory: the anon lists.
 */
static inline bool folio_is_file_lru(const struct folio *folio)
{
	return !folio_test_swapbacked(folio);
}

/*
 * May reclaim take this folio at all (Linux's folio_evictable)?  Not
 * while mlocked, nor when its file keeps every page (AS_UNEVICTABLE: the
 * initrd's, whose inodes live for ever).  A swap-backed folio's mapping is
 * never looked at: its inode may be freed meanwhile (Linux reads it under
 * RCU), and shmem never keeps its pages.
 */
static inline bool folio_evictable(const struct folio *folio)
{
	struct address_space *mapping = folio_test_swapbacked(folio) ? NULL : READ_ONCE(folio->mapping);

	return !(mapping && !folio_test_anon(folio) && mapping_unevictable(mapping)) &&
	       !folio_test_mlocked(folio);
}

/* The list the folio's flags name (Linux's folio_lru_list). */
static inline enum lru_list folio_lru_list(const struct folio *folio)
{
	if (folio_test_unevictable(folio))
		return LRU_UNEVICTABLE;
	return (folio_is_file_lru(folio) ? LRU_FILE : 0) + (folio_test_active(folio) ? LRU_ACTIVE : 0);
}

/* A list's length and its /proc/meminfo counter move together (Linux's update_lru_size). */
static inline void update_lru_size(struct lruvec *lruvec, enum lru_list lru, long nr)
{
	lruvec->nr_pages[lru] += nr;
	mod_node_page_state(NR_LRU_BASE + lru, nr);
}

/* Onto the head of its list: the youngest.  Caller holds lru_lock, and set PG_lru. */
static inline void lruvec_add_folio(struct lruvec *lruvec, struct folio *folio)
{
	enum lru_list lru = folio_lru_list(folio);

	lockdep_assert_held(&lruvec->lru_lock);
	update_lru_size(lruvec, lru, folio_nr_pages(folio));
	list_add(&folio->lru, &lruvec->lists[lru]);
}

/* Onto the tail of its list: the next reclaim looks at it first. */
static inline void lruvec_add_folio_tail(struct lruvec *lruvec, struct folio *folio)
{
	enum lru_list lru = folio_lru_list(folio);

	lockdep_assert_held(&lruvec->lru_lock);
	update_lru_size(lruvec, lru, folio_nr_pages(folio));
	list_add_tail(&folio->lru, &lruvec->lists[lru]);
}

/* Off its list.  Caller holds lru_lock, before it changes the flags that name the list. */
static inline void lruvec_del_folio(struct lruvec *lruvec, struct folio *folio)
{
	enum lru_list lru = folio_lru_list(folio);

	lockdep_assert_held(&lruvec->lru_lock);
	list_del(&folio->lru);
	update_lru_size(lruvec, lru, -folio_nr_pages(folio));
}

#endif
