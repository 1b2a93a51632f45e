/* The initrd: a read-only cpio (newc) archive from the boot loader. */
#ifndef _LINUX_INITRD_H
#define _LINUX_INITRD_H

#include "linux/types.h"
#include "uapi/linux/stat.h"

struct initrd_file {
	const char *name;               /* without the leading "/" */
	const u8 *data;
	unsigned long size;
	unsigned int mode;              /* S_IF* | permissions */
	unsigned int uid, gid;
	long mtime;                     /* seconds since 1970 */
};


void initrd_init(const void *start, unsigned long size);
bool initrd_entry(unsigned int index, struct initrd_file *f);

struct inode;
struct inode *initrd_iget(const char *path);

#endif
