/*
 * The mapcount trace: a ring of the last RMAP_TRACE_SIZE rmap operations on
 * the chosen folios, each with the folio's state before and after (see
 * linux/rmap_trace.h).  /proc/mapcount_trace prints it one line per record;
 * scripts/trace-plot.py turns a saved trace into a timeline picture.  The
 * operations come from the rmap functions' observation hook
 * (mm/rmap_observe.h), which the shadow exact counter shares.
 *
 * Lock order: see mm/rmap.c; rmap_trace_lock guards the ring, and
 * rmap_trace_op_lock is held from an operation's "before" snapshot to its
 * "after" one: every operation on a traced folio is traced, so two CPUs'
 * operations on it are recorded one after the other, each record showing
 * its own change only.
 */
#include "linux/errno.h"
#include "mm/rmap_trace.h"
#include "linux/rmap.h"
#include "linux/spinlock.h"
#include "linux/string.h"
#include "linux/printk.h"

#define RMAP_TRACE_SIZE 1024

enum rmap_trace_mode rmap_trace_mode;
static unsigned long rmap_trace_arg;            /* the order, or the PFN */
static struct rmap_trace_rec ring[RMAP_TRACE_SIZE];
static unsigned long ring_next;                 /* sequence number of the next record */
static spinlock_t rmap_trace_lock = SPINLOCK_INIT("rmap_trace");

static const char *const op_names[NR_RMAP_TRACE_OPS] = {
	[RMAP_TRACE_NEW] = "new", [RMAP_TRACE_ADD_PTES] = "add_ptes",
	[RMAP_TRACE_ADD_PMD] = "add_pmd", [RMAP_TRACE_DUP_PTES] = "dup_ptes",
	[RMAP_TRACE_DUP_PMD] = "dup_pmd", [RMAP_TRACE_REMOVE_PTES] = "remove_ptes",
	[RMAP_TRACE_REMOVE_PMD] = "remove_pmd", [RMAP_TRACE_SPLIT] = "split",
	[RMAP_TRACE_REUSE] = "reuse",
};

const char *rmap_trace_op_name(enum rmap_trace_op op)
{
	return op < NR_RMAP_TRACE_OPS ? op_names[op] : "?";
}

const char *folio_kind_name(enum folio_kind kind)
{
	static const char *const names[] = {
		[FOLIO_KIND_NONE] = "none", [FOLIO_KIND_ANON] = "anon",
		[FOLIO_KIND_FILE] = "file", [FOLIO_KIND_SHMEM] = "shmem",
	};

	return kind <= FOLIO_KIND_SHMEM ? names[kind] : "?";
}

/* Boot-time setup (and between host tests): off and empty. */
void rmap_trace_init(void)
{
	rmap_trace_mode = RMAP_TRACE_OFF;
	ring_next = 0;
	rmap_observe_update();
}

/*
 * "off", "all", "order N", "pfn P" (decimal or 0x…) or "clear" (forget the
 * records), as written to /proc/mapcount_trace; ':' may stand for the space
 * (the command-line form mapcount_trace=order:4).  0 or -EINVAL.
 */
int rmap_trace_control(const char *cmd)
{
	const char *arg = cmd + strcspn(cmd, " :");
	size_t len = arg - cmd;

	if (*arg)
		arg++;
	if (len == 3 && !strncmp(cmd, "off", 3))
		rmap_trace_mode = RMAP_TRACE_OFF;
	else if (len == 3 && !strncmp(cmd, "all", 3))
		rmap_trace_mode = RMAP_TRACE_ALL;
	else if (len == 5 && !strncmp(cmd, "clear", 5))
		ring_next = 0;
	else if (len == 5 && !strncmp(cmd, "order", 5) && *arg)
		rmap_trace_mode = RMAP_TRACE_ORDER, rmap_trace_arg = simple_strtoul(arg, NULL, 0);
	else if (len == 3 && !strncmp(cmd, "pfn", 3) && *arg)
		rmap_trace_mode = RMAP_TRACE_PFN, rmap_trace_arg = simple_strtoul(arg, NULL, 0);
	else
		return -EINVAL;
	rmap_observe_update();
	return 0;
}

static bool rmap_trace_wanted(const struct folio *folio)
{
	unsigned long pfn = folio_pfn(folio);

	switch (rmap_trace_mode) {
	case RMAP_TRACE_ALL:
		return folio_test_large(folio);
	case RMAP_TRACE_ORDER:
		return folio_order(folio) >= rmap_trace_arg;
	case RMAP_TRACE_PFN:
		return rmap_trace_arg >= pfn && rmap_trace_arg < pfn + folio_nr_pages(folio);
	default:
		return false;
	}
}

static void rmap_trace_snapshot(const struct folio *folio, struct rmap_trace_state *s)
{
	bool large = folio_test_large(folio);

	s->lm = folio_mapcount(folio);
	s->em = IS_ENABLED(CONFIG_MAPCOUNT_PAGES) ? (int)folio_total_mapped_pages(folio) :
						    folio_entire_mapcount(folio);
	s->npm = large ? folio_nr_pages_mapped(folio) : -1;
	for (int i = 0; i < 2; i++) {
		s->id[i] = large ? folio_mm_id(folio, i) : 0;
		s->mc[i] = large ? folio->_mm_id_mapcount[i] + 1 : 0;
	}
	s->shared = large && folio_test_large_maybe_mapped_shared(folio);
}

