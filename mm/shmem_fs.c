/*
 * tmpfs, the file system around shmem (the super block, inode and
 * directory parts of Linux's mm/shmem.c): mount options, inodes, the
 * directory operations (names kept by fs/libfs.c), statfs, and the
 * internal mount (Linux's shm_mnt) whose unlinked files back memfds and
 * MAP_SHARED|MAP_ANONYMOUS memory.
 *
 *   mount -t tmpfs -o size=64M,huge=within_size tmpfs /mnt
 *     size=N[k|m|g|%]   pages the mount may hold (default: half of RAM; 0: no limit)
 *     nr_inodes=N[k|m|g] inodes (default: half of RAM's pages)
 *     huge=never|always|within_size|advise   large folios (default never)
 *     mode=OCTAL        the root directory's permissions (default 1777)
 *     uid=N, gid=N      accepted (foliOS has one user, root)
 *
 * A tmpfs lives while mounted or while one of its inodes does: each
 * inode counts in sbinfo->nr_inodes, and the last to go after an unmount
 * frees the super block.
 *
 * Locking: the directory operations run under the directories' i_rwsem,
 * taken by the VFS (fs/namei_ops.c; fs/libfs.c keeps the entries);
 * nr_inodes is atomic, as inodes are made and freed in many directories
 * at once; remount changes the limits under namespace_sem.  Lock order:
 * see mm/rmap.c.
 */
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/namei.h"
#include "linux/pagemap.h"
#include "linux/printk.h"
#include "linux/seq_file.h"
#include "linux/shmem_fs.h"
#include "linux/string.h"
#include "uapi/linux/statfs.h"
#include "linux/mm.h"
#include "linux/huge_mm.h"

#define SHORT_SYMLINK_LEN 128           /* a longer link text takes a page in Linux */

static struct shmem_sb_info shm_mnt;    /* the internal mount: no size limit, no names */
static unsigned long next_dev = 0x20;   /* st_dev of the next tmpfs */

/* A device number for a new tmpfs (Linux's get_anon_bdev): two mounts on two CPUs get two. */
static unsigned long get_anon_dev(void)
{
	return __atomic_fetch_add(&next_dev, 1, __ATOMIC_RELAXED);
}

static const struct inode_operations shmem_dir_inode_operations;
static const struct super_operations shmem_ops;

/*
 * Count a new inode against nr_inodes= (Linux's shmem_reserve_inode):
 * false at the limit.  Lock-free: mkdirs in other directories race here.
 */
