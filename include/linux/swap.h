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
 * An anon folio's way to swap and back (docs/swap.md has the picture):
 *
 *   MADV_PAGEOUT  add_to_swap        slots allocated (SWAP_HAS_CACHE), the
 *                                    folio in the swap cache, dirty
 *                 try_to_unmap       each PTE -> swap entry (count + 1;
 *                                    SWP_EXCLUSIVE if AnonExclusive)
 *                 swap_writepage_batch  the folio's pages written to its slots
 *                 delete_from_swap_cache  folio freed; slots keep counts
 *   fault         do_swap_page       swap cache hit, or a new folio read
 *                                    in (swapin_folio); PTE -> page, count - 1
 *   exit, munmap  free_swap_and_cache_nr  count - 1; a slot at 0 is free
 *
 * Locks (order: swapon_mutex, then swap_lock, then si->lock):
 * swapon_mutex (mm/swapfile.c) serializes swapon, swapoff and
 * /proc/swaps' walk; swap_lock (a spinlock) guards swap_info[]'s flags,
 * priorities and the totals; si->lock a device's swap map.  A PTE lock
 * may be held around si->lock and around the swap cache's xa_lock, never
 * the other way round; si->lock and the swap cache's xa_lock are never
 * held together.  swap_mmlist_lock nests under a PTE lock too.  Lock
 * order of the whole tree: mm/rmap.c.
 */
#ifndef _LINUX_SWAP_H
#define _LINUX_SWAP_H

#include "linux/types.h"
#include "linux/list.h"
#include "linux/spinlock.h"
#include "linux/xarray.h"
#include "linux/atomic.h"
#include "linux/mm_types.h"
#include "linux/swapops.h"
#include "linux/completion.h"

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

/*
 * A slot's byte in swap_map (Linux's): how many swap entries in page
 * tables name it (fork and unmap add, swap-in and zap take away), whether
 * the swap cache holds a folio for it, or that it is never to be used.
 * A slot is free when its byte is 0.
 *
 *   7               6                5 ............... 0
 *   [COUNT_CONTINUED][SWAP_HAS_CACHE][ count 0..SWAP_MAP_MAX, or SWAP_MAP_BAD ]
 *
 * A count above SWAP_MAP_MAX (62 sharers: a process forked 62 times)
 * keeps its rest in the device's swap_cont xarray, keyed by offset
 * (foliOS's form of Linux's continuation pages), with COUNT_CONTINUED set.
 */
#define SWAP_MAP_MAX    0x3e            /* the most the byte itself counts */
#define SWAP_MAP_BAD    0x3f            /* a slot never to be used */
#define SWAP_HAS_CACHE  0x40            /* the swap cache holds a folio for it */
#define COUNT_CONTINUED 0x80            /* the count goes on in swap_cont */

enum {
	SWP_USED = 1 << 0,              /* the swap_info[] entry is taken */
	SWP_WRITEOK = 1 << 1,           /* slots may be given out */
	SWP_VALID = 1 << 2,             /* get_swap_device() may take it (clear: swapoff's end) */
};

struct block_device;
struct file;
struct seq_file;
struct folio;
struct mm_struct;
struct vm_area_struct;

struct swap_info_struct {
	unsigned long flags;            /* SWP_*, under swap_lock and lock */
	signed short prio;              /* higher is used first */
	signed char type;               /* its index in swap_info[]: a swap entry's type */
	unsigned int max;               /* slots, the header included (last_page + 1) */
	unsigned int pages;             /* usable slots: max less the header and bad pages */
	unsigned int inuse_pages;       /* slots in use (not free), under lock */
	unsigned int cluster_next;      /* where the next slot search starts, under lock */
	spinlock_t lock;                /* swap_map, swap_cont, inuse_pages, cluster_next */
	atomic_t users;                 /* get_swap_device() holders: swapoff waits for none */
	unsigned char *swap_map;        /* one count per slot */
	struct xarray swap_cont;        /* offset -> the count above SWAP_MAP_MAX, shifted by 2 */
	struct block_device *bdev;
	struct file *swap_file;         /* swapon's open of the device: its name, its reference */
};

extern spinlock_t swap_lock;
extern struct swap_info_struct swap_info[MAX_SWAPFILES];
extern long total_swap_pages;           /* usable slots of every device swapped on */
extern atomic_long_t nr_swap_pages;     /* free ones */

