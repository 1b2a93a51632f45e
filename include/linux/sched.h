/*
 * Tasks (Linux's task_struct, one thread per process) and the scheduler.
 *
 * The tasks', signals' and scheduler's locks, all spinlocks: what each
 * guards, and their order (part of the kernel's one tree: mm/rmap.c has
 * mm's part and the conventions; irq: always irqsave, a handler takes it):
 *   itimer_lock        irq   kernel/itimer.c   ITIMER_REAL; the tick sends SIGALRM
 *     tasklist_lock, kmalloc_lock
 *   futex_hash_bucket.lock   kernel/futex.c    futex waiters (two: by address);
 *                                              wakes them: pi_lock, rq->lock (the
 *                                              key's lookup takes the mmap_lock
 *                                              for read before)
 *   tasklist_lock      irq   kernel/fork.c     tasks, PIDs, thread groups' lists
 *                                              and counts, signal state (Linux's
 *                                              siglock) and group stops, process
 *                                              groups, sessions, a tty's session
 *                                              and foreground group, a task's
 *                                              files/fs/mm pointers (/proc pins
 *                                              them under it), tasks in use;
 *                                              kmalloc_lock (mm/rmap.c)
 *     wq_head->lock    irq   kernel/sched/wait.c  a wait queue (pipe, tty, wait4,
 *                                              wait_var_event); also under a PTL
 *                                              (a migration entry's wait, mm/rmap.c)
 *       pi_lock        irq   kernel/sched/core.c  one task's wake-up and affinity
 *         rq->lock     irq   kernel/sched/core.c  one CPU's run queue; held across
 *                                              schedule()'s switch; two of them in
 *                                              CPU order (kernel/sched/fair.c)
 *         ida->lock, kmalloc_lock, zone.lock   the switch's mmdrop of a lazily
 *                                              kept mm (arch/x86_64/tlb.c)
 * do_exit() keeps interrupts off from the mm teardown to the last switch.
 */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include "linux/types.h"
#include "linux/list.h"
#include "linux/spinlock.h"
#include "linux/wait.h"
#include "linux/fs.h"
#include "uapi/linux/resource.h"
#include "linux/signal.h"
#include "linux/cpumask.h"
#include "linux/capability.h"
#include "linux/seqlock.h"
#include <asm/ptrace.h>
#include <asm/fpu.h>
#include <asm/processor.h>
#include <asm/current.h>

struct mm_struct;
struct task_struct;

/*
 * The working directory, shared by CLONE_FS (Linux's struct fs_struct).
 * lock guards pwd: a reader takes its own reference under it
 * (get_fs_pwd), so a chdir by another thread cannot free the inode under
 * a path lookup.
 */
struct fs_struct {
	int users;                      /* tasks using it (atomic) */
	spinlock_t lock;
	struct inode *pwd;              /* referenced; NULL: "/" */
	struct inode *root;             /* chroot's: referenced; NULL: the real root */
	umode_t umask;                  /* umask(2): what creation takes away from modes */
};

struct tty_struct;

/* Signal dispositions, shared by CLONE_SIGHAND (Linux's struct sighand_struct). */
struct sighand_struct {
	int count;
	struct k_sigaction action[_NSIG];       /* signal n's disposition at [n - 1] */
};

#define SIGNAL_STOP_STOPPED     0x1     /* job control: every thread has stopped */
#define SIGNAL_STOP_CONTINUED   0x2     /* SIGCONT ended a stop; WCONTINUED not yet reported */
#define SIGNAL_GROUP_EXIT       0x4     /* exit_group or a fatal signal is killing the group */

/*
 * What the threads of one process share (Linux's struct signal_struct):
 * the thread list, the process-directed pending signals and how the group
 * ends.  nr_threads, live, thread_head, flags, group_exit_code and
 * group_exec_task change under tasklist_lock; sigcnt is atomic.
 */
enum { CPUCLOCK_PROF, CPUCLOCK_VIRT };   /* signal_struct.it[] (Linux's) */

