/*
 * The VFS skeleton, after Linux's include/linux/fs.h.
 *
 * An inode is a file that has identity (an initrd entry, the console, a
 * pipe, a /proc or /sys file): its mode, size and the file_operations an
 * open of it gets.  A struct file is one open of an inode: position, open
 * flags, its f_op table and the type's private data.  Each task has a table
 * of NR_OPEN file pointers; fork shares the file objects (reference
 * counted), exec closes O_CLOEXEC ones, exit all.
 *
 * foliOS has no dentries yet: lookups resolve a whole normalized path
 * (fs/namei.c), and a directory inode's i_private is that path, which
 * relative lookups start from.  A writable file system (tmpfs, mounted by
 * fs/namespace.c) answers for its subtree through inode_operations, one
 * path component at a time; its directories keep their entries (name ->
 * inode) in i_children, in place of Linux's dcache (fs/libfs.c).  A file
 * with data in the page cache has i_mapping (include/linux/pagemap.h); mmap of a file calls f_op->mmap
 * (mm/syscalls.c), which sets the VMA's vm_ops.
 *
 * Locking: an inode's i_count is atomic; i_sequence is set once, by
 * cmpxchg (kernel/futex.c); i_mmap_rwsem, a file's rmap, is an mm lock
 * (mm/rmap.c).  The file system's locks, what each guards, and their
 * order, the top of the kernel's one tree (mm/rmap.c has mm's part and
 * the conventions):
 *   file->f_pos_lock (mutex): a shared file's position (read, write, lseek)
 *     sb->s_vfs_rename_mutex: one cross-directory rename at a time
 *       inode->i_rwsem: a directory's entries; write: create, link, unlink,
 *       mkdir, rmdir, rename, umount; read: lookup, getdents (across its
 *       copy to user); two by lock_rename: an ancestor /1 (PARENT) then /3
 *       (CHILD), else by address /1 then /2 (PARENT2)
 *         inode->i_rwsem (subclass 0): the inode whose name goes or that
 *         gains one, a mount point; a file's inode_lock: i_size, writes,
 *         truncate, fallocate, seals, across user copies (MADV_REMOVE drops
 *         the mmap_lock before its fallocate)
 *           namespace_sem: the mount table; write: mount, umount; read:
 *           lookups, rmdir and rename across their checks
 *     mmap_lock and the rest of mm's tree under each: user copies fault
 *   pipe->mutex (fs/pipe.c): a pipe's ring and ends, across user copies
 *   and gup (mmap_lock under it)
 * Spinlocks, each alone: inode_sb_list_lock (fs/inode.c: the inode list),
 * rename_lock (fs/d_path.c: tmpfs directories' paths and entry lists; under
 * i_rwsem, namespace_sem and s_vfs_rename_mutex), files->file_lock (an fd
 * table's slots; fput after it), file_lock_lock (fs/locks.c: POSIX, OFD and
 * flock lists; kmalloc_lock under it), pipe_files_lock (fs/pipe.c: each
 * inode's i_pipe and its ring's open files).
 */
#ifndef _LINUX_FS_H
#define _LINUX_FS_H

#include "linux/types.h"
#include "linux/errno.h"
#include "linux/atomic.h"
#include "linux/spinlock.h"
#include "uapi/linux/fcntl.h"
#include "uapi/linux/eventpoll.h"
#include "uapi/linux/stat.h"
#include "linux/list.h"
#include "linux/xarray.h"
#include "linux/rwsem.h"
#include "linux/rcupdate.h"
#include "linux/mutex.h"

#define NR_OPEN         256             /* kselftest_harness.h keeps a pidfd per test */
#define MAX_RW_COUNT    0x7ffff000UL    /* INT_MAX & PAGE_MASK: longest read or write */
#define MAX_LFS_FILESIZE  0x7fffffffffffffffLL
#define MAX_NON_LFS     0x7fffffffL     /* sysfs's largest file (its s_maxbytes) */

typedef long long loff_t;
typedef unsigned int umode_t;
typedef unsigned int fmode_t;

