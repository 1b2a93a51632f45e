/*
 * shmem and tmpfs (Linux's include/linux/shmem_fs.h; mm/shmem.c the data,
 * mm/shmem_policy.c which folio sizes, mm/shmem_fs.c the file system,
 * mm/memfd.c memfd_create and seals).
 *
 * A shmem file keeps its data in its page cache: folios that are
 * PG_swapbacked (swap is their only backing store), zeroed when allocated,
 * PG_uptodate once they hold data (a folio fallocate() reserved is not:
 * reads see a hole until it is written or faulted).  tmpfs mounts,
 * memfds and MAP_SHARED|MAP_ANONYMOUS (shm_mnt, the internal mount) all
 * use them.  Reclaim moves an order-0 folio to swap and leaves its swap
 * entry in the page cache as a value entry (mm/shmem_swap.c).
 */
#ifndef _LINUX_SHMEM_FS_H
#define _LINUX_SHMEM_FS_H

#include "linux/fs.h"

struct folio;
struct vm_area_struct;
struct vm_operations_struct;

/* A shmem inode (Linux's struct shmem_inode_info). */
struct shmem_inode_info {
	spinlock_t lock;                /* alloced, swapped and i_blocks, with each insertion */
	unsigned long alloced;          /* data pages allocated: in the page cache or swapped */
	unsigned long swapped;          /* of them, in swap (a value entry in the page cache) */
	struct list_head swaplist;      /* on shmem_swaplist once it swapped (mm/shmem_swap.c) */
	unsigned int seals;             /* F_SEAL_*: memfd_create(MFD_ALLOW_SEALING); inode_lock */
	unsigned int flags;             /* SHMEM_F_* */
	char *name;                     /* an internal-mount file's name ("memfd:x"), or NULL */
	struct inode vfs_inode;
};

/* shmem_inode_info flags */
#define SHMEM_F_ANON    1               /* MAP_SHARED|MAP_ANONYMOUS memory (shmem_zero_setup) */

/* The huge= mount option and shmem_enabled (Linux's SHMEM_HUGE_*). */
#define SHMEM_HUGE_NEVER        0
#define SHMEM_HUGE_ALWAYS       1
#define SHMEM_HUGE_WITHIN_SIZE  2
#define SHMEM_HUGE_ADVISE       3
#define SHMEM_HUGE_DENY         (-1)    /* shmem_enabled only: huge pages for none */
#define SHMEM_HUGE_FORCE        (-2)    /* shmem_enabled only: for all */

/* A tmpfs super block (Linux's struct shmem_sb_info). */
struct shmem_sb_info {
	unsigned long max_blocks;       /* size=, in pages; 0: no limit (shm_mnt) */
	unsigned long used_blocks;      /* pages allocated: compare-and-swap (mm/shmem.c) */
	unsigned long max_inodes;       /* nr_inodes= */
	unsigned long nr_inodes;        /* inodes alive: the last one frees a detached tmpfs */
	int huge;                       /* SHMEM_HUGE_NEVER .. ADVISE */
	struct super_block sb;
};

/* What shmem_get_folio() may do at a hole (Linux's enum sgp_type). */
enum sgp_type {
	SGP_READ,       /* don't allocate: NULL for a hole (or a reserved folio) */
	SGP_NOALLOC,    /* don't allocate: -ENOENT for a hole */
	SGP_CACHE,      /* allocate inside i_size (a fault) */
	SGP_WRITE,      /* allocate, also beyond i_size (a write) */
	SGP_FALLOC,     /* allocate, leave a new folio !uptodate (fallocate) */
};

static inline struct shmem_inode_info *SHMEM_I(struct inode *inode)
{
	return container_of(inode, struct shmem_inode_info, vfs_inode);
}

static inline struct shmem_sb_info *SHMEM_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

extern const struct vm_operations_struct shmem_vm_ops;

/* mm/shmem.c */
int shmem_get_folio(struct inode *inode, pgoff_t index, loff_t write_end, struct folio **foliop,
		    enum sgp_type sgp);
void shmem_truncate_range(struct inode *inode, loff_t lstart, loff_t lend);
int shmem_mmap(struct file *file, struct vm_area_struct *vma);
int shmem_zero_setup(struct vm_area_struct *vma);
bool shmem_mapping(const struct address_space *mapping);
extern const struct file_operations shmem_file_operations;
extern const struct inode_operations shmem_inode_operations;

/* mm/shmem_swap.c */
extern const struct address_space_operations shmem_aops;
int shmem_swapin_folio(struct inode *inode, pgoff_t index, void *radswap, struct folio **foliop);
bool shmem_free_swap(struct inode *inode, pgoff_t index, void *radswap);
void shmem_swaplist_del(struct inode *inode);
unsigned long shmem_swap_usage(struct vm_area_struct *vma);
int shmem_unuse(unsigned int type);

/* mm/shmem_policy.c */
bool vma_is_anon_shmem(const struct vm_area_struct *vma);
unsigned long shmem_allowable_huge_orders(struct inode *inode, struct vm_area_struct *vma,
					  pgoff_t index, loff_t write_end, bool shmem_huge_force);

/* mm/shmem_fs.c */
struct file *shmem_file_setup(const char *name, loff_t size, unsigned long flags);
int shmem_fill_super(const char *path, const char *options, struct inode **root);
struct seq_file;
void shmem_show_options(struct seq_file *m, struct inode *root);
int shmem_reconfigure(struct super_block *sb, const char *options);
void shmem_init(void);

/* mm/memfd.c */
long memfd_fcntl(struct file *file, unsigned int cmd, unsigned int arg);

#endif
