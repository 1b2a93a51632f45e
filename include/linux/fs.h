/*
 * Open files: the console, and read-only files and directories of the
 * initrd.  Each task has a table of NR_OPEN file pointers; fork shares the
 * file objects (reference counted), exec closes O_CLOEXEC ones, exit all.
 */
#ifndef _LINUX_FS_H
#define _LINUX_FS_H

#include "linux/types.h"
#include "linux/initrd.h"
#include "linux/seq_file.h"
#include "uapi/linux/fcntl.h"

#define NR_OPEN         32

enum file_type {
	FILE_CONSOLE, FILE_REGULAR, FILE_DIR, FILE_PIPE_READ, FILE_PIPE_WRITE,
	FILE_PROC,              /* generated text (proc_show) */
	FILE_PROC_BIN,          /* binary records at the file position (proc_read_bin) */
};

struct file {
	int refs;
	enum file_type type;
	unsigned int f_flags;           /* O_ACCMODE and O_NONBLOCK, as opened or F_SETFL'ed */
	unsigned long pos;              /* byte offset, or archive index (dirs) */
	struct initrd_file f;           /* FILE_REGULAR; for FILE_DIR: its path */
	char dir[128];                  /* FILE_DIR: path without leading/trailing '/' */
	struct pipe *pipe;              /* FILE_PIPE_*: the shared ring */
	void (*proc_show)(struct file *f, struct seq_file *m);          /* FILE_PROC */
	int (*proc_write)(struct file *f, const char *buf, size_t len); /* writable FILE_PROC */
	long proc_arg;                  /* which pfn, order, pid… the file is about */
	char proc_comm[16];             /* /proc/<pid>/status: the task's name at open */
	char *proc_buf;                 /* the generated text, proc_len of proc_size bytes */
	unsigned long proc_len, proc_size;
	long (*proc_read_bin)(struct file *f, char *ubuf, unsigned long count);
	struct mm_struct *mm;           /* /proc/<pid>/pagemap: bound at open */
};

struct files_struct {
	struct file *fd[NR_OPEN];
	unsigned int cloexec;           /* bit n: close fd n on exec */
};

extern struct file console_file;

#define MAX_RW_COUNT    0x7ffff000UL    /* INT_MAX & PAGE_MASK: longest read or write */

struct file *fget(int fd);
struct file *fget_rw(int fd, bool write);
int fd_install(struct file *f, bool cloexec);
void files_dup(struct files_struct *dst, const struct files_struct *src);
void files_close_all(struct files_struct *files);
void files_close_on_exec(struct files_struct *files);
void files_init_console(struct files_struct *files);
long pipe_read(struct file *f, char *ubuf, unsigned long count);
long pipe_write(struct file *f, const char *ubuf, unsigned long count);
void pipe_release(struct file *f);
bool proc_lookup(const char *path, struct file *f);
void proc_release(struct file *f);
long proc_read(struct file *f, char *ubuf, unsigned long count);
long proc_write(struct file *f, const char *ubuf, unsigned long count);
bool sysfs_lookup(const char *path, struct file *f);
bool proc_dir_entry(unsigned long pos, char *name, size_t size, u8 *type);

#endif