struct signal_struct {
	int sigcnt;                     /* tasks holding it (freed by the last release) */
	int nr_threads;                 /* threads on thread_head */
	int live;                       /* threads that have not yet begun to exit */
	struct list_head thread_head;   /* every thread, by task->thread_node */
	wait_queue_head_t wait_chldexit;        /* wait4 of any thread sleeps here; a child's exit wakes it */
	struct sigpending shared_pending;       /* kill()'s signals: any thread may take them */
	int nr_shared_queued;           /* entries on shared_pending.list */
	unsigned int flags;             /* SIGNAL_* */
	int group_exit_code;            /* the group's wait status once SIGNAL_GROUP_EXIT */
	int group_stop_count;           /* threads yet to stop for a group stop (kernel/signal_stop.c) */
	int group_stop_sig;             /* the signal that stopped it; 0 once WUNTRACED reported it */
	struct tty_struct *tty;         /* the controlling terminal (a session leader's, inherited), or NULL */
	struct task_struct *group_exec_task;    /* de_thread's exec: the others exit for it */
	bool is_child_subreaper;        /* PR_SET_CHILD_SUBREAPER: orphans below come here */
	bool has_child_subreaper;       /* an ancestor is a subreaper: look for one at exit */
	u64 it_real_expires;            /* ITIMER_REAL's next SIGALRM (ktime_get_ns); 0: disarmed */
	u64 it_real_incr;               /* its interval in ns; 0: one-shot (kernel/itimer.c) */
	struct cpu_itimer {
		u64 expires;            /* CPU time left in ns; 0: disarmed */
		u64 incr;               /* the interval; 0: one-shot */
	} it[2];                        /* [CPUCLOCK_PROF], [CPUCLOCK_VIRT]: ITIMER_PROF, _VIRTUAL */
	/* POSIX timers (kernel/posix-timers.c), under tasklist_lock: */
	struct list_head posix_timers;  /* struct k_itimer, by list */
	int next_posix_timer_id;        /* timer_create's next id (Linux's posix_timer_id) */
	int nr_posix_timers;            /* on posix_timers */
	int nr_cpu_timers;              /* of them on a CPU-time clock (READ_ONCE by the tick) */
	struct rlimit rlim[RLIM_NLIMITS];       /* kernel/sys.c */
	/* CPU time (kernel/sched/cputime.c), under tasklist_lock: */
	u64 utime, stime;               /* of its threads that are gone, by tick (ns) */
	u64 sum_sched_runtime;          /* of its threads that are gone, exactly (ns) */
	u64 cutime, cstime;             /* of its reaped children, and of theirs */
	unsigned long nvcsw, nivcsw;    /* context switches of its threads that are gone */
	unsigned long cnvcsw, cnivcsw;  /* of its reaped children, and of theirs */
	unsigned long min_flt, maj_flt; /* page faults of its threads that are gone */
	unsigned long cmin_flt, cmaj_flt;       /* of its reaped children, and of theirs */
	/* The OOM killer's (mm/oom_kill.c), under tasklist_lock; inherited at fork: */
	short oom_score_adj;            /* -1000..1000: added to its badness, per mille of RAM+swap */
	short oom_score_adj_min;        /* what a writer without CAP_SYS_RESOURCE may not go below */
	struct mm_struct *oom_mm;       /* the mm it held when chosen as a victim (mmgrab), or NULL */
	unsigned long oom_kill_jiffies; /* when it was chosen: it may resist reaping this long */
};

#define KSTACK_ORDER    2
#define KSTACK_SIZE     (4096UL << KSTACK_ORDER)
#define TASK_COMM_LEN   16

/* task->state, Linux's bits: a waker names the states it wakes (try_to_wake_up). */
#define TASK_RUNNING            0x0000  /* running or on a run queue */
#define TASK_INTERRUPTIBLE      0x0001  /* asleep; a signal wakes it too */
#define TASK_UNINTERRUPTIBLE    0x0002  /* asleep; only its wake-up wakes it */
#define TASK_STOPPED            0x0004  /* job control: SIGCONT or SIGKILL wakes it */
#define TASK_ZOMBIE             0x0020  /* exited, waits for its parent's wait4 */
#define TASK_WAKEKILL           0x0100  /* with TASK_UNINTERRUPTIBLE: SIGKILL wakes it too */
#define TASK_KILLABLE           (TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_DEAD               0x0080  /* reaped at exit (its parent ignores SIGCHLD); freed off-stack */
#define TASK_NEW                0x0800  /* created, not started (wake_up_new_task) */
#define TASK_NORMAL             (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

