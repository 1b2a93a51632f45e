/* Path-name lookup (fs/namei.c). */
#ifndef _LINUX_NAMEI_H
#define _LINUX_NAMEI_H

#include "linux/fs.h"
#include "uapi/linux/fcntl.h"

#define PATH_MAX        4096
#define DIR_PATH_MAX    128             /* the longest path a directory inode keeps */
#define LOOKUP_EMPTY    1               /* "" is allowed (AT_EMPTY_PATH) */

char *getname(const char *upath, int flags, long *err);
long filename_lookup(int dirfd, const char *name, struct inode **inode, char *path);
long path_lookupat(int dirfd, const char *name, struct inode **inode);
long user_path_at(int dirfd, const char *upath, int flags, struct inode **inode);
long user_path_name_at(int dirfd, const char *upath, struct inode **inode, char *path);

#endif
