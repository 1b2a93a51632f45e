/*
 * The out-of-memory killer (Linux's mm/oom_kill.c) and process_mrelease(2).
 *
 * When an allocation finds no memory and reclaim can give none back, one
 * process is killed so the others go on: the one with the highest
 * badness, oom_badness() — the pages it would give back (RSS, swap
 * entries, page tables) plus its oom_score_adj in thousandths of RAM+swap.
 * PID 1, the idle tasks and processes at OOM_SCORE_ADJ_MIN are never
 * chosen.  The victim gets SIGKILL, and so does every other process
 * sharing its mm (their memory is the same memory).  A victim's memory
 * then comes back without waiting for it to run: its private mappings are
 * unmapped here (Linux's oom_reaper, done by the killer itself since
 * foliOS has no kernel threads), and the mm is marked MMF_OOM_SKIP so the
 * next OOM looks past it.  While a victim has not been reaped yet (its
 * mmap_lock was held), later OOMs wait for it rather than kill a second
 * process — for OOM_REAP_TIMEOUT at most; then it is skipped.
 *
 * process_mrelease(pidfd, 0) does the same reaping for a process someone
 * else already SIGKILLed, so its memory returns before its exit gets CPU
 * time (Linux 5.15).
 *
 * Locks: oom_lock (a mutex) makes one killer at a time; under it the
 * task list is walked under tasklist_lock (irq-safe spinlock): victims
 * chosen, signalled and marked (signal->oom_mm) in one hold.  A victim's
 * mm is reaped after that lock is dropped, under its mmap_lock taken for
 * read by trylock only (the caller of out_of_memory() may hold its own
 * mmap_lock; the victim's exit_mmap takes it for write), and the zaps take
 * their page-table locks (mm/memory_zap.c).  process_mrelease takes the
 * mmap_lock for read and sleeps for it.  Order: mm/rmap.c.
 */
#include "linux/oom.h"
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/mm.h"
#include "linux/mmap_lock.h"
#include "linux/mutex.h"
#include "linux/pid.h"
#include "linux/printk.h"
#include "linux/sched.h"
#include "linux/sched/mm.h"
#include "linux/signal.h"
#include "linux/string.h"
#include "linux/swap.h"
#include "linux/syscalls.h"
#include "linux/vmstat.h"
#include "mm/internal.h"
#include <asm/arch.h>

static struct mutex oom_lock = MUTEX_INIT("oom_lock");

/* How long a victim's mmap_lock may keep the killer from reaping it (Linux's reaper: 10 × HZ/10). */
#define OOM_REAP_TIMEOUT HZ

#define K(pages) ((pages) << (PAGE_SHIFT - 10))

/* RAM and swap in pages: what oom_score_adj is a thousandth of (Linux's oc->totalpages). */
unsigned long oom_totalpages(void)
{
	return zone.managed_pages + READ_ONCE(total_swap_pages);
}

/* Is p never a victim: PID 1's process or an idle task (Linux's oom_unkillable_task)? */
static bool oom_unkillable_task(const struct task_struct *p)
{
	return p->tgid == 1 || is_idle_task(p);
}

/*
 * A thread of p's process that still has its mm, or NULL (Linux's
 * find_lock_task_mm: the leader may have exited before its threads).
 * tasklist_lock held: t->mm changes under it (set_task_mm, exit_mm).
 */
static struct task_struct *find_task_mm(struct task_struct *p)
{
	struct task_struct *t;

	for_each_thread(p, t)
		if (t->mm)
			return t;
	return NULL;
}

/* Is t a vfork child still on its parent's mm: its memory is not its own (Linux's in_vfork)? */
static bool in_vfork(const struct task_struct *t)
{
	return t->vfork_done && t->parent && t->parent->mm == t->mm;
}

/* Was t's process chosen by an OOM kill already (Linux's tsk_is_oom_victim)? */
static bool tsk_is_oom_victim(const struct task_struct *t)
{
	return t->signal->oom_mm;
}

