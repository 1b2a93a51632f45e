/*
 * The global counters of linux/vmstat.h.
 *
 * Lock order: see mm/rmap.c; no lock here: every counter is an atomic, so
 * it may be bumped from any context, under any lock.
 */
#include "linux/vmstat.h"

atomic_long_t vm_node_stat[NR_VM_NODE_STAT_ITEMS];
atomic_long_t mthp_stats[MTHP_STAT_ORDERS][__MTHP_STAT_COUNT];
atomic_long_t vm_events[NR_VM_EVENT_ITEMS];
