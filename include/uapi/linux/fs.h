/* lseek(2)'s whence, the block device ioctls and /proc/<pid>/maps' PROCMAP_QUERY ioctl (linux/fs.h). */
#ifndef _UAPI_LINUX_FS_H
#define _UAPI_LINUX_FS_H

#include "linux/types.h"
#include "uapi/linux/ioctl.h"

#define SEEK_SET        0
#define SEEK_CUR        1
#define SEEK_END        2
#define SEEK_DATA       3
#define SEEK_HOLE       4

#define BLKGETSIZE      _IO(0x12, 96)           /* size in 512-byte sectors (unsigned long) */
#define BLKSSZGET       _IO(0x12, 104)          /* logical sector size (int) */
#define BLKGETSIZE64    _IOR(0x12, 114, size_t) /* size in bytes (u64) */

#define PROCFS_IOCTL_MAGIC 'f'
#define PROCMAP_QUERY   _IOWR(PROCFS_IOCTL_MAGIC, 17, struct procmap_query)

/* query_flags: which VMA to find; vma_flags: what it allows. */
enum procmap_query_flags {
	PROCMAP_QUERY_VMA_READABLE              = 0x01,
	PROCMAP_QUERY_VMA_WRITABLE              = 0x02,
	PROCMAP_QUERY_VMA_EXECUTABLE            = 0x04,
	PROCMAP_QUERY_VMA_SHARED                = 0x08,
	PROCMAP_QUERY_COVERING_OR_NEXT_VMA      = 0x10,
	PROCMAP_QUERY_FILE_BACKED_VMA           = 0x20,
};

/*
 * The VMA at (or, with COVERING_OR_NEXT_VMA, after) query_addr.  size is
 * the caller's sizeof: an older, smaller struct still works.
 */
struct procmap_query {
	u64 size;
	u64 query_flags;                /* in */
	u64 query_addr;                 /* in */
	u64 vma_start;                  /* out */
	u64 vma_end;                    /* out */
	u64 vma_flags;                  /* out: PROCMAP_QUERY_VMA_* */
	u64 vma_page_size;              /* out */
	u64 vma_offset;                 /* out: in the file */
	u64 inode;                      /* out */
	u32 dev_major;                  /* out */
	u32 dev_minor;                  /* out */
	u32 vma_name_size;              /* in: buffer size; out: with the NUL, 0 if none */
	u32 build_id_size;              /* in/out: 0 out, no build IDs here */
	u64 vma_name_addr;              /* in */
	u64 build_id_addr;              /* in */
};

#endif