/* f_mode bits (Linux's values) */
#define FMODE_READ      0x1
#define FMODE_WRITE     0x2
#define FMODE_LSEEK     0x4             /* llseek works (not a stream) */
#define FMODE_PREAD     0x8             /* pread works */
#define FMODE_PATH      0x4000          /* O_PATH: names an inode, no I/O (fdget refuses it) */
#define FMODE_ATOMIC_POS 0x8000         /* f_pos moves under f_pos_lock when shared (Linux's) */
#define FMODE_WRITER    0x10000         /* holds write access to its inode (get_write_access) */

/* getdents64's d_type values: S_IFMT >> 12 (Linux's fs_umode_to_dtype) */
#define DT_FIFO         1
#define DT_CHR          2
#define DT_DIR          4
#define DT_BLK          6
#define DT_REG          8
#define DT_LNK          10
#define DT_SOCK         12
#define S_DT(mode)      (((mode) & S_IFMT) >> 12)

struct file;
struct inode;
struct vm_area_struct;
struct poll_table_struct;

struct statfs;
struct super_block;

struct super_operations {
	void (*destroy_inode)(struct inode *inode);     /* the last iput(); kfree if absent */
	int (*statfs)(struct super_block *sb, struct statfs *buf);      /* absent: zeros */
};

struct super_block {
	const struct super_operations *s_op;
	unsigned long s_magic;          /* statfs's f_type */
	unsigned long s_dev;            /* st_dev of its files; 0 is shown as 1 */
	loff_t s_maxbytes;              /* the largest file */
	void *s_fs_info;                /* the file system's */
	atomic_t s_nr_files;            /* files open on it: umount is EBUSY while any is */
	struct mutex s_vfs_rename_mutex;        /* one rename across directories at a time */
	unsigned long s_flags;          /* SB_NOSUID/NODEV/NOEXEC: its (one) mount's flags */
};

/* The mount flags a super block keeps (Linux's SB_*, as mount(2)'s MS_* bits). */
#define SB_NOSUID       2
#define SB_NODEV        4
#define SB_NOEXEC       8
#define SB_MNT_FLAGS    (SB_NOSUID | SB_NODEV | SB_NOEXEC)


/* What a change of attributes asks (Linux's struct iattr and ATTR_* bits; fs/attr.c). */
#define ATTR_MODE       (1 << 0)
#define ATTR_UID        (1 << 1)
#define ATTR_GID        (1 << 2)
#define ATTR_SIZE       (1 << 3)
#define ATTR_ATIME      (1 << 4)
#define ATTR_MTIME      (1 << 5)
#define ATTR_CTIME      (1 << 6)
#define ATTR_ATIME_SET  (1 << 7)        /* ia_atime is given, not "now" */
#define ATTR_MTIME_SET  (1 << 8)
#define ATTR_KILL_SUID  (1 << 11)       /* chown of a file: setuid goes */
#define ATTR_KILL_SGID  (1 << 12)       /* and setgid, if group-executable */
struct iattr {
	unsigned int ia_valid;
	umode_t ia_mode;
	unsigned int ia_uid, ia_gid;
	loff_t ia_size;
	struct timespec64 ia_atime, ia_mtime, ia_ctime;
};

/*
 * What a directory of a writable file system does (Linux's
 * inode_operations, with names in place of dentries).  name is one path
 * component, NUL-terminated, never "." or "..".  Each returns 0 or -errno;
 * lookup a referenced inode or NULL.  An absent op on a directory means
 * its file system is read-only (EROFS).  The VFS calls them with dir's
 * i_rwsem held, as Linux's: shared for lookup, exclusive for the others
 * (rename: both directories, lock_rename), and the inode of the name
 * that goes (unlink, rmdir, a rename's target) or gains a link locked.
 */
