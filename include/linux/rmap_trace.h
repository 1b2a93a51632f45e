/*
 * The mapcount trace's interface outside mm/ (mm/rmap_trace.c): every rmap
 * operation on chosen folios is recorded with the folio's state before and
 * after it — large, entire and (PAGE_MAPCOUNT) nr_pages_mapped counts, both
 * MM ID slots, the shared bit — with the acting mm and PID and the calling
 * function.  A record names the folio's kind (anon, file, shmem): the same
 * operations trace Linux's anon functions (folio_add_anon_rmap_ptes...)
 * and file ones (folio_add_file_rmap_ptes, folio_dup_file_rmap_ptes...).
 * Chosen by `mapcount_trace=` on the command line (kernel/main.c) or by
 * writing to /proc/mapcount_trace (fs/proc/mapcount_trace.c): "off", "all"
 * (every large folio), "order N" (order >= N), "pfn P" (the folio holding
 * PFN P), "clear".
 *
 * How the records are taken — one observation hook per rmap function,
 * shared with the shadow exact counter — is mm's (mm/rmap_observe.h).
 *
 * Lock order: see mm/rmap.c.
 */
#ifndef _LINUX_RMAP_TRACE_H
#define _LINUX_RMAP_TRACE_H

#include "linux/page-flags.h"
#include "linux/mm_types.h"

#ifndef CONFIG_RMAP_TRACE
#define CONFIG_RMAP_TRACE 1
#endif

enum rmap_trace_op {
	RMAP_TRACE_NEW, RMAP_TRACE_ADD_PTES, RMAP_TRACE_ADD_PMD, RMAP_TRACE_DUP_PTES,
	RMAP_TRACE_DUP_PMD, RMAP_TRACE_REMOVE_PTES, RMAP_TRACE_REMOVE_PMD, RMAP_TRACE_SPLIT,
	RMAP_TRACE_REUSE,       /* not an rmap change: a write fault reused the page */
	NR_RMAP_TRACE_OPS,
};

/*
 * What a folio holds, as the trace and /proc/folio name it: anon memory,
 * a page-cache folio of shmem (tmpfs, memfd, shared anon: PG_swapbacked)
 * or of another file, or none of these (free, or cut from its file).
 */
enum folio_kind { FOLIO_KIND_NONE, FOLIO_KIND_ANON, FOLIO_KIND_FILE, FOLIO_KIND_SHMEM };

static inline enum folio_kind folio_kind(const struct folio *folio)
{
	if (folio_test_anon(folio))
		return FOLIO_KIND_ANON;
	if (!folio->mapping)
		return FOLIO_KIND_NONE;
	return folio_test_swapbacked(folio) ? FOLIO_KIND_SHMEM : FOLIO_KIND_FILE;
}

const char *folio_kind_name(enum folio_kind kind);

/*
 * A folio's mapcount state, logical values (-1: not kept in this mode);
 * em is the total of mapped pages with CONFIG_MAPCOUNT_PAGES ("tmp").
 */
struct rmap_trace_state {
	int lm, em, npm, mc[2];
	unsigned int id[2];
	bool shared;
};

/* One record: nr is the operation's PTEs, PMDs (1) or, for new and split, pages. */
struct rmap_trace_rec {
	unsigned long seq, pfn, caller;
	int pid, nr;
	unsigned int mm_id, order;
	enum rmap_trace_op op;
	enum folio_kind kind;
	struct rmap_trace_state before, after;
};

/* "off", "all", "order N", "pfn P" or "clear" (':' for the space): 0 or -EINVAL. */
int rmap_trace_control(const char *cmd);
/* The current selection as rmap_trace_control() takes it ("order 4"). */
void rmap_trace_describe(char *buf, size_t size);
/* The i-th record still in the ring, oldest first; false past the newest. */
bool rmap_trace_get(unsigned long i, struct rmap_trace_rec *rec);
const char *rmap_trace_op_name(enum rmap_trace_op op);

/* The PID of the task running now (kernel/sched.c; 0 on the host). */
int rmap_trace_pid(void);

#endif
