/*
 * struct page: one per 4 KiB physical frame, 64 bytes, in the memmap array.
 *
 *   offset  field
 *    0      flags            PG_* bits
 *    8      union (40 bytes) buddy: lru + private (= order)
 *                            page table: (lru,) ptl, pt_nr_used
 *                            tail page: compound_head (bit 0 set)
 *   48      _mapcount        stored minus one: -1 = unmapped
 *   52      _refcount
 *   56      memcg_data       unused by foliOS (the folio overlays it)
 *
 * The struct folio overlay on page[0..3] lives in linux/page-flags.h.
 */
#ifndef _LINUX_MM_TYPES_H
#define _LINUX_MM_TYPES_H

#include "linux/types.h"
#include "linux/list.h"
#include "linux/atomic.h"
#include "linux/spinlock.h"
#include "linux/rwsem.h"
#include "linux/cpumask.h"
#include <asm/bitops.h>
#include "linux/pgtable_types.h"


/*
 * A swap entry (Linux's, here because struct folio holds one): a device's
 * type and a slot's offset, or a special entry (linux/swapops.h).
 */
typedef struct {
	unsigned long val;
} swp_entry_t;

struct page {
	unsigned long flags;
	union {
		struct {                /* buddy free pages, folio heads */
			struct list_head lru;
			void *mapping;
			unsigned long index;
			unsigned long private;
		};
		struct {                /* page-table pages (Linux's struct ptdesc) */
			unsigned long _pt_pad_1;  /* lru: a deposited PTE table's list */
			unsigned long _pt_pad_2;
			spinlock_t ptl;           /* split page-table lock (pte_lockptr, pmd_lockptr) */
			unsigned long pt_nr_used; /* entries in use: freed at 0 */
		};
		struct {                /* tail pages of a compound page */
			unsigned long compound_head;
		};
	};
	atomic_t _mapcount;
	atomic_t _refcount;
	unsigned long memcg_data;
};

_Static_assert(sizeof(struct page) == 64, "struct page must be 64 bytes");
/*
 * The split page-table lock lives in the table's struct page, after the
 * lru a deposited table is listed by (Linux's ptdesc->ptl).  A spinlock_t
 * grown past 16 bytes (a lock validator's data) would need Linux's
 * ALLOC_SPLIT_PTLOCKS: a pointer here to a kmalloc'd lock.
 */
_Static_assert(offsetof(struct page, ptl) >= offsetof(struct page, lru) + sizeof(struct list_head) &&
	       offsetof(struct page, ptl) + sizeof(spinlock_t) <= offsetof(struct page, pt_nr_used),
	       "the page-table lock must fit between lru and pt_nr_used");

/*
 * Page flags (bit numbers in page->flags).  Bits 0-7 stay free: in page[1]
 * of a folio they hold the folio's order (linux/page-flags.h), so no PG_ test may
 * ever see them.
 */
#define PAGEFLAGS_FIRST 8
enum pageflags {
	PG_locked = PAGEFLAGS_FIRST,
	PG_reserved,     /* not managed by the buddy: holes, kernel image, memmap */
	PG_buddy,        /* free, on a buddy free list; private = order */
	PG_table,        /* a page-table page */
	PG_head,         /* first page of a compound page */
	PG_anon_exclusive,
	PG_slab,         /* backs kmalloc objects */
	PG_uptodate,     /* a page-cache folio holds the file's data */
	PG_dirty,        /* a page-cache folio was written since it was last clean */
	PG_swapbacked,   /* shmem/tmpfs: memory is its only home (no file behind it) */
	PG_waiters,      /* a task sleeps on the folio lock: folio_unlock wakes it */
	PG_swapcache,    /* an anon folio in the swap cache: folio->swap names its first slot */
	PG_lru,          /* on an LRU list (linux/mmzone.h), under lru_lock */
	PG_active,       /* ... the active one of its kind */
	PG_referenced,   /* used once since reclaim last looked (folio_mark_accessed) */
	PG_unevictable,  /* ... the unevictable one: mlocked, or its file keeps every page */
	PG_mlocked,      /* mapped by a VM_LOCKED VMA (mm/mlock.c): reclaim must leave it */
	NR_PAGEFLAGS,
};

