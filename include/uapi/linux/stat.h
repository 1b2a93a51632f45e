/* File types and modes (linux/stat.h), and x86-64's struct stat (asm/stat.h). */
#ifndef _UAPI_LINUX_STAT_H
#define _UAPI_LINUX_STAT_H

#define S_IFMT          0170000
#define S_IFSOCK        0140000
#define S_IFLNK         0120000
#define S_IFREG         0100000
#define S_IFBLK         0060000
#define S_IFDIR         0040000
#define S_IFCHR         0020000
#define S_IFIFO         0010000

#define S_ISUID         0004000
#define S_ISGID         0002000
#define S_IXGRP         0000010

#define S_ISREG(m)      (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)      (((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)      (((m) & S_IFMT) == S_IFCHR)
#define S_ISFIFO(m)     (((m) & S_IFMT) == S_IFIFO)
#define S_ISLNK(m)      (((m) & S_IFMT) == S_IFLNK)
#define S_ISBLK(m)      (((m) & S_IFMT) == S_IFBLK)
#define S_ISSOCK(m)     (((m) & S_IFMT) == S_IFSOCK)

/* statx(2)'s record: 256 bytes (linux/stat.h) */
struct statx_timestamp {
	long long tv_sec;
	unsigned int tv_nsec;
	int __reserved;
};

struct statx {
	unsigned int stx_mask, stx_blksize;
	unsigned long long stx_attributes;
	unsigned int stx_nlink, stx_uid, stx_gid;
	unsigned short stx_mode, __spare0[1];
	unsigned long long stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	unsigned int stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	unsigned long long stx_mnt_id;
	unsigned int stx_dio_mem_align, stx_dio_offset_align;
	unsigned long long __spare3[12];
};
_Static_assert(sizeof(struct statx) == 256, "struct statx is 256 bytes in Linux's ABI");

#define STATX_BASIC_STATS       0x000007ffU     /* type, mode .. blocks: what stat has */
#define STATX__RESERVED         0x80000000U

struct stat {
	unsigned long st_dev, st_ino, st_nlink;
	unsigned int st_mode, st_uid, st_gid, __pad0;
	unsigned long st_rdev;
	long st_size, st_blksize, st_blocks;
	unsigned long st_atime, st_atime_nsec;
	unsigned long st_mtime, st_mtime_nsec;
	unsigned long st_ctime, st_ctime_nsec;
	long __reserved[3];
};

#endif
