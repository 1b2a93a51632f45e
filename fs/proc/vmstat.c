/*
 * /proc/vmstat in Linux's format (Linux's mm/vmstat.c, vmstat_show): one
 * "name value" line per counter, the levels first (nr_*: pages, THP
 * levels in THPs as Linux shows them), then the events since boot.  Only
 * the counters foliOS keeps (linux/vmstat.h), under Linux's names, in
 * Linux's order.  And /proc/zoneinfo (Linux's zoneinfo_show): the node's
 * levels, then the one zone's size and watermarks.
 */
#include "fs/proc/internal.h"
#include "linux/gfp.h"
#include "linux/mmzone.h"
#include "linux/vmstat.h"

static const struct {
	const char *name;
	enum node_stat_item item;
	unsigned long unit;             /* pages per unit shown */
} vmstat_levels[] = {
	{ "nr_mlock", NR_MLOCK, 1 },            /* a zone counter in Linux: first */
	{ "nr_inactive_anon", NR_INACTIVE_ANON, 1 },
	{ "nr_active_anon", NR_ACTIVE_ANON, 1 },
	{ "nr_inactive_file", NR_INACTIVE_FILE, 1 },
	{ "nr_active_file", NR_ACTIVE_FILE, 1 },
	{ "nr_unevictable", NR_UNEVICTABLE, 1 },
	{ "nr_isolated_anon", NR_ISOLATED_ANON, 1 },
	{ "nr_isolated_file", NR_ISOLATED_FILE, 1 },
	{ "nr_anon_pages", NR_ANON_MAPPED, 1 },
	{ "nr_mapped", NR_FILE_MAPPED, 1 },
	{ "nr_file_pages", NR_FILE_PAGES, 1 },
	{ "nr_dirty", NR_FILE_DIRTY, 1 },
	{ "nr_shmem", NR_SHMEM, 1 },
	{ "nr_shmem_hugepages", NR_SHMEM_THPS, HPAGE_PMD_NR },
	{ "nr_shmem_pmdmapped", NR_SHMEM_PMDMAPPED, HPAGE_PMD_NR },
	{ "nr_file_hugepages", NR_FILE_THPS, HPAGE_PMD_NR },
	{ "nr_file_pmdmapped", NR_FILE_PMDMAPPED, HPAGE_PMD_NR },
	{ "nr_anon_transparent_hugepages", NR_ANON_THPS, HPAGE_PMD_NR },
	{ "nr_swapcached", NR_SWAPCACHE, 1 },
};

static const char *const vmstat_events[NR_VM_EVENT_ITEMS] = {
	[PSWPIN] = "pswpin",
	[PSWPOUT] = "pswpout",
	[ALLOCSTALL_NORMAL] = "allocstall_normal",
	[PGACTIVATE] = "pgactivate",
	[PGDEACTIVATE] = "pgdeactivate",
	[PGREFILL] = "pgrefill",
	[PGSTEAL_KSWAPD] = "pgsteal_kswapd",
	[PGSTEAL_DIRECT] = "pgsteal_direct",
	[PGSCAN_KSWAPD] = "pgscan_kswapd",
	[PGSCAN_DIRECT] = "pgscan_direct",
	[PGSCAN_ANON] = "pgscan_anon",
	[PGSCAN_FILE] = "pgscan_file",
	[PGSTEAL_ANON] = "pgsteal_anon",
	[PGSTEAL_FILE] = "pgsteal_file",
	[PAGEOUTRUN] = "pageoutrun",
	[OOM_KILL] = "oom_kill",
	[THP_SWPOUT] = "thp_swpout",
	[THP_SWPOUT_FALLBACK] = "thp_swpout_fallback",
};

/* The levels, one "name value" line each after indent. */
static void show_levels(struct seq_file *m, const char *indent)
{
	for (size_t i = 0; i < ARRAY_SIZE(vmstat_levels); i++)
		seq_printf(m, "%s%s %lu\n", indent, vmstat_levels[i].name,
			   global_node_page_state(vmstat_levels[i].item) / vmstat_levels[i].unit);
}

static int vmstat_show(struct seq_file *m, void *v)
{
	seq_printf(m, "nr_free_pages %lu\n", zone.free_pages);
	show_levels(m, "");
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		seq_printf(m, "%s %lu\n", vmstat_events[i], atomic_long_read(&vm_events[i]));
	return 0;
}

const struct proc_dir_entry proc_vmstat = { "vmstat", vmstat_show };

/*
 * Linux's zoneinfo lines for foliOS's one node and zone: the zone spans
 * every PFN of RAM; node_unreclaimable says kswapd gave up (its
 * failures reached MAX_RECLAIM_RETRIES).
 */
static int zoneinfo_show(struct seq_file *m, void *v)
{
	seq_printf(m, "Node 0, zone %8s\n  per-node stats\n", "Normal");
	show_levels(m, "      ");
	seq_printf(m, "  pages free     %lu\n", zone.free_pages);
	seq_printf(m, "        boost    0\n        min      %lu\n        low      %lu\n"
		   "        high     %lu\n", min_wmark_pages(&zone), low_wmark_pages(&zone),
		   high_wmark_pages(&zone));
	seq_printf(m, "        spanned  %lu\n        present  %lu\n        managed  %lu\n",
		   max_pfn, zone.managed_pages, zone.managed_pages);
	seq_printf(m, "        cma      0\n        protection: (0, 0, 0, 0)\n");
	seq_printf(m, "      nr_free_pages %lu\n", zone.free_pages);
	seq_printf(m, "  node_unreclaimable:  %d\n  start_pfn:           0\n",
		   READ_ONCE(NODE_DATA(0)->kswapd_failures) >= MAX_RECLAIM_RETRIES);
	return 0;
}

const struct proc_dir_entry proc_zoneinfo = { "zoneinfo", zoneinfo_show };