/*
 * How much killing p would help (Linux's oom_badness): the pages its mm
 * would give back — RSS, swap entries, page tables — plus oom_score_adj
 * thousandths of totalpages.  OOM_BADNESS_NONE if p may not be chosen: PID 1, no
 * mm left, OOM_SCORE_ADJ_MIN, an mm already reaped (MMF_OOM_SKIP), or a
 * vfork child.  May be negative.  tasklist_lock held.
 */
long oom_badness(struct task_struct *p, unsigned long totalpages)
{
	struct task_struct *t;
	struct mm_struct *mm;
	long points, adj;

	if (oom_unkillable_task(p))
		return OOM_BADNESS_NONE;
	t = find_task_mm(p);
	if (!t)
		return OOM_BADNESS_NONE;
	mm = t->mm;
	adj = p->signal->oom_score_adj;
	if (adj == OOM_SCORE_ADJ_MIN || test_bit(MMF_OOM_SKIP, &mm->flags) || in_vfork(t))
		return OOM_BADNESS_NONE;
	points = get_mm_rss(mm) + READ_ONCE(mm->rss_swap) + mm_pgtables_bytes(mm) / PAGE_SIZE;
	return points + adj * (long)(totalpages / 1000);
}

/*
 * Will t's memory go without a kill (Linux's __task_will_free_mem): its
 * whole group is exiting, or it is the last thread and exiting.
 */
static bool __task_will_free_mem(struct task_struct *t)
{
	return (t->signal->flags & SIGNAL_GROUP_EXIT) || (thread_group_empty(t) && t->exiting);
}

/*
 * Will t's mm be freed soon: t is exiting and so is every other process
 * using its mm (Linux's task_will_free_mem).  Not if it was reaped
 * already: then waiting for it gains nothing.  tasklist_lock held.
 */
static bool task_will_free_mem(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;
	struct task_struct *p, *m;

	if (!mm || !__task_will_free_mem(t) || test_bit(MMF_OOM_SKIP, &mm->flags))
		return false;
	if (READ_ONCE(mm->mm_users) <= 1)
		return true;
	for_each_process(p) {
		if (p->signal == t->signal)
			continue;
		m = find_task_mm(p);
		if (m && m->mm == mm && !__task_will_free_mem(p))
			return false;
	}
	return true;
}

/*
 * Record t's process as an OOM victim holding mm (Linux's
 * mark_oom_victim): the mm stays referenced (mmgrab) until the process
 * is freed, so later OOMs can see whether it was reaped.  tasklist_lock
 * held.
 */
static void mark_oom_victim(struct task_struct *t, struct mm_struct *mm)
{
	if (t->signal->oom_mm)
		return;
	mmgrab(mm);
	t->signal->oom_mm = mm;
	t->signal->oom_kill_jiffies = jiffies;
}

/*
 * Unmap what mm's private mappings map (Linux's __oom_reap_task_mm):
 * anonymous memory and the private copies of files — what no other
 * process can still reach — with the zap MADV_DONTNEED uses; swap
 * entries go too.  Shared mappings stay for exit_mmap: their pages are
 * the file's.  mmap_lock held for read (a fault of a dying thread may run
 * alongside, as beside MADV_DONTNEED); may sleep.
 */
static void __oom_reap_task_mm(struct mm_struct *mm)
{
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (vma->vm_flags & VM_PFNMAP)
			continue;
		if (vma_is_anonymous(vma) || !(vma->vm_flags & VM_SHARED))
			zap_page_range(vma, vma->vm_start, vma->vm_end);
	}
}

