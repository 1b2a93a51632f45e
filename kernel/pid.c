/*
 * Process file descriptors (Linux's pidfd_open in kernel/pid.c, pidfd_fops
 * in kernel/fork.c): an fd naming one process, which polls readable once
 * the process has exited and which waitid(P_PIDFD) waits on.
 *
 * Linux's pidfd holds a struct pid, the refcounted name that outlives the
 * task and is never reused while referenced.  foliOS never reuses a PID
 * number (kernel/sched.c counts up), so the number alone names the process
 * for the fd's whole life: the task it finds is the one opened, a zombie
 * until reaped, and no task after.
 *
 * Every pidfd is an open of one anonymous inode (Linux's anon_inode_getfd
 * "[pidfd]"); it cannot be read, written or seeked.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/sched.h"
#include "linux/syscalls.h"
#include "uapi/linux/pidfd.h"
#include "uapi/linux/poll.h"

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
