/*
 * Tasks (Linux's task_struct, one thread per process) and the scheduler.
 *
 * Lock order: see mm/rmap.c; tasklist_lock (kernel/sched.c) guards the task
 * tree and PIDs; a task's pi_lock and its run queue's lock guard its
 * scheduling state (kernel/sched/core.c).
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
#include "linux/wait.h"
#include <asm/ptrace.h>
#include <asm/fpu.h>
#include <asm/processor.h>
#include <asm/current.h>

struct mm_struct;

#define KSTACK_ORDER    2
#define KSTACK_SIZE     (4096UL << KSTACK_ORDER)
#define TASK_COMM_LEN   16

/* task->state, Linux's bits: a waker names the states it wakes (try_to_wake_up). */
#define TASK_RUNNING            0x0000  /* running or on a run queue */
#define TASK_INTERRUPTIBLE      0x0001  /* asleep; a signal wakes it too */
#define TASK_UNINTERRUPTIBLE    0x0002  /* asleep; only its wake-up wakes it */
#define TASK_ZOMBIE             0x0020  /* exited, waits for its parent's wait4 */
#define TASK_DEAD               0x0080  /* reaped at exit (its parent ignores SIGCHLD); freed off-stack */
#define TASK_NEW                0x0800  /* created, not started (wake_up_new_task) */
#define TASK_NORMAL             (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

struct task_struct {
	int pid;
	unsigned int state;             /* TASK_*: set by the task itself, or by a waker under pi_lock */
	char comm[TASK_COMM_LEN];
	struct mm_struct *mm;           /* NULL for the idle task */
	void *kstack;                   /* KSTACK_SIZE bytes */
	unsigned long sp;               /* saved kernel stack pointer */
	unsigned long clear_child_tid;
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
	wait_queue_head_t wait_chldexit;        /* wait4 sleeps here; a child's exit wakes it */
	struct list_head task_list;     /* all tasks */
	int exit_code;                  /* wait status, Linux's encoding */
	struct lockdep_held lockdep;    /* the locks it holds (CONFIG_LOCKDEP) */
	struct files_struct files;
	struct inode *pwd;              /* the working directory (Linux's fs->pwd), referenced; NULL: "/" */
	int pgid;                       /* process group (inherited at fork; setpgid) */
	bool did_exec;                  /* has exec'd since its fork (setpgid's EACCES) */
	struct k_sigaction action[_NSIG];       /* signal n's disposition at [n - 1] */
	struct sigpending pending;      /* sent, not yet delivered (kernel/signal.c) */
	int nr_sigqueued;               /* entries on pending.list */
	sigset_t blocked;               /* not delivered while set here */
	sigset_t saved_sigmask;         /* blocked before sigsuspend/ppoll replaced it */
	bool restore_sigmask;           /* saved_sigmask is to be restored (TIF_RESTORE_SIGMASK) */
	unsigned long sas_ss_sp;        /* the alternate signal stack (sigaltstack) */
	unsigned long sas_ss_size;
	unsigned int sas_ss_flags;      /* SS_AUTODISARM */
	struct restart_block restart_block;
	bool make_it_fail;              /* fault injection may fail its allocations (inherited) */
	struct rlimit rlim[RLIM_NLIMITS];       /* kernel/sys.c */
	u64 it_real_expires;            /* ITIMER_REAL's next SIGALRM (ktime_get_ns); 0: disarmed */
	u64 it_real_incr;               /* its interval in ns; 0: one-shot (kernel/itimer.c) */
	struct fpu fpu;                 /* user FPU/SSE/AVX registers (asm/fpu.h) */
	struct thread_struct thread;    /* the rest of the user's CPU state (asm/processor.h) */
};


static inline struct pt_regs *task_pt_regs(struct task_struct *t)
{
	return (struct pt_regs *)((char *)t->kstack + KSTACK_SIZE) - 1;
}

void rlimits_init(struct task_struct *t, const struct task_struct *parent);
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
void free_task(struct task_struct *t);
struct task_struct *task_create(const char *comm, struct task_struct *parent);
void task_release(struct task_struct *t);
__noreturn void do_exit(int wait_status);
__noreturn void do_task_dead(void);
void sched_tick(void);
void run_itimers(void);
struct task_struct *find_task_by_vpid(int pid);
int mm_id_to_pid(unsigned int mm_id);
int task_nth_pid(unsigned long n);
__noreturn void cpu_startup_entry(void);
int user_init_from_cmdline(const char *cmdline);
bool user_space_leak_check(void);
extern struct task_struct *init_task;
extern spinlock_t tasklist_lock;
extern struct list_head all_tasks;

/* Every task that has a PID: live ones and zombies not yet reaped. */
#define for_each_process(p) list_for_each_entry(p, &all_tasks, task_list)

/* Is a signal pending that t does not block (Linux's TIF_SIGPENDING test)? */
static inline bool signal_pending(struct task_struct *t)
{
	return READ_ONCE(t->pending.signal) & ~t->blocked;
}

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
