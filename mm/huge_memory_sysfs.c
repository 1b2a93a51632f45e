/*
 * The files of /sys/kernel/mm/transparent_hugepage/ (Linux's
 * hugepage_attr_group, thpsize_attr and the stats group in
 * mm/huge_memory.c, khugepaged_attr in mm/khugepaged.c), as tables that
 * fs/sysfs.c turns into directories:
 *
 *   enabled, defrag, use_zero_page, shmem_enabled, hpage_pmd_size,
 *   split_deferred (foliOS's own: the deferred split queue's length;
 *   writing 1 splits them all and waits for the frees RCU holds back
 *   (rcu_barrier), for the leak check)
 *   khugepaged/{defrag, max_ptes_*, pages_to_scan, *_sleep_millisecs,
 *               pages_collapsed, full_scans}
 *   hugepages-<N>kB/{enabled, shmem_enabled}, hugepages-<N>kB/stats/<counter>
 *
 * foliOS has no khugepaged yet: its values are kept and validated as
 * Linux's store functions do, and used by nothing.  The shmem_enabled
 * knobs are mm/shmem_policy.c's.
 *
 * Lock order: see mm/rmap.c; no lock: each value is a word written whole.
 */
#include "linux/errno.h"
#include "linux/swap.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "linux/rcupdate.h"
#include "linux/huge_mm.h"
#include "mm/deferred_split.h"
#include "linux/pgtable.h"
#include "linux/vmstat.h"

#define UINT_MAX_VAL    0xffffffffUL

static const char *const defrag_names[] = {
	"always", "defer", "defer+madvise", "madvise", "never",
};

static unsigned int thp_defrag = 3;                     /* madvise */
static unsigned int khugepaged_defrag = 1;
static unsigned int khugepaged_max_ptes_none = HPAGE_PMD_NR - 1;
static unsigned int khugepaged_max_ptes_swap = HPAGE_PMD_NR / 8;
static unsigned int khugepaged_max_ptes_shared = HPAGE_PMD_NR / 2;
static unsigned int khugepaged_pages_to_scan = HPAGE_PMD_NR * 8;
static unsigned int khugepaged_scan_sleep_millisecs = 10000;
static unsigned int khugepaged_alloc_sleep_millisecs = 60000;
static unsigned int khugepaged_pages_collapsed;
static unsigned int khugepaged_full_scans;

/* The knob's value for this directory: per-size knobs keep one per order. */
static unsigned int *knob(const struct thp_attr *attr, int order)
{
	return order < 0 ? attr->val : &attr->val[order];
}

/* Linux's kstrtouint(buf, 10): digits, a trailing newline allowed; 0, -EINVAL or -ERANGE. */
static int parse_uint(const char *buf, size_t len, unsigned int *res)
{
	unsigned long v = 0;
	size_t i = buf[0] == '+';

	if (len && buf[len - 1] == '\n')
		len--;
	if (i >= len)
		return -EINVAL;
	for (; i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		v = v * 10 + (buf[i] - '0');
		if (v > UINT_MAX_VAL)
			return -ERANGE;
	}
	*res = v;
	return 0;
}

static int uint_show(const struct thp_attr *attr, int order, char *buf, size_t size)
{
	return snprintf(buf, size, "%u\n", *knob(attr, order));
}

/* An integer knob: a number in [min, max], else -EINVAL (as Linux's stores). */
static int uint_store(const struct thp_attr *attr, int order, const char *buf, size_t len)
{
	unsigned int v;
	int ret = parse_uint(buf, len, &v);

	if (ret)
		return ret;
	if (v < attr->min || v > attr->max)
		return -EINVAL;
	*knob(attr, order) = v;
	return 0;
}

/* A choice knob: every name, the current one in brackets. */
static int choice_show(const struct thp_attr *attr, int order, char *buf, size_t size)
{
	unsigned int cur = *knob(attr, order);
	int len = 0;

	for (unsigned int i = 0; i < attr->max; i++)
		len += snprintf(buf + len, size > (size_t)len ? size - len : 0,
				i == cur ? "%s[%s]" : "%s%s", i ? " " : "", attr->choices[i]);
	len += snprintf(buf + len, size > (size_t)len ? size - len : 0, "\n");
	return len;
}

