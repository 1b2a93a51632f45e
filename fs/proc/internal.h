/*
 * What the /proc files share (fs/proc/base.c, fs/proc/task_mmu.c).
 */
#ifndef _FS_PROC_INTERNAL_H
#define _FS_PROC_INTERNAL_H

#include "linux/fs.h"
#include "mm/folio.h"

long proc_read_records(struct file *f, char *ubuf, unsigned long count, unsigned long limit,
		       u64 (*record)(struct file *f, unsigned long index));
bool proc_pid_lookup(const char *path, struct file *f);
bool proc_pid_dir(const char *path);
int proc_page_mapcount(struct folio *folio, struct page *page);

#endif
