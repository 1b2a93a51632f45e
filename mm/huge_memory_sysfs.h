/*
 * The attributes of /sys/kernel/mm/transparent_hugepage/ (mm/huge_memory_sysfs.c):
 * mm formats and parses each file's text; fs/sysfs.c makes the tree.
 */
#ifndef MM_HUGE_MEMORY_SYSFS_H
#define MM_HUGE_MEMORY_SYSFS_H

#include "linux/types.h"

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

#endif
