/*
 * /proc/self/ and /proc/<pid>/ (Linux's fs/proc/base.c): the directory,
 * and the files of its table; status and stat are here (Linux's fs/proc/array.c),
 * the memory views in task_mmu.c.  A lookup binds the file to the
 * process's mm (mmgrab), as Linux's open does; a zombie has none (its
 * pagemap reads EOF, its status has no Vm lines).
 *
 * Locks: a task is looked up and used in one hold of tasklist_lock; the
 * memory views hold the mm as fs/proc/task_walk.c says.
 */
#include "linux/errno.h"
#include "fs/proc/internal.h"
#include "linux/err.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/sched.h"
#include "linux/sched/mm.h"
#include "linux/mm.h"
#include "linux/slab.h"
#include "linux/uaccess.h"
#include "linux/tty.h"
#include "linux/time64.h"
#include "uapi/linux/fs.h"

/* Linux's get_task_state() text; a task reaped since the open reads as dead. */
static const char *task_state(const struct task_struct *t)
{
	if (!t)
		return "X (dead)";
	if (t->state == TASK_ZOMBIE)
		return "Z (zombie)";
	if (t->state == TASK_STOPPED)
		return "T (stopped)";
	if (t == current || t->state == TASK_RUNNING)
		return "R (running)";
	return t->state & TASK_UNINTERRUPTIBLE ? "D (disk sleep)" : "S (sleeping)";
}

/* Cpus_allowed (hex, nr_cpu_ids bits) and Cpus_allowed_list ("0-2,5"), Linux's %*pb and %*pbl. */
static void cpus_allowed_show(struct seq_file *m, const struct cpumask *mask)
{
	unsigned long bits = mask->bits & ((1UL << nr_cpu_ids) - 1);
	const char *sep = "";

	seq_printf(m, "Cpus_allowed:\t%0*lx\nCpus_allowed_list:\t", (int)(nr_cpu_ids + 3) / 4, bits);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		unsigned int last = cpu;

		if (!(bits & (1UL << cpu)))
			continue;
		while (last + 1 < nr_cpu_ids && (bits & (1UL << (last + 1))))
			last++;
		seq_printf(m, "%s%u", sep, cpu);
		if (last > cpu)
			seq_printf(m, "-%u", last);
		sep = ",";
		cpu = last;
	}
	seq_printf(m, "\n");
}

/* What status and stat show of a task, read in one hold of tasklist_lock. */
struct task_snapshot {
	const char *state;
	long tgid;
	int ppid, pgid, sid, nr_threads, nice;
	int tty_nr, tpgid;      /* the controlling tty's device number and foreground group, or 0, -1 */
	u64 utime, stime, cutime, cstime, start_time;   /* ns; a leader's: its process's */
	unsigned long min_flt, maj_flt, cmin_flt, cmaj_flt;    /* a leader's: its process's */
	sigset_t pending, shared, blocked, ignored, caught;     /* status's Sig* lines */
	struct task_caps caps;
	bool no_new_privs;
	unsigned int cpu;
	struct cpumask cpus;
	bool alive;             /* false: reaped since the open */
};

/*
 * The CPU times and page faults /proc/<pid>/stat shows: a process's (its
 * leader's pid) or a thread's; the children's are the process's.
 * tasklist_lock held.
 */
static void task_snapshot_times(struct task_struct *t, struct task_snapshot *ts)
{
	struct task_cputime times = { .utime = t->utime, .stime = t->stime };

	ts->min_flt = READ_ONCE(t->min_flt);
	ts->maj_flt = READ_ONCE(t->maj_flt);
	if (t->pid == t->tgid) {
		thread_group_cputime(t, &times);
		thread_group_faults(t, &ts->min_flt, &ts->maj_flt);
	}
	ts->cmin_flt = t->signal->cmin_flt;
	ts->cmaj_flt = t->signal->cmaj_flt;
	ts->utime = times.utime;
	ts->stime = times.stime;
	ts->cutime = t->signal->cutime;
	ts->cstime = t->signal->cstime;
	ts->start_time = t->start_time;
}