/*
 * Reap the victim's mm if its mmap_lock is free now (Linux's
 * oom_reap_task_mm), then mark it MMF_OOM_SKIP.  True if done (or done
 * before); false if the lock was busy: the next OOM tries again, and
 * after OOM_REAP_TIMEOUT gives up (the mm is skipped unreaped, as
 * Linux's reaper does after its retries).  Not current's own mm: a caller
 * may be holding its mmap_lock, and current is exiting anyway.  Under
 * oom_lock, no spinlock.
 */
static bool oom_reap_task_mm(struct mm_struct *mm, int pid, unsigned long killed_at)
{
	if (test_bit(MMF_OOM_SKIP, &mm->flags))
		return true;
	if (mm != current->mm && mmap_read_trylock(mm)) {
		if (!test_bit(MMF_OOM_SKIP, &mm->flags))        /* exit_mmap may have come first */
			__oom_reap_task_mm(mm);
		set_bit(MMF_OOM_SKIP, &mm->flags);
		mmap_read_unlock(mm);
		pr_info("oom_reaper: reaped process %d, now anon-rss:%lukB, file-rss:%lukB, shmem-rss:%lukB\n",
			pid, K(READ_ONCE(mm->rss_anon)), K(READ_ONCE(mm->rss_file)),
			K(READ_ONCE(mm->rss_shmem)));
		return true;
	}
	if ((long)(jiffies - killed_at) < OOM_REAP_TIMEOUT)
		return false;
	pr_info("oom_reaper: unable to reap pid:%d\n", pid);
	set_bit(MMF_OOM_SKIP, &mm->flags);
	return true;
}

/* What one kill found under tasklist_lock, to log and reap after it. */
struct oom_victim {
	struct mm_struct *mm;           /* mmgrab'ed; NULL: nothing to reap */
	int pid;
	char comm[TASK_COMM_LEN];
	short oom_score_adj;
	unsigned long killed_at;        /* jiffies of the kill (mark_oom_victim) */
	bool killed;                    /* a new kill (else a victim being waited for) */
};

/* Take hold of t's process's mm for reaping after tasklist_lock goes.  tasklist_lock held. */
static void oom_victim_hold(struct oom_victim *v, struct task_struct *p, struct mm_struct *mm)
{
	mmgrab(mm);
	v->mm = mm;
	v->pid = p->tgid;
	strlcpy(v->comm, p->group_leader->comm, sizeof(v->comm));
	v->oom_score_adj = p->signal->oom_score_adj;
	v->killed_at = p->signal->oom_kill_jiffies;
}

/*
 * Choose the victim (Linux's select_bad_process + oom_evaluate_task):
 * the highest badness, the later process on a tie.  A victim of an earlier
 * kill not yet reaped ends the walk: wait for it (oc->chosen_pid -1, v
 * holds it).  Returns the chosen process or NULL.  tasklist_lock held.
 */
static struct task_struct *select_bad_process(struct oom_control *oc, struct oom_victim *v)
{
	struct task_struct *p, *chosen = NULL;

	oc->chosen_points = OOM_BADNESS_NONE;
	for_each_process(p) {
		long points;

		if (oom_unkillable_task(p))
			continue;
		if (tsk_is_oom_victim(p)) {
			if (test_bit(MMF_OOM_SKIP, &p->signal->oom_mm->flags))
				continue;
			oc->chosen_pid = -1;
			oom_victim_hold(v, p, p->signal->oom_mm);
			return NULL;
		}
		points = oom_badness(p, oc->totalpages);
		if (points == OOM_BADNESS_NONE || points < oc->chosen_points)
			continue;
		chosen = p;
		oc->chosen_points = points;
	}
	return chosen;
}

/*
 * Kill victim's process and every other process using its mm (Linux's
 * __oom_kill_process): SIGKILL to each, the victim marked, oom_kill
 * counted.  PID 1 sharing it keeps it alive: then the mm is not reaped
 * (MMF_OOM_SKIP instead).  tasklist_lock held.
 */