struct task_struct {
	int pid;                        /* the thread ID (gettid) */
	int tgid;                       /* the process ID (getpid): the group leader's pid */
	struct task_struct *group_leader;
	struct list_head thread_node;   /* in signal->thread_head */
	bool exiting;                   /* in do_exit (Linux's PF_EXITING) */
	bool stop_pending;              /* owes the group stop in progress (JOBCTL_STOP_PENDING) */
	u64 start_time;                 /* ktime_get_ns() when made (/proc/<pid>/stat's starttime) */
	bool stop_dequeued;             /* took a stop signal no SIGCONT has cancelled (JOBCTL_STOP_DEQUEUED) */
	unsigned int state;             /* TASK_*: set by the task itself, or by a waker under pi_lock */
	char comm[TASK_COMM_LEN];
	struct mm_struct *mm;           /* NULL for the idle task */
	void *kstack;                   /* KSTACK_SIZE bytes */
	unsigned long sp;               /* saved kernel stack pointer */
	unsigned long set_child_tid;    /* CLONE_CHILD_SETTID: the TID goes here when it starts */
	unsigned long clear_child_tid;  /* CLONE_CHILD_CLEARTID: cleared and futex-woken at exit */
	unsigned long robust_list;      /* set_robust_list's head, walked at exit */
	int pagefault_disabled;         /* pagefault_disable() nesting (linux/uaccess.h) */
	struct task_struct *parent;
	struct list_head children;      /* tasks whose parent we are */
	struct list_head sibling;       /* in parent->children */
	struct list_head run_list;      /* on its CPU's run queue (rq->queue) */
	spinlock_t pi_lock;             /* serialises wake-ups and affinity changes of this task */
	int on_rq;                      /* runnable: queued or running (under the rq lock) */
	int on_cpu;                     /* its CPU is running it or still switching away */
	unsigned int cpu;               /* the CPU it runs, or last ran, or is queued on */
	struct cpumask cpus_mask;       /* CPUs it may run on (sched_setaffinity) */
	bool need_resched;              /* schedule at the next return to user mode */
	int nice;                       /* -20..19: its share of a CPU (kernel/sched/fair.c) */
	u64 vruntime;                   /* CPU time weighted by nice; relative to its rq's
					   min_vruntime while on no queue (rq->lock) */
	unsigned long sleep_start;      /* jiffies + 1 as it went to sleep; 0: running (rq->lock) */
	u64 sleep_min_vruntime;         /* its rq's min_vruntime as it went to sleep, */
	unsigned int sleep_cpu;         /* on this CPU: a wake-up there restores its place */
	struct list_head task_list;     /* all tasks */
	int exit_code;                  /* wait status, Linux's encoding */
	struct lockdep_held lockdep;    /* the locks it holds (CONFIG_LOCKDEP) */
	struct files_struct *files;     /* the fd table, shared by CLONE_FILES */
	struct fs_struct *fs;           /* the working directory, shared by CLONE_FS */
	struct sighand_struct *sighand; /* dispositions, shared by CLONE_SIGHAND */
	struct signal_struct *signal;   /* the thread group's shared part */
	int pgid;                       /* process group (inherited at fork; setpgid) */
	int sid;                        /* session (inherited at fork; setsid) */
	bool did_exec;                  /* has exec'd since its fork (setpgid's EACCES) */
	struct sigpending pending;      /* sent to this thread, not yet delivered (kernel/signal.c) */
	int nr_sigqueued;               /* entries on pending.list */
	sigset_t blocked;               /* not delivered while set here */
	sigset_t saved_sigmask;         /* blocked before sigsuspend/ppoll replaced it */
	sigset_t real_blocked;          /* blocked before rt_sigtimedwait opened it (tasklist_lock) */
	bool restore_sigmask;           /* saved_sigmask is to be restored (TIF_RESTORE_SIGMASK) */
	unsigned long sas_ss_sp;        /* the alternate signal stack (sigaltstack) */
	unsigned long sas_ss_size;
	unsigned int sas_ss_flags;      /* SS_AUTODISARM */
	struct restart_block restart_block;
	bool make_it_fail;              /* fault injection may fail its allocations (inherited) */
	struct task_caps caps;          /* its capabilities (kernel/capability.c; inherited) */
	bool no_new_privs;              /* PR_SET_NO_NEW_PRIVS: for ever, for its children too */
	int pdeath_signal;              /* PR_SET_PDEATHSIG: sent when its parent dies; 0: none */
	struct vfork_done *vfork_done;  /* CLONE_VFORK: its parent waits for its exec or exit */
	struct rseq *rseq;              /* its registered rseq area (user), or NULL (kernel/rseq.c) */
	u32 rseq_len, rseq_sig;
	bool rseq_pending;              /* update the area before returning to user mode */
	/* CPU time (kernel/sched/cputime.c); written by the CPU running it: */
	u64 utime, stime;               /* by tick: user and system (ns) */
	u64 sum_exec_runtime;           /* exactly, up to exec_start (ns) */
	u64 exec_start;                 /* ktime_get_ns() as it got the CPU; 0: not running */
	seqcount_t cputime_seq;         /* a switch's update of the two above vs readers elsewhere */
	unsigned long nvcsw, nivcsw;    /* context switches: it slept / it was preempted */
	unsigned long min_flt, maj_flt; /* page faults it took (mm_account_fault()), by itself */
	int (*kthread_fn)(void *);      /* a kernel thread's function (Linux's PF_KTHREAD); NULL: a user task */
	void *kthread_arg;
	struct fpu fpu;                 /* user FPU/SSE/AVX registers (asm/fpu.h) */
	struct thread_struct thread;    /* the rest of the user's CPU state (asm/processor.h) */
};