/*
 * The signal sets status shows (Linux's collect_sigign_sigcatch and
 * task_sig): pending to the thread and to the process, blocked, and the
 * dispositions ignored or caught.  tasklist_lock held (the siglock here).
 */
static void task_snapshot_signals(struct task_struct *t, struct task_snapshot *ts)
{
	ts->pending = t->pending.signal;
	ts->shared = t->signal->shared_pending.signal;
	ts->blocked = t->blocked;
	for (int sig = 1; sig <= _NSIG; sig++) {
		unsigned long handler = t->sighand->action[sig - 1].handler;

		if (handler == SIG_IGN)
			ts->ignored |= 1UL << (sig - 1);
		else if (handler != SIG_DFL)
			ts->caught |= 1UL << (sig - 1);
	}
}

static void task_snapshot(long pid, struct task_snapshot *ts)
{
	unsigned long flags;
	struct task_struct *t;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = find_task_by_vpid(pid);
	*ts = (struct task_snapshot){ .state = task_state(t), .tgid = pid, .alive = t != NULL };
	if (t) {
		ts->tgid = t->tgid;
		ts->ppid = t->parent ? t->parent->tgid : 0;
		ts->pgid = t->pgid;
		ts->sid = t->sid;
		ts->tty_nr = t->signal->tty ? TTYS0_DEV : 0;
		ts->tpgid = t->signal->tty ? t->signal->tty->pgrp : -1;
		task_snapshot_times(t, ts);
		ts->nr_threads = t->signal->nr_threads;
		task_snapshot_signals(t, ts);
		ts->caps = t->caps;
		ts->no_new_privs = t->no_new_privs;
		ts->nice = READ_ONCE(t->nice);
		ts->cpu = task_cpu(t);
		ts->cpus = t->cpus_mask;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/*
 * /proc/<pid>/status, /proc/<pid>/task/<tid>/status: the lines of Linux's
 * that foliOS can fill (a zombie has no Vm lines; a reaped task reads as
 * dead, with its last names).
 */
static int status_show(struct seq_file *m, void *v)
{
	struct proc_inode *pi = PROC_I(m->private);
	struct task_snapshot ts;

	task_snapshot(pi->arg, &ts);
	seq_printf(m, "Name:\t%s\nState:\t%s\nTgid:\t%ld\nPid:\t%ld\nPPid:\t%d\n"
		   "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n", pi->comm, ts.state, ts.tgid, pi->arg,
		   ts.ppid);
	task_mem(m, m->private);
	seq_printf(m, "Threads:\t%d\n", ts.nr_threads);
	if (ts.alive) {
		seq_printf(m, "SigPnd:\t%016lx\nShdPnd:\t%016lx\nSigBlk:\t%016lx\nSigIgn:\t%016lx\n"
			   "SigCgt:\t%016lx\n", ts.pending, ts.shared, ts.blocked, ts.ignored,
			   ts.caught);
		seq_printf(m, "CapInh:\t%016llx\nCapPrm:\t%016llx\nCapEff:\t%016llx\n"
			   "CapBnd:\t%016llx\nCapAmb:\t%016llx\nNoNewPrivs:\t%d\n",
			   (unsigned long long)ts.caps.inheritable, (unsigned long long)ts.caps.permitted,
			   (unsigned long long)ts.caps.effective, (unsigned long long)ts.caps.bset, 0ULL,
			   ts.no_new_privs);
		cpus_allowed_show(m, &ts.cpus);
	}
	return 0;
}

/* /proc/<pid>/comm: the task's name. */
static int comm_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", PROC_I(m->private)->comm);
	return 0;
}

/*
 * /proc/<pid>/stat, /proc/<pid>/task/<tid>/stat (Linux's do_task_stat):
 * the 52 fields, those foliOS keeps filled (pid, comm, state, ppid, pgrp,
 * session, tty_nr, tpgid, minflt, cminflt, majflt, cmajflt, utime,
 * stime, cutime, cstime, num_threads,
 * starttime, vsize, rss in pages, rsslim, exit_signal, field 39
 * the CPU the task runs on or last ran on), the rest 0.
 */
/* ns as USER_HZ clock ticks (Linux's nsec_to_clock_t). */
static unsigned long long clock_ticks(u64 ns)
{
	return ns / (NSEC_PER_SEC / USER_HZ);
}

static int stat_show(struct seq_file *m, void *v)
{
	struct proc_inode *pi = PROC_I(m->private);
	struct mm_struct *mm = proc_mm_lock(m->private);
	unsigned long vsize = 0, rss = 0;
	struct task_snapshot ts;

	task_snapshot(pi->arg, &ts);
	if (mm) {
		vsize = mm_vm_pages(mm, false) * PAGE_SIZE;
		rss = mm->rss_anon + mm->rss_file + mm->rss_shmem;
		proc_mm_unlock(mm);
	}
	seq_printf(m, "%ld (%s) %c %d %d %d %d %d 0 %lu %lu %lu %lu %llu %llu %llu %llu %d %d %d 0 "
		   "%llu %lu %lu 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 %u 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
		   pi->arg, pi->comm, ts.state[0], ts.ppid, ts.pgid, ts.sid, ts.tty_nr, ts.tpgid,
		   ts.min_flt, ts.cmin_flt, ts.maj_flt, ts.cmaj_flt, clock_ticks(ts.utime), clock_ticks(ts.stime), clock_ticks(ts.cutime),
		   clock_ticks(ts.cstime), ts.nice + 20, ts.nice, ts.nr_threads,
		   clock_ticks(ts.start_time), vsize,
		   rss, ts.cpu);
	return 0;
}

/* /proc/<pid>/make-it-fail: "0" or "1" (Linux's fault-injection task filter). */
static int make_it_fail_show(struct seq_file *m, void *v)
{
	unsigned long flags;
	struct task_struct *t;
	int fail;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = find_task_by_vpid(PROC_I(m->private)->arg);
	fail = t ? t->make_it_fail : 0;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	seq_printf(m, "%d\n", fail);
	return 0;
}

static int make_it_fail_store(struct file *file, char *buf, size_t len)
{
	unsigned long flags;
	struct task_struct *t;

	if (buf[0] != '0' && buf[0] != '1')
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);
	t = find_task_by_vpid(PROC_I(file_inode(file))->arg);
	if (t)
		t->make_it_fail = buf[0] == '1';
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return t ? 0 : -ESRCH;
}

