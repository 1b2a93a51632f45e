/*
 * What reclaim's two halves share (Linux keeps it inside mm/vmscan.c):
 * mm/vmscan_lru.c picks folios from the LRU lists, mm/vmscan.c
 * (shrink_folio_list) decides and does each one's fate.
 */
#ifndef MM_VMSCAN_H
#define MM_VMSCAN_H

#include "linux/mmzone.h"
#include "linux/types.h"

#define DEF_PRIORITY 12         /* a pass scans lru_size >> priority: 1/4096 first */

/* One reclaim's goal, pressure and tally (Linux's struct scan_control). */
struct scan_control {
	unsigned long nr_to_reclaim;    /* stop once this many pages are freed */
	unsigned long nr_reclaimed;     /* pages freed so far */
	unsigned long nr_scanned;       /* inactive pages looked at */
	int priority;                   /* DEF_PRIORITY .. 0: lower scans more */
	bool ignore_references;         /* MADV_PAGEOUT: reclaim even what was used */
	bool kswapd;                    /* kswapd reclaims, not an allocation */
	/* shrink_folio_list's report of one batch: */
	unsigned long nr_activate[2];   /* pages it sent to the active list [anon, file] */
	unsigned long nr_io;            /* pages it wrote to swap */
};

unsigned long shrink_folio_list(struct folio **folios, unsigned int nr, struct scan_control *sc);
void shrink_node(struct scan_control *sc);

#endif
