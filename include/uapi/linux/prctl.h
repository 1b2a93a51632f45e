/* prctl(2) options foliOS implements (Linux's include/uapi/linux/prctl.h values). */
#ifndef _UAPI_LINUX_PRCTL_H
#define _UAPI_LINUX_PRCTL_H

#define PR_SET_PDEATHSIG 1      /* a signal for when the parent dies */
#define PR_GET_PDEATHSIG 2
#define PR_GET_DUMPABLE 3
#define PR_SET_DUMPABLE 4
#define PR_SET_NAME     15      /* set the task's comm (16 bytes with the NUL) */
#define PR_GET_NAME     16
#define PR_CAPBSET_READ 23
#define PR_CAPBSET_DROP 24
#define PR_GET_SECUREBITS 27
#define PR_SET_CHILD_SUBREAPER 36
#define PR_GET_CHILD_SUBREAPER 37
#define PR_SET_NO_NEW_PRIVS 38
#define PR_GET_NO_NEW_PRIVS 39
#define PR_SET_THP_DISABLE 41
#define PR_GET_THP_DISABLE 42

#endif