/*
 * Copy count bytes between the user buffer and mm at addr, a page through
 * a bounce buffer at a time (mm pinned by the caller): the bytes done,
 * -EIO if the first address is not mapped, -EFAULT for a bad user buffer.
 */
static long mm_copy_user(struct mm_struct *mm, unsigned long addr, char *ubuf, size_t count,
			 unsigned int flags)
{
	bool write = flags & FOLL_WRITE;
	long copied = 0;
	char *kbuf = kmalloc(PAGE_SIZE);

	if (!kbuf)
		return -ENOMEM;
	while (count) {
		int len = MIN(count, PAGE_SIZE);

		if (write && copy_from_user(kbuf, ubuf, len)) {
			copied = -EFAULT;
			break;
		}
		len = access_remote_vm(mm, addr, kbuf, len, flags);
		if (!len) {
			copied = copied ? copied : -EIO;
			break;
		}
		if (!write && copy_to_user(ubuf, kbuf, len)) {
			copied = -EFAULT;
			break;
		}
		ubuf += len;
		addr += len;
		copied += len;
		count -= len;
	}
	kfree(kbuf);
	return copied;
}

/*
 * /proc/<pid>/mem (Linux's mem_rw): count bytes between the user buffer
 * and the bound mm at *pos, a page through a bounce buffer at a time, with
 * FOLL_FORCE: a PROT_READ page can be written (its COW is broken first:
 * the write lands in this mm's own copy), PROT_NONE memory read.  The
 * bytes done, -EIO if the first address is not mapped, -EFAULT for a bad
 * user buffer; 0 once the mm has no user left.  Who may open it: Linux
 * asks ptrace_may_access(); every foliOS task runs as root, which may.
 */
