/* open(2) flags, fcntl(2) commands and the *at() calls' dirfd and flags (asm-generic/fcntl.h, linux/fcntl.h). */
#ifndef _UAPI_LINUX_FCNTL_H
#define _UAPI_LINUX_FCNTL_H

#define O_ACCMODE       03
#define O_RDONLY        00
#define O_WRONLY        01
#define O_RDWR          02
#define O_CREAT         0100
#define O_EXCL          0200
#define O_NOCTTY        0400
#define O_TRUNC         01000
#define O_APPEND        02000
#define O_NONBLOCK      04000
#define O_DIRECT        040000
#define O_LARGEFILE     0100000
#define O_DIRECTORY     0200000
#define O_NOFOLLOW      0400000
#define O_CLOEXEC       02000000
#define O_PATH          010000000       /* a file that only names an inode */
#define __O_TMPFILE     020000000
#define O_TMPFILE       (__O_TMPFILE | O_DIRECTORY)    /* an unnamed file in a directory */

#define F_DUPFD         0
#define F_GETFD         1
#define F_SETFD         2
#define F_GETFL         3
#define F_SETFL         4
#define F_GETLK         5               /* POSIX record locks (struct flock) */
#define F_SETLK         6
#define F_SETLKW        7
#define F_OFD_GETLK     36              /* open file description locks */
#define F_OFD_SETLK     37
#define F_OFD_SETLKW    38
#define F_DUPFD_CLOEXEC 1030
#define F_SETPIPE_SZ    1031
#define F_GETPIPE_SZ    1032            /* a pipe's capacity in bytes */
#define F_ADD_SEALS     1033
#define F_GET_SEALS     1034
#define FD_CLOEXEC      1

/* struct flock's l_type */
#define F_RDLCK         0
#define F_WRLCK         1
#define F_UNLCK         2

/* x86-64's struct flock: 32 bytes */
struct flock {
	short l_type, l_whence;
	long l_start, l_len;
	int l_pid;
};

/* flock(2)'s operations */
#define LOCK_SH         1
#define LOCK_EX         2
#define LOCK_NB         4
#define LOCK_UN         8

/* File seals (memfd_create's MFD_ALLOW_SEALING, fcntl F_ADD_SEALS) */
#define F_SEAL_SEAL     0x0001          /* no more seals */
#define F_SEAL_SHRINK   0x0002          /* the size may not shrink */
#define F_SEAL_GROW     0x0004          /* ... nor grow */
#define F_SEAL_WRITE    0x0008          /* the data may not change */
#define F_SEAL_FUTURE_WRITE 0x0010      /* no new writable opens or mappings */

#define AT_FDCWD                (-100)  /* relative to the working directory */
#define AT_SYMLINK_NOFOLLOW     0x100
#define AT_EACCESS              0x200   /* faccessat2: as the effective ids (all 0 here) */
#define AT_REMOVEDIR            0x200   /* unlinkat: rmdir */
#define AT_SYMLINK_FOLLOW       0x400   /* linkat */
#define AT_NO_AUTOMOUNT         0x800
#define AT_EMPTY_PATH           0x1000
#define AT_STATX_SYNC_TYPE      0x6000

/* renameat2 flags (linux/fs.h) */
#define RENAME_NOREPLACE        (1 << 0)        /* EEXIST if the target exists */
#define RENAME_EXCHANGE         (1 << 1)
#define RENAME_WHITEOUT         (1 << 2)

#endif