struct inode_operations {
	struct inode *(*lookup)(struct inode *dir, const char *name);
	int (*create)(struct inode *dir, const char *name, umode_t mode, struct inode **res);
	int (*link)(struct inode *inode, struct inode *dir, const char *name);
	int (*unlink)(struct inode *dir, const char *name);
	int (*mkdir)(struct inode *dir, const char *name, umode_t mode);
	int (*rmdir)(struct inode *dir, const char *name);
	int (*rename)(struct inode *old_dir, const char *old_name, struct inode *new_dir,
		      const char *new_name, unsigned int flags);
	int (*tmpfile)(struct inode *dir, umode_t mode, struct inode **res);
	int (*setattr)(struct inode *inode, struct iattr *attr);
	int (*symlink)(struct inode *dir, const char *name, const char *target);
	int (*mknod)(struct inode *dir, const char *name, umode_t mode, unsigned long rdev);
	/* a link's text without an i_link: written into buf (PATH_MAX), or an ERR_PTR */
	const char *(*get_link)(struct inode *inode, char *buf);
	/*
	 * A "magic" link (/proc/<pid>/fd/N, exe): the inode it stands for,
	 * referenced, whose open file's name goes into name (PATH_MAX; ""
	 * for a pipe), or an ERR_PTR.  A walk that ends on it takes that
	 * inode, not its text (Linux's nd_jump_link): a pipe or a deleted
	 * file opens again through it.
	 */
	struct inode *(*jump_link)(struct inode *inode, char *name);
};

struct folio;

/*
 * How a file system fills its page cache (Linux's address_space_operations).
 * read_folio copies the file's bytes at folio->index into a new, zeroed
 * folio and returns 0 or an errno; the caller holds the folio lock, marks
 * the folio uptodate on success and unlocks it (Linux's read_folio
 * unlocks when its I/O ends).  writepage is reclaim's: the locked,
 * unmapped folio's data goes to the backing store — shmem moves the folio
 * into the swap cache, and the caller's batch writes it (Linux's
 * writepage starts the write itself); 0, or an errno and it stays.
 */
struct address_space_operations {
	int (*read_folio)(struct file *file, struct folio *folio);
	int (*writepage)(struct folio *folio);
};

/*
 * The page cache of one inode (include/linux/pagemap.h): its folios by
 * page offset, and the VMAs that map it.
 */
struct address_space {
	struct inode *host;
	const struct address_space_operations *a_ops;   /* NULL: none (proc, sysfs) */
	struct xarray i_pages;          /* pgoff -> folio */
	unsigned long nrpages;          /* pages cached; a 2 MiB folio counts 512 */
	struct list_head i_mmap;        /* VMAs mapping it, by vma->shared (Linux: an interval tree) */
	struct rw_semaphore i_mmap_rwsem;       /* i_mmap: write to change, read to walk */
	atomic_t i_mmap_writable;       /* > 0: shared writable mappings; < 0: denied (a seal) */
	unsigned long flags;            /* AS_* */
};

/* The file rmap's lock (Linux's i_mmap_lock_write and friends). */
static inline void i_mmap_lock_write(struct address_space *mapping)
{
	down_write(&mapping->i_mmap_rwsem);
}

static inline void i_mmap_unlock_write(struct address_space *mapping)
{
	up_write(&mapping->i_mmap_rwsem);
}

static inline void i_mmap_lock_read(struct address_space *mapping)
{
	down_read(&mapping->i_mmap_rwsem);
}

static inline void i_mmap_unlock_read(struct address_space *mapping)
{
	up_read(&mapping->i_mmap_rwsem);
}

/* Linux's i_mmap_assert_locked and _write_locked: lockdep's only (linux/rwsem.h). */
#define i_mmap_assert_locked(mapping) lockdep_assert_held(&(mapping)->i_mmap_rwsem)
#define i_mmap_assert_write_locked(mapping) lockdep_assert_held_write(&(mapping)->i_mmap_rwsem)

/*
 * i_mmap_writable, Linux's handshake between shared writable mappings and
 * F_SEAL_WRITE, one atomic counter with no lock: each VMA that is shared
 * and may write counts +1 (mapping_map_writable, which fails with -EPERM
 * once writes are denied); a seal drives it below 0 (mapping_deny_writable,
 * which fails with -EBUSY while a writable mapping exists).  Whichever of
 * an mmap and a seal comes second fails: no check-then-act window.
 */