static long mem_rw(struct file *file, char *ubuf, size_t count, loff_t *pos, bool write)
{
	struct mm_struct *mm = PROC_I(file_inode(file))->mm;
	long copied;

	if (!mm || !mmget_not_zero(mm))
		return 0;
	copied = mm_copy_user(mm, *pos, ubuf, count, FOLL_FORCE | (write ? FOLL_WRITE : 0));
	if (copied > 0)
		*pos += copied;
	mmput(mm);
	return copied;
}

/*
 * /proc/<pid>/cmdline and environ (Linux's proc_pid_cmdline_read,
 * environ_read): the strings exec put on the stack, NUL after each,
 * from *pos on; nothing for a zombie.
 */
static long args_read(struct file *file, char *ubuf, size_t count, loff_t *pos, bool env)
{
	struct mm_struct *mm = PROC_I(file_inode(file))->mm;
	unsigned long start, len;
	long ret = 0;

	if (!mm || !mmget_not_zero(mm))
		return 0;
	start = env ? mm->env_start : mm->arg_start;
	len = (env ? mm->env_end : mm->arg_end) - start;
	if (*pos >= 0 && (unsigned long)*pos < len) {
		ret = mm_copy_user(mm, start + *pos, ubuf, MIN(count, len - *pos), FOLL_FORCE);
		if (ret > 0)
			*pos += ret;
	}
	mmput(mm);
	return ret;
}

static long cmdline_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	return args_read(file, ubuf, count, pos, false);
}

static long environ_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	return args_read(file, ubuf, count, pos, true);
}

static const struct file_operations proc_cmdline_operations = { .read = cmdline_read };
static const struct file_operations proc_environ_operations = { .read = environ_read };

static long mem_read(struct file *file, char *ubuf, size_t count, loff_t *pos)
{
	return mem_rw(file, ubuf, count, pos, false);
}

static long mem_write(struct file *file, const char *ubuf, size_t count, loff_t *pos)
{
	return mem_rw(file, (char *)ubuf, count, pos, true);
}

/* Any address is a position: offsets are unsigned, as Linux's mem_lseek. */
static loff_t mem_lseek(struct file *file, loff_t offset, int whence)
{
	switch (whence) {
	case SEEK_SET:
		file->f_pos = offset;
		break;
	case SEEK_CUR:
		file->f_pos = (loff_t)((u64)file->f_pos + (u64)offset);
		break;
	default:
		return -EINVAL;
	}
	return file->f_pos;
}

static const struct file_operations proc_mem_operations = {
	.llseek = mem_lseek,
	.read = mem_read,
	.write = mem_write,
};

/*
 * The PID a /proc directory name spells (Linux's name_to_int): decimal
 * digits up to *end, no leading zero, below 2^31 (no wrap: 4294967297 is
 * no PID); -1 if it is none.
 */
static int name_to_int(const char *name, const char **end)
{
	unsigned long n = 0;
	const char *p = name;

	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (*p - '0');
		if (n > 0x7fffffff)
			return -1;
	}
	*end = p;
	return p == name || (*name == '0' && p - name > 1) ? -1 : (int)n;
}

/*
 * The thread task/<tid>/... in rest names, of t's group; *rest gets what
 * follows.  t itself if rest does not start with "task/<tid>/".
 * tasklist_lock held (as for each lookup below: a task is freed once
 * reaped, off the list, so one found is used before the lock goes).
 */
