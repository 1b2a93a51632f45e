/*
 * foliOS's own /proc files, which Linux does not have:
 *
 *   mapcount_trace  the rmap trace (linux/rmap_trace.h): reading lists the
 *                   records, writing selects what is traced
 *   mapcount_report the shadow exact counter's findings (linux/mapcount_shadow.h)
 *
 * (fs/proc/pgtable_floor.c has the third, the floor make bench measures.)
 */
#include "linux/errno.h"
#include "fs/proc/internal.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/sched.h"
#include "linux/ksyms.h"
#include "linux/mm.h"
#include "linux/rmap_trace.h"
#include "linux/mapcount_shadow.h"

/*
 * The mapcount trace: the selection, then the records, oldest first, one
 * line each: sequence number,
 * PID and MM ID of the acting process, operation, pages, folio (head PFN /
 * order), calling function, then each count before->after, and last the
 * folio's kind if it is not anon ("file", "shmem"): the lines of anon
 * folios read as they always did.
 */
static int mapcount_trace_show(struct seq_file *m, void *v)
{
	struct rmap_trace_rec r;
	char mode[32];

	rmap_trace_describe(mode, sizeof(mode));
	seq_printf(m, "# mapcount_trace: %s\n", mode);
	for (unsigned long i = 0; rmap_trace_get(i, &r); i++) {
		const struct rmap_trace_state *a = &r.before, *b = &r.after;
		char caller[64];

		ksym_format(r.caller, caller, sizeof(caller));
		seq_printf(m, "#%lu pid=%d mm=%u %s nr=%d folio=%#lx/%u by %s: lm %d->%d %s %d->%d "
			   "npm %d->%d slot0 %u:%d->%u:%d slot1 %u:%d->%u:%d shared %d->%d%s%s\n",
			   r.seq, r.pid, r.mm_id, rmap_trace_op_name(r.op), r.nr, r.pfn, r.order,
			   caller, a->lm, b->lm, IS_ENABLED(CONFIG_MAPCOUNT_PAGES) ? "tmp" : "em",
			   a->em, b->em, a->npm, b->npm, a->id[0], a->mc[0],
			   b->id[0], b->mc[0], a->id[1], a->mc[1], b->id[1], b->mc[1], a->shared,
			   b->shared, r.kind == FOLIO_KIND_ANON ? "" : " ",
			   r.kind == FOLIO_KIND_ANON ? "" : folio_kind_name(r.kind));
	}
	return 0;
}

static int mapcount_trace_store(struct file *file, char *buf, size_t len)
{
	char cmd[64];

	strlcpy(cmd, buf, sizeof(cmd));
	cmd[strcspn(cmd, "\n")] = '\0';
	return rmap_trace_control(cmd);
}

/*
 * /proc/mapcount_report: the shadow exact counter's findings
 * (mm/mapcount_shadow.c); writing "reset" zeroes them.
 */
static int mapcount_report_show(struct seq_file *m, void *v)
{
	struct mapcount_shadow_stats s;

	mapcount_shadow_read(&s);
	seq_printf(m, "variant: %s\nshadow: %s\nchanges: %lu\n", MAPCOUNT_VARIANT,
		   s.overflowed ? "stopped (its hash is full: the counts below are partial)" :
		   READ_ONCE(mapcount_shadow_on) ? "on" : "off (boot with mapcount_shadow)",
		   s.changes);
	seq_printf(m, "maybe_shared: answers %lu false_shared %lu false_exclusive %lu\n",
		   s.shared_answers, s.false_shared, s.false_exclusive);
	seq_printf(m, "partially_mapped: removals %lu queued %lu missed %lu\n",
		   s.partial_removals, s.partial_queued, s.partial_missed);
	seq_printf(m, "kpagecount: pages %lu wrong %lu abs_error %lu\n", s.page_checks,
		   s.kpagecount_wrong, s.kpagecount_error);
	seq_printf(m, "uss: pages %lu wrong %lu\n", s.page_checks, s.uss_wrong);
	return 0;
}

/* "reset"; a bare newline (a shell's echo may write it on its own) does nothing. */
static int mapcount_report_store(struct file *file, char *buf, size_t len)
{
	buf[strcspn(buf, "\n")] = '\0';
	if (!*buf)
		return 0;
	if (strcmp(buf, "reset"))
		return -EINVAL;
	mapcount_shadow_reset();
	return 0;
}

const struct proc_dir_entry proc_mapcount_report = {
	"mapcount_report", mapcount_report_show, mapcount_report_store,
};

const struct proc_dir_entry proc_mapcount_trace = {
	"mapcount_trace", mapcount_trace_show, mapcount_trace_store,
};
