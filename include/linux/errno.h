/*
 * errno values: the ABI's (uapi/linux/errno.h), and the kernel's own
 * restart codes (Linux's linux/errno.h).  A system call returns one of
 * these only with a signal pending; the signal code turns it into -EINTR
 * or a restart, so user space never sees it.
 */
#ifndef _LINUX_ERRNO_H
#define _LINUX_ERRNO_H

#include "uapi/linux/errno.h"

#define ERESTARTSYS             512     /* restart if SA_RESTART, else EINTR */
#define ERESTARTNOINTR          513     /* always restart */
#define ERESTARTNOHAND          514     /* restart if no handler ran */
#define ERESTART_RESTARTBLOCK   516     /* restart through restart_syscall */
#define ENOIOCTLCMD             515     /* not this layer's ioctl: the caller tries others (never returned) */

#endif
