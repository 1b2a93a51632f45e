/*
 * PIDs (Linux's kernel/pid.c): handing them out, finding the task of one,
 * and process file descriptors.
 *
 * A PID is a number counted up from 1 and never reused (alloc_pid): a
 * thread's TID and a process's TGID alike.  find_task_by_vpid() finds the
 * task of one; task_nth_pid() and mm_id_to_pid() walk the task list for
 * /proc (the directory listing, the folio view); rmap_trace_pid() gives
 * the mapcount trace (mm/rmap_trace.c, built for the host too, where
 * tests/host/hostenv.c stands in for it) the running task's PID.
 *
 * Process file descriptors (Linux's pidfd_open is in its kernel/pid.c,
 * pidfd_fops in kernel/fork.c): an fd naming one process, which polls
 * readable once the process has exited and which waitid(P_PIDFD) waits
 * on.  Linux's pidfd holds a struct pid, the refcounted name that
 * outlives the task and is never reused while referenced.  foliOS never
 * reuses a PID number, so the number alone names the process for the
 * fd's whole life: the task it finds is the one opened, a zombie until
 * reaped, and no task after.  Every pidfd is an open of one anonymous
 * inode (Linux's anon_inode_getfd "[pidfd]"); it cannot be read, written
 * or seeked.
 *
 * Locks: tasklist_lock (kernel/fork.c) guards the PID counter and the
 * task list.  alloc_pid(), find_task_by_vpid(), task_nth_pid() and
 * mm_id_to_pid() are called with it held; last_pid() reads the counter
 * racily; the pidfd calls take it around their lookups.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/mm.h"
#include "linux/pid.h"
#include "linux/rmap_trace.h"
#include "linux/sched.h"
#include "linux/syscalls.h"
#include "uapi/linux/pidfd.h"
#include "uapi/linux/poll.h"

static int next_pid = 1;

/* A new PID for a task being made (Linux's alloc_pid).  tasklist_lock held. */
int alloc_pid(void)
{
	lockdep_assert_held(&tasklist_lock);
	return next_pid++;
}

/* The last PID given out (Linux's idr_get_cursor for /proc/loadavg), read racily. */
int last_pid(void)
{
	return READ_ONCE(next_pid) - 1;
}

/*
 * The task with this pid, a zombie too (until reaped), or NULL.  The
 * caller holds tasklist_lock for as long as it uses the task: tasks have
 * no reference count of their own, and the lock keeps a found one from
 * being reaped and freed.
 */
struct task_struct *find_task_by_vpid(int pid)
{
	struct task_struct *t;

	lockdep_assert_held(&tasklist_lock);
	list_for_each_entry(t, &all_tasks, task_list)   /* threads too: a TID finds its thread */
		if (t->pid == pid && t->signal)         /* not one clone() is still making */
			return t;
	return NULL;
}

/* For the mapcount trace (linux/rmap_trace.h): who is running now. */
int rmap_trace_pid(void)
{
	return current ? current->pid : 0;
}

/*
 * The PID of the n-th user task (0, 1, …), zombies included as in Linux's
 * /proc (they hold memory until reaped), or 0 past the last.
 * tasklist_lock held.
 */
int task_nth_pid(unsigned long n)
{
	struct task_struct *t;

	lockdep_assert_held(&tasklist_lock);
	list_for_each_entry(t, &all_tasks, task_list)
		if (thread_group_leader(t) && (t->mm || t->state == TASK_ZOMBIE) && !n--)
			return t->pid;
	return 0;
}

/*
 * The PID of the live task whose mm has this MM ID, or 0 (for the folio
 * view).  tasklist_lock held.
 */
int mm_id_to_pid(unsigned int mm_id)
{
	struct task_struct *t;

	lockdep_assert_held(&tasklist_lock);
	list_for_each_entry(t, &all_tasks, task_list)
		if (t->mm && t->mm->mm_id == mm_id && t->state != TASK_ZOMBIE)
			return t->tgid;
	return 0;
}

