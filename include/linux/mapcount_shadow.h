/*
 * The shadow exact counter's interface outside mm/ (mm/mapcount_shadow.c):
 * with mapcount_shadow on the command line (kernel/main.c), every rmap
 * change of a large anon folio is also counted exactly — per page, and per
 * (folio, mm) — and after each one the scheme's answers are compared with
 * the truth; /proc/mapcount_report (fs/proc/mapcount_trace.c) shows what
 * the comparisons found.  How the rmap changes reach it — the observation
 * hook it shares with the mapcount trace — is mm's (mm/rmap_observe.h).
 *
 * Lock order: see mm/rmap.c; reading takes mapcount_shadow_lock.
 */
#ifndef _LINUX_MAPCOUNT_SHADOW_H
#define _LINUX_MAPCOUNT_SHADOW_H

#include "linux/types.h"

/* What the checks found since boot or the last reset (/proc/mapcount_report). */
struct mapcount_shadow_stats {
	unsigned long changes, shared_answers, false_shared, false_exclusive;
	unsigned long partial_removals, partial_queued, partial_missed;
	unsigned long page_checks, kpagecount_wrong, kpagecount_error, uss_wrong;
	bool overflowed;                /* more (folio, mm) pairs than the hash holds */
};

/* Counting now (false again if the hash overflowed)? */
extern bool mapcount_shadow_on;

/* Allocate the counts and start counting: 0, -ENOMEM, or -EOPNOTSUPP (RMAP_TRACE=0). */
int mapcount_shadow_setup(void);
void mapcount_shadow_read(struct mapcount_shadow_stats *s);
void mapcount_shadow_reset(void);

#endif
