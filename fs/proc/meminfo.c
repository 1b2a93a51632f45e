/* /proc/meminfo in Linux's format: the lines foliOS has counters for. */
#include "fs/proc/internal.h"
#include "mm/mm.h"
#include "mm/pgtable.h"
#include "mm/vmstat.h"

static int meminfo_proc_show(struct seq_file *m, void *v)
{
	unsigned long kb = PAGE_SIZE / 1024;

	seq_printf(m, "MemTotal:       %8lu kB\nMemFree:        %8lu kB\n"
		   "MemAvailable:   %8lu kB\nAnonPages:      %8lu kB\nSlab:           %8lu kB\n"
		   "PageTables:     %8lu kB\nAnonHugePages:  %8lu kB\n",
		   zone.managed_pages * kb, zone.free_pages * kb, zone.free_pages * kb,
		   global_node_page_state(NR_ANON_MAPPED) * kb, ALIGN_UP(kmalloc_bytes, 1024) / 1024,
		   nr_pagetable_pages * kb, global_node_page_state(NR_ANON_THPS) * kb);
	return 0;
}

const struct proc_dir_entry proc_meminfo = { "meminfo", meminfo_proc_show };