#define PAGEFLAG(name, bit)                                                   \
static inline bool Page##name(const struct page *p)                           \
{                                                                             \
	return p->flags & BIT(bit);                                           \
}                                                                             \
static inline void SetPage##name(struct page *p) { p->flags |= BIT(bit); }   \
static inline void ClearPage##name(struct page *p) { p->flags &= ~BIT(bit); }
PAGEFLAG(Reserved, PG_reserved)
PAGEFLAG(Buddy, PG_buddy)
PAGEFLAG(Table, PG_table)
PAGEFLAG(Head, PG_head)
PAGEFLAG(Slab, PG_slab)
#undef PAGEFLAG

extern const char *const pageflag_names[NR_PAGEFLAGS];

/*
 * An address space.  mm_id names it in the MM ID slots of the large folios
 * it maps (mm/mm_id.c); MM_ID_DUMMY (0) only for mms that never map user
 * pages.  Lifetime: mm_alloc() .. mmdrop() (mm/mm_struct.c).
 */
struct mm_struct {
	pgd_t *pgd;                     /* root page table */
	unsigned int mm_id;
	atomic_t mm_count;              /* references to the struct (mmgrab/mmdrop) */
	int mm_users;                   /* tasks using the mappings (CLONE_VM threads; mmput); atomic ops */
	bool published;                 /* a task has it: it changes under mmap_lock (mm_publish) */
	struct rw_semaphore mmap_lock;  /* the VMA list and the page tables' shape (linux/mmap_lock.h) */
	spinlock_t page_table_lock;     /* PGD and PUD entries, vma->anon_vma, deposited tables */
	unsigned long flags;            /* MMF_* */
	struct list_head mmap;          /* VMAs, sorted by address */
	unsigned long start_brk, brk;   /* the heap: [start_brk, brk) */
	unsigned long start_data, end_data;     /* the ELF's data, for RLIMIT_DATA */
	unsigned long start_stack;
	unsigned long arg_start, arg_end, env_start, env_end;   /* exec's strings on the stack */
	unsigned long mmap_base;        /* mmap() without a hint searches below */
	unsigned long def_flags;        /* VM_LOCKED_MASK bits every new VMA gets (mlockall's MCL_FUTURE) */
	struct file *exe_file;          /* the program exec loaded (/proc/<pid>/exe); mmap_lock */
	long rss_anon;                  /* anon pages mapped by this mm (RssAnon), a PMD counts 512 */
	long rss_file;                  /* page-cache pages of files but shmem mapped (RssFile) */
	long rss_shmem;                 /* shmem pages mapped (RssShmem) */
	long rss_swap;                  /* swap entries in its page tables (VmSwap, Linux's MM_SWAPENTS) */
	atomic_long_t pgtables_bytes;   /* its PTE/PMD/PUD tables, deposited ones too (VmPTE; the OOM score) */
	struct list_head mmlist;        /* on swap_mmlist once it has had a swap entry (try_to_unuse) */
	long hiwater_rss;               /* the RSS's peak before its last fall (VmHWM) */
	struct list_head pgtables_deposited;    /* PTE tables kept for PMD splits */
	/*
	 * The CPUs that may cache translations of this mm: set by a CPU that
	 * loads its CR3, cleared lazily by one that got a flush after it had
	 * left (arch/x86_64/tlb.c).
	 */
	struct cpumask cpu_bitmap;
	unsigned long membarrier_state; /* MEMBARRIER_STATE_* (kernel/sched/membarrier.c) */
};

static inline struct cpumask *mm_cpumask(struct mm_struct *mm)
{
	return &mm->cpu_bitmap;
}

/* mm->flags, Linux's bits.  Bits 0-1: may it dump core (PR_SET_DUMPABLE: SUID_DUMP_*). */
#define MMF_DUMPABLE_MASK 3UL
#define SUID_DUMP_DISABLE 0
#define SUID_DUMP_USER  1
#define MMF_OOM_SKIP    21      /* reaped or torn down: the OOM killer looks past it (mm/oom_kill.c) */
#define MMF_HUGE_ZERO_PAGE 23   /* holds a reference to the huge zero folio */
#define MMF_DISABLE_THP 24      /* PR_SET_THP_DISABLE: no THP in any of its VMAs */
#define MMF_HAS_PINNED  27      /* some page of this mm was ever DMA-pinned */
/* What a child's mm (fork) and a new program's (exec) take over (Linux's MMF_INIT_MASK). */
#define MMF_INIT_MASK   (MMF_DUMPABLE_MASK | BIT(MMF_DISABLE_THP))

