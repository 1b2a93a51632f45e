/* prctl(2) options foliOS implements (Linux's include/uapi/linux/prctl.h values). */
#ifndef _UAPI_LINUX_PRCTL_H
#define _UAPI_LINUX_PRCTL_H

#define PR_SET_NAME     15      /* set the task's comm (16 bytes with the NUL) */
#define PR_GET_NAME     16

#endif
