/*
 * Swap devices (Linux's include/linux/swap.h): what swapon(2) makes of a
 * disk that mkswap prepared, and what /proc/swaps, /proc/meminfo and
 * sysinfo(2) report of it.
 *
 * The first page of a swap area is its header (union swap_header, the
 * format util-linux's mkswap writes):
 *
 *   0     1024 bytes for a boot loader or a disk label
 *   1024  version (1), last_page (the last usable page), nr_badpages,
 *         uuid[16], volume label[16], padding, badpages[nr_badpages]
 *   4086  "SWAPSPACE2"
 *
 * Each page of the area is a slot; swap_map[] holds one count per slot
 * (0: free; SWAP_MAP_BAD: never to be used — the header and bad pages).
 *
 * Locks (order: swapon_mutex, then swap_lock): swapon_mutex
 * (mm/swapfile.c) serializes swapon, swapoff and /proc/swaps' walk;
 * swap_lock (a spinlock) guards swap_info[]'s flags, priorities and the
 * totals.  Lock order of the whole tree: mm/rmap.c.
 */
#ifndef _LINUX_SWAP_H
#define _LINUX_SWAP_H

#include "linux/types.h"
#include "linux/swapops.h"

#define SWAP_FLAG_PREFER        0x8000  /* swapon's flags (Linux's uapi) */
#define SWAP_FLAG_PRIO_MASK     0x7fff
#define SWAP_FLAG_DISCARD       0x10000
#define SWAP_FLAG_DISCARD_ONCE  0x20000
#define SWAP_FLAG_DISCARD_PAGES 0x40000
#define SWAP_FLAGS_VALID        (SWAP_FLAG_PRIO_MASK | SWAP_FLAG_PREFER | SWAP_FLAG_DISCARD | \
				 SWAP_FLAG_DISCARD_ONCE | SWAP_FLAG_DISCARD_PAGES)

union swap_header {
	struct {
		char reserved[PAGE_SIZE - 10];
		char magic[10];                 /* "SWAPSPACE2" */
	} magic;
	struct {
		char bootbits[1024];
		u32 version;
		u32 last_page;
		u32 nr_badpages;
		unsigned char sws_uuid[16];
		unsigned char sws_volume[16];
		u32 padding[117];
		u32 badpages[1];
	} info;
};

#define MAX_SWAP_BADPAGES \
	((offsetof(union swap_header, magic.magic) - offsetof(union swap_header, info.badpages)) / sizeof(int))

#define SWAP_MAP_BAD    0x3f            /* a slot never to be used */

enum {
	SWP_USED = 1 << 0,              /* the swap_info[] entry is taken */
	SWP_WRITEOK = 1 << 1,           /* slots may be given out */
};

struct block_device;
struct file;

struct swap_info_struct {
	unsigned long flags;            /* SWP_*, under swap_lock */
	signed short prio;              /* higher is used first */
	signed char type;               /* its index in swap_info[]: a swap entry's type */
	unsigned int max;               /* slots, the header included (last_page + 1) */
	unsigned int pages;             /* usable slots: max less the header and bad pages */
	unsigned int inuse_pages;       /* slots in use */
	unsigned char *swap_map;        /* one count per slot */
	struct block_device *bdev;
	struct file *swap_file;         /* swapon's open of the device: its name, its reference */
};

extern long total_swap_pages;           /* usable slots of every device swapped on */
extern atomic_long_t nr_swap_pages;     /* free ones */

int swaps_show(struct seq_file *m, void *v);    /* /proc/swaps */

#endif