static inline struct pt_regs *task_pt_regs(struct task_struct *t)
{
	return (struct pt_regs *)((char *)t->kstack + KSTACK_SIZE) - 1;
}

void rlimits_init(struct signal_struct *sig, const struct signal_struct *parent);
void sched_init(void);
void schedule(void);
int try_to_wake_up(struct task_struct *p, unsigned int state);
int wake_up_process(struct task_struct *p);
int wake_up_state(struct task_struct *p, unsigned int state);
void wake_up_new_task(struct task_struct *p);
void scheduler_ipi(void);
void sched_fork(struct task_struct *p, const struct task_struct *parent);
void sched_wait_off_cpu(struct task_struct *p);
void schedule_tail(struct task_struct *prev);
void ret_from_fork(struct task_struct *prev, struct pt_regs *regs);

/* A task made and freed (kernel/fork.c), unhashed, released and ended (kernel/exit.c). */
struct task_struct *task_alloc(const char *comm);
struct task_struct *task_create(const char *comm, struct task_struct *parent);
/* kernel/kthread.c: a kernel thread runs fn(arg) for ever. */
struct task_struct *kthread_run(int (*fn)(void *), void *arg, const char *name);
void free_task(struct task_struct *t);
void task_release(struct task_struct *t);
void __unhash_process(struct task_struct *t);
__noreturn void do_exit(int wait_status);
__noreturn void do_task_dead(void);     /* kernel/sched/core.c */

void sched_tick(void);
void update_process_times(int user_tick);
void run_itimers(void);
void run_posix_cpu_timers(struct task_struct *p, int user_tick);      /* kernel/itimer.c */

/* CPU time (kernel/sched/cputime.c) */
struct task_cputime {
	u64 utime, stime;               /* by tick (ns) */
	u64 sum_exec_runtime;           /* exactly (ns) */
};

void account_switch(struct task_struct *prev, struct task_struct *next);
void account_process_tick(struct task_struct *p, int user_tick);
u64 task_sched_runtime(struct task_struct *t);
void thread_group_cputime(struct task_struct *t, struct task_cputime *times);
void thread_group_faults(struct task_struct *t, unsigned long *min_flt, unsigned long *maj_flt);
void account_exit_thread(struct task_struct *t);
void account_reaped_child(struct task_struct *z);

#define RUSAGE_BOTH     (-2)            /* wait4's: the child and its reaped children */
struct rusage;
void __getrusage(struct task_struct *p, int who, struct rusage *r);

/* A CPU's idle task (pid 0; the boot CPU's runs kmain and the ktests first), not a kernel thread. */
static inline bool is_idle_task(const struct task_struct *p)
{
	return p->pid == 0 && !p->kthread_fn;
}
struct task_struct *find_task_by_vpid(int pid);        /* kernel/pid.c */
int mm_id_to_pid(unsigned int mm_id);
int task_nth_pid(unsigned long n);
__noreturn void cpu_startup_entry(void);
int user_init_from_cmdline(const char *cmdline);
bool user_space_leak_check(void);
extern struct task_struct *init_task;   /* PID 1 (kernel/init_user.c) */
extern spinlock_t tasklist_lock;        /* kernel/fork.c */
extern struct list_head all_tasks;
extern atomic_t nr_tasks;               /* made by task_create(), not yet freed */

