/*
 * Signals (kernel/signal.c, kernel/signal_deliver.c, arch/x86_64/signal.c):
 * dispositions, the pending queue and the blocked mask of each task,
 * kill/tkill/tgkill, user handlers run on a signal frame, the alternate
 * signal stack, and the restart of interrupted system calls, with Linux's
 * names.
 */
#ifndef _LINUX_SIGNAL_H
#define _LINUX_SIGNAL_H

#include "linux/types.h"
#include "linux/list.h"
#include "uapi/linux/signal.h"

/* Signal sig's bit in a sigset_t (bit 0 is signal 1, as in the ABI). */
typedef unsigned long sigset_t;
#define sigmask(sig)    (1UL << ((sig) - 1))
/* The signals no task can catch, block or ignore (Linux's SIG_KERNEL_ONLY_MASK). */
#define SIG_KERNEL_ONLY_MASK (sigmask(SIGKILL) | sigmask(SIGSTOP))
/* The signals whose default action stops the process (Linux's SIG_KERNEL_STOP_MASK). */
#define SIG_KERNEL_STOP_MASK (sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | \
			      sigmask(SIGTTOU))

/* One signal's disposition, in the layout of rt_sigaction's struct (x86-64). */
struct k_sigaction {
	unsigned long handler;          /* SIG_DFL, SIG_IGN or a user address */
	unsigned long flags;            /* SA_* */
	unsigned long restorer;         /* where the handler returns: rt_sigreturn */
	sigset_t mask;                  /* blocked too while the handler runs */
};

struct k_itimer;

/*
 * One queued signal: a real-time signal may be queued many times.  A POSIX
 * timer's is preallocated (SIGQUEUE_PREALLOC): queued at most once, never
 * freed by its dequeue or a flush while the timer owns it (Linux's).
 */
#define SIGQUEUE_PREALLOC       1
struct sigqueue {
	struct list_head list;          /* empty (list_del_init) while a PREALLOC one is not queued */
	int flags;                      /* SIGQUEUE_PREALLOC */
	struct k_itimer *timer;         /* the timer owning a PREALLOC one */
	siginfo_t info;
};

/* What is pending for a task: the set, and a siginfo for each member. */
struct sigpending {
	struct list_head list;
	sigset_t signal;
};

/* A signal being delivered (get_signal to handle_signal). */
struct ksignal {
	struct k_sigaction ka;
	siginfo_t info;
	int sig;
};

/*
 * How restart_syscall resumes a call whose sleep a signal interrupted with
 * -ERESTART_RESTARTBLOCK (Linux's struct restart_block): nanosleep and
 * poll go on until the absolute end time they had.
 */
struct restart_block {
	long (*fn)(struct restart_block *);
	union {
		struct {
			u64 expires;            /* the clock's time at the end */
			void *rmtp;
			bool realtime;          /* expires is CLOCK_REALTIME's (a TIMER_ABSTIME sleep) */
		} nanosleep;
		struct {
			void *ufds;
			unsigned int nfds;
			bool has_timeout;
			u64 expires;
		} poll;
		struct {
			unsigned long uaddr;
			u32 val, bitset;
			bool private;
			u64 end;                /* ktime_get_ns() deadline */
		} futex;
	};
};

struct task_struct;
struct pt_regs;

static inline bool valid_signal(unsigned long sig)
{
	return sig <= _NSIG;
}

void force_sig_fault(int sig, int code, unsigned long addr);
/* Whom a signal is for (Linux's enum pid_type): one thread, or its whole process. */
enum pid_type { PIDTYPE_PID, PIDTYPE_TGID };

int do_send_sig_info(int sig, const siginfo_t *info, struct task_struct *t, enum pid_type type);
int send_sig(int sig, struct task_struct *t, int priv);
int send_sig_locked(int sig, struct task_struct *t);
int kill_pgrp(int pgrp, int sig);
int __kill_pgrp_info(int sig, const siginfo_t *info, int pgrp);
bool do_notify_parent(struct task_struct *tsk);
void flush_signal_handlers(struct task_struct *t);
void flush_sigqueue(struct sigpending *queue);
void __flush_sigqueue_mask(sigset_t mask, struct task_struct *t);
bool sig_kernel_ignore(int sig);
bool sig_kernel_stop(int sig);
int send_signal_locked(int sig, const siginfo_t *info, struct task_struct *t, bool group);
int send_sigqueue(struct sigqueue *q, struct task_struct *t, bool group);
void __sigqueue_free(struct sigqueue *q);
/* kernel/signal_stop.c: job control */
void prepare_signal(int sig, struct task_struct *p);
void do_signal_stop(int signr);
void exit_signals_stop(struct task_struct *t);
void signal_stop_cancel(struct task_struct *p);
bool is_current_pgrp_orphaned(void);
void kill_orphaned_pgrp(struct task_struct *tsk, struct task_struct *parent);
bool sig_kernel_only(int sig);
bool get_signal(struct ksignal *ksig);
void signal_delivered(struct ksignal *ksig);
void set_current_blocked(sigset_t newset);
void set_restore_sigmask(sigset_t saved);
void restore_saved_sigmask(void);
sigset_t sigmask_to_save(void);
int set_user_sigmask(const sigset_t *umask, unsigned long sigsetsize);
void restore_saved_sigmask_unless(bool interrupted);
bool on_sig_stack(unsigned long sp);
int sas_ss_flags(unsigned long sp);
unsigned long sigsp(unsigned long sp, struct ksignal *ksig);
int do_sigaltstack(const stack_t *ss, stack_t *oss, unsigned long sp);
int restore_altstack(const stack_t *uss);
int __save_altstack(stack_t *uss, unsigned long sp);
long do_no_restart_syscall(struct restart_block *restart);
void exit_to_user_mode(struct pt_regs *regs);
void arch_do_signal_or_restart(struct pt_regs *regs);
unsigned long current_user_stack_pointer(void);

#endif