static inline int mapping_map_writable(struct address_space *mapping)
{
	return atomic_inc_unless_negative(&mapping->i_mmap_writable) ? 0 : -EPERM;
}

static inline void mapping_unmap_writable(struct address_space *mapping)
{
	atomic_dec(&mapping->i_mmap_writable);
}

static inline int mapping_deny_writable(struct address_space *mapping)
{
	return atomic_dec_unless_positive(&mapping->i_mmap_writable) ? 0 : -EBUSY;
}

static inline void mapping_allow_writable(struct address_space *mapping)
{
	atomic_inc(&mapping->i_mmap_writable);
}


struct inode {
	umode_t i_mode;                 /* S_IF* | permissions */
	unsigned int i_uid, i_gid;      /* the owner (foliOS runs everything as root: 0 unless chown) */
	struct timespec64 i_atime, i_mtime, i_ctime;    /* changed under inode_lock, read without */
	unsigned int i_nlink;
	unsigned long i_ino;
	unsigned long i_rdev;           /* a device's number */
	loff_t i_size;
	unsigned long i_blocks;         /* 512-byte blocks */
	atomic_t i_count;               /* references: lookups and open files */
	atomic_t i_writecount;          /* > 0: files open for writing; < 0: running programs (ETXTBSY) */
	struct super_block *i_sb;
	const struct file_operations *i_fop;    /* what an open of it gets */
	const struct inode_operations *i_op;    /* NULL: not writable */
	void *i_private;                /* the file system's; a directory's path */
	const char *i_link;             /* a symbolic link's text, if it keeps one */
	struct pipe_inode_info *i_pipe; /* a pipe's or FIFO's ring while open (fs/pipe.c) */
	struct file_lock_context *i_flctx;      /* its file locks, from the first (fs/locks.c) */
	struct list_head i_children;    /* a libfs directory's entries (struct simple_dentry) */
	struct list_head i_sb_list;     /* on inode_sb_list (fs/inode.c); zeroed if not */
	struct address_space *i_mapping;        /* its page cache: &i_data, or NULL if none */
	struct address_space i_data;
	struct rw_semaphore i_rwsem;    /* inode_lock: i_size, data writes, seals; a dir's entries */
	u64 i_sequence;                 /* its shared futexes' key, set at the first (kernel/futex.c) */
};

/*
 * Writers against running programs (Linux's i_writecount): a regular
 * file opened for writing counts up, an executable being exec'd or an
 * mm's exe_file counts down, and each side is refused (-ETXTBSY) while
 * the other holds it.  Lock-free: one atomic per inode.
 */
static inline int get_write_access(struct inode *inode)
{
	return atomic_inc_unless_negative(&inode->i_writecount) ? 0 : -ETXTBSY;
}

static inline void put_write_access(struct inode *inode)
{
	atomic_dec(&inode->i_writecount);
}

/* May files of inode's file system be executed (Linux's path_noexec)? */
static inline bool inode_noexec(const struct inode *inode)
{
	return inode->i_sb && (READ_ONCE(inode->i_sb->s_flags) & SB_NOEXEC);
}

/*
 * inode_lock (Linux's i_rwsem): a file's size and writes (O_APPEND,
 * truncate, fallocate, seals) for writing; a directory's entries, written
 * under the exclusive lock (create, unlink, rename) and read under the
 * shared one (lookup, readdir).  Two directories at once (rename) nest by
 * subclass, parent before child, else by address (lock_rename).
 */
enum inode_i_mutex_lock_class {
	I_MUTEX_NORMAL,
	I_MUTEX_PARENT,
	I_MUTEX_PARENT2,
	I_MUTEX_CHILD,
	I_MUTEX_NONDIR2,        /* the second of two non-directories (lock_two_nondirectories) */
};

static inline void inode_lock(struct inode *inode)
{
	down_write(&inode->i_rwsem);
}

