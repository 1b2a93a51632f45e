/*
 * /proc's entries and inodes (fs/proc/), which foliOS's sysfs
 * (fs/sysfs.c) uses too: an entry names a file and says how it is made:
 * a text file by its single_show (seq_file), written through write; a
 * binary file or a directory by its own file_operations.
 */
#ifndef _LINUX_PROC_FS_H
#define _LINUX_PROC_FS_H

#include "linux/fs.h"
#include "linux/seq_file.h"

typedef int (*proc_write_t)(struct file *file, char *buf, size_t len);

struct proc_dir_entry {
	const char *name;
	int (*single_show)(struct seq_file *m, void *v);        /* m->private: the inode */
	proc_write_t write;                     /* a short line, NUL-terminated */
	const struct file_operations *proc_fops;        /* or the text file's own */
};

struct proc_inode {
	const struct proc_dir_entry *pde;
	long arg;                       /* which pid, pfn or THP order */
	char comm[16];                  /* /proc/<pid>/status: the task's name at lookup */
	struct mm_struct *mm;           /* per-process files: bound at lookup (mmgrab) */
	char path[64];                  /* a directory's path: its i_private */
	struct inode vfs_inode;
};

static inline struct proc_inode *PROC_I(const struct inode *inode)
{
	return container_of(inode, struct proc_inode, vfs_inode);
}

struct inode *proc_get_inode(const struct proc_dir_entry *pde, long arg);
struct inode *proc_dir_inode(const char *path, const struct file_operations *fops);
struct inode *proc_link_inode(const char *path, const struct inode_operations *ops);
int proc_single_open(struct inode *inode, struct file *file);
long proc_simple_write(struct file *file, const char *ubuf, size_t count, loff_t *pos);

#endif
