/*
 * The mapcount trace (mm/rmap_trace.c): every rmap operation on chosen
 * folios is recorded with the folio's state before and after it — large,
 * entire and (PAGE_MAPCOUNT) nr_pages_mapped counts, both MM ID slots, the
 * shared bit — with the acting mm and PID and the calling function.
 * A record names the folio's kind (anon, file, shmem): the same
 * operations trace Linux's anon functions (folio_add_anon_rmap_ptes...)
 * and file ones (folio_add_file_rmap_ptes, folio_dup_file_rmap_ptes...).
 * Chosen by `mapcount_trace=` on the command line or by writing to
 * /proc/mapcount_trace: "off", "all" (every large folio), "order N"
 * (order >= N), "pfn P" (the folio holding PFN P), "clear".
 *
 * Compiled out with `make RMAP_TRACE=0` (CONFIG_RMAP_TRACE); when compiled
 * in but off, an rmap entry point pays one NOP, its hook (a static key, as
 * Linux's tracepoints use).
 *
 * Lock order: see mm/rmap.c; recording a record takes rmap_trace_lock.
 */
#ifndef MM_RMAP_TRACE_H
#define MM_RMAP_TRACE_H

#include "linux/page-flags.h"
#include "linux/mm_types.h"
#include <asm/jump_label.h>
#include <asm/return_hook.h>

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

struct rmap_trace_rec {
	unsigned long seq, pfn, caller;
	int pid, nr;
	unsigned int mm_id, order;
	enum rmap_trace_op op;
	enum folio_kind kind;
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
void __rmap_trace_event(const struct folio *folio, enum rmap_trace_op op, int nr,
			const struct vm_area_struct *vma);
bool rmap_trace_get(unsigned long i, struct rmap_trace_rec *rec);
const char *rmap_trace_op_name(enum rmap_trace_op op);
void rmap_trace_describe(char *buf, size_t size);

/* Is the trace on?  While it is off, a 5-byte NOP (a static key) is all it costs. */
static inline bool rmap_trace_on(void)
{
	return IS_ENABLED(CONFIG_RMAP_TRACE) && static_branch_unlikely(&rmap_trace_key);
}

/*
 * The hook of an rmap operation, the first statement of the (noinline)
 * function that performs it:
 *
 *	noinline_fn int folio_try_dup_anon_rmap_ptes(struct folio *folio, ...)
 *	{
 *		rmap_trace_begin(folio, RMAP_TRACE_DUP_PTES, nr_pages, dst_vma);
 *		...the operation, unchanged...
 *	}
 *
 * If the folio is traced, the hook snapshots its state and makes the
 * function return through a trampoline (<asm/return_hook.h>, Linux's
 * kretprobe idea) that snapshots it again and records op (nr pages, by
 * vma's mm, NULL for none) with both states and the function's caller.
 * While the trace is off the hook is one NOP and nothing else: no second
 * hook at the end, no value kept live across the operation, and the
 * arguments are the rmap function's own, in the same registers.
 */
static __always_inline void rmap_trace_begin(const struct folio *folio, enum rmap_trace_op op,
					     int nr, const struct vm_area_struct *vma)
{
	if (rmap_trace_on())
		__rmap_trace_begin(folio, op, nr, vma);
}

/* An event that changes no count (a reused page): one record, before == after. */
static __always_inline void rmap_trace_event(const struct folio *folio, enum rmap_trace_op op,
					     int nr, const struct vm_area_struct *vma)
{
	if (rmap_trace_on())
		__rmap_trace_event(folio, op, nr, vma);
}

#endif