static void oom_kill_process(struct task_struct *victim, struct oom_victim *v)
{
	siginfo_t info = { .si_signo = SIGKILL, .si_code = SI_KERNEL };
	struct task_struct *t = find_task_mm(victim), *p, *m;
	struct mm_struct *mm = t->mm;

	oom_victim_hold(v, victim, mm);
	v->killed = true;
	count_vm_event(OOM_KILL);
	send_signal_locked(SIGKILL, &info, victim, true);
	mark_oom_victim(victim, mm);
	v->killed_at = victim->signal->oom_kill_jiffies;
	for_each_process(p) {
		if (p->signal == victim->signal || is_idle_task(p))
			continue;
		m = find_task_mm(p);
		if (!m || m->mm != mm)
			continue;
		if (oom_unkillable_task(p)) {
			set_bit(MMF_OOM_SKIP, &mm->flags);
			pr_info("oom killer %d (%s) has mm pinned by %d (%s)\n",
				victim->tgid, victim->comm, p->tgid, p->comm);
			continue;
		}
		send_signal_locked(SIGKILL, &info, p, true);
	}
}

/*
 * Log a kill in Linux's words, the sizes as the victim's mm has them now.
 * VmSize needs the mmap_lock: trylocked (a reader more if the caller holds
 * it, current being the victim), 0 when busy — its owner may be waiting
 * for the oom_lock we hold.
 */
static void oom_report_kill(const struct oom_victim *v)
{
	struct mm_struct *mm = v->mm;
	unsigned long total_vm = 0;

	if (mmap_read_trylock(mm)) {
		total_vm = mm_vm_pages(mm, false);
		mmap_read_unlock(mm);
	}
	pr_err("Out of memory: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, "
	       "file-rss:%lukB, shmem-rss:%lukB, UID:%u pgtables:%lukB oom_score_adj:%d\n",
	       v->pid, v->comm, K(total_vm), K(READ_ONCE(mm->rss_anon)), K(READ_ONCE(mm->rss_file)),
	       K(READ_ONCE(mm->rss_shmem)), 0u, mm_pgtables_bytes(mm) >> 10, v->oom_score_adj);
}

/*
 * Free some memory by killing a process (Linux's out_of_memory).  oc:
 * the failed allocation (gfp_mask, order); totalpages, chosen_pid and
 * chosen_points are filled in.  If current is exiting already, it is
 * the victim (its memory is on its way back).  Otherwise the process with
 * the highest oom_badness() is killed, with every process sharing its mm,
 * and its private memory reaped at once if its mmap_lock is free — or,
 * while an earlier victim is still unreaped, nothing new is killed: it is
 * reaped if possible, else waited for.
 *
 * Returns true if a victim was killed or one is on its way out: the
 * caller retries its allocation (and should give the victim a moment, and
 * stop if current itself now has SIGKILL pending).  Also true without a
 * victim if another CPU is in the killer: retry.  False if nothing is
 * killable (Linux panics there; foliOS leaves the caller to fail or, for
 * a page fault, to kill the faulting task).
 *
 * Sleeps: process context, no spinlock held; the caller may hold an
 * mmap_lock (the victim's is only trylocked).
 */