static struct task_struct *proc_task_thread(struct task_struct *t, const char **rest)
{
	struct task_struct *th;
	const char *end;
	int tid;

	if (strncmp(*rest, "task/", 5))
		return t;
	tid = name_to_int(*rest + 5, &end);
	th = tid > 0 && *end == '/' ? find_task_by_vpid(tid) : NULL;
	if (!th || th->tgid != t->tgid || READ_ONCE(th->state) == TASK_NEW)
		return t;
	*rest = end + 1;
	return th;
}

/*
 * The task /proc/self/..., /proc/<pid>/... or /proc/<pid>/task/<tid>/...
 * names (a zombie too; self is current's process); *rest gets what follows.
 * tasklist_lock held.
 */
struct task_struct *proc_pid_task(const char *path, const char **rest)
{
	struct task_struct *t;
	int pid;

	if (strncmp(path, "proc/", 5))
		return NULL;
	path += 5;
	if (!strncmp(path, "self/", 5)) {
		*rest = path + 5;
		return proc_task_thread(current->group_leader, rest);
	}
	pid = name_to_int(path, rest);
	t = pid > 0 ? find_task_by_vpid(pid) : NULL;
	if (t && READ_ONCE(t->state) == TASK_NEW)
		return NULL;            /* fork is still filling it in (Linux attaches its PID last) */
	return t && *(*rest)++ == '/' ? proc_task_thread(t, rest) : NULL;
}

/* The pid in a /proc/<pid>/task directory's path ("proc/<pid>/task" or "proc/self/task"). */
static struct task_struct *task_dir_task(const char *path)
{
	const char *rest;
	struct task_struct *t = proc_pid_task(path, &rest);

	return t && !strcmp(rest, "task") ? t : NULL;
}

/*
 * The TID of the n-th thread (0, 1, ...) of the process whose task
 * directory is at path, or 0 past the last or once it is gone.
 */
static int nth_thread_tid(const char *path, loff_t n)
{
	struct task_struct *t, *th;
	unsigned long flags;
	int tid = 0;

	spin_lock_irqsave(&tasklist_lock, flags);
	t = task_dir_task(path);
	if (t)
		for_each_thread(t, th)
			if (!n--) {
				tid = th->pid;
				break;
			}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return tid;
}

/*
 * List /proc/<pid>/task: one directory per thread, by TID (d_ino: the
 * position + 2).  Each TID is looked up under tasklist_lock, emitted
 * outside it.
 */
static int proc_task_readdir(struct file *file, struct dir_context *ctx)
{
	char name[16];
	int tid;

	while ((tid = nth_thread_tid(file_inode(file)->i_private, ctx->pos))) {
		snprintf(name, sizeof(name), "%d", tid);
		if (!dir_emit(ctx, name, strlen(name), ctx->pos + 2, DT_DIR))
			break;
		ctx->pos++;
	}
	return 0;
}

static const struct file_operations proc_task_operations = {
	.llseek = seq_lseek,
	.read = generic_read_dir,
	.iterate_shared = proc_task_readdir,
};

/*
 * The mm a process's files show: t's, or, for a leader that exited
 * before its threads, a live thread's (Linux's find_lock_task_mm).
 * tasklist_lock held.
 */
static struct mm_struct *proc_task_mm(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;
	struct task_struct *th;

	if (mm)
		return mm;
	for_each_thread(t, th)
		if ((mm = th->mm))
			break;
	return mm;
}

/* A zombie's maps, smaps, numa_maps read empty (Linux's smaps_rollup gives ESRCH). */
static int mm_gone_show(struct seq_file *m, void *v)
{
	return 0;
}

