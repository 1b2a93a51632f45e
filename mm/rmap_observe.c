/*
 * The rmap functions' observation hook (mm/rmap_observe.h): one static
 * key for both observers, the mapcount trace (mm/rmap_trace.c) and the
 * shadow exact counter (mm/mapcount_shadow.c), and the return hook that
 * hands them the end of an operation.
 *
 * Each CPU observes at most one operation at a time (rmap operations never
 * nest): from the hook to the return, preemption off, its state is here.
 *
 * Lock order: see mm/rmap.c; this file takes no lock of its own.  Between
 * the hook and the return the trace may hold rmap_trace_op_lock; the return
 * takes mapcount_shadow_lock, then rmap_trace_lock.
 */
#include "mm/rmap_observe.h"
#include "mm/rmap_trace.h"
#include "mm/mapcount_shadow.h"
#include "linux/rmap.h"
#include "linux/smp.h"
#include "linux/printk.h"
#include <asm/return_hook.h>

struct static_key rmap_observe_key;

/* The operation a CPU observes, from its hook to its return. */
struct rmap_observed {
	struct folio *folio;            /* NULL: none */
	struct page *page;
	struct vm_area_struct *vma;
	unsigned long caller;           /* where the rmap function returns to */
	int nr_pages;
	enum rmap_trace_op op;
	bool traced, counted;           /* which observers want its end */
};

static struct rmap_observed observed[NR_CPUS];

/*
 * The key on while the trace selects folios or the shadow counts (its
 * setup); off when neither does.  Patching text: no spinlock held.  The
 * shadow stopping by itself (its hash full) leaves the key on: the hook
 * then finds nothing wanted.
 */
void rmap_observe_update(void)
{
	if (rmap_trace_mode != RMAP_TRACE_OFF || READ_ONCE(mapcount_shadow_on))
		static_branch_enable(&rmap_observe_key);
	else
		static_branch_disable(&rmap_observe_key);
}

/*
 * The hook runs inlined in the rmap function; this, its slow half, is
 * called from there: the rmap function's frame is our caller's, found
 * through the frame pointers both builds keep.
 */
#pragma GCC diagnostic ignored "-Wframe-address"

/*
 * rmap_observe(), an observer on: if the trace or the shadow wants op on
 * folio, the rmap function now returns through return_hook_trampoline.
 */
void __rmap_observe(struct folio *folio, struct page *page, int nr_pages,
		    struct vm_area_struct *vma, enum rmap_trace_op op)
{
	const bool counted = mapcount_shadow_wanted(folio, op);
	struct rmap_observed *o;
	bool traced;

	preempt_disable();
	o = &observed[smp_processor_id()];
	if (VM_WARN_ON_ONCE(o->folio, "rmap_observe: an rmap operation inside another"))
		goto out;
	traced = rmap_trace_before(folio, op, nr_pages, vma);
	if (!traced && !counted)
		goto out;
	*o = (struct rmap_observed){
		.folio = folio, .page = page, .vma = vma, .nr_pages = nr_pages, .op = op,
		.traced = traced, .counted = counted,
	};
	o->caller = return_hook_install(__builtin_frame_address(1));
	return;         /* preemption stays off until the return */
out:
	preempt_enable();
}

/*
 * The trampoline's call when the hooked rmap function returns, ret being
 * its return value (meaningful for the int ones, the try_dups): the shadow
 * counts the change, then the trace records it.  Gives back the address
 * the function returns to.
 */
unsigned long return_hook_handler(unsigned long ret)
{
	struct rmap_observed *o = &observed[smp_processor_id()];
	const unsigned long caller = o->caller;

	if (o->counted)
		mapcount_shadow_rmap(o->folio, o->page, o->nr_pages, o->vma, o->op, (int)ret);
	if (o->traced)
		rmap_trace_after(o->folio, caller);
	o->folio = NULL;
	preempt_enable();
	return caller;
}