static int choice_store(const struct thp_attr *attr, int order, const char *buf, size_t len)
{
	if (len && buf[len - 1] == '\n')
		len--;
	for (unsigned int i = 0; i < attr->max; i++) {
		if (strlen(attr->choices[i]) == len && !strncmp(buf, attr->choices[i], len)) {
			*knob(attr, order) = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int enabled_show(const struct thp_attr *attr, int order, char *buf, size_t size)
{
	return thp_enabled_show(order, buf, size);
}

static int enabled_store(const struct thp_attr *attr, int order, const char *buf, size_t len)
{
	return thp_enabled_store(order, buf, len);
}

static int shmem_show(const struct thp_attr *attr, int order, char *buf, size_t size)
{
	return shmem_enabled_show(order, buf, size);
}

static int shmem_store(const struct thp_attr *attr, int order, const char *buf, size_t len)
{
	return shmem_enabled_store(order, buf, len);
}

static int use_zero_page_show(const struct thp_attr *attr, int order, char *buf, size_t size)
{
	return snprintf(buf, size, "%d\n", thp_use_zero_page);
}

/* Linux's single_hugepage_flag_store: 0 or 1. */
static int use_zero_page_store(const struct thp_attr *attr, int order, const char *buf, size_t len)
{
	unsigned int v;
	int ret = parse_uint(buf, len, &v);

	if (ret)
		return ret;
	if (v > 1)
		return -EINVAL;
	thp_use_zero_page = v;
	return 0;
}

static int hpage_pmd_size_show(const struct thp_attr *attr, int order, char *buf, size_t size)
{
	return snprintf(buf, size, "%lu\n", HPAGE_PMD_SIZE);
}

static int split_deferred_show(const struct thp_attr *attr, int order, char *buf, size_t size)
{
	return snprintf(buf, size, "%lu\n", deferred_split_count());
}

static int split_deferred_store(const struct thp_attr *attr, int order, const char *buf,
				size_t len)
{
	if (strcmp(buf, "1") && strcmp(buf, "1\n"))
		return -EINVAL;
	deferred_split_scan(~0UL);
	lru_add_drain_all();            /* the LRU batches' references: MemFree as it will settle */
	rcu_barrier();                  /* the page cache's nodes: Slab as it will settle */
	return 0;
}

static int stat_show(const struct thp_attr *attr, int order, char *buf, size_t size)
{
	return snprintf(buf, size, "%lu\n", sum_mthp_stat(order, attr->item));
}

#define UINT_KNOB(n, v, lo, hi) { n, uint_show, uint_store, &(v), lo, hi }
#define UINT_RO(n, v)           { n, uint_show, NULL, &(v) }
#define CHOICE(n, v, names)     { n, choice_show, choice_store, v, 0, ARRAY_SIZE(names), names }
#define STAT(n, i)              { n, stat_show, .item = i }

const struct thp_attr hugepage_attr[] = {
	{ "enabled", enabled_show, enabled_store },
	CHOICE("defrag", &thp_defrag, defrag_names),
	{ "use_zero_page", use_zero_page_show, use_zero_page_store },
	{ "hpage_pmd_size", hpage_pmd_size_show },
	{ "shmem_enabled", shmem_show, shmem_store },
	{ "split_deferred", split_deferred_show, split_deferred_store },
	{ NULL },
};

const struct thp_attr khugepaged_attr[] = {
	UINT_KNOB("defrag", khugepaged_defrag, 0, 1),
	UINT_KNOB("max_ptes_none", khugepaged_max_ptes_none, 0, HPAGE_PMD_NR - 1),
	UINT_KNOB("max_ptes_swap", khugepaged_max_ptes_swap, 0, HPAGE_PMD_NR - 1),
	UINT_KNOB("max_ptes_shared", khugepaged_max_ptes_shared, 0, HPAGE_PMD_NR - 1),
	UINT_KNOB("pages_to_scan", khugepaged_pages_to_scan, 1, UINT_MAX_VAL),
	UINT_KNOB("scan_sleep_millisecs", khugepaged_scan_sleep_millisecs, 0, UINT_MAX_VAL),
	UINT_KNOB("alloc_sleep_millisecs", khugepaged_alloc_sleep_millisecs, 0, UINT_MAX_VAL),
	UINT_RO("pages_collapsed", khugepaged_pages_collapsed),
	UINT_RO("full_scans", khugepaged_full_scans),
	{ NULL },
};

const struct thp_attr thpsize_attr[] = {
	{ "enabled", enabled_show, enabled_store },
	{ .name = "shmem_enabled", .show = shmem_show, .store = shmem_store,
	  .orders = THP_ORDERS_ALL_FILE_DEFAULT },
	{ NULL },
};

const struct thp_attr thpsize_stats_attr[] = {
	STAT("anon_fault_alloc", MTHP_STAT_ANON_FAULT_ALLOC),
	STAT("anon_fault_fallback", MTHP_STAT_ANON_FAULT_FALLBACK),
	STAT("anon_fault_fallback_charge", MTHP_STAT_ANON_FAULT_FALLBACK_CHARGE),
	STAT("zswpout", MTHP_STAT_ZSWPOUT),
	STAT("swpin", MTHP_STAT_SWPIN),
	STAT("swpin_fallback", MTHP_STAT_SWPIN_FALLBACK),
	STAT("swpin_fallback_charge", MTHP_STAT_SWPIN_FALLBACK_CHARGE),
	STAT("swpout", MTHP_STAT_SWPOUT),
	STAT("swpout_fallback", MTHP_STAT_SWPOUT_FALLBACK),
	STAT("shmem_alloc", MTHP_STAT_SHMEM_ALLOC),
	STAT("shmem_fallback", MTHP_STAT_SHMEM_FALLBACK),
	STAT("shmem_fallback_charge", MTHP_STAT_SHMEM_FALLBACK_CHARGE),
	STAT("split", MTHP_STAT_SPLIT),
	STAT("split_failed", MTHP_STAT_SPLIT_FAILED),
	STAT("split_deferred", MTHP_STAT_SPLIT_DEFERRED),
	STAT("nr_anon", MTHP_STAT_NR_ANON),
	STAT("nr_anon_partially_mapped", MTHP_STAT_NR_ANON_PARTIALLY_MAPPED),
	{ NULL },
};