/* The device of a swap entry (its struct is static: valid whatever the type's state). */
static inline struct swap_info_struct *swp_swap_info(swp_entry_t entry)
{
	return &swap_info[swp_type(entry)];
}

/* The swap entry n pages after entry, on the same device. */
static inline swp_entry_t swp_entry_add(swp_entry_t entry, unsigned long n)
{
	return swp_entry(swp_type(entry), swp_offset(entry) + n);
}

/* The swap entry of page i of a folio in the swap cache (Linux's page_swap_entry). */
static inline swp_entry_t folio_swap_entry(const struct folio *folio, unsigned long i)
{
	return swp_entry_add(folio->swap, i);
}

/* mm/swapfile_alloc.c: slots and their counts. */
struct swap_info_struct *get_swap_device(swp_entry_t entry);
void put_swap_device(struct swap_info_struct *si);
swp_entry_t folio_alloc_swap(struct folio *folio);
int swapcache_prepare(swp_entry_t entry, int nr);
void put_swap_folio(struct folio *folio, swp_entry_t entry);
int swap_duplicate_nr(swp_entry_t entry, int nr);
void swap_free_nr(swp_entry_t entry, int nr);
void free_swap_and_cache_nr(swp_entry_t entry, int nr);
int swp_swapcount(swp_entry_t entry);
bool folio_swapped(struct folio *folio);
bool folio_free_swap(struct folio *folio);
bool vm_swap_full(void);
void swap_mmlist_add(struct mm_struct *mm);
void swap_mmlist_del(struct mm_struct *mm);

/* mm/swap_state.c: the swap cache. */
struct address_space *swap_address_space(swp_entry_t entry);
struct folio *swap_cache_get_folio(swp_entry_t entry);
struct folio *filemap_get_incore_folio(struct address_space *mapping, pgoff_t index);
bool add_to_swap(struct folio *folio);
void __delete_from_swap_cache(struct folio *folio, swp_entry_t entry);
void delete_from_swap_cache(struct folio *folio);
void swap_cache_init(unsigned int type);
void free_swap_cache(struct folio *folio);
struct folio *swapin_folio(swp_entry_t entry, int *err);
struct folio *swapin_new_folio(swp_entry_t entry, unsigned int order, int *err);
unsigned long total_swapcache_pages(void);

/* mm/page_io.c: swap I/O, in batches waited for together. */
#define SWAP_IOCB_MAX   16              /* I/Os in flight together (the struct lives on stacks) */
struct bio;
struct swap_iocb {
	struct completion done;         /* the last bio's end */
	atomic_t pending;               /* bios in flight, + 1 until the wait */
	unsigned int nr;
	struct {
		struct folio *folio;
		struct bio *bio;        /* NULL: it could not be started (no memory) */
		bool write;
	} io[SWAP_IOCB_MAX];
};
void swap_iocb_init(struct swap_iocb *sio);
bool swap_writepage_batch(struct folio *folio, struct swap_iocb *sio);
bool swap_read_folio_batch(struct folio *folio, struct swap_iocb *sio);
void swap_iocb_wait(struct swap_iocb *sio);
/* mm/swap_state.c: the end of one folio's I/O, and one read waited for. */
void swap_folio_io_done(struct folio *folio, int err, bool write);
int swap_read_folio(struct folio *folio);

/* mm/vmscan.c: reclaim of the folios MADV_PAGEOUT isolated. */
unsigned long reclaim_pages(struct folio **folios, unsigned int nr);

/* mm/memory_swap.c */
void swapin_give_up(struct folio *folio);

/* mm/swapfile_unuse.c: swapoff's swap-in of every page on a device. */
int try_to_unuse(unsigned int type);

int swaps_show(struct seq_file *m, void *v);    /* /proc/swaps */

/*
 * mm/swap.c: the LRU lists.  folio_isolate_lru takes the folio off its
 * list (clears PG_lru, takes a reference) and says whether it did: not
 * while it sits in a per-CPU batch or reclaim holds it.
 * folio_putback_lru puts an isolated folio on the list its flags now
 * name — unevictable if PG_mlocked — and drops that reference.
 */
bool folio_isolate_lru(struct folio *folio);
void folio_putback_lru(struct folio *folio);

#endif