static inline void inode_unlock(struct inode *inode)
{
	up_write(&inode->i_rwsem);
}

static inline bool inode_trylock(struct inode *inode)
{
	return down_write_trylock(&inode->i_rwsem);
}

static inline void inode_lock_shared(struct inode *inode)
{
	down_read(&inode->i_rwsem);
}

static inline void inode_unlock_shared(struct inode *inode)
{
	up_read(&inode->i_rwsem);
}

static inline void inode_lock_nested(struct inode *inode, unsigned int subclass)
{
	down_write_nested(&inode->i_rwsem, subclass);
}

/*
 * i_size is written under inode_lock (i_size_write) and read without it
 * (i_size_read): reads, faults and stat see the old or the new size, never
 * a torn one (64-bit loads and stores).
 */
static inline loff_t i_size_read(const struct inode *inode)
{
	return __atomic_load_n(&inode->i_size, __ATOMIC_ACQUIRE);
}

static inline void i_size_write(struct inode *inode, loff_t size)
{
	__atomic_store_n(&inode->i_size, size, __ATOMIC_RELEASE);
}

static inline void inode_assert_locked(struct inode *inode)
{
	WARN_ON_ONCE(!rwsem_is_locked(&inode->i_rwsem), "inode_assert_locked: i_rwsem not held");
}

/* A removed directory (Linux's S_DEAD): nothing is made in it; checked under its lock. */
#define IS_DEADDIR(inode) (S_ISDIR((inode)->i_mode) && !(inode)->i_nlink)

/*
 * A readdir in progress: iterate_shared() calls dir_emit() for each entry
 * from ctx->pos on, advancing pos past each one that was taken.
 */
struct dir_context {
	bool (*actor)(struct dir_context *ctx, const char *name, int namelen, loff_t offset,
		      u64 ino, unsigned int d_type);
	loff_t pos;
};

static inline bool dir_emit(struct dir_context *ctx, const char *name, int namelen, u64 ino,
			    unsigned int type)
{
	return ctx->actor(ctx, name, namelen, ctx->pos, ino, type);
}

/*
 * What each kind of file does; an absent op has Linux's default: read or
 * write EINVAL (directories: generic_read_dir's EISDIR), ioctl ENOTTY,
 * getdents ENOTDIR, mmap ENODEV, fsync EINVAL.  poll answers "ready now?" (EPOLL* mask;
 * wait is always NULL: fs/select.c asks again each tick), none meaning
 * always readable and writable.
 */
struct file_operations {
	loff_t (*llseek)(struct file *file, loff_t offset, int whence);
	long (*read)(struct file *file, char *ubuf, size_t count, loff_t *pos);
	long (*write)(struct file *file, const char *ubuf, size_t count, loff_t *pos);
	int (*iterate_shared)(struct file *file, struct dir_context *ctx);
	__poll_t (*poll)(struct file *file, struct poll_table_struct *wait);
	long (*unlocked_ioctl)(struct file *file, unsigned int cmd, unsigned long arg);
	int (*mmap)(struct file *file, struct vm_area_struct *vma);
	long (*fallocate)(struct file *file, int mode, loff_t offset, loff_t len);
	int (*fsync)(struct file *file, loff_t start, loff_t end, int datasync);
	int (*open)(struct inode *inode, struct file *file);
	int (*release)(struct inode *inode, struct file *file);
};

struct file {
	atomic_t f_count;               /* the fd tables' slots, VMAs, in-flight calls holding it */
	fmode_t f_mode;                 /* FMODE_* */
	unsigned int f_flags;           /* O_ACCMODE, O_APPEND, O_NONBLOCK: as opened or F_SETFL'ed */
	loff_t f_pos;
	struct mutex f_pos_lock;        /* read, write, lseek, getdents of a shared regular file or dir */
	struct inode *f_inode;
	struct address_space *f_mapping;        /* f_inode->i_mapping at open */
	const struct file_operations *f_op;
	void *private_data;             /* the file type's */
	unsigned int f_pipe;            /* a FIFO reader's: its ring's w_counter at the open (fs/pipe.c) */
	char *f_pathname;               /* its name, for file_path(); NULL: none (see fs/d_path.c) */
};