/*
 * Every process (thread group leader): live ones and zombies not yet
 * reaped; not one clone() is still making (no signal_struct yet).
 */
#define for_each_process(p) \
	list_for_each_entry(p, &all_tasks, task_list) \
		if (!thread_group_leader(p) || !(p)->signal) {} else

static inline bool thread_group_leader(const struct task_struct *t)
{
	return t->group_leader == t;
}

static inline bool thread_group_empty(const struct task_struct *t)
{
	return t->signal->nr_threads == 1;
}

/* Every thread of t's group (t->signal->thread_head). */
#define for_each_thread(t, th) \
	list_for_each_entry(th, &(t)->signal->thread_head, thread_node)

/* Is a signal pending that t does not block (Linux's TIF_SIGPENDING test)? */
static inline bool signal_pending(struct task_struct *t)
{
	return ((READ_ONCE(t->pending.signal) | READ_ONCE(t->signal->shared_pending.signal)) &
		~t->blocked) || READ_ONCE(t->stop_pending);
}

/* Is SIGKILL pending for t: must it die (Linux's fatal_signal_pending)? */
static inline bool fatal_signal_pending(struct task_struct *t)
{
	return READ_ONCE(t->pending.signal) & sigmask(SIGKILL);
}

/* kernel/fork.c, kernel/exit.c: the shared parts' lifetimes. */
void exit_files(struct task_struct *t);
void complete_vfork_done(struct task_struct *t);
/* kernel/sched/loadavg.c: the load average, Linux's fixed point */
#define FSHIFT          11
#define FIXED_1         (1 << FSHIFT)
#define LOAD_INT(x)     ((x) >> FSHIFT)
#define LOAD_FRAC(x)    LOAD_INT(((x) & (FIXED_1 - 1)) * 100)
extern unsigned long avenrun[3];
unsigned int nr_running(void);
void calc_global_load(void);
int last_pid(void);                             /* kernel/pid.c */

void exit_fs(struct task_struct *t);
void set_task_mm(struct task_struct *t, struct mm_struct *mm);
void put_fs_struct(struct fs_struct *fs);
void put_task_shared(struct task_struct *t);
void mmput(struct mm_struct *mm);
bool mmget_not_zero(struct mm_struct *mm);
int init_task_shared(struct task_struct *t);
__noreturn void do_group_exit(int wait_status);
void zap_other_threads(struct task_struct *t);
void exit_robust_list(struct task_struct *t);
void futex_init(void);
long do_futex_wake(unsigned long uaddr, bool private, int nr, u32 bitset);

#define current get_current()

/*
 * Sleeping without a wait queue (Linux's idiom): set_current_state, test
 * the condition, schedule; the waker changes the condition, then wakes the
 * task.  The barrier orders the state store before the condition's loads.
 */
#define __set_current_state(s)  WRITE_ONCE(current->state, (s))
#define set_current_state(s)    smp_store_mb(current->state, (s))

static inline void set_tsk_need_resched(struct task_struct *t)
{
	WRITE_ONCE(t->need_resched, true);
}

static inline void clear_tsk_need_resched(struct task_struct *t)
{
	WRITE_ONCE(t->need_resched, false);
}

/* Should current give up the CPU at the next return to user mode? */
static inline bool need_resched(void)
{
	return READ_ONCE(current->need_resched);
}

/* A signal is pending for t: an interruptible sleep ends (Linux's signal_wake_up). */
static inline void signal_wake_up(struct task_struct *t)
{
	wake_up_state(t, TASK_INTERRUPTIBLE);
}

/* SIGKILL is pending for t: a stopped or killable sleeper wakes to die too (TASK_WAKEKILL). */
static inline void signal_wake_up_fatal(struct task_struct *t)
{
	wake_up_state(t, TASK_INTERRUPTIBLE | TASK_STOPPED | TASK_WAKEKILL);
}

static inline unsigned int task_cpu(const struct task_struct *t)
{
	return READ_ONCE(t->cpu);
}

/* Architecture hooks (arch/x86_64/process.c). */
void arch_cpu_init(void);
void arch_switch_mm_and_stack(struct task_struct *next);
void arch_set_current(struct task_struct *t);
struct task_struct *__switch_to(unsigned long *prev_sp, unsigned long next_sp,
				struct task_struct *prev);
void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp);
void arch_prepare_new_stack(struct task_struct *t);

#endif
