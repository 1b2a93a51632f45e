/* The global counters of mm/vmstat.h. */
#include "mm/vmstat.h"

atomic_long_t vm_node_stat[NR_VM_NODE_STAT_ITEMS];
