/*
 * fork and clone (Linux's kernel/fork.c).  fork copies the address space
 * copy-on-write (mm/fork.c) and the caller's registers; the child returns
 * 0 from the same system call and first runs at the next scheduling point
 * (the parent keeps running, as with Linux's default).  clone's flags say
 * which parts the child shares instead of copying: the mm (CLONE_VM), the
 * working directory (CLONE_FS), the fd table (CLONE_FILES), the signal
 * dispositions (CLONE_SIGHAND), the thread group (CLONE_THREAD: the same
 * PID for getpid, one signal_struct).  wait4 is in kernel/exit_wait.c.
 *
 * Also the task structs themselves, as in Linux: task_create() allocates
 * one with its kernel stack and FPU image, gives it a PID (kernel/pid.c)
 * and puts it on the task list (Linux's dup_task_struct, with the PID and
 * list entry copy_process adds); free_task() frees it (Linux's).  A task
 * leaves the list in kernel/exit.c (__unhash_process, task_release).
 * fault_inject_task_allowed(), fault injection's task filter (Linux's
 * fail_task in lib/fault-inject.c), is here too, beside fork's inheriting
 * of make_it_fail: foliOS's fault injection (mm/fail_alloc.c) is built
 * for the host as well, where there are no tasks (tests/host/hostenv.c).
 *
 * Lock order: see linux/sched.h.  tasklist_lock (defined here, as Linux
 * does) guards all_tasks, each task's children/sibling links, the PID
 * counter (kernel/pid.c), the thread groups' lists and counts and the
 * pending signals (kernel/signal.c); wake-ups happen under it; task
 * structs and stacks are freed outside it.  The shared parts' counts
 * change under it too: a task's threads are the only users of them.
 */
#include "linux/binfmts.h"
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/posix-timers.h"
#include "linux/rseq.h"
#include "linux/uaccess.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "linux/slab.h"
#include "uapi/linux/sched.h"
#include "linux/sched/mm.h"
#include "linux/mmap_lock.h"
#include "linux/mm.h"
#include "linux/fault-inject.h"
#include "linux/pid.h"
#include <asm/arch.h>
#include <asm/page.h>

/* The flags foliOS has no use for that Linux accepts anyway. */
#define CLONE_IGNORED   (CLONE_SYSVSEM | CLONE_DETACHED | CLONE_UNTRACED | CLONE_IO)
#define CLONE_SUPPORTED (CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
			 CLONE_PARENT | CLONE_THREAD | CLONE_SETTLS | CLONE_PARENT_SETTID | \
			 CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID | CLONE_VFORK | CLONE_IGNORED | \
			 CLONE_CLEAR_SIGHAND)

/* The task tree's lock (see above and linux/sched.h), the task list, its length. */
spinlock_t tasklist_lock = SPINLOCK_INIT("tasklist");
LIST_HEAD(all_tasks);
atomic_t nr_tasks = ATOMIC_INIT(0);     /* made by task_create(), not yet freed */

/*
 * A task's memory and scheduling state, not yet runnable, not yet known
 * to anyone: a kernel stack, an FPU image, its name.  NULL if out of
 * memory.  task_create() makes it a process's; kthread_run() a kernel
 * thread.
 */
struct task_struct *task_alloc(const char *comm)
{
	struct task_struct *t = kzalloc(sizeof(*t));

	if (!t)
		return NULL;
	t->kstack = (void *)__get_free_pages(0, KSTACK_ORDER);
	if (!t->kstack || fpstate_alloc(&t->fpu)) {
		if (t->kstack)
			free_pages((unsigned long)t->kstack, KSTACK_ORDER);
		kfree(t);
		return NULL;
	}
	t->start_time = ktime_get_ns();
	t->caps = (struct task_caps){ CAP_FULL_SET, CAP_FULL_SET, 0, CAP_FULL_SET };  /* root's */
	strlcpy(t->comm, comm, sizeof(t->comm));
	INIT_LIST_HEAD(&t->children);
	INIT_LIST_HEAD(&t->pending.list);
	sched_fork(t, current);         /* the creator's affinity and CPU */
	arch_prepare_new_stack(t);
	return t;
}

/* A new task (not yet runnable) with a kernel stack, a PID, on all_tasks; NULL if out of memory. */
struct task_struct *task_create(const char *comm, struct task_struct *parent)
{
	struct task_struct *t = task_alloc(comm);
	unsigned long flags;

