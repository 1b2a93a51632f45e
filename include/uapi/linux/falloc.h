/* fallocate(2)'s mode bits (linux/falloc.h). */
#ifndef _UAPI_LINUX_FALLOC_H
#define _UAPI_LINUX_FALLOC_H

#define FALLOC_FL_KEEP_SIZE     0x01    /* allocate, but leave i_size alone */
#define FALLOC_FL_PUNCH_HOLE    0x02    /* free the range (with KEEP_SIZE only) */
#define FALLOC_FL_NO_HIDE_STALE 0x04
#define FALLOC_FL_COLLAPSE_RANGE 0x08
#define FALLOC_FL_ZERO_RANGE    0x10
#define FALLOC_FL_INSERT_RANGE  0x20
#define FALLOC_FL_UNSHARE_RANGE 0x40

#endif
