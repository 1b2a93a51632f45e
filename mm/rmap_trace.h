/*
 * The mapcount trace (mm/rmap_trace.c): every rmap operation on chosen
 * folios is recorded with the folio's state before and after it — large,
 * entire and (PAGE_MAPCOUNT) nr_pages_mapped counts, both MM ID slots, the
 * shared bit — with the acting mm and PID and the calling function.
 * Chosen by `mapcount_trace=` on the command line or by writing to
 * /proc/mapcount_trace: "off", "all" (every large folio), "order N"
 * (order >= N), "pfn P" (the folio holding PFN P), "clear".
 *
 * Compiled out with `make RMAP_TRACE=0` (CONFIG_RMAP_TRACE); when compiled
 * in but off, an rmap entry point pays two NOPs, its begin and end hooks
 * (static keys, as Linux's tracepoints use).
 *
 * Lock order: see mm/rmap.c; the end hook takes rmap_trace_lock.
 */
#ifndef MM_RMAP_TRACE_H
#define MM_RMAP_TRACE_H

#include "mm/folio.h"
#include "mm/mm_types.h"
#include <asm/jump_label.h>

#ifndef CONFIG_RMAP_TRACE
#define CONFIG_RMAP_TRACE 1
#endif

enum rmap_trace_op {
	RMAP_TRACE_NEW, RMAP_TRACE_ADD_PTES, RMAP_TRACE_ADD_PMD, RMAP_TRACE_DUP_PTES,
	RMAP_TRACE_DUP_PMD, RMAP_TRACE_REMOVE_PTES, RMAP_TRACE_REMOVE_PMD, RMAP_TRACE_SPLIT,
	RMAP_TRACE_REUSE,       /* not an rmap change: a write fault reused the page */
	NR_RMAP_TRACE_OPS,
};

/* A folio's mapcount state, logical values (-1: not kept in this mode). */
struct rmap_trace_state {
	int lm, em, npm, mc[2];
	unsigned int id[2];
	bool shared;
};

struct rmap_trace_rec {
	unsigned long seq, pfn, caller;
	int pid, nr;
	unsigned int mm_id, order;
	enum rmap_trace_op op;
	struct rmap_trace_state before, after;
};

enum rmap_trace_mode { RMAP_TRACE_OFF, RMAP_TRACE_ALL, RMAP_TRACE_ORDER, RMAP_TRACE_PFN };
extern enum rmap_trace_mode rmap_trace_mode;
extern struct static_key rmap_trace_key;        /* enabled while the mode is not off */

/* The PID of the task running now (the kernel's scheduler; 0 on the host). */
int rmap_trace_pid(void);

void rmap_trace_init(void);
int rmap_trace_control(const char *cmd);
void __rmap_trace_begin(const struct folio *folio, enum rmap_trace_op op, int nr,
			const struct vm_area_struct *vma);
void __rmap_trace_end(const struct folio *folio);
bool rmap_trace_get(unsigned long i, struct rmap_trace_rec *rec);
const char *rmap_trace_op_name(enum rmap_trace_op op);
void rmap_trace_describe(char *buf, size_t size);

/* Is the trace on?  While it is off, a 5-byte NOP (a static key) is all it costs. */
static inline bool rmap_trace_on(void)
{
	return IS_ENABLED(CONFIG_RMAP_TRACE) && static_branch_unlikely(&rmap_trace_key);
}

/*
 * Hooks around an unchanged operation on folio:
 *
 *	rmap_trace_begin(folio, op, nr, vma);
 *	...the operation...
 *	rmap_trace_end(folio);
 *
 * If the folio is traced, begin snapshots its state and end records op
 * (nr pages, by vma's mm, NULL for none) with the state before and after
 * it, naming the caller of the function the hooks sit in.  While the trace
 * is off each hook is one NOP (a static key) and keeps nothing live across
 * the operation: begin leaves the record pending in mm/rmap_trace.c, as
 * rmap operations run on one CPU and never nest.
 */
static __always_inline void rmap_trace_begin(const struct folio *folio, enum rmap_trace_op op,
					     int nr, const struct vm_area_struct *vma)
{
	if (rmap_trace_on())
		__rmap_trace_begin(folio, op, nr, vma);
}

static __always_inline void rmap_trace_end(const struct folio *folio)
{
	if (rmap_trace_on())
		__rmap_trace_end(folio);
}

#endif
