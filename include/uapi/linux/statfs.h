/* statfs(2)'s struct statfs on x86-64 (asm-generic/statfs.h) and the magics (linux/magic.h). */
#ifndef _UAPI_LINUX_STATFS_H
#define _UAPI_LINUX_STATFS_H

#define TMPFS_MAGIC             0x01021994

struct statfs {
	long f_type, f_bsize;
	unsigned long f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	struct { int val[2]; } f_fsid;
	long f_namelen, f_frsize, f_flags;
	long f_spare[4];
};

#endif