struct anon_vma;                /* linux/rmap.h */
struct file;                    /* include/linux/fs.h */
struct vm_operations_struct;    /* linux/gfp.h */

/* A virtual memory area: [vm_start, vm_end) of one mm, one set of flags. */
struct vm_area_struct {
	unsigned long vm_start, vm_end;
	struct mm_struct *vm_mm;
	unsigned long vm_flags;         /* VM_* */
	struct list_head vm_list;       /* in mm->mmap */
	/*
	 * The page offset of vm_start: an anon VMA gets vm_start >> PAGE_SHIFT
	 * when created and keeps it through mremap, so an anon page's
	 * folio->index (its linear_page_index) never changes.
	 */
	unsigned long vm_pgoff;
	struct list_head anon_vma_chain;        /* the chains of this VMA */
	struct anon_vma *anon_vma;      /* where its new anon folios point; NULL until a fault */
	struct file *vm_file;           /* the file mapped (a reference), or NULL: anonymous */
	const struct vm_operations_struct *vm_ops;      /* its faults; NULL: anonymous */
	void *vm_private_data;          /* vm_ops' own (a special mapping's description) */
	struct list_head shared;        /* in vm_file's mapping->i_mmap */
};

#define VM_READ         0x1UL
#define VM_WRITE        0x2UL
#define VM_EXEC         0x4UL
#define VM_SHARED       0x8UL           /* MAP_SHARED: writes go to the object, fork shares */
#define VM_MAYREAD      0x10UL          /* mprotect may add PROT_READ */
#define VM_MAYWRITE     0x20UL          /* ... PROT_WRITE (not on a read-only shared file) */
#define VM_MAYEXEC      0x40UL
#define VM_MAYSHARE     0x80UL          /* MAP_SHARED, even if read-only */
#define VM_ACCESS_FLAGS (VM_READ | VM_WRITE | VM_EXEC)
/* A heap's or stack's flags, and every mmap's VM_MAY* before the file's say (Linux's) */
#define VM_DATA_DEFAULT_FLAGS (VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define VM_GROWSDOWN    0x100UL
#define VM_PFNMAP       0x00000400UL    /* pages without struct page use: special PTEs only */
#define VM_LOCKED       0x00002000UL    /* mlock: its pages stay in RAM (mm/mlock.c) */
#define VM_IO           0x00004000UL    /* not memory: no GUP, no core dump */
#define VM_DONTCOPY     0x00020000UL    /* MADV_DONTFORK: fork leaves it out */
#define VM_DONTEXPAND   0x00040000UL    /* mremap cannot grow it */
#define VM_LOCKONFAULT  0x00080000UL    /* with VM_LOCKED: lock pages as they fault, populate nothing */
#define VM_ACCOUNT      0x00100000UL    /* private writable memory, charged to the commit */
#define VM_NORESERVE    0x00200000UL    /* MAP_NORESERVE: never charged */
#define VM_WIPEONFORK   0x02000000UL    /* MADV_WIPEONFORK: the child's copy starts empty */
#define VM_DONTDUMP     0x04000000UL    /* MADV_DONTDUMP */
#define VM_SOFTDIRTY    0x08000000UL    /* all of it soft-dirty: new since clear_refs 4 */
#define VM_HUGEPAGE     0x20000000UL    /* MADV_HUGEPAGE */
#define VM_NOHUGEPAGE   0x40000000UL    /* MADV_NOHUGEPAGE */
#define VM_LOCKED_MASK  (VM_LOCKED | VM_LOCKONFAULT)
/* Mappings that are not plain memory: mlock leaves them unlocked (Linux's VM_SPECIAL). */
#define VM_SPECIAL      (VM_IO | VM_DONTEXPAND | VM_PFNMAP)

/*
 * What a fault came to (Linux's vm_fault_t and enum vm_fault_reason, its
 * values): 0 — mapped, or the access is simply retried —, or a code.
 * The errors end the access: the trap sends the signal Linux's
 * mm_fault_error sends (OOM: the task is killed; SIGBUS; SIGSEGV), a
 * get_user_pages() turns them into an errno (vm_fault_to_errno).  The
 * rest are the handlers' own messages to each other.
 */
