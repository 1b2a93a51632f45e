/*
 * What the /proc files share (kernel/procfs.c, kernel/task_mmu.c).
 */
#ifndef FOLIOS_PROCFS_H
#define FOLIOS_PROCFS_H

#include "kernel/file.h"
#include "mm/folio.h"

long proc_read_records(struct file *f, char *ubuf, unsigned long count, unsigned long limit,
		       u64 (*record)(struct file *f, unsigned long index));
bool proc_pid_lookup(const char *path, struct file *f);
bool proc_pid_dir(const char *path);
int proc_page_mapcount(struct folio *folio, struct page *page);

#endif
