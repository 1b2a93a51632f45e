/*
 * What the /proc files share (the files of fs/proc/).
 */
#ifndef _FS_PROC_INTERNAL_H
#define _FS_PROC_INTERNAL_H

#include "linux/proc_fs.h"
#include "linux/page-flags.h"

/* the files of /proc, in its listing's order */
extern const struct proc_dir_entry proc_partitions;              /* block/genhd.c */
extern const struct proc_dir_entry proc_cmdline, proc_cpuinfo, proc_meminfo, proc_vmstat, proc_zoneinfo, proc_swaps, proc_buddyinfo, proc_kpagecount,
	proc_kpageflags, proc_mapcount_trace, proc_mapcount_report, proc_pgtable_floor,
	proc_interrupts, proc_version, proc_uptime, proc_loadavg, proc_stat;
/* fs/namespace.c */
extern const struct proc_dir_entry proc_mounts;
/* kernel/locking/lockdep_proc.c */
extern const struct proc_dir_entry proc_lockdep, proc_lockdep_stats, proc_lock_stat;

/* inode.c */
long proc_read_records(struct file *file, char *ubuf, size_t count, loff_t *pos,
		       unsigned long limit, u64 (*record)(struct inode *inode, unsigned long index));

/* root.c */
extern const struct file_operations proc_dir_operations;

/* base.c */
struct inode *proc_pid_lookup(const char *path);
struct task_struct *proc_pid_task(const char *path, const char **rest);

/* base_oom.c */
int oom_score_show(struct seq_file *m, void *v);
int oom_score_adj_show(struct seq_file *m, void *v);
int oom_score_adj_store(struct file *file, char *buf, size_t len);
int oom_adj_show(struct seq_file *m, void *v);
int oom_adj_store(struct file *file, char *buf, size_t len);

/* fd.c */
struct inode *proc_pid_link_lookup(const char *path);

/* proc_sysctl.c */
struct inode *proc_sys_lookup(const char *path);

/* page.c */
struct inode *proc_folio_lookup(const char *path);

/* task_walk.c */
struct proc_walk;
struct proc_walk_ops {
	/* a PMD leaf mapping [addr, end) (NULL: skipped); under pmd_lock */
	void (*pmd_entry)(struct proc_walk *walk, pmd_t *pmd, unsigned long addr,
			  unsigned long end);
	/* a present PTE; under its table's lock */
	void (*pte_entry)(struct proc_walk *walk, pte_t *pte, unsigned long addr);
	/* a swap-format PTE: a migration entry, linux/swapops.h (NULL: skipped); the same */
	void (*swap_pte_entry)(struct proc_walk *walk, pte_t *pte, unsigned long addr);
	/* a PMD migration entry over [addr, end) (NULL: skipped); under pmd_lock */
	void (*swap_pmd_entry)(struct proc_walk *walk, pmd_t *pmd, unsigned long addr,
			       unsigned long end);
};
struct proc_walk {
	const struct proc_walk_ops *ops;
	struct vm_area_struct *vma;     /* the range walked is inside it */
	void *private;                  /* the caller's */
};
struct mm_struct *proc_mm_lock(struct inode *inode);
void proc_mm_unlock(struct mm_struct *mm);
void proc_walk_range(struct proc_walk *walk, unsigned long start, unsigned long end);

/* task_mmu.c */
void task_mem(struct seq_file *m, struct inode *inode);
int maps_show(struct seq_file *m, void *v);
int smaps_show(struct seq_file *m, void *v);
int smaps_rollup_show(struct seq_file *m, void *v);
int numa_maps_show(struct seq_file *m, void *v);

/* task_pagemap.c */
extern const struct file_operations proc_pagemap_operations;
int clear_refs_show(struct seq_file *m, void *v);
int clear_refs_write(struct file *file, char *buf, size_t len);
const char *map_vma_name(struct vm_area_struct *vma, char *buf);
extern const struct file_operations proc_pid_maps_operations;

#endif
