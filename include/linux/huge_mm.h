/*
 * Transparent huge pages' interface (Linux's include/linux/huge_mm.h): the
 * THP policy — which anon folio orders a fault may allocate (mm/thp_policy.c)
 * — and what the sysfs and debugfs files ask of mm.
 */
#ifndef _LINUX_HUGE_MM_H
#define _LINUX_HUGE_MM_H

#include "linux/mm_types.h"
#include "linux/mm.h"

/* May no THP map in vma: MADV_NOHUGEPAGE, or its process's PR_SET_THP_DISABLE (Linux's)? */
static inline bool vma_thp_disabled(const struct vm_area_struct *vma)
{
	return (vma->vm_flags & VM_NOHUGEPAGE) || test_bit(MMF_DISABLE_THP, &vma->vm_mm->flags);
}

/* Anon orders foliOS supports: 16 KiB (order 2) to 2 MiB (order 9), as Linux, or 4 MiB. */
#define THP_ORDERS_ALL_ANON     ((BIT(THP_MAX_ANON_ORDER + 1) - 1) & ~(BIT(0) | BIT(1)))
/* The anon orders a PMD leaf maps: 2 MiB, and 4 MiB (two PMDs) with CONFIG_MAPCOUNT_PAGES. */
#define THP_ORDERS_PMD          (BIT(HPAGE_PMD_ORDER) | BIT(THP_MAX_ANON_ORDER))
/* Orders a shmem folio may have: order 2 (16 KiB) to 9 (2 MiB), as Linux's. */
#define THP_ORDERS_ALL_FILE_DEFAULT     (THP_ORDERS_ALL_ANON & (BIT(HPAGE_PMD_ORDER + 1) - 1))

extern int thp_use_zero_page;

void thp_policy_init(void);
int thp_anon_order(unsigned long size);
int thp_enabled_show(int order, char *buf, size_t size);
int thp_enabled_store(int order, const char *buf, size_t len);
int thp_enabled_cmdline(const char *val);
int thp_anon_cmdline(const char *val);
unsigned long thp_vma_allowable_orders(const struct vm_area_struct *vma, unsigned long orders);
struct shmem_sb_info;
extern struct shmem_sb_info *shm_mnt_sbinfo;
int shmem_enabled_show(int order, char *buf, size_t size);
int shmem_enabled_store(int order, const char *buf, size_t len);
bool thp_vma_suitable_order(const struct vm_area_struct *vma, unsigned long addr,
			    unsigned int order);

static inline bool thp_vma_allowable_order(const struct vm_area_struct *vma, unsigned int order)
{
	return thp_vma_allowable_orders(vma, BIT(order)) != 0;
}

/* The highest order in a non-empty mask, and the next lower one in it (Linux's highest_order/next_order). */
static inline int highest_order(unsigned long orders)
{
	return 63 - __builtin_clzl(orders);
}

static inline int next_order(unsigned long *orders, int prev)
{
	*orders &= ~BIT(prev);
	return *orders ? highest_order(*orders) : -1;
}

/*
 * The attributes of /sys/kernel/mm/transparent_hugepage/ (mm/huge_memory_sysfs.c):
 * mm formats and parses each file's text; fs/sysfs.c makes the tree.
 */
/*
 * One file (Linux's kobj_attribute): show formats its text into buf (the
 * length, as snprintf); store (NULL: read-only) parses len bytes of buf,
 * a trailing newline allowed, and returns 0, -EINVAL or -ERANGE.  order
 * is the hugepages-<N>kB directory's (-1 above them).
 */
struct thp_attr {
	const char *name;
	int (*show)(const struct thp_attr *attr, int order, char *buf, size_t size);
	int (*store)(const struct thp_attr *attr, int order, const char *buf, size_t len);
	unsigned int *val;              /* a knob's value (per size: an array by order) … */
	unsigned int min, max;          /* … its range … */
	const char *const *choices;     /* … or the names of its values, max of them */
	int item;                       /* a stats file's enum mthp_stat_item */
	unsigned long orders;           /* a per-size file: the sizes that have it (0: all) */
};

/* NULL-name-terminated tables, one per directory. */
extern const struct thp_attr hugepage_attr[];           /* transparent_hugepage/ */
extern const struct thp_attr khugepaged_attr[];         /* khugepaged/ */
extern const struct thp_attr thpsize_attr[];            /* hugepages-<N>kB/ */
extern const struct thp_attr thpsize_stats_attr[];      /* hugepages-<N>kB/stats/ */
extern const struct thp_attr disk_attr[];               /* /sys/block/<disk>/ (block/genhd.c) */

/*
 * What /sys/kernel/debug/split_huge_pages asks of mm (mm/huge_memory_debugfs.c;
 * fs/debugfs.c parses the text).
 */
struct mm_struct;
struct address_space;

void split_huge_pages_in_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			       unsigned int new_order);
void split_huge_pages_in_file(struct address_space *mapping, pgoff_t first, pgoff_t end,
			      unsigned int new_order);
void split_huge_pages_all(void);

#endif
