/* Signal numbers, dispositions and sigaction/sigprocmask flags (x86-64's asm/signal.h). */
#ifndef _UAPI_LINUX_SIGNAL_H
#define _UAPI_LINUX_SIGNAL_H

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
#define SIGCHLD         17
#define SIGCONT         18
#define SIGSTOP         19
#define SIGTSTP         20
#define SIGTTIN         21
#define SIGTTOU         22
#define SIGURG          23
#define SIGWINCH        28

#define SIG_DFL         0UL     /* sa_handler values */
#define SIG_IGN         1UL

#define SA_NOCLDWAIT    0x00000002UL

#define SIG_BLOCK       0       /* rt_sigprocmask's how */
#define SIG_UNBLOCK     1
#define SIG_SETMASK     2

#endif