/* The record of the operation running now, if its folio is traced. */
static spinlock_t rmap_trace_op_lock = SPINLOCK_INIT("rmap_trace_op");
static int pending_cpu = -1;            /* the CPU whose operation is pending */
static struct rmap_trace_rec pending;

/* Fill in the record's "who" (op on nr pages by vma's mm) and "before". */
static void rmap_trace_prepare(const struct folio *folio, enum rmap_trace_op op, int nr,
			       const struct vm_area_struct *vma)
{
	pending.pid = rmap_trace_pid();
	pending.nr = nr;
	pending.mm_id = vma ? vma->vm_mm->mm_id : 0;
	pending.op = op;
	rmap_trace_snapshot(folio, &pending.before);
}

/*
 * Start recording op on folio (rmap_trace_op_lock taken, with preemption
 * off until rmap_trace_op_end()), or false: not traced, or an operation
 * inside another on this CPU (rmap operations never nest: warned).
 */
static bool rmap_trace_op_begin(const struct folio *folio, enum rmap_trace_op op, int nr,
				const struct vm_area_struct *vma)
{
	if (!rmap_trace_wanted(folio))
		return false;
	if (VM_WARN_ON_ONCE(READ_ONCE(pending_cpu) == (int)smp_processor_id(),
			    "rmap_trace: an rmap operation inside another"))
		return false;
	spin_lock(&rmap_trace_op_lock);
	pending_cpu = smp_processor_id();
	rmap_trace_prepare(folio, op, nr, vma);
	return true;
}

static void rmap_trace_op_end(void)
{
	pending_cpu = -1;
	spin_unlock(&rmap_trace_op_lock);
}

/* Put the pending record into the ring with folio's state now as "after". */
static void rmap_trace_commit(const struct folio *folio)
{
	struct rmap_trace_rec *r;
	unsigned long flags;

	spin_lock_irqsave(&rmap_trace_lock, flags);
	r = &ring[ring_next % RMAP_TRACE_SIZE];
	*r = pending;
	r->seq = ring_next++;
	r->pfn = folio_pfn(folio);
	r->order = folio_order(folio);          /* a split's record shows order 0 */
	r->kind = folio_kind(folio);            /* after: a new anon folio is anon by now */
	rmap_trace_snapshot(folio, &r->after);
	spin_unlock_irqrestore(&rmap_trace_lock, flags);
}

/*
 * The observation hook's start (mm/rmap_observe.c), an observer on: if
 * folio is traced, its record is pending from here, rmap_trace_op_lock
 * held, until the operation returns and the hook calls rmap_trace_after().
 * A PMD operation's record counts the PMD (nr 1), the others' the pages.
 */
bool rmap_trace_before(const struct folio *folio, enum rmap_trace_op op, int nr_pages,
		       const struct vm_area_struct *vma)
{
	const bool pmd = op == RMAP_TRACE_ADD_PMD || op == RMAP_TRACE_DUP_PMD ||
			 op == RMAP_TRACE_REMOVE_PMD;

	return rmap_trace_op_begin(folio, op, pmd ? 1 : nr_pages, vma);
}

/* The operation rmap_trace_before() took is done: record it, called from caller. */
void rmap_trace_after(const struct folio *folio, unsigned long caller)
{
	pending.caller = caller;
	rmap_trace_commit(folio);
	rmap_trace_op_end();
}

/*
 * The event's hook runs inlined in a function of its own: that function's
 * frame and return address are ours' caller's (Linux's CALLER_ADDR1),
 * found through the frame pointers both builds keep.
 */
#pragma GCC diagnostic ignored "-Wframe-address"

/* rmap_trace_event(), an observer on: the record, at once. */
void __rmap_trace_event(const struct folio *folio, enum rmap_trace_op op, int nr,
			const struct vm_area_struct *vma)
{
	if (!rmap_trace_op_begin(folio, op, nr, vma))
		return;
	pending.caller = (unsigned long)__builtin_return_address(1);
	rmap_trace_commit(folio);
	rmap_trace_op_end();
}

/* The current selection as rmap_trace_control() takes it ("order 4"). */
void rmap_trace_describe(char *buf, size_t size)
{
	static const char *const names[] = { "off", "all", "order", "pfn" };

	if (rmap_trace_mode == RMAP_TRACE_ORDER || rmap_trace_mode == RMAP_TRACE_PFN)
		snprintf(buf, size, "%s %lu", names[rmap_trace_mode], rmap_trace_arg);
	else
		snprintf(buf, size, "%s", names[rmap_trace_mode]);
}

/* The i-th record still in the ring, oldest first; false past the newest. */
bool rmap_trace_get(unsigned long i, struct rmap_trace_rec *rec)
{
	unsigned long first = ring_next > RMAP_TRACE_SIZE ? ring_next - RMAP_TRACE_SIZE : 0;

	if (first + i >= ring_next)
		return false;
	*rec = ring[(first + i) % RMAP_TRACE_SIZE];
	return true;
}