typedef unsigned int vm_fault_t;
#define VM_FAULT_OOM            0x000001        /* no memory */
#define VM_FAULT_SIGBUS         0x000002        /* no page there (past a file's end) */
#define VM_FAULT_MAJOR          0x000004        /* it waited for I/O (a swap-in): a major fault */
#define VM_FAULT_SIGSEGV        0x000040        /* the entry is one no fault can resolve */
#define VM_FAULT_NOPAGE         0x000100        /* ->fault mapped it, or another CPU did: nothing to map */
#define VM_FAULT_RETRY          0x000400        /* the file's folio left the cache: retry the access */
#define VM_FAULT_FALLBACK       0x000800        /* a PMD could not do it: the PTE level takes over */
#define VM_FAULT_ERROR          (VM_FAULT_OOM | VM_FAULT_SIGBUS | VM_FAULT_SIGSEGV | VM_FAULT_FALLBACK)

/*
 * struct folio: the first pages of a compound page, seen as one object.
 * It overlays struct page exactly (Linux's include/linux/mm_types.h after
 * the "MM owner tracking" series, 64-bit layout):
 *
 *   page[0]  flags  lru/mapping/index/private    _mapcount  _refcount  memcg
 *   page[1]  _flags_1 (order in bits 0-7)  _head_1
 *            +16 _large_mapcount _nr_pages_mapped _entire_mapcount _pincount
 *            +32 _mm_id_mapcount[0] _mm_id_mapcount[1]
 *            +40 _mm_id[0] _mm_id[1]  == unsigned long _mm_ids
 *            +48 _mapcount_1  _refcount_1  +56 _nr_pages
 *
 * CONFIG_MAPCOUNT_PAGES (the 2026 RFC "mm/rmap: support arbitrary folio
 * mappings") keeps neither _nr_pages_mapped nor _entire_mapcount.  Its
 * 64-bit count of mapped pages takes the first 8 bytes, and the large
 * mapcount moves into page[1]'s own _mapcount (the RFC's patch 9), which
 * no tail page needs once tail pages keep no mapcount:
 *
 *   page[1]  +16 _total_mapped_pages (8 bytes)  +24 (unused) _pincount
 *            +32 ... as above ...  +48 large mapcount (in _mapcount_1)
 *   page[2]  _flags_2  _head_2  _deferred_list
 *   page[3]  _flags_3  _head_3  (hugetlb's fields in Linux; reserved here)
 *
 * _mm_ids packs both MM IDs (31 bits each) with two flags in their top bits:
 *
 *    63      62 ........ 32   31     30 ......... 0
 *   [SHARED][ _mm_id[1]     ][LOCK ][ _mm_id[0]     ]
 *
 * A field of page[1] that overlays page[1]'s own _mapcount/_refcount must
 * keep them at their tail-page values; FOLIO_MATCH checks the overlay.
 * An order-1 folio has no page[2]: its _deferred_list does not exist.
 */
typedef int mm_id_mapcount_t;
#define MM_ID_MAPCOUNT_MAX      INT32_MAX
typedef unsigned int mm_id_t;

/* The dummy ID is never allocated: an MM ID slot holding it is free. */
#define MM_ID_DUMMY             0
#define MM_ID_MIN               (MM_ID_DUMMY + 1)
#define MM_ID_BITS              ((sizeof(mm_id_t) * 8) - 1)
#define MM_ID_MASK              ((1U << MM_ID_BITS) - 1)
#define MM_ID_MAX               MM_ID_MASK

#define FOLIO_MM_IDS_LOCK_BITNUM        MM_ID_BITS
#define FOLIO_MM_IDS_LOCK_BIT           BIT(FOLIO_MM_IDS_LOCK_BITNUM)
#define FOLIO_MM_IDS_SHARED_BITNUM      (2 * MM_ID_BITS + 1)
#define FOLIO_MM_IDS_SHARED_BIT         BIT(FOLIO_MM_IDS_SHARED_BITNUM)

/* Flags kept in page[1] (_flags_1), above the order byte and the PG_ bits. */
#define FOLIO_ORDER_MASK                0xffUL
#define FOLIO_PF_partially_mapped       32  /* queued for deferred split */
#define FOLIO_PF_large_rmappable        33  /* may be on the deferred list */

/* page->mapping of an anon folio: bit 0 says "anon" (Linux's PAGE_MAPPING_ANON). */
#define PAGE_MAPPING_ANON       0x1UL

/* The mapcount a large folio's _nr_pages_mapped gets for a PMD mapping. */
#define ENTIRELY_MAPPED         0x800000
#define FOLIO_PAGES_MAPPED      (ENTIRELY_MAPPED - 1)