/* The executable side of i_writecount (see get_write_access). */
static inline int deny_write_access(struct file *file)
{
	return atomic_dec_unless_positive(&file->f_inode->i_writecount) ? 0 : -ETXTBSY;
}

static inline void allow_write_access(struct file *file)
{
	atomic_inc(&file->f_inode->i_writecount);
}


/*
 * The fd table; CLONE_FILES threads share one (count: its tasks).
 * file_lock (Linux's) guards the slots and the cloexec bits: a slot is
 * found, filled or emptied under it (two threads opening at once get two
 * fds).  A system call holds the file it works on with a reference
 * (fget, or fdget when the table has no other user), so a close by another
 * thread meanwhile only empties the slot; the file lives until that call's
 * fput.  The table itself is freed by RCU: /proc/<pid>/fd reads another
 * task's under rcu_read_lock, without a reference (which would make an
 * exec copy it and lose its POSIX locks).
 */
struct files_struct {
	int count;
	struct rcu_head rcu;
	spinlock_t file_lock;
	struct file *fd[NR_OPEN];
	unsigned long cloexec[NR_OPEN / 64];    /* bit n: close fd n on exec */
};

static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

extern struct file console_file;

/* The device of the file system inode lives on (stat's st_dev, maps' dev): s_dev, 0 as 1. */
static inline unsigned long inode_dev(const struct inode *inode)
{
	return inode->i_sb && inode->i_sb->s_dev ? inode->i_sb->s_dev : 1;
}

/* fs/open.c: the working directory (struct fs_struct in linux/sched.h) */
struct fs_struct;
struct inode *get_fs_pwd(struct fs_struct *fs);
int get_fs_root_path(struct fs_struct *fs, char *buf, size_t size);
void set_fs_pwd(struct fs_struct *fs, struct inode *dir);

/* fs/d_path.c */
__printf(2, 3) int file_set_name(struct file *file, const char *fmt, ...);
char *file_path(struct file *file, char *buf, int buflen);
extern spinlock_t rename_lock;
void dir_path(struct inode *dir, char *buf, size_t size);
bool is_subdir(struct inode *new_dir, struct inode *old_dir);


/* fs/inode.c */
extern struct list_head inode_sb_list;
extern spinlock_t inode_sb_list_lock;
void inode_sb_list_add(struct inode *inode);
void inode_init_always(struct super_block *sb, struct inode *inode);
struct inode *new_inode(struct super_block *sb);
void ihold(struct inode *inode);
struct inode *igrab(struct inode *inode);
void iput(struct inode *inode);
unsigned long get_next_ino(void);

/* Another reference to f (Linux's get_file): a VMA mapping it holds one. */
static inline struct file *get_file(struct file *f)
{
	atomic_inc(&f->f_count);
	return f;
}

/*
 * fd's file for the length of one system call (Linux's struct fd): file is
 * NULL if fd is not open; FDPUT_FPUT says fdget took a reference that
 * fdput drops.
 */
struct fd {
	struct file *file;
	unsigned int flags;
};
#define FDPUT_FPUT      1
#define FDPUT_POS_UNLOCK 2

