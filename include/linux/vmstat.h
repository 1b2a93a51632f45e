/*
 * Global memory counters (Linux's node_stat_item subset), in pages.
 * NR_ANON_MAPPED backs /proc/meminfo's AnonPages, NR_ANON_THPS its
 * AnonHugePages; the page cache's: NR_FILE_PAGES Cached (with Shmem),
 * NR_SHMEM Shmem, NR_SHMEM_THPS ShmemHugePages, NR_FILE_MAPPED Mapped,
 * NR_FILE_DIRTY Dirty, NR_SHMEM_PMDMAPPED ShmemPmdMapped,
 * NR_FILE_PMDMAPPED FilePmdMapped, NR_SWAPCACHE SwapCached, NR_MLOCK Mlocked.
 * Updated with atomics; no lock.
 */
#ifndef _LINUX_VMSTAT_H
#define _LINUX_VMSTAT_H

#include "linux/atomic.h"
#include "linux/mm.h"

enum node_stat_item {
	NR_ANON_MAPPED,         /* pages of anon folios counted as mapped */
	NR_ANON_THPS,           /* pages of PMD-mapped anon THPs */
	NR_FILE_PAGES,          /* pages in the page cache, shmem's included */
	NR_FILE_MAPPED,         /* pages of page-cache folios counted as mapped */
	NR_FILE_DIRTY,          /* dirty page-cache pages a file system must write */
	NR_SHMEM,               /* shmem/tmpfs pages in the page cache */
	NR_SHMEM_THPS,          /* ... of PMD-sized shmem folios */
	NR_SHMEM_PMDMAPPED,     /* pages of shmem THPs mapped by a PMD */
	NR_FILE_THPS,           /* pages of PMD-sized page-cache folios not shmem's */
	NR_FILE_PMDMAPPED,      /* ... mapped by a PMD */
	NR_SWAPCACHE,           /* pages in the swap cache (SwapCached) */
	NR_LRU_BASE,            /* pages on each LRU list, in enum lru_list's order: */
	NR_INACTIVE_ANON = NR_LRU_BASE, /* Inactive(anon) */
	NR_ACTIVE_ANON,         /* Active(anon) */
	NR_INACTIVE_FILE,       /* Inactive(file) */
	NR_ACTIVE_FILE,         /* Active(file) */
	NR_UNEVICTABLE,         /* Unevictable */
	NR_ISOLATED_ANON,       /* taken off the anon lists by reclaim for now */
	NR_ISOLATED_FILE,       /* ... off the file lists */
	NR_MLOCK,               /* pages of PG_mlocked folios (Mlocked; a zone counter in Linux) */
	NR_VM_NODE_STAT_ITEMS,
};

extern atomic_long_t vm_node_stat[NR_VM_NODE_STAT_ITEMS];

static inline void mod_node_page_state(enum node_stat_item item, long delta)
{
	atomic_long_add(delta, &vm_node_stat[item]);
}

static inline unsigned long global_node_page_state(enum node_stat_item item)
{
	return atomic_long_read(&vm_node_stat[item]);
}

/*
 * Events since boot (Linux's vm_event_item subset, /proc/vmstat's names
 * in vmstat_text[]): pages read from and written to swap, OOM kills, THPs
 * swapped out whole, and split first for want of consecutive slots.  Atomics
 * (Linux's are per-CPU, summed when read).
 */
enum vm_event_item {
	PSWPIN,
	PSWPOUT,
	ALLOCSTALL_NORMAL,      /* allocations that reclaimed directly */
	PGACTIVATE,             /* pages moved to an active list */
	PGDEACTIVATE,           /* ... to an inactive one */
	PGREFILL,               /* pages an active list's scan looked at */
	PGSTEAL_KSWAPD,         /* pages reclaimed by kswapd */
	PGSTEAL_DIRECT,         /* ... by direct reclaim */
	PGSCAN_KSWAPD,          /* inactive pages kswapd looked at */
	PGSCAN_DIRECT,          /* ... direct reclaim looked at */
	PGSCAN_ANON,
	PGSCAN_FILE,
	PGSTEAL_ANON,
	PGSTEAL_FILE,
	PAGEOUTRUN,             /* kswapd's runs */
	OOM_KILL,               /* processes the OOM killer chose (mm/oom_kill.c) */
	THP_SWPOUT,
	THP_SWPOUT_FALLBACK,
	NR_VM_EVENT_ITEMS,
};

extern atomic_long_t vm_events[NR_VM_EVENT_ITEMS];

static inline void count_vm_events(enum vm_event_item item, long delta)
{
	atomic_long_add(delta, &vm_events[item]);
}

static inline void count_vm_event(enum vm_event_item item)
{
	count_vm_events(item, 1);
}

/*
 * Per-order anon THP counters (Linux's mthp_stat, shown in
 * /sys/kernel/mm/transparent_hugepage/hugepages-<N>kB/stats/): events
 * counted as they happen; NR_ANON and NR_ANON_PARTIALLY_MAPPED are
 * levels, moved up and down.  The swap, zswap and shmem items stay 0
 * until foliOS has those.
 */
enum mthp_stat_item {
	MTHP_STAT_ANON_FAULT_ALLOC,
	MTHP_STAT_ANON_FAULT_FALLBACK,
	MTHP_STAT_ANON_FAULT_FALLBACK_CHARGE,
	MTHP_STAT_ZSWPOUT,
	MTHP_STAT_SWPIN,
	MTHP_STAT_SWPIN_FALLBACK,
	MTHP_STAT_SWPIN_FALLBACK_CHARGE,
	MTHP_STAT_SWPOUT,
	MTHP_STAT_SWPOUT_FALLBACK,
	MTHP_STAT_SHMEM_ALLOC,
	MTHP_STAT_SHMEM_FALLBACK,
	MTHP_STAT_SHMEM_FALLBACK_CHARGE,
	MTHP_STAT_SPLIT,
	MTHP_STAT_SPLIT_FAILED,
	MTHP_STAT_SPLIT_DEFERRED,
	MTHP_STAT_NR_ANON,
	MTHP_STAT_NR_ANON_PARTIALLY_MAPPED,
	__MTHP_STAT_COUNT
};

#define MTHP_STAT_ORDERS        (THP_MAX_ANON_ORDER + 1)

extern atomic_long_t mthp_stats[MTHP_STAT_ORDERS][__MTHP_STAT_COUNT];

static inline void mod_mthp_stat(int order, enum mthp_stat_item item, long delta)
{
	if (order > 0 && order < MTHP_STAT_ORDERS)
		atomic_long_add(delta, &mthp_stats[order][item]);
}

static inline void count_mthp_stat(int order, enum mthp_stat_item item)
{
	mod_mthp_stat(order, item, 1);
}

static inline unsigned long sum_mthp_stat(int order, enum mthp_stat_item item)
{
	return order > 0 && order < MTHP_STAT_ORDERS ? atomic_long_read(&mthp_stats[order][item]) : 0;
}

#endif
