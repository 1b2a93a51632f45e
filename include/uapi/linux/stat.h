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

#define S_ISREG(m)      (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)      (((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)      (((m) & S_IFMT) == S_IFCHR)
#define S_ISFIFO(m)     (((m) & S_IFMT) == S_IFIFO)

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
