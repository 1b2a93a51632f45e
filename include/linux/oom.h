/*
 * The OOM killer (mm/oom_kill.c), Linux's include/linux/oom.h: what an
 * allocation path that found no memory after reclaim calls, and what
 * /proc/<pid>/oom_score shows.
 *
 * Locks: out_of_memory() takes oom_lock (a mutex) and tasklist_lock
 * itself; its caller may hold an mmap_lock (the victim's is only
 * trylocked), never a spinlock: it sleeps.
 */
#ifndef _LINUX_OOM_H
#define _LINUX_OOM_H

#include "linux/gfp.h"
#include "uapi/linux/oom.h"

struct task_struct;

/* oom_badness() of a process the killer may not choose (Linux's LONG_MIN). */
#define OOM_BADNESS_NONE        (-__LONG_MAX__ - 1)

/*
 * One call of the OOM killer (Linux's struct oom_control, without the
 * memcg, cpuset and node constraints foliOS does not have).  The caller
 * fills the allocation; out_of_memory() fills the rest.
 */
struct oom_control {
	gfp_t gfp_mask;                 /* the allocation that failed; 0 for a page fault */
	int order;                      /* ... its order (for the log) */
	unsigned long totalpages;       /* out: RAM + swap, the scale of every badness */
	int chosen_pid;                 /* out: the victim killed now; -1 an earlier one still
					   exiting was waited for; 0 none */
	long chosen_points;             /* out: the victim's badness */
};

bool out_of_memory(struct oom_control *oc);
void pagefault_out_of_memory(void);
long oom_badness(struct task_struct *p, unsigned long totalpages);
unsigned long oom_totalpages(void);

#endif
