/* Path-name lookup (fs/namei.c). */
#ifndef _LINUX_NAMEI_H
#define _LINUX_NAMEI_H

#include "linux/fs.h"

#define PATH_MAX        4096
#define AT_FDCWD        (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_NO_AUTOMOUNT 0x800
#define AT_EMPTY_PATH   0x1000
#define AT_STATX_SYNC_TYPE 0x6000
#define LOOKUP_EMPTY    1               /* "" is allowed (AT_EMPTY_PATH) */

char *getname(const char *upath, int flags, long *err);
long path_lookupat(int dirfd, const char *name, struct file *f);
long user_path_at(int dirfd, const char *upath, int flags, struct file *f);

#endif
