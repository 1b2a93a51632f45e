/* wait4(2)'s and waitid(2)'s options, waitid's id types (linux/wait.h). */
#ifndef _UAPI_LINUX_WAIT_H
#define _UAPI_LINUX_WAIT_H

#define WNOHANG         0x00000001
#define WUNTRACED       0x00000002
#define WSTOPPED        WUNTRACED
#define WEXITED         0x00000004
#define WCONTINUED      0x00000008
#define WNOWAIT         0x01000000      /* report, do not reap */

#define P_ALL           0
#define P_PID           1
#define P_PGID          2
#define P_PIDFD         3

#endif
