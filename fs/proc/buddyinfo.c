/*
 * /proc/buddyinfo: free blocks per order, Linux's format (foliOS has one
 * zone, "Normal").  Linux makes it in mm/vmstat.c (frag_show); foliOS
 * keeps it with the other /proc files, as mm/ knows nothing of files.
 */
#include "fs/proc/internal.h"
#include "linux/mm.h"

static int frag_show(struct seq_file *m, void *v)
{
	seq_printf(m, "Node 0, zone %8s ", "Normal");
	for (int order = 0; order < NR_PAGE_ORDERS; order++)
		seq_printf(m, "%6lu ", zone.free_area[order].nr_free);
	seq_printf(m, "\n");
	return 0;
}

const struct proc_dir_entry proc_buddyinfo = { "buddyinfo", frag_show };
