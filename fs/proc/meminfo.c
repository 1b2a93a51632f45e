/*
 * /proc/meminfo in Linux's format and order (Linux's fs/proc/meminfo.c):
 * the lines foliOS has counters for (linux/vmstat.h).
 *
 * Cached is the whole page cache, shmem included, as Linux's (it leaves
 * out only the swap cache and block buffers, which foliOS has not).
 * Dirty counts dirty page-cache folios that a file system must write back
 * (NR_FILE_DIRTY): tmpfs has no such, its dirty folios are not counted
 * (Linux's noop_dirty_folio for shmem).
 */
#include "fs/proc/internal.h"
#include "linux/mm.h"
#include "linux/pgtable.h"
#include "linux/vmstat.h"
#include "linux/swap.h"

/* One "Name:   N kB" line of pages, Linux's show_val_kb(). */
static void show_val_kb(struct seq_file *m, const char *name, unsigned long pages)
{
	seq_printf(m, "%s%8lu kB\n", name, pages * (PAGE_SIZE / 1024));
}

static int meminfo_proc_show(struct seq_file *m, void *v)
{
	show_val_kb(m, "MemTotal:       ", zone.managed_pages);
	show_val_kb(m, "MemFree:        ", zone.free_pages);
	show_val_kb(m, "MemAvailable:   ", zone.free_pages);
	show_val_kb(m, "Cached:         ", global_node_page_state(NR_FILE_PAGES));
	show_val_kb(m, "SwapCached:     ", total_swapcache_pages());
	show_val_kb(m, "Active:         ", global_node_page_state(NR_ACTIVE_ANON) +
		    global_node_page_state(NR_ACTIVE_FILE));
	show_val_kb(m, "Inactive:       ", global_node_page_state(NR_INACTIVE_ANON) +
		    global_node_page_state(NR_INACTIVE_FILE));
	show_val_kb(m, "Active(anon):   ", global_node_page_state(NR_ACTIVE_ANON));
	show_val_kb(m, "Inactive(anon): ", global_node_page_state(NR_INACTIVE_ANON));
	show_val_kb(m, "Active(file):   ", global_node_page_state(NR_ACTIVE_FILE));
	show_val_kb(m, "Inactive(file): ", global_node_page_state(NR_INACTIVE_FILE));
	show_val_kb(m, "Unevictable:    ", global_node_page_state(NR_UNEVICTABLE));
	show_val_kb(m, "Mlocked:        ", global_node_page_state(NR_MLOCK));
	show_val_kb(m, "SwapTotal:      ", READ_ONCE(total_swap_pages));
	show_val_kb(m, "SwapFree:       ", atomic_long_read(&nr_swap_pages));
	show_val_kb(m, "Dirty:          ", global_node_page_state(NR_FILE_DIRTY));
	show_val_kb(m, "AnonPages:      ", global_node_page_state(NR_ANON_MAPPED));
	show_val_kb(m, "Mapped:         ", global_node_page_state(NR_FILE_MAPPED));
	show_val_kb(m, "Shmem:          ", global_node_page_state(NR_SHMEM));
	seq_printf(m, "Slab:           %8lu kB\n", ALIGN_UP(kmalloc_bytes, 1024) / 1024);
	show_val_kb(m, "PageTables:     ", nr_pagetable_pages);
	show_val_kb(m, "AnonHugePages:  ", global_node_page_state(NR_ANON_THPS));
	show_val_kb(m, "ShmemHugePages: ", global_node_page_state(NR_SHMEM_THPS));
	show_val_kb(m, "ShmemPmdMapped: ", global_node_page_state(NR_SHMEM_PMDMAPPED));
	show_val_kb(m, "FileHugePages:  ", global_node_page_state(NR_FILE_THPS));
	show_val_kb(m, "FilePmdMapped:  ", global_node_page_state(NR_FILE_PMDMAPPED));
	return 0;
}

const struct proc_dir_entry proc_meminfo = { "meminfo", meminfo_proc_show };

/* /proc/swaps (mm/swapfile.c writes it, as Linux's does). */
const struct proc_dir_entry proc_swaps = { "swaps", swaps_show };