static bool shmem_reserve_inode(struct shmem_sb_info *sbinfo)
{
	unsigned long n = __atomic_load_n(&sbinfo->nr_inodes, __ATOMIC_RELAXED);

	do {
		if (sbinfo->max_inodes && n >= sbinfo->max_inodes)
			return false;
	} while (!__atomic_compare_exchange_n(&sbinfo->nr_inodes, &n, n + 1, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

/* Uncount an inode; true if it was the last (a detached tmpfs then goes). */
static bool shmem_free_inode(struct shmem_sb_info *sbinfo)
{
	return !__atomic_sub_fetch(&sbinfo->nr_inodes, 1, __ATOMIC_ACQ_REL);
}

/* Free an inode at its last iput (Linux's shmem_evict_inode + shmem_free_inode). */
static void shmem_destroy_inode(struct inode *inode)
{
	struct shmem_inode_info *info = SHMEM_I(inode);
	struct shmem_sb_info *sbinfo = SHMEM_SB(inode->i_sb);

	if (S_ISREG(inode->i_mode)) {
		shmem_truncate_range(inode, 0, -1);
		shmem_swaplist_del(inode);
	}
	if (S_ISDIR(inode->i_mode))
		simple_dir_destroy(inode);
	kfree((char *)inode->i_link);
	kfree(info->name);
	kfree(info);
	if (shmem_free_inode(sbinfo) && sbinfo != &shm_mnt)
		kfree(sbinfo);
}

/* A regular file's page cache: large folios allowed, pages go to swap (shmem_aops). */
static void shmem_init_mapping(struct inode *inode)
{
	inode->i_mapping = &inode->i_data;
	address_space_init_once(inode->i_mapping, inode);
	inode->i_mapping->a_ops = &shmem_aops;
	spin_lock_init(&SHMEM_I(inode)->lock, "shmem_inode_info->lock");
	INIT_LIST_HEAD(&SHMEM_I(inode)->swaplist);
	inode->i_mapping->flags |= BIT(AS_LARGE_FOLIO_SUPPORT);
}

/* A directory: a mount's root at path, or "" for one its parent names (simple_add_entry). */
static int shmem_init_dir(struct inode *inode, const char *path)
{
	inode->i_op = &shmem_dir_inode_operations;
	inode->i_fop = &simple_dir_operations;
	return simple_dir_init(inode, path);
}

/* A symbolic link's (Linux's shmem_symlink_inode_operations): its text is in i_link. */
static const struct inode_operations shmem_symlink_inode_operations = {
	.setattr = simple_setattr,
};

/*
 * A new inode of sb with one reference (Linux's shmem_get_inode): a
 * regular file, a symbolic link (no text yet), a FIFO, device or socket
 * (init_special_inode) or a directory (root_path: a mount's root's path,
 * else NULL).  The inode or an ERR_PTR: -ENOSPC past nr_inodes=, -ENOMEM,
 * -ENAMETOOLONG.
 */
static struct inode *shmem_get_inode(struct super_block *sb, const char *root_path, umode_t mode)
{
	struct shmem_sb_info *sbinfo = SHMEM_SB(sb);
	struct shmem_inode_info *info;
	struct inode *inode;

	if (!shmem_reserve_inode(sbinfo))
		return ERR_PTR(-ENOSPC);
	info = kzalloc(sizeof(*info));
	if (!info) {
		shmem_free_inode(sbinfo);
		return ERR_PTR(-ENOMEM);
	}
	inode = &info->vfs_inode;
	inode_init_always(sb, inode);
	inode->i_ino = get_next_ino();
	inode->i_mode = mode;
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time(inode);
	info->seals = F_SEAL_SEAL;              /* memfd_create(MFD_ALLOW_SEALING) clears it */
	if (S_ISDIR(mode)) {
		int err = shmem_init_dir(inode, root_path ? root_path : "");

		if (err) {
			shmem_free_inode(sbinfo);
			kfree(info);
			return ERR_PTR(err);
		}
	} else if (S_ISLNK(mode)) {
		inode->i_op = &shmem_symlink_inode_operations;
	} else if (!S_ISREG(mode)) {
		inode->i_op = &shmem_symlink_inode_operations;  /* setattr only, as a link's */
		init_special_inode(inode, mode, 0);
	} else {
		inode->i_op = &shmem_inode_operations;
		inode->i_fop = &shmem_file_operations;
		shmem_init_mapping(inode);
	}
	inode_sb_list_add(inode);
	return inode;
}

/*
 * A new inode's group in dir (Linux's inode_init_owner): a set-group-ID
 * directory's, and a directory made there inherits the bit; else the
 * creator's (root's, 0).
 */
static void shmem_init_owner(struct inode *inode, const struct inode *dir)
{
	if (!(dir->i_mode & S_ISGID))
		return;
	inode->i_gid = dir->i_gid;
	if (S_ISDIR(inode->i_mode))
		inode->i_mode |= S_ISGID;
}

/* create (open O_CREAT): a new file in dir, *res a reference for the caller. */
static int shmem_create(struct inode *dir, const char *name, umode_t mode, struct inode **res)
{
	struct inode *inode = shmem_get_inode(dir->i_sb, NULL, S_IFREG | mode);
	int err;

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	shmem_init_owner(inode, dir);
	ihold(inode);
	err = simple_add_entry(dir, name, inode);
	if (err) {
		iput(inode);
		iput(inode);
		return err;
	}
	*res = inode;
	return 0;
}

static int shmem_mkdir(struct inode *dir, const char *name, umode_t mode)
{
	struct inode *inode = shmem_get_inode(dir->i_sb, NULL, S_IFDIR | mode);
	int err;

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	shmem_init_owner(inode, dir);
	err = simple_add_entry(dir, name, inode);
	if (err)
		iput(inode);
	return err;
}

/* O_TMPFILE: a file without a name (i_nlink 0) that dies with its last close. */
static int shmem_tmpfile(struct inode *dir, umode_t mode, struct inode **res)
{
	struct inode *inode = shmem_get_inode(dir->i_sb, NULL, S_IFREG | mode);

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	shmem_init_owner(inode, dir);
	inode->i_nlink = 0;
	*res = inode;
	return 0;
}

/*
 * symlink(target, dir/name): a link keeping a copy of its text in i_link
 * (Linux's shmem_symlink; it keeps a text over 128 bytes in a page, which
 * counts 8 blocks).  0, -ENAMETOOLONG, -ENOSPC or -ENOMEM.
 */
static int shmem_symlink(struct inode *dir, const char *name, const char *target)
{
	size_t len = strlen(target);
	struct inode *inode;
	char *text;
	int err;

	if (len + 1 > PAGE_SIZE)
		return -ENAMETOOLONG;
	inode = shmem_get_inode(dir->i_sb, NULL, S_IFLNK | S_IRWXUGO);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	shmem_init_owner(inode, dir);
	text = kmalloc(len + 1);
	if (!text) {
		iput(inode);
		return -ENOMEM;
	}
	memcpy(text, target, len + 1);
	inode->i_link = text;
	inode->i_size = len;
	inode->i_blocks = len >= SHORT_SYMLINK_LEN ? PAGE_SIZE / 512 : 0;
	err = simple_add_entry(dir, name, inode);
	if (err)
		iput(inode);
	return err;
}

/*
 * mknod(dir/name, mode, rdev): a FIFO, a device, a socket (a regular
 * file goes through create).  0 or shmem_get_inode's error.
 */
static int shmem_mknod(struct inode *dir, const char *name, umode_t mode, unsigned long rdev)
{
	struct inode *inode = shmem_get_inode(dir->i_sb, NULL, mode);
	int err;

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	shmem_init_owner(inode, dir);
	init_special_inode(inode, mode, rdev);
	err = simple_add_entry(dir, name, inode);
	if (err)
		iput(inode);
	return err;
}

static const struct inode_operations shmem_dir_inode_operations = {
	.lookup = simple_lookup,
	.create = shmem_create,
	.link = simple_link,
	.unlink = simple_unlink,
	.mkdir = shmem_mkdir,
	.rmdir = simple_rmdir,
	.rename = simple_rename,
	.tmpfile = shmem_tmpfile,
	.symlink = shmem_symlink,
	.mknod = shmem_mknod,
	.setattr = simple_setattr,
};

/* statfs (Linux's shmem_statfs): blocks and inodes of size= and nr_inodes=. */
static int shmem_statfs(struct super_block *sb, struct statfs *buf)
{
	struct shmem_sb_info *sbinfo = SHMEM_SB(sb);

	buf->f_type = TMPFS_MAGIC;
	buf->f_bsize = PAGE_SIZE;
	buf->f_namelen = NAME_MAX;
	if (sbinfo->max_blocks) {
		buf->f_blocks = sbinfo->max_blocks;
		buf->f_bavail = buf->f_bfree = sbinfo->max_blocks - sbinfo->used_blocks;
	}
	if (sbinfo->max_inodes) {
		buf->f_files = sbinfo->max_inodes;
		buf->f_ffree = sbinfo->max_inodes - sbinfo->nr_inodes;
	}
	return 0;
}

static const struct super_operations shmem_ops = {
	.destroy_inode = shmem_destroy_inode,
	.statfs = shmem_statfs,
};

/* Linux's memparse: a number with an optional K/M/G/T suffix; *end after it. */
static unsigned long long memparse(const char *s, const char **end)
{
	unsigned long long v = simple_strtoul(s, end, 0);

	switch (**end) {
	case 'T': case 't':
		v <<= 10;
		/* fallthrough */
	case 'G': case 'g':
		v <<= 10;
		/* fallthrough */
	case 'M': case 'm':
		v <<= 10;
		/* fallthrough */
	case 'K': case 'k':
		v <<= 10;
		(*end)++;
	}
	return v;
}

/* A huge= value, or -1 (Linux's shmem_param_enums_huge). */
static int shmem_parse_huge(const char *s)
{
	static const char *const names[] = {
		[SHMEM_HUGE_NEVER] = "never", [SHMEM_HUGE_ALWAYS] = "always",
		[SHMEM_HUGE_WITHIN_SIZE] = "within_size", [SHMEM_HUGE_ADVISE] = "advise",
	};

	for (int i = 0; i < (int)ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* One "key=value" of the options into ctx (a copy of the sbinfo).  0 or -EINVAL. */
static int shmem_parse_one(struct shmem_sb_info *ctx, const char *key, const char *val,
			   umode_t *mode)
{
	const char *end = val;
	unsigned long long v = *val ? memparse(val, &end) : 0;

	if (!strcmp(key, "huge")) {
		ctx->huge = shmem_parse_huge(val);
		return ctx->huge < 0 ? -EINVAL : 0;
	}
	if (!strcmp(key, "size") && *end == '%') {
		v = zone.managed_pages * v / 100;
		end++;
	} else if (!strcmp(key, "size")) {
		v = (v + PAGE_SIZE - 1) / PAGE_SIZE;
	} else if (!strcmp(key, "mode")) {
		v = simple_strtoul(val, &end, 8);
		*mode = v & S_IALLUGO;
	} else if (strcmp(key, "nr_blocks") && strcmp(key, "nr_inodes") && strcmp(key, "uid") &&
		   strcmp(key, "gid")) {
		return -EINVAL;                 /* uid= and gid= are checked: root owns all */
	}
	if (end == val || *end)
		return -EINVAL;
	if (!strcmp(key, "size") || !strcmp(key, "nr_blocks"))
		ctx->max_blocks = v;
	else if (!strcmp(key, "nr_inodes"))
		ctx->max_inodes = v;
	return 0;
}

/* Parse a comma-separated option string into ctx.  0 or -EINVAL. */
static int shmem_parse_options(struct shmem_sb_info *ctx, const char *options, umode_t *mode)
{
	char opt[64];

	while (*options) {
		size_t len = strcspn(options, ",");
		char *eq;
		int err;

		if (len >= sizeof(opt))
			return -EINVAL;
		memcpy(opt, options, len);
		opt[len] = '\0';
		options += len + (options[len] == ',');
		if (!len)
			continue;
		eq = strchr(opt, '=');
		if (eq)
			*eq = '\0';
		err = shmem_parse_one(ctx, opt, eq ? eq + 1 : "", mode);
		if (err) {
			pr_notice("tmpfs: bad mount option '%s'\n", opt);
			return err;
		}
	}
	return 0;
}

/*
 * The options of the tmpfs whose root is root that differ from the
 * defaults, as ",key=value" (Linux's shmem_show_options): size in kB,
 * nr_inodes, mode, huge.  The caller keeps the mount (namespace_sem).
 */
void shmem_show_options(struct seq_file *m, struct inode *root)
{
	static const char *const huge[] = { "never", "always", "within_size", "advise" };
	struct shmem_sb_info *sbinfo = SHMEM_SB(root->i_sb);

	if (sbinfo->max_blocks != zone.managed_pages / 2)
		seq_printf(m, ",size=%luk", sbinfo->max_blocks << (PAGE_SHIFT - 10));
	if (sbinfo->max_inodes != zone.managed_pages / 2)
		seq_printf(m, ",nr_inodes=%lu", sbinfo->max_inodes);
	if ((root->i_mode & 07777) != 01777)
		seq_printf(m, ",mode=%03o", root->i_mode & 07777);
	if (sbinfo->huge != SHMEM_HUGE_NEVER && sbinfo->huge < (int)ARRAY_SIZE(huge))
		seq_printf(m, ",huge=%s", huge[sbinfo->huge]);
}

/*
 * A new tmpfs with these options; *root its root directory, a reference
 * for the mount table, whose path is path (Linux's shmem_fill_super).
 * 0, -EINVAL, -ENOMEM or -ENAMETOOLONG.
 */
int shmem_fill_super(const char *path, const char *options, struct inode **root)
{
	struct shmem_sb_info *sbinfo = kzalloc(sizeof(*sbinfo));
	umode_t mode = 01777;
	int err;

	if (!sbinfo)
		return -ENOMEM;
	sbinfo->max_blocks = zone.managed_pages / 2;
	sbinfo->max_inodes = zone.managed_pages / 2;
	sbinfo->huge = SHMEM_HUGE_NEVER;
	err = shmem_parse_options(sbinfo, options, &mode);
	if (err) {
		kfree(sbinfo);
		return err;
	}
	sbinfo->sb = (struct super_block){
		.s_op = &shmem_ops, .s_magic = TMPFS_MAGIC, .s_dev = get_anon_dev(),
		.s_maxbytes = MAX_LFS_FILESIZE, .s_fs_info = sbinfo,
	};
	mutex_init(&sbinfo->sb.s_vfs_rename_mutex, "sb->s_vfs_rename_mutex");
	*root = shmem_get_inode(&sbinfo->sb, path, S_IFDIR | mode);
	if (!IS_ERR(*root))
		return 0;
	kfree(sbinfo);
	return PTR_ERR(*root);
}

/*
 * mount -o remount: new options for a mounted tmpfs (Linux's
 * shmem_reconfigure).  -EINVAL for a bad option or a size below what is
 * in use; nothing changes then.
 */
int shmem_reconfigure(struct super_block *sb, const char *options)
{
	struct shmem_sb_info *sbinfo = SHMEM_SB(sb), ctx = *sbinfo;
	umode_t mode;
	int err = shmem_parse_options(&ctx, options, &mode);

	if (err)
		return err;
	if ((ctx.max_blocks && ctx.max_blocks < sbinfo->used_blocks) ||
	    (ctx.max_inodes && ctx.max_inodes < sbinfo->nr_inodes))
		return -EINVAL;
	sbinfo->max_blocks = ctx.max_blocks;
	sbinfo->max_inodes = ctx.max_inodes;
	sbinfo->huge = ctx.huge;
	return 0;
}

/*
 * An unlinked shmem file of size bytes on the internal mount, open for
 * reading and writing (Linux's shmem_file_setup): memfd_create and
 * MAP_SHARED|MAP_ANONYMOUS use it.  The file (one reference) or an
 * ERR_PTR: -EINVAL (too large), -ENOMEM.
 */
struct file *shmem_file_setup(const char *name, loff_t size, unsigned long flags)
{
	struct inode *inode;
	struct file *file;
	char *copy;

	if (size < 0 || size > MAX_LFS_FILESIZE)
		return ERR_PTR(-EINVAL);
	inode = shmem_get_inode(&shm_mnt.sb, NULL, S_IFREG | S_IRWXUGO);
	if (IS_ERR(inode))
		return ERR_PTR(PTR_ERR(inode));
	inode->i_size = size;
	inode->i_nlink = 0;                     /* unlinked from the start, as Linux's */
	copy = kmalloc(strlen(name) + 1);
	file = copy ? alloc_file(inode, O_RDWR) : NULL;
	if (!file) {
		kfree(copy);
		iput(inode);
		return ERR_PTR(-ENOMEM);
	}
	strlcpy(copy, name, strlen(name) + 1);
	SHMEM_I(inode)->name = copy;
	if (file_set_name(file, "/%s", name)) {         /* maps' "/memfd:NAME (deleted)" */
		fput(file);
		return ERR_PTR(-ENOMEM);
	}
	return file;
}

/* Boot: the internal mount, which follows shmem_enabled as Linux's shm_mnt. */
void shmem_init(void)
{
	shm_mnt.huge = SHMEM_HUGE_NEVER;
	shm_mnt.sb = (struct super_block){
		.s_op = &shmem_ops, .s_magic = TMPFS_MAGIC, .s_dev = get_anon_dev(),
		.s_maxbytes = MAX_LFS_FILESIZE, .s_fs_info = &shm_mnt,
	};
	shm_mnt_sbinfo = &shm_mnt;
}
