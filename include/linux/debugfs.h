/* /sys/kernel/debug (fs/debugfs.c): the files' operations, defined by their subsystems. */
#ifndef _LINUX_DEBUGFS_H
#define _LINUX_DEBUGFS_H

#include "linux/fs.h"

struct inode *debugfs_lookup(const char *path);

extern const struct file_operations gup_test_fops;        /* mm/gup_test.c */

#endif
