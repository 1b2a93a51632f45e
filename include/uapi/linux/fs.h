/* lseek(2)'s whence (linux/fs.h). */
#ifndef _UAPI_LINUX_FS_H
#define _UAPI_LINUX_FS_H

#define SEEK_SET        0
#define SEEK_CUR        1
#define SEEK_END        2
#define SEEK_DATA       3
#define SEEK_HOLE       4

#endif