	if (!t)
		return NULL;
	atomic_inc(&nr_tasks);
	spin_lock_irqsave(&tasklist_lock, flags);
	t->pid = t->tgid = alloc_pid();
	t->group_leader = t;
	t->parent = parent;
	if (parent) {
		list_add_tail(&t->sibling, &parent->children);
		t->pgid = parent->pgid;
	}
	list_add_tail(&t->task_list, &all_tasks);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return t;
}

/* Free a task off every CPU: its stack, its FPU image, itself. */
void free_task(struct task_struct *t)
{
	put_task_shared(t);
	free_pages((unsigned long)t->kstack, KSTACK_ORDER);
	fpstate_free(&t->fpu);
	kfree(t);
	atomic_dec(&nr_tasks);
}

/* May fault injection fail an allocation now (linux/fault-inject.h)?  Only for marked tasks. */
bool fault_inject_task_allowed(void)
{
	return current && current->make_it_fail;
}

/*
 * A vfork's parent waits for its child to exec or exit (Linux's
 * vfork_done completion): the one flag both hold a reference to, so
 * either may go first — a killed parent stops waiting, the child still
 * sets it.
 */
struct vfork_done {
	int refs;                       /* atomic */
	bool done;
};

static void vfork_done_put(struct vfork_done *vd)
{
	if (!__atomic_sub_fetch(&vd->refs, 1, __ATOMIC_ACQ_REL))
		kfree(vd);
}

/*
 * t leaves the mm its vfork parent lent it — it exec'd or is exiting
 * (Linux's complete_vfork_done, from mm_release): the parent goes on.
 */
void complete_vfork_done(struct task_struct *t)
{
	struct vfork_done *vd = __atomic_exchange_n(&t->vfork_done, NULL, __ATOMIC_ACQ_REL);

	if (!vd)
		return;
	smp_store_release(&vd->done, true);
	wake_up_var(&vd->done);
	vfork_done_put(vd);
}

/* The vfork parent's wait for vd (Linux's wait_for_vfork_done): SIGKILL ends it early. */
static void wait_for_vfork_done(struct vfork_done *vd)
{
	(void)wait_var_event_killable(&vd->done, smp_load_acquire(&vd->done));
	vfork_done_put(vd);
}

/* Another task uses mm's mappings (CLONE_VM; Linux's mmget). */
static void mmget(struct mm_struct *mm)
{
	__atomic_add_fetch(&mm->mm_users, 1, __ATOMIC_RELAXED);
}

/*
 * A user of mm's mappings unless it has none left (Linux's
 * mmget_not_zero): /proc walking another process's mm pins it so the
 * tables outlive the walk.  True if taken; mmput() gives it back (the last
 * one tears the mappings down).
 */
