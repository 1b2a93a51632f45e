/*
 * /proc/vmstat in Linux's format (Linux's mm/vmstat.c, vmstat_show): one
 * "name value" line per counter, the levels first (nr_*: pages, THP
 * levels in THPs as Linux shows them), then the events since boot.  Only
 * the counters foliOS keeps (linux/vmstat.h), under Linux's names, in
 * Linux's order.
 */
#include "fs/proc/internal.h"
#include "linux/gfp.h"
#include "linux/vmstat.h"

static const struct {
	const char *name;
	enum node_stat_item item;
	unsigned long unit;             /* pages per unit shown */
} vmstat_levels[] = {
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
	[OOM_KILL] = "oom_kill",
	[THP_SWPOUT] = "thp_swpout",
	[THP_SWPOUT_FALLBACK] = "thp_swpout_fallback",
};

static int vmstat_show(struct seq_file *m, void *v)
{
	seq_printf(m, "nr_free_pages %lu\n", zone.free_pages);
	for (size_t i = 0; i < ARRAY_SIZE(vmstat_levels); i++)
		seq_printf(m, "%s %lu\n", vmstat_levels[i].name,
			   global_node_page_state(vmstat_levels[i].item) / vmstat_levels[i].unit);
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		seq_printf(m, "%s %lu\n", vmstat_events[i], atomic_long_read(&vm_events[i]));
	return 0;
}

const struct proc_dir_entry proc_vmstat = { "vmstat", vmstat_show };