static const struct proc_dir_entry tgid_base_stuff[] = {
	{ "maps", maps_show, .proc_fops = &proc_pid_maps_operations }, { "smaps", smaps_show }, { "smaps_rollup", smaps_rollup_show },
	{ "numa_maps", numa_maps_show }, { "status", status_show }, { "comm", comm_show },
	{ "stat", stat_show },
	{ "make-it-fail", make_it_fail_show, make_it_fail_store },
	{ "oom_adj", oom_adj_show, oom_adj_store }, { "oom_score", oom_score_show },
	{ "oom_score_adj", oom_score_adj_show, oom_score_adj_store },
	{ "pagemap", .proc_fops = &proc_pagemap_operations },
	{ "clear_refs", clear_refs_show, clear_refs_write },
	{ "mem", .proc_fops = &proc_mem_operations },
	{ "cmdline", .proc_fops = &proc_cmdline_operations },
	{ "environ", .proc_fops = &proc_environ_operations },
};

static const struct proc_dir_entry proc_mm_gone = { "", mm_gone_show };

/* The entry of file name for a task with mm (a zombie's memory views are empty); NULL if none. */
static const struct proc_dir_entry *pid_entry(struct mm_struct *mm, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(tgid_base_stuff); i++) {
		const struct proc_dir_entry *pde = &tgid_base_stuff[i];

		if (strcmp(name, pde->name))
			continue;
		if (!mm && pde->single_show && !pde->write && pde->single_show != status_show &&
		    pde->single_show != comm_show && pde->single_show != stat_show &&
		    pde->single_show != oom_score_show)
			return &proc_mm_gone;
		return pde;
	}
	return NULL;
}

/* What a lookup takes of the task a path names, in one hold of tasklist_lock. */
struct pid_lookup {
	const struct proc_dir_entry *pde;       /* the file's entry; NULL for none or a directory */
	const struct file_operations *dir_fops; /* a directory's listing, else NULL */
	struct mm_struct *mm;                   /* the process's, mmgrab'ed */
	int pid;
	char comm[TASK_COMM_LEN];
};

/* Fill l for path ("proc/<pid>/..."; buf: path with a '/' added); false if it names nothing. */
static bool pid_lookup_task(const char *path, const char *buf, struct pid_lookup *l)
{
	struct task_struct *t;
	const char *rest;

	t = proc_pid_task(buf, &rest);
	if (t && (!*rest || !strcmp(rest, "task/"))) {
		l->dir_fops = *rest ? &proc_task_operations : &proc_dir_operations;
		return true;
	}
	t = proc_pid_task(path, &rest);
	if (!t)
		return false;
	l->mm = proc_task_mm(t);
	l->pde = pid_entry(l->mm, rest);
	if (!l->pde)
		return false;
	l->pid = t->pid;
	strlcpy(l->comm, t->comm, sizeof(l->comm));
	if (l->mm)
		mmgrab(l->mm);
	return true;
}

/*
 * /proc/self, /proc/<pid> (directories) and the files in them (a zombie's
 * too): a referenced inode, NULL if path is none, or ERR_PTR(-ENOMEM).
 * The task is looked up under tasklist_lock, the inode made after it.
 */
struct inode *proc_pid_lookup(const char *path)
{
	struct pid_lookup l = { 0 };
	struct inode *inode;
	struct proc_inode *pi;
	unsigned long flags;
	char buf[32];
	bool found;

	snprintf(buf, sizeof(buf), "%s/", path);
	spin_lock_irqsave(&tasklist_lock, flags);
	found = pid_lookup_task(path, buf, &l);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!found)
		return NULL;
	if (l.dir_fops)
		return proc_dir_inode(path, l.dir_fops);
	inode = proc_get_inode(l.pde, l.pid);
	if (IS_ERR(inode)) {
		if (l.mm)
			mmdrop(l.mm);
		return inode;
	}
	pi = PROC_I(inode);
	strlcpy(pi->comm, l.comm, sizeof(pi->comm));
	pi->mm = l.mm;
	return inode;
}