bool out_of_memory(struct oom_control *oc)
{
	struct oom_victim v = { 0 };
	struct task_struct *chosen;
	unsigned long flags;

	oc->totalpages = oom_totalpages() ? oom_totalpages() : 1;
	oc->chosen_pid = 0;
	oc->chosen_points = OOM_BADNESS_NONE;
	if (!mutex_trylock(&oom_lock))
		return true;            /* another CPU is killing: its victim's memory may do */
	spin_lock_irqsave(&tasklist_lock, flags);
	if (task_will_free_mem(current)) {
		/* current is on its way out: its memory is the answer (Linux's shortcut) */
		mark_oom_victim(current, current->mm);
		oc->chosen_pid = -1;
	} else {
		chosen = select_bad_process(oc, &v);
		if (chosen) {
			oom_kill_process(chosen, &v);
			oc->chosen_pid = v.pid;
		}
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (v.killed) {
		pr_warn("%s invoked oom-killer: gfp_mask=%#x, order=%d, oom_score_adj=%d\n",
			current->comm, oc->gfp_mask, oc->order, current->signal->oom_score_adj);
		oom_report_kill(&v);
	}
	if (v.mm) {
		oom_reap_task_mm(v.mm, v.pid, v.killed_at);
		mmdrop(v.mm);
	}
	if (!oc->chosen_pid)
		pr_warn("Out of memory and no killable processes...\n");
	mutex_unlock(&oom_lock);
	return oc->chosen_pid != 0;
}

/*
 * A page fault of current found no memory (VM_FAULT_OOM reached the arch
 * fault handler; Linux's pagefault_out_of_memory, as it was before the
 * allocator called the killer itself): run the OOM killer, then let the
 * fault be retried — unless current now has SIGKILL pending, from this
 * kill or another, which ends it on the way back to user mode.  A tick's
 * sleep (killable) lets a victim on this CPU run its exit.  If nothing is
 * killable, current itself is killed: user space can make the machine
 * run out of memory, never hang it.  Sleeps; no lock held.
 */
void pagefault_out_of_memory(void)
{
	struct oom_control oc = { .gfp_mask = 0, .order = 0 };
	unsigned long j;

	if (fatal_signal_pending(current))
		return;
	if (!out_of_memory(&oc)) {
		pr_err("Out of memory: nothing else to kill, killing the faulting process %d (%s)\n",
		       current->tgid, current->comm);
		force_sig_fault(SIGKILL, SI_KERNEL, 0);        /* PID 1 too: it ignores a plain SIGKILL */
		return;
	}
	j = jiffies;
	wait_var_event_killable((void *)&jiffies, jiffies != j);
}

/*
 * process_mrelease(pidfd, flags): reap the memory of a process that is
 * dying already (SIGKILL, or its last thread exiting), as the OOM killer
 * reaps its victims (Linux 5.15).  0 once its private memory is gone (or
 * was gone: MMF_OOM_SKIP).  EINVAL for flags or a process not dying,
 * EBADF if pidfd is no pidfd, ESRCH if the process was reaped or has no
 * mm left.  The mm is held (mmgrab) across the reap, so its exit_mmap may
 * run before, or after: the two take the mmap_lock in turn (Linux waits
 * killably; foliOS's rwsem has no killable wait, and the holder is the
 * dying process's exit, which ends).
 */
long sys_process_mrelease(int pidfd, unsigned int flags)
{
	struct mm_struct *mm = NULL;
	struct task_struct *p, *t;
	unsigned long irqflags;
	bool reap = false;
	long ret = 0;
	int pid;

	if (flags)
		return -EINVAL;
	pid = pidfd_get_pid(pidfd);
	if (pid < 0)
		return pid;
	spin_lock_irqsave(&tasklist_lock, irqflags);
	p = find_task_by_vpid(pid);
	t = p && thread_group_leader(p) ? find_task_mm(p) : NULL;
	if (!t) {
		ret = -ESRCH;
	} else {
		mm = t->mm;
		mmgrab(mm);
		if (task_will_free_mem(t))
			reap = true;
		else if (!test_bit(MMF_OOM_SKIP, &mm->flags))
			ret = -EINVAL;          /* not dying, and not reaped already */
	}
	spin_unlock_irqrestore(&tasklist_lock, irqflags);
	if (!reap)
		goto out;
	mmap_read_lock(mm);
	if (!test_bit(MMF_OOM_SKIP, &mm->flags)) {
		__oom_reap_task_mm(mm);
		set_bit(MMF_OOM_SKIP, &mm->flags);
	}
	mmap_read_unlock(mm);
out:
	if (mm)
		mmdrop(mm);
	return ret;
}
