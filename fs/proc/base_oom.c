/*
 * /proc/<pid>/oom_score, oom_score_adj and the legacy oom_adj (the OOM
 * part of Linux's fs/proc/base.c): how the OOM killer (mm/oom_kill.c)
 * ranks a process, and the knob that moves it.  oom_score_adj belongs to
 * the thread group (signal_struct), is inherited at fork, and a write
 * reaches every other process sharing the mm too, as Linux's
 * __set_oom_adj does (a vfork child excepted).
 *
 * Locks: each file reads or changes its process under tasklist_lock (the
 * OOM killer reads the same fields under it); nothing else.
 */
#include "fs/proc/internal.h"
#include "linux/errno.h"
#include "linux/oom.h"
#include "linux/printk.h"
#include "linux/sched.h"
#include "linux/string.h"

/* The process a per-process file of inode names, or NULL once reaped.  tasklist_lock held. */
static struct task_struct *proc_oom_task(struct inode *inode)
{
	return find_task_by_vpid(PROC_I(inode)->arg);
}

/*
 * oom_score: oom_badness() scaled to 0..2000 as Linux 6.1's
 * proc_oom_score: (1000 + badness * 1000 / totalpages) * 2 / 3; 0 for a
 * process the killer may not choose (-1000, PID 1, no mm).
 */
int oom_score_show(struct seq_file *m, void *v)
{
	unsigned long totalpages = oom_totalpages(), points = 0, flags;
	struct task_struct *t;
	long badness;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = proc_oom_task(m->private);
	badness = t ? oom_badness(t, totalpages) : OOM_BADNESS_NONE;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (badness != OOM_BADNESS_NONE)
		points = (1000 + badness * 1000 / (long)totalpages) * 2 / 3;
	seq_printf(m, "%lu\n", points);
	return 0;
}

/* The process's oom_score_adj, or -ESRCH (as Linux's reads, a reaped process has no value). */
static int read_oom_score_adj(struct inode *inode, short *adj)
{
	unsigned long flags;
	struct task_struct *t;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = proc_oom_task(inode);
	if (t)
		*adj = t->signal->oom_score_adj;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return t ? 0 : -ESRCH;
}

/* oom_score_adj as written, -1000..1000. */
int oom_score_adj_show(struct seq_file *m, void *v)
{
	short adj;
	int err = read_oom_score_adj(m->private, &adj);

	if (err)
		return err;
	seq_printf(m, "%d\n", adj);
	return 0;
}

/* oom_adj: oom_score_adj on the old -17..15 scale (Linux's oom_adj_read). */
int oom_adj_show(struct seq_file *m, void *v)
{
	short adj;
	int err = read_oom_score_adj(m->private, &adj);

	if (err)
		return err;
	seq_printf(m, "%d\n", adj == OOM_SCORE_ADJ_MAX ? OOM_ADJUST_MAX :
		   adj * -OOM_DISABLE / OOM_SCORE_ADJ_MAX);
	return 0;
}

/*
 * A written integer, as Linux's kstrtoint(strstrip(buf), 0, ...) takes
 * it: optional sign, decimal or 0x hex, blanks around; -EINVAL if that is
 * not all, -ERANGE past an int.
 */
static int parse_int(const char *buf, int *val)
{
	const char *p = buf, *end;
	bool neg = false;
	unsigned long v;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (!(*p >= '0' && *p <= '9'))
		return -EINVAL;
	v = simple_strtoul(p, &end, 0);
	if (end - p > 10 || v > (neg ? 0x80000000UL : 0x7fffffffUL))
		return -ERANGE;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*val = neg ? -(long)v : (long)v;
	return 0;
}

/* The mm of p's process: a thread's that still has one.  tasklist_lock held. */
static struct mm_struct *process_mm(struct task_struct *p)
{
	struct task_struct *t;

	for_each_thread(p, t)
		if (t->mm)
			return t->mm;
	return NULL;
}

/*
 * Set the process's oom_score_adj to adj (Linux's __set_oom_adj).  Going
 * below oom_score_adj_min needs CAP_SYS_RESOURCE (legacy: below the
 * current value); a writer with it also moves the floor.  Every other
 * process on the same mm gets the same value, so the killer sees one
 * number for one memory.  0, -ESRCH or -EACCES.
 */
static int set_oom_adj(struct inode *inode, short adj, bool legacy)
{
	bool privileged = capable(CAP_SYS_RESOURCE);
	struct task_struct *t, *p;
	struct mm_struct *mm = NULL;
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = proc_oom_task(inode);
	if (!t) {
		err = -ESRCH;
		goto out;
	}
	if (adj < (legacy ? t->signal->oom_score_adj : t->signal->oom_score_adj_min) &&
	    !privileged) {
		err = -EACCES;
		goto out;
	}
	if (!t->vfork_done) {
		mm = process_mm(t);
		if (mm && READ_ONCE(mm->mm_users) <= 1)
			mm = NULL;      /* no other process can share it */
	}
	for_each_process(p) {
		if (p->signal != t->signal &&
		    (!mm || p->tgid == 1 || is_idle_task(p) || p->vfork_done || process_mm(p) != mm))
			continue;
		p->signal->oom_score_adj = adj;
		if (!legacy && privileged)
			p->signal->oom_score_adj_min = adj;
	}
out:
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}

/* oom_score_adj: an integer -1000..1000 (else EINVAL), set_oom_adj()'s rules. */
int oom_score_adj_store(struct file *file, char *buf, size_t len)
{
	int adj, err = parse_int(buf, &adj);

	if (err)
		return err;
	if (adj < OOM_SCORE_ADJ_MIN || adj > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	return set_oom_adj(file_inode(file), adj, false);
}

static bool oom_adj_warned;

/* oom_adj: -17 (never) or -16..15, scaled to oom_score_adj (Linux's oom_adj_write). */
int oom_adj_store(struct file *file, char *buf, size_t len)
{
	int adj, err = parse_int(buf, &adj);

	if (err)
		return err;
	if ((adj < OOM_ADJUST_MIN || adj > OOM_ADJUST_MAX) && adj != OOM_DISABLE)
		return -EINVAL;
	adj = adj == OOM_ADJUST_MAX ? OOM_SCORE_ADJ_MAX : adj * OOM_SCORE_ADJ_MAX / -OOM_DISABLE;
	if (!__atomic_exchange_n(&oom_adj_warned, true, __ATOMIC_RELAXED))      /* Linux's pr_warn_once */
		pr_warn("%s (%d): /proc/%ld/oom_adj is deprecated, please use /proc/%ld/oom_score_adj instead.\n",
			current->comm, current->tgid, PROC_I(file_inode(file))->arg,
			PROC_I(file_inode(file))->arg);
	return set_oom_adj(file_inode(file), adj, true);
}