struct folio {
	union {
		struct {
			unsigned long flags;
			struct list_head lru;
			void *mapping;
			unsigned long index;
			union {
				void *private;
				swp_entry_t swap;       /* PG_swapcache: its first page's slot */
			};
			atomic_t _mapcount;
			atomic_t _refcount;
			union {
				unsigned long memcg_data;
				/* how many locked VMAs map it whole: mm/mlock.c, under mlock_lock */
				unsigned int mlock_count;
			};
		};
		struct page page;
	};
	union {
		struct {
			unsigned long _flags_1;
			unsigned long _head_1;
			union {
				struct {
					union {
						struct {
							atomic_t _large_mapcount;
							atomic_t _nr_pages_mapped;
						};
						/* CONFIG_MAPCOUNT_PAGES only */
						atomic_long_t _total_mapped_pages;
					};
					atomic_t _entire_mapcount;
					atomic_t _pincount;
					mm_id_mapcount_t _mm_id_mapcount[2];
					union {
						mm_id_t _mm_id[2];
						unsigned long _mm_ids;
					};
				};
				unsigned long _usable_1[4];
			};
			atomic_t _mapcount_1;
			atomic_t _refcount_1;
			unsigned int _nr_pages;
		};
		struct page __page_1;
	};
	union {
		struct {
			unsigned long _flags_2;
			unsigned long _head_2;
			struct list_head _deferred_list;
		};
		struct page __page_2;
	};
	union {
		struct {
			unsigned long _flags_3;
			unsigned long _head_3;
		};
		struct page __page_3;
	};
};

#define FOLIO_MATCH(pg, fl) \
	_Static_assert(offsetof(struct page, pg) == offsetof(struct folio, fl), #fl)
FOLIO_MATCH(flags, flags);
FOLIO_MATCH(lru, lru);
FOLIO_MATCH(mapping, mapping);
FOLIO_MATCH(index, index);
FOLIO_MATCH(private, private);
FOLIO_MATCH(_mapcount, _mapcount);
FOLIO_MATCH(_refcount, _refcount);
FOLIO_MATCH(memcg_data, memcg_data);
#undef FOLIO_MATCH
#define FOLIO_MATCH(pg, fl, n) \
	_Static_assert(offsetof(struct folio, fl) == \
		       offsetof(struct page, pg) + (n) * sizeof(struct page), #fl)
FOLIO_MATCH(flags, _flags_1, 1);
FOLIO_MATCH(compound_head, _head_1, 1);
FOLIO_MATCH(_mapcount, _mapcount_1, 1);
FOLIO_MATCH(_refcount, _refcount_1, 1);
FOLIO_MATCH(memcg_data, _nr_pages, 1);
FOLIO_MATCH(flags, _flags_2, 2);
FOLIO_MATCH(compound_head, _head_2, 2);
FOLIO_MATCH(flags, _flags_3, 3);
FOLIO_MATCH(compound_head, _head_3, 3);
#undef FOLIO_MATCH
/* Every field of page[1] at the seeds' 64-bit offset. */
#define FOLIO_PAGE1_OFFSET(fl, off) \
	_Static_assert(offsetof(struct folio, fl) == sizeof(struct page) + (off), #fl " at +" #off)
FOLIO_PAGE1_OFFSET(_flags_1, 0);
FOLIO_PAGE1_OFFSET(_head_1, 8);
FOLIO_PAGE1_OFFSET(_large_mapcount, 16);
FOLIO_PAGE1_OFFSET(_nr_pages_mapped, 20);
FOLIO_PAGE1_OFFSET(_total_mapped_pages, 16);
FOLIO_PAGE1_OFFSET(_entire_mapcount, 24);
FOLIO_PAGE1_OFFSET(_pincount, 28);
FOLIO_PAGE1_OFFSET(_mm_id_mapcount, 32);
FOLIO_PAGE1_OFFSET(_mm_id, 40);
FOLIO_PAGE1_OFFSET(_mm_ids, 40);
FOLIO_PAGE1_OFFSET(_mapcount_1, 48);
FOLIO_PAGE1_OFFSET(_refcount_1, 52);
FOLIO_PAGE1_OFFSET(_nr_pages, 56);
#undef FOLIO_PAGE1_OFFSET
_Static_assert(offsetof(struct folio, _deferred_list) == 2 * sizeof(struct page) + 16,
	       "_deferred_list at +16 of page[2]");
_Static_assert(sizeof(struct folio) == 4 * sizeof(struct page), "folio spans four pages");

#endif
