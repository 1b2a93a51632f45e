/*
 * Linux's struct statx and statx(2) for the guest tests: musl 1.2.3 has
 * no statx of its own.  Each time is { s64 tv_sec; u32 tv_nsec; s32 pad }:
 * times[0..1] atime, [2..3] btime, [4..5] ctime, [6..7] mtime.
 */
#ifndef STATX_ABI_H
#define STATX_ABI_H

#include <sys/syscall.h>
#include <unistd.h>

struct statx_rec {
	unsigned int stx_mask, stx_blksize;
	unsigned long long stx_attributes;
	unsigned int stx_nlink, stx_uid, stx_gid;
	unsigned short stx_mode, spare0;
	unsigned long long stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	long long times[8];
	unsigned int stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	unsigned long long rest[14];
};
#define STATX_UID         0x008U
#define STATX_ATIME       0x020U
#define STATX_MTIME       0x040U
#define STATX_CTIME       0x080U
#define STATX_SIZE        0x200U
#define STATX_BASIC_STATS 0x7ffU
#define STX_ATIME         0       /* times[] index of each time's seconds */
#define STX_CTIME         4
#define STX_MTIME         6

static inline int statx(int dirfd, const char *path, int flags, unsigned int mask,
			struct statx_rec *stx)
{
	return syscall(SYS_statx, dirfd, path, flags, mask, stx);
}

#endif