bool mmget_not_zero(struct mm_struct *mm)
{
	int users = __atomic_load_n(&mm->mm_users, __ATOMIC_RELAXED);

	while (users)
		if (__atomic_compare_exchange_n(&mm->mm_users, &users, users + 1, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
	return false;
}

/*
 * A task stops using mm (exit, exec): the last user tears the mappings
 * down (Linux's mmput); the struct lives on while mmgrab'ed.  The caller
 * is off mm's page tables if it may be the last.
 */
void mmput(struct mm_struct *mm)
{
	struct file *exe;

	if (__atomic_sub_fetch(&mm->mm_users, 1, __ATOMIC_ACQ_REL))
		return;
	mmap_write_lock(mm);                    /* /proc/<pid>/exe reads it under the read lock */
	exe = mm->exe_file;
	mm->exe_file = NULL;
	mmap_write_unlock(mm);
	if (exe)
		put_mm_exe_file_ref(exe);
	__mmput(mm);
}

/* A fresh signal_struct for a new thread group led by t; 0 or -ENOMEM. */
static int alloc_signal_struct(struct task_struct *t)
{
	struct signal_struct *sig = kzalloc(sizeof(*sig));

	if (!sig)
		return -ENOMEM;
	sig->sigcnt = 1;
	sig->nr_threads = sig->live = 1;
	rlimits_init(sig, current->signal);     /* init's parent is the idle task: none */
	if (current->signal) {  /* orphans may have a subreaper above (Linux's copy_signal) */
		sig->has_child_subreaper = current->signal->has_child_subreaper ||
					   current->signal->is_child_subreaper;
		sig->oom_score_adj = current->signal->oom_score_adj;
		sig->oom_score_adj_min = current->signal->oom_score_adj_min;
	}
	INIT_LIST_HEAD(&sig->thread_head);
	INIT_LIST_HEAD(&sig->shared_pending.list);
	INIT_LIST_HEAD(&sig->posix_timers);     /* fork inherits no POSIX timer */
	init_waitqueue_head(&sig->wait_chldexit);
	list_add_tail(&t->thread_node, &sig->thread_head);
	t->signal = sig;
	t->tgid = t->pid;
	t->group_leader = t;
	return 0;
}

/*
 * The last task of a group is freed: its shared pending signals go too,
 * and its POSIX timers if no exit took them (a task ended at power-off).
 */
static void put_signal_struct(struct signal_struct *sig)
{
	if (__atomic_sub_fetch(&sig->sigcnt, 1, __ATOMIC_ACQ_REL))
		return;
	__exit_itimers(sig);
	flush_sigqueue(&sig->shared_pending);
	if (sig->oom_mm)
		mmdrop(sig->oom_mm);    /* an OOM victim's (mark_oom_victim) */
	kfree(sig);
}

/*
 * A task is freed (free_task): its dispositions and thread group
 * part go with it, not at exit, as a zombie may still be sent signals.
 */
void put_task_shared(struct task_struct *t)
{
	if (t->sighand && !__atomic_sub_fetch(&t->sighand->count, 1, __ATOMIC_ACQ_REL))
		kfree(t->sighand);
	t->sighand = NULL;
	if (t->signal)
		put_signal_struct(t->signal);
	t->signal = NULL;
}

/* Join current's thread group (CLONE_THREAD): its tgid, leader, list.  tasklist_lock held. */
static void join_thread_group(struct task_struct *t)
{
	struct signal_struct *sig = current->signal;

	__atomic_add_fetch(&sig->sigcnt, 1, __ATOMIC_RELAXED);
	sig->nr_threads++;
	sig->live++;
	list_add_tail(&t->thread_node, &sig->thread_head);
	t->signal = sig;
	t->tgid = current->tgid;
	t->group_leader = current->group_leader;
}

/* Copies of parent's dispositions and working directory for t, or the same ones (flags). */
static int copy_sighand_fs(struct task_struct *t, unsigned long flags)
{
	if (flags & CLONE_SIGHAND) {
		t->sighand = current->sighand;
		__atomic_add_fetch(&t->sighand->count, 1, __ATOMIC_RELAXED);
	} else {
		t->sighand = kmalloc(sizeof(*t->sighand));
		if (!t->sighand)
			return -ENOMEM;
		memcpy(t->sighand, current->sighand, sizeof(*t->sighand));
		t->sighand->count = 1;
	}
	if (flags & CLONE_FS) {
		t->fs = current->fs;
		__atomic_add_fetch(&t->fs->users, 1, __ATOMIC_RELAXED);
		return 0;
	}
	t->fs = kzalloc(sizeof(*t->fs));
	if (!t->fs)
		return -ENOMEM;
	t->fs->users = 1;
	spin_lock_init(&t->fs->lock, "fs->lock");
	t->fs->pwd = get_fs_pwd(current->fs);
	spin_lock(&current->fs->lock);
	t->fs->root = current->fs->root;
	if (t->fs->root)
		ihold(t->fs->root);
	spin_unlock(&current->fs->lock);
	t->fs->umask = current_umask();
	return 0;
}

/*
 * init's own shared parts (Linux's init_task has them statically): its
 * thread group, a working directory of "/", default dispositions.
 */
int init_task_shared(struct task_struct *t)
{
	t->fs = kzalloc(sizeof(*t->fs));
	t->sighand = kzalloc(sizeof(*t->sighand));
	if (!t->fs || !t->sighand)
		return -ENOMEM;
	t->fs->users = 1;
	spin_lock_init(&t->fs->lock, "fs->lock");
	t->fs->umask = 0022;                    /* Linux's init_fs */
	t->sighand->count = 1;
	return alloc_signal_struct(t);
}

/* The mm, files, dispositions and cwd of the child: shared or copied as flags say. */
static int copy_mm_files(struct task_struct *t, unsigned long flags)
{
	if (flags & CLONE_VM) {
		t->mm = current->mm;
		mmget(t->mm);
	} else if ((t->mm = dup_mm(current->mm))) {
		mm_publish(t->mm);              /* the child's: /proc may reach it once t is visible */
		t->mm->exe_file = current->mm->exe_file ? get_mm_exe_file_ref(current->mm->exe_file) : NULL;
	} else {
		return -ENOMEM;
	}
	if (flags & CLONE_FILES) {
		t->files = current->files;
		__atomic_add_fetch(&t->files->count, 1, __ATOMIC_RELAXED);
	} else if (!(t->files = dup_fd(current->files))) {
		return -ENOMEM;
	}
	return copy_sighand_fs(t, flags);
}

/*
 * Undo a copy_process that failed after task_create: what was taken is
 * given back (each part is NULL if it was not).
 */
static void abort_process(struct task_struct *t)
{
	if (t->mm)
		mmput(t->mm);
	exit_files(t);
	exit_fs(t);
	task_release(t);
}

/*
 * Linux's clone flag checks: a thread shares the dispositions, shared
 * dispositions need a shared mm; namespaces, ptrace, vfork and pidfds are
 * not supported here.  0 or -EINVAL.
 */
static int clone_check_flags(unsigned long flags, unsigned long tls)
{
	if (flags & ~CLONE_SUPPORTED)
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	if ((flags & (CLONE_PARENT | CLONE_THREAD)) && current == init_task)
		return -EINVAL;
	if ((flags & CLONE_SETTLS) && tls >= TASK_SIZE_MAX)
		return -EPERM;
	return 0;
}

/*
 * Give the child its place in the task tree, in one hold of tasklist_lock
 * (Linux's copy_process under it): its thread group (CLONE_THREAD), its
 * parent (a thread or CLONE_PARENT child shares current's).  Unless a
 * signal is pending for current: then -ERESTARTNOINTR and nothing is
 * attached, so no child can miss a signal sent to the group or the
 * process group meanwhile — a SIGKILL of another thread's exit_group
 * (zap_other_threads) finds either the new thread on the list or the
 * cloning thread with SIGKILL pending.
 */
static int attach_child(struct task_struct *t, unsigned long flags)
{
	struct task_struct *parent = current->group_leader;
	unsigned long irq;

	if (flags & (CLONE_PARENT | CLONE_THREAD))
		parent = parent->parent;
	spin_lock_irqsave(&tasklist_lock, irq);
	if (signal_pending(current)) {
		spin_unlock_irqrestore(&tasklist_lock, irq);
		return -ERESTARTNOINTR;
	}
	if (flags & CLONE_THREAD)
		join_thread_group(t);
	t->parent = parent;
	t->pgid = current->pgid;
	t->sid = current->sid;
	if (!(flags & CLONE_THREAD)) {
		list_add_tail(&t->sibling, &parent->children);
		t->signal->tty = current->signal->tty;  /* the session's terminal (setsid drops it) */
	}
	spin_unlock_irqrestore(&tasklist_lock, irq);
	return 0;
}

/*
 * Create the child of a fork or clone (Linux's copy_process) and start it:
 * its TID, or -errno.  The child starts at sp (0: the caller's) with the
 * caller's registers and returns 0.
 */
static long kernel_clone(unsigned long flags, unsigned long sp, int *parent_tid,
			 int *child_tid, unsigned long tls)
{
	struct vfork_done *vd = NULL;
	struct task_struct *c;
	int ret = clone_check_flags(flags, tls);
	int pid;

	if (ret)
		return ret;
	if ((flags & CLONE_VFORK) && !(vd = kmalloc(sizeof(*vd))))
		return -ENOMEM;
	c = task_create(current->comm, NULL);
	if (!c) {
		kfree(vd);
		return -ENOMEM;
	}
	INIT_LIST_HEAD(&c->sibling);
	c->caps = current->caps;        /* before attach_child makes it findable (capget) */
	ret = copy_mm_files(c, flags);
	if (!ret && !(flags & CLONE_THREAD))
		ret = alloc_signal_struct(c);
	if (!ret)
		ret = attach_child(c, flags);
	if (ret) {
		abort_process(c);
		kfree(vd);
		return ret;
	}
	if ((flags & CLONE_PARENT_SETTID) && parent_tid)
		copy_to_user(parent_tid, &c->pid, sizeof(c->pid));
	c->set_child_tid = flags & CLONE_CHILD_SETTID ? (unsigned long)child_tid : 0;
	c->clear_child_tid = flags & CLONE_CHILD_CLEARTID ? (unsigned long)child_tid : 0;
	copy_thread(c, flags, sp, tls);
	if (flags & CLONE_CLEAR_SIGHAND)        /* clone3's: handlers back to SIG_DFL, SIG_IGN kept */
		flush_signal_handlers(c);
	c->blocked = current->blocked;          /* pending signals are not inherited */
	if ((flags & (CLONE_VM | CLONE_VFORK)) != CLONE_VM) {      /* a new thread starts with none */
		c->sas_ss_sp = current->sas_ss_sp;
		c->sas_ss_size = current->sas_ss_size;
		c->sas_ss_flags = current->sas_ss_flags;
	}
	c->make_it_fail = current->make_it_fail;
	rseq_fork(c, flags);
	c->no_new_privs = current->no_new_privs;
	if (vd) {
		*vd = (struct vfork_done){ .refs = 2 };
		c->vfork_done = vd;
	}
	pid = c->pid;   /* c may run, exit and be freed before wake_up_new_task returns */
	wake_up_new_task(c);
	if (vd)
		wait_for_vfork_done(vd);
	return pid;
}

long sys_fork(void)
{
	return kernel_clone(SIGCHLD, 0, NULL, NULL, 0);
}

/* vfork: the child borrows the mm, the parent sleeps until it execs or exits (Linux's). */
long sys_vfork(void)
{
	return kernel_clone(CLONE_VFORK | CLONE_VM | SIGCHLD, 0, NULL, NULL, 0);
}

/*
 * clone(flags, newsp, parent_tid, child_tid, tls): x86-64's argument
 * order.  See kernel_clone.
 */
long sys_clone(unsigned long flags, unsigned long newsp, int *parent_tid, int *child_tid,
	       unsigned long tls)
{
	return kernel_clone((u32)flags, newsp, parent_tid, child_tid, tls);    /* Linux: the low 32 bits */
}

/*
 * clone3's arguments (Linux's copy_clone_args_from_user and
 * clone3_args_valid): size at least version 0's, at most a page, bytes
 * past the struct foliOS knows all 0 (else -E2BIG); the exit signal
 * apart from the flags, which take none of CSIGNAL's or CLONE_DETACHED's
 * bits; a stack given with its size.  set_tid (choosing the child's PID)
 * and CLONE_INTO_CGROUP are EINVAL here: no PID namespaces, no cgroups.
 * 0 or -errno.
 */
static long copy_clone_args_from_user(struct clone_args *args, const void *uargs, size_t size)
{
	unsigned char extra;

	if (size > PAGE_SIZE)
		return -E2BIG;
	if (size < CLONE_ARGS_SIZE_VER0)
		return -EINVAL;
	*args = (struct clone_args){ 0 };
	if (copy_from_user(args, (void *)uargs, MIN(size, sizeof(*args))))
		return -EFAULT;
	for (size_t i = sizeof(*args); i < size; i++)
		if (get_user(extra, (unsigned char *)uargs + i))
			return -EFAULT;
		else if (extra)
			return -E2BIG;
	if ((args->exit_signal & ~(unsigned long long)CSIGNAL) || !valid_signal(args->exit_signal))
		return -EINVAL;
	if ((args->flags & ~(0xffffffffULL | CLONE_CLEAR_SIGHAND)) ||
	    (args->flags & (CLONE_DETACHED | CSIGNAL)) ||
	    (args->flags & (CLONE_SIGHAND | CLONE_CLEAR_SIGHAND)) == (CLONE_SIGHAND | CLONE_CLEAR_SIGHAND) ||
	    ((args->flags & (CLONE_THREAD | CLONE_PARENT)) && args->exit_signal) ||
	    args->set_tid || args->set_tid_size)
		return -EINVAL;
	if (!args->stack != !args->stack_size ||
	    (args->stack && !access_ok(args->stack, args->stack_size)))
		return -EINVAL;
	return 0;
}

/*
 * clone3(args, size): clone with its arguments in a struct, the stack as
 * its base and size (glibc's first choice for threads and posix_spawn).
 */
long sys_clone3(const void *uargs, size_t size)
{
	struct clone_args args;
	long err = copy_clone_args_from_user(&args, uargs, size);

	if (err)
		return err;
	return kernel_clone(args.flags | args.exit_signal, args.stack + args.stack_size,
			    (int *)(unsigned long)args.parent_tid, (int *)(unsigned long)args.child_tid,
			    args.tls);
}

/* Where the child's TID is cleared at exit (musl's thread list); returns the TID. */
long sys_set_tid_address(int *tidptr)
{
	current->clear_child_tid = (unsigned long)tidptr;
	return current->pid;
}
