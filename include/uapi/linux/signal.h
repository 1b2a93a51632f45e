/*
 * Signal numbers, dispositions, sigaction/sigprocmask/sigaltstack flags,
 * siginfo and stack_t (x86-64's asm/signal.h and asm-generic/siginfo.h).
 */
#ifndef _UAPI_LINUX_SIGNAL_H
#define _UAPI_LINUX_SIGNAL_H

#include "linux/types.h"

#define _NSIG           64

#define SIGHUP           1
#define SIGINT           2
#define SIGQUIT          3
#define SIGILL           4
#define SIGTRAP          5
#define SIGABRT          6
#define SIGBUS           7
#define SIGFPE           8
#define SIGKILL          9
#define SIGUSR1         10
#define SIGSEGV         11
#define SIGUSR2         12
#define SIGPIPE         13
#define SIGALRM         14
#define SIGTERM         15
#define SIGSTKFLT       16
#define SIGCHLD         17
#define SIGCONT         18
#define SIGSTOP         19
#define SIGTSTP         20
#define SIGTTIN         21
#define SIGTTOU         22
#define SIGURG          23
#define SIGXCPU         24
#define SIGXFSZ         25
#define SIGVTALRM       26      /* ITIMER_VIRTUAL ran out */
#define SIGPROF         27      /* ITIMER_PROF ran out */
#define SIGWINCH        28
#define SIGIO           29
#define SIGPWR          30
#define SIGSYS          31
#define SIGRTMIN        32

#define SIG_DFL         0UL     /* sa_handler values */
#define SIG_IGN         1UL

#define SA_NOCLDSTOP    0x00000001UL
#define SA_NOCLDWAIT    0x00000002UL
#define SA_SIGINFO      0x00000004UL
#define SA_RESTORER     0x04000000UL
#define SA_ONSTACK      0x08000000UL
#define SA_RESTART      0x10000000UL
#define SA_NODEFER      0x40000000UL
#define SA_RESETHAND    0x80000000UL
#define SA_EXPOSE_TAGBITS 0x00000800UL
#define SA_UNSUPPORTED  0x00000400UL    /* never kept: a program's probe for unknown flags */
/* The flags a sigaction keeps, the rest are cleared (Linux's UAPI_SA_FLAGS on x86-64). */
#define UAPI_SA_FLAGS   (SA_NOCLDSTOP | SA_NOCLDWAIT | SA_SIGINFO | SA_ONSTACK | SA_RESTART | \
			 SA_NODEFER | SA_RESETHAND | SA_EXPOSE_TAGBITS | SA_RESTORER)

#define SIG_BLOCK       0       /* rt_sigprocmask's how */
#define SIG_UNBLOCK     1
#define SIG_SETMASK     2

#define SS_ONSTACK      1       /* sigaltstack's ss_flags */
#define SS_DISABLE      2
#define SS_AUTODISARM   (1U << 31)
#define SS_FLAG_BITS    SS_AUTODISARM
#define MINSIGSTKSZ     2048

typedef struct sigaltstack {
	void *ss_sp;
	int ss_flags;
	unsigned long ss_size;
} stack_t;

/* si_code values: who sent it (<= 0), or why the kernel did (> 0, per signal). */
#define SI_USER         0       /* kill() */
#define SI_KERNEL       0x80
#define SI_QUEUE        (-1)
#define SI_TIMER        (-2)    /* a POSIX timer expired (kernel/posix-timers.c) */
#define SI_TKILL        (-6)    /* tkill(), tgkill() */
#define ILL_ILLOPN      2
#define FPE_INTDIV      1
#define FPE_FLTDIV      3
#define FPE_FLTOVF      4
#define FPE_FLTUND      5
#define FPE_FLTRES      6
#define FPE_FLTINV      7
#define SEGV_MAPERR     1       /* no mapping at the address */
#define SEGV_ACCERR     2       /* a mapping that does not allow the access */
#define BUS_ADRALN      1
#define BUS_ADRERR      2
#define CLD_EXITED      1       /* SIGCHLD: the child called exit */
#define CLD_KILLED      2       /* SIGCHLD: a signal killed it */
#define CLD_DUMPED      3       /* SIGCHLD: a signal killed it and it dumped core */
#define CLD_TRAPPED     4       /* SIGCHLD: a traced child trapped (no ptrace here) */
#define CLD_STOPPED     5       /* SIGCHLD: a signal stopped it */
#define CLD_CONTINUED   6       /* SIGCHLD: SIGCONT continued it */

#define SI_MAX_SIZE     128

/* siginfo_t's kernel layout on x86-64: three ints, padding, then the union at 16. */
typedef struct siginfo {
	int si_signo;
	int si_errno;
	int si_code;
	union {
		int _pad[SI_MAX_SIZE / sizeof(int) - 4];
		struct {                /* kill, tkill, sigqueue */
			int si_pid;
			unsigned int si_uid;
			u64 si_value;
		} _kill;
		struct {                /* SI_TIMER: a POSIX timer */
			int si_tid;     /* timer_create's id */
			int si_overrun; /* expiries while the signal was pending */
			u64 si_sigval;  /* sigev_value (at _kill's si_value) */
			int si_sys_private;
		} _timer;
		struct {                /* SIGCHLD */
			int si_pid;
			unsigned int si_uid;
			int si_status;  /* exit code, or the signal that killed */
		} _sigchld;
		struct {                /* SIGSEGV, SIGBUS, SIGILL, SIGFPE */
			unsigned long si_addr;
		} _sigfault;
	} _sifields __attribute__((aligned(8)));
} siginfo_t;

#define si_pid          _sifields._kill.si_pid
#define si_uid          _sifields._kill.si_uid
#define si_addr         _sifields._sigfault.si_addr
#define si_status       _sifields._sigchld.si_status
#define si_value        _sifields._kill.si_value
#define si_timerid      _sifields._timer.si_tid
#define si_overrun      _sifields._timer.si_overrun

/* sigevent's sigev_notify (timer_create): how a timer tells its expiry. */
#define SIGEV_SIGNAL    0       /* a signal to the process */
#define SIGEV_NONE      1       /* nothing: timer_gettime only */
#define SIGEV_THREAD    2       /* the C library's thread; to the kernel, SIGEV_SIGNAL */
#define SIGEV_THREAD_ID 4       /* a signal to one thread, sigev_notify_thread_id */

/* struct sigevent's layout on x86-64 (64 bytes, Linux's SIGEV_MAX_SIZE). */
typedef struct sigevent {
	u64 sigev_value;
	int sigev_signo;
	int sigev_notify;
	union {
		int _pad[(64 - 16) / sizeof(int)];
		int _tid;       /* SIGEV_THREAD_ID's thread */
	} _sigev_un;
} sigevent_t;

#define sigev_notify_thread_id  _sigev_un._tid

#endif