/* fs/file.c */
struct file *fget(int fd);
struct file *fget_raw(int fd);
/* fs/attr.c: attributes and time stamps */
struct timespec64 current_time(struct inode *inode);
void inode_touch_mtime(struct inode *inode);
void inode_touch_ctime(struct inode *inode);
void file_accessed(struct file *file);
void setattr_copy(struct inode *inode, const struct iattr *attr);
int notify_change(struct inode *inode, struct iattr *attr);
int simple_setattr(struct inode *inode, struct iattr *attr);
void init_special_inode(struct inode *inode, umode_t mode, unsigned long rdev);
extern const struct file_operations null_fops, zero_fops, full_fops;   /* fs/char_mem.c */
/* fs/locks.c */
struct files_struct;
long fcntl_lock(unsigned int fd, struct file *f, unsigned int cmd, unsigned long arg);
void locks_remove_posix(struct file *f, struct files_struct *files);
void locks_remove_file(struct file *f);
void locks_free_lock_context(struct inode *inode);
void filp_close(struct file *f, struct files_struct *files);
umode_t current_umask(void);
struct task_struct;
struct file *fget_files(struct files_struct *files, unsigned int fd);
int files_next_fd(struct files_struct *files, unsigned int from);
struct fd fdget(int fd);
struct fd fdget_raw(int fd);
struct fd fdget_pos(int fd);
void fdput_pos(struct fd f);
struct iovec;
struct iovec *import_iovec(const void *uiov, unsigned long iovcnt, long *err);
struct file *alloc_file(struct inode *inode, unsigned int flags);
void fput(struct file *f);
int vfs_fsync_range(struct file *file, loff_t start, loff_t end, int datasync);

static inline void fdput(struct fd f)
{
	if (f.flags & FDPUT_FPUT)
		fput(f.file);
}
int fd_install(struct file *f, bool cloexec);
int f_dupfd(unsigned int from, struct file *f, bool cloexec);
struct file *file_close_fd(unsigned int fd);
bool file_close_fd_if(unsigned int fd, struct file *f);
void set_close_on_exec(unsigned int fd, bool flag);
bool get_close_on_exec(unsigned int fd);
struct files_struct *dup_fd(struct files_struct *src);
void put_files_struct(struct files_struct *files);
void files_close_on_exec(struct files_struct *files);
struct files_struct *files_init_console(void);

/* fs/open.c */
int nonseekable_open(struct inode *inode, struct file *file);
struct file *file_open_user(const char *upath, int flags);
long do_truncate(struct inode *inode, loff_t length);
long vfs_fallocate(struct file *file, int mode, loff_t offset, loff_t len);

/* fs/libfs.c: directories of name -> inode entries (tmpfs's) */
int simple_dir_init(struct inode *dir, const char *path);
void simple_dir_destroy(struct inode *dir);
struct inode *simple_lookup(struct inode *dir, const char *name);
int simple_add_entry(struct inode *dir, const char *name, struct inode *inode);
int simple_link(struct inode *inode, struct inode *dir, const char *name);
int simple_unlink(struct inode *dir, const char *name);
int simple_rmdir(struct inode *dir, const char *name);
int simple_rename(struct inode *old_dir, const char *old_name, struct inode *new_dir,
		  const char *new_name, unsigned int flags);
void simple_remove_all(struct inode *dir);
extern const struct file_operations simple_dir_operations;

/* fs/namespace.c: the mount table */
extern struct rw_semaphore namespace_sem;
struct inode *lookup_mnt(const char *path, const char **rest, bool *leaf, unsigned int *seq);
bool mounts_changed(unsigned int seq);
bool path_is_mountpoint(const char *path);
bool has_submounts(const char *path);
void mnt_init(void);

/* fs/drop_caches.c */
void drop_caches(int what);

/* fs/sync.c */
int noop_fsync(struct file *file, loff_t start, loff_t end, int datasync);

/* fs/read_write.c */
long vfs_read(struct file *file, char *ubuf, size_t count, loff_t *pos);
long vfs_write(struct file *file, const char *ubuf, size_t count, loff_t *pos);
loff_t vfs_llseek(struct file *file, loff_t offset, int whence);
loff_t vfs_setpos(struct file *file, loff_t offset, loff_t maxsize);
loff_t generic_file_llseek_size(struct file *file, loff_t offset, int whence, loff_t maxsize,
				loff_t eof);
loff_t generic_file_llseek(struct file *file, loff_t offset, int whence);
long generic_read_dir(struct file *file, char *ubuf, size_t count, loff_t *pos);

/* the file systems' lookups (fs/namei.c): a referenced inode, NULL or an ERR_PTR */
struct inode *proc_lookup(const char *path);
struct inode *sysfs_lookup(const char *path);
struct inode *mem_dev_lookup(const char *path);          /* fs/char_mem.c */

#endif
