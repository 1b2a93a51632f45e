/*
 * The node and its LRU lists (Linux's include/linux/mmzone.h, one node:
 * contig_page_data, as a kernel without NUMA).  foliOS's one zone, with
 * its buddy free lists and watermarks, is in linux/gfp.h.
 *
 * Every folio user space can map (anon, page cache, swap cache) is on one
 * of five lists while nobody has it isolated; reclaim takes folios from
 * their tails (mm/vmscan_lru.c), new ones join at the head:
 *
 *   swap-backed (anon, shmem)        file (a file it can read back)
 *   LRU_INACTIVE_ANON  <- new        LRU_INACTIVE_FILE  <- new
 *   LRU_ACTIVE_ANON    <- used twice LRU_ACTIVE_FILE    <- used twice
 *   LRU_UNEVICTABLE: mlocked folios, files that cannot lose pages (the initrd)
 *
 * Locks: lruvec->lru_lock (irqs off) guards the lists, nr_pages and each
 * folio's PG_lru/PG_active/PG_unevictable while it is on a list; taken
 * under a folio lock or a page-table lock, never around either (mm/rmap.c's
 * table).
 */
#ifndef _LINUX_MMZONE_H
#define _LINUX_MMZONE_H

#include "linux/list.h"
#include "linux/spinlock.h"
#include "linux/wait.h"
#include "linux/atomic.h"

#define LRU_BASE        0
#define LRU_ACTIVE      1
#define LRU_FILE        2

enum lru_list {
	LRU_INACTIVE_ANON = LRU_BASE,
	LRU_ACTIVE_ANON = LRU_BASE + LRU_ACTIVE,
	LRU_INACTIVE_FILE = LRU_BASE + LRU_FILE,
	LRU_ACTIVE_FILE = LRU_BASE + LRU_FILE + LRU_ACTIVE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS
};

#define for_each_evictable_lru(lru) for (lru = 0; lru <= LRU_ACTIVE_FILE; lru++)

static inline bool is_file_lru(enum lru_list lru)
{
	return lru == LRU_INACTIVE_FILE || lru == LRU_ACTIVE_FILE;
}

static inline bool is_active_lru(enum lru_list lru)
{
	return lru == LRU_ACTIVE_ANON || lru == LRU_ACTIVE_FILE;
}

/*
 * The lists and what reclaim learnt from them: anon_cost and file_cost
 * grow with the pages each kind cost to reclaim (written, or activated
 * again), halved as they age; get_scan_count balances the kinds by them
 * (Linux's lru_note_cost).
 */
struct lruvec {
	spinlock_t lru_lock;
	struct list_head lists[NR_LRU_LISTS];
	unsigned long nr_pages[NR_LRU_LISTS];   /* pages on each list (a 2 MiB folio counts 512) */
	unsigned long anon_cost, file_cost;
};

/*
 * The node (Linux's pglist_data): its LRU lists and its kswapd — woken
 * when free memory falls below the low watermark, asleep on kswapd_wait
 * once it is back above high (mm/vmscan_lru.c).
 */
typedef struct pglist_data {
	struct lruvec __lruvec;
	struct wait_queue_head kswapd_wait;
	struct task_struct *kswapd;
	atomic_t kswapd_order;          /* the largest order a waker asked for; -1: not woken */
	int kswapd_failures;            /* runs that reclaimed nothing: OOM is near */
} pg_data_t;

/* Reclaim passes in a row that free nothing before the OOM killer's turn, and kswapd gives up (Linux's). */
#define MAX_RECLAIM_RETRIES 16

extern struct pglist_data contig_page_data;
#define NODE_DATA(nid)  (&contig_page_data)

#endif
