/*
 * The global counters of mm/vmstat.h.
 *
 * Lock order: none; every counter is an atomic updated without locks, so
 * they may be bumped from any context, under any other lock.
 */
#include "mm/vmstat.h"

atomic_long_t vm_node_stat[NR_VM_NODE_STAT_ITEMS];
