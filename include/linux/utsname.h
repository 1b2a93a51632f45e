/*
 * The system's names (Linux's include/linux/utsname.h, one namespace):
 * what uname(2) reports and /proc/version prints.  sysname is "Linux":
 * foliOS implements Linux's ABI, and programs (glibc's version checks,
 * test suites) ask for it; the release names foliOS and the Linux version
 * whose ABI and mm it follows.
 */
#ifndef _LINUX_UTSNAME_H
#define _LINUX_UTSNAME_H

#include "uapi/linux/utsname.h"

#define UTS_RELEASE     "6.15.0-foliOS"
#define UTS_VERSION     "#1 SMP foliOS teaching kernel"

extern const struct new_utsname init_uts_name;

#endif
