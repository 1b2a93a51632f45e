/*
 * Global memory counters (Linux's node_stat_item subset), in pages.
 * NR_ANON_MAPPED backs /proc/meminfo's AnonPages, NR_ANON_THPS its
 * AnonHugePages.  Updated with atomics; no lock.
 */
#ifndef MM_VMSTAT_H
#define MM_VMSTAT_H

#include "linux/atomic.h"

enum node_stat_item {
	NR_ANON_MAPPED,         /* pages of anon folios counted as mapped */
	NR_ANON_THPS,           /* pages of PMD-mapped anon THPs */
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

#endif
