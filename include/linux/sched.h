/*
 * Tasks (Linux's task_struct, one thread per process) and the scheduler.
 *
 * Lock order: see mm/rmap.c; tasklist_lock (kernel/sched.c) guards the task
 * tree, PIDs and states, so that SMP can come later.
 */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include "linux/types.h"
#include "linux/list.h"
#include "linux/spinlock.h"
#include "linux/fs.h"
#include "uapi/linux/resource.h"
#include "linux/signal.h"
#include <asm/ptrace.h>
#include <asm/fpu.h>
#include <asm/processor.h>
#include <asm/current.h>

struct mm_struct;
struct task_struct;

/* The working directory, shared by CLONE_FS (Linux's struct fs_struct). */
struct fs_struct {
	int users;                      /* tasks using it; guarded by the tasks' group */
	struct inode *pwd;              /* referenced; NULL: "/" */
};

/* Signal dispositions, shared by CLONE_SIGHAND (Linux's struct sighand_struct). */
struct sighand_struct {
	int count;
	struct k_sigaction action[_NSIG];       /* signal n's disposition at [n - 1] */
};

#define SIGNAL_GROUP_EXIT       0x4     /* exit_group or a fatal signal is killing the group */

/*
 * What the threads of one process share (Linux's struct signal_struct):
 * the thread list, the process-directed pending signals and how the group
 * ends.  Changed under tasklist_lock (one CPU today: interrupts off).
 */
struct signal_struct {
	int sigcnt;                     /* tasks holding it (freed by the last release) */
	int nr_threads;                 /* threads on thread_head */
	int live;                       /* threads that have not yet begun to exit */
	struct list_head thread_head;   /* every thread, by task->thread_node */
	struct sigpending shared_pending;       /* kill()'s signals: any thread may take them */
	int nr_shared_queued;           /* entries on shared_pending.list */
	unsigned int flags;             /* SIGNAL_GROUP_EXIT */
	int group_exit_code;            /* the group's wait status once SIGNAL_GROUP_EXIT */
	struct task_struct *group_exec_task;    /* de_thread's exec: the others exit for it */
	u64 it_real_expires;            /* ITIMER_REAL's next SIGALRM (ktime_get_ns); 0: disarmed */
	u64 it_real_incr;               /* its interval in ns; 0: one-shot (kernel/itimer.c) */
	struct rlimit rlim[RLIM_NLIMITS];       /* kernel/sys.c */
};

#define KSTACK_ORDER    2
#define KSTACK_SIZE     (4096UL << KSTACK_ORDER)
#define TASK_COMM_LEN   16

enum task_state {
	TASK_RUNNABLE,
	TASK_SLEEPING,
	TASK_ZOMBIE,
	TASK_DEAD,              /* reaped at exit (its parent ignores SIGCHLD); freed off-stack */
};

struct task_struct {
	int pid;                        /* the thread ID (gettid) */
	int tgid;                       /* the process ID (getpid): the group leader's pid */
	struct task_struct *group_leader;
	struct list_head thread_node;   /* in signal->thread_head */
	bool exiting;                   /* in do_exit (Linux's PF_EXITING) */
	enum task_state state;
	char comm[TASK_COMM_LEN];
	struct mm_struct *mm;           /* NULL for the idle task */
	void *kstack;                   /* KSTACK_SIZE bytes */
	unsigned long sp;               /* saved kernel stack pointer */
	unsigned long set_child_tid;    /* CLONE_CHILD_SETTID: the TID goes here when it starts */
	unsigned long clear_child_tid;  /* CLONE_CHILD_CLEARTID: cleared and futex-woken at exit */
	unsigned long robust_list;      /* set_robust_list's head, walked at exit */
	struct task_struct *parent;
	struct list_head children;      /* tasks whose parent we are */
	struct list_head sibling;       /* in parent->children */
	struct list_head run_list;      /* on the run queue */
	struct list_head task_list;     /* all tasks */
	int exit_code;                  /* wait status, Linux's encoding */
	const void *wait_chan;          /* what a sleeping task waits for */
	struct files_struct *files;     /* the fd table, shared by CLONE_FILES */
	struct fs_struct *fs;           /* the working directory, shared by CLONE_FS */
	struct sighand_struct *sighand; /* dispositions, shared by CLONE_SIGHAND */
	struct signal_struct *signal;   /* the thread group's shared part */
	int pgid;                       /* process group (inherited at fork; setpgid) */
	bool did_exec;                  /* has exec'd since its fork (setpgid's EACCES) */
	struct sigpending pending;      /* sent to this thread, not yet delivered (kernel/signal.c) */
	int nr_sigqueued;               /* entries on pending.list */
	sigset_t blocked;               /* not delivered while set here */
	sigset_t saved_sigmask;         /* blocked before sigsuspend/ppoll replaced it */
	bool restore_sigmask;           /* saved_sigmask is to be restored (TIF_RESTORE_SIGMASK) */
	unsigned long sas_ss_sp;        /* the alternate signal stack (sigaltstack) */
	unsigned long sas_ss_size;
	unsigned int sas_ss_flags;      /* SS_AUTODISARM */
	struct restart_block restart_block;
	bool make_it_fail;              /* fault injection may fail its allocations (inherited) */
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
void wake_up_task(struct task_struct *t);
void sleep_on(const void *chan);
void wake_up(const void *chan);
struct task_struct *task_create(const char *comm, struct task_struct *parent);
void task_start(struct task_struct *t);
void task_release(struct task_struct *t);
__noreturn void do_exit(int wait_status);
__noreturn void do_task_dead(void);
void sched_tick(void);
void run_itimers(void);
struct task_struct *find_task_by_vpid(int pid);
int mm_id_to_pid(unsigned int mm_id);
int task_nth_pid(unsigned long n);
__noreturn void cpu_idle(void);
__noreturn void cpu_startup_entry(void);        /* an AP's idle loop, once it is up */
void scheduler_ipi(void);                       /* the reschedule IPI's hook */
int user_init_from_cmdline(const char *cmdline);
bool user_space_leak_check(void);
extern struct task_struct *init_task;
extern spinlock_t tasklist_lock;
extern struct list_head all_tasks;

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
	return (READ_ONCE(t->pending.signal) | READ_ONCE(t->signal->shared_pending.signal)) &
	       ~t->blocked;
}

/* kernel/fork.c, kernel/exit.c: the shared parts' lifetimes. */
void exit_files(struct task_struct *t);
void exit_fs(struct task_struct *t);
void put_task_shared(struct task_struct *t);
void mmput(struct mm_struct *mm);
int init_task_shared(struct task_struct *t);
__noreturn void do_group_exit(int wait_status);
void zap_other_threads(struct task_struct *t);
void exit_robust_list(struct task_struct *t);
void futex_init(void);
long do_futex_wake(unsigned long uaddr, bool private, int nr, u32 bitset);


/* Architecture hooks (arch/x86_64/process.c). */
#define current get_current()
void arch_cpu_init(void);
void arch_switch_mm_and_stack(struct task_struct *next);
void arch_set_current(struct task_struct *t);
void __switch_to(unsigned long *prev_sp, unsigned long next_sp);
void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp);
void arch_prepare_new_stack(struct task_struct *t);

#endif