/*
 * Readable once the process has exited: a zombie or reaped (Linux's
 * pidfd_poll and thread_group_exited; one thread per process here).
 */
static __poll_t pidfd_poll(struct file *file, struct poll_table_struct *pts)
{
	struct task_struct *task;
	unsigned long flags;
	bool exited;

	spin_lock_irqsave(&tasklist_lock, flags);
	task = find_task_by_vpid((long)file->private_data);
	exited = !task || task->state == TASK_ZOMBIE || task->state == TASK_DEAD;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return exited ? EPOLLIN | EPOLLRDNORM : 0;
}

/* Reopening a pidfd (through /proc/<pid>/fd/N) is ENXIO, as Linux's: it names no process. */
static int pidfd_open_again(struct inode *inode, struct file *file)
{
	return -ENXIO;
}

static const struct file_operations pidfd_fops = {
	.open = pidfd_open_again,
	.poll = pidfd_poll,
};

static struct inode pidfd_inode = {
	.i_mode = 0600, .i_nlink = 1, .i_count = ATOMIC_INIT(1),      /* no file type; a reference for ever */
	.i_fop = &pidfd_fops,
};

/* The PID a pidfd names; -EBADF if file is not a pidfd (Linux's pidfd_pid). */
int pidfd_pid(const struct file *file)
{
	return file->f_op == &pidfd_fops ? (int)(long)file->private_data : -EBADF;
}

/* The PID the pidfd fd names (Linux's pidfd_get_pid); -EBADF if fd is no open pidfd. */
int pidfd_get_pid(int pidfd)
{
	struct fd f = fdget(pidfd);
	int pid = f.file ? pidfd_pid(f.file) : -EBADF;

	if (f.file)
		fdput(f);
	return pid;
}

/*
 * The mappings of the process pidfd names, pinned (mmget_not_zero; the
 * caller mmput()s them): Linux's pidfd_get_task and mm_access.  NULL with
 * *err -EBADF (no pidfd) or -ESRCH (reaped, or a kernel thread).
 */
struct mm_struct *pidfd_get_mm(int pidfd, long *err)
{
	struct mm_struct *mm = NULL;
	struct task_struct *t;
	unsigned long flags;
	int pid = pidfd_get_pid(pidfd);

	*err = pid;
	if (pid < 0)
		return NULL;
	spin_lock_irqsave(&tasklist_lock, flags);
	t = find_task_by_vpid(pid);
	if (t && t->mm && mmget_not_zero(t->mm))
		mm = t->mm;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	*err = mm ? 0 : -ESRCH;
	return mm;
}

/*
 * A new close-on-exec pidfd for the process pid (Linux's pidfd_create):
 * the fd, -EMFILE or -ENOMEM.  flags: PIDFD_NONBLOCK (waitid on it does
 * not block).
 */
static int pidfd_create(int pid, unsigned int flags)
{
	struct file *f = alloc_file(&pidfd_inode, O_RDWR | flags);
	int fd;

	if (!f)
		return -ENOMEM;
	ihold(&pidfd_inode);
	nonseekable_open(&pidfd_inode, f);
	f->private_data = (void *)(long)pid;
	fd = fd_install(f, true);
	if (fd < 0)
		fput(f);
	return fd;
}

/*
 * pidfd_open(pid, flags): a pidfd for process pid, a zombie too.  -EINVAL
 * for unknown flags or pid <= 0, -ESRCH if no such process (or reaped).
 */
long sys_pidfd_open(int pid, unsigned int flags)
{
	unsigned long irqflags;
	bool found;

	if (flags & ~PIDFD_NONBLOCK)
		return -EINVAL;
	if (pid <= 0)
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, irqflags);
	found = find_task_by_vpid(pid);
	spin_unlock_irqrestore(&tasklist_lock, irqflags);
	if (!found)
		return -ESRCH;
	return pidfd_create(pid, flags);
}
