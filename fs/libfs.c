/*
 * Directories kept in memory (Linux's fs/libfs.c simple_* and dcache_*
 * helpers, which tmpfs uses).  Linux keeps a tmpfs directory's names in
 * the dcache; foliOS has no dentries, so each directory inode keeps a
 * list of entries of its own:
 *
 *   dir->i_children --> simple_dentry { "a", inode } --> { "sub", inode } ...
 *   dir->i_private     its absolute path without the leading '/' ("tmp/sub"):
 *                      relative lookups from an open directory start there
 *
 * Each entry holds one reference to its inode; i_nlink counts the names
 * of a file, and 2 + subdirectories for a directory, as Linux's; a
 * directory's i_size is BOGO_DIRENT_SIZE per entry, "." and ".." included
 * (Linux's tmpfs).  An
 * unlinked file lives on while open (its i_count), with i_nlink 0.
 *
 * Locking: one CPU, non-preemptive kernel: none yet (Linux: i_rwsem).
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/seq_file.h"
#include "mm/mm.h"

#define BOGO_DIRENT_SIZE 20             /* what stat calls an entry's size */

struct simple_dentry {
	struct list_head d_child;       /* in the directory's i_children */
	struct inode *d_inode;          /* a reference */
	char d_name[];
};

/* Join "parent/name" into buf (DIR_PATH_MAX); -ENAMETOOLONG if it does not fit. */
static int join_path(char *buf, const char *parent, const char *name)
{
	int n = snprintf(buf, DIR_PATH_MAX, "%s%s%s", parent, *parent ? "/" : "", name);

	return n < DIR_PATH_MAX ? 0 : -ENAMETOOLONG;
}

/*
 * Make dir an empty directory whose path is path (parent path and name
 * joined by the caller, or a mount point).  0 or -ENOMEM / -ENAMETOOLONG.
 */
int simple_dir_init(struct inode *dir, const char *path)
{
	char *p;

	if (strlen(path) >= DIR_PATH_MAX)
		return -ENAMETOOLONG;
	p = kmalloc(DIR_PATH_MAX);
	if (!p)
		return -ENOMEM;
	strlcpy(p, path, DIR_PATH_MAX);
	dir->i_private = p;
	dir->i_nlink = 2;
	dir->i_size = 2 * BOGO_DIRENT_SIZE;
	INIT_LIST_HEAD(&dir->i_children);
	return 0;
}

/* Free what simple_dir_init() gave dir (its entries are gone by then). */
void simple_dir_destroy(struct inode *dir)
{
	if (!list_empty(&dir->i_children))
		panic("simple_dir_destroy: directory not empty");
	kfree(dir->i_private);
}

static struct simple_dentry *find_entry(struct inode *dir, const char *name)
{
	struct simple_dentry *d;

	list_for_each_entry(d, &dir->i_children, d_child)
		if (!strcmp(d->d_name, name))
			return d;
	return NULL;
}

/* The inode named name in dir, referenced, or NULL. */
struct inode *simple_lookup(struct inode *dir, const char *name)
{
	struct simple_dentry *d = find_entry(dir, name);

	if (!d)
		return NULL;
	ihold(d->d_inode);
	return d->d_inode;
}

/* A new entry naming inode (not yet in a directory); NULL if out of memory. */
static struct simple_dentry *new_entry(const char *name, struct inode *inode)
{
	struct simple_dentry *d = kmalloc(sizeof(*d) + strlen(name) + 1);

	if (d) {
		strlcpy(d->d_name, name, strlen(name) + 1);
		d->d_inode = inode;
	}
	return d;
}

/* Newest first: getdents lists a tmpfs directory in the order Linux's dcache_readdir does. */
static void insert_entry(struct inode *dir, struct simple_dentry *d)
{
	list_add(&d->d_child, &dir->i_children);
	dir->i_size += BOGO_DIRENT_SIZE;
	if (S_ISDIR(d->d_inode->i_mode))
		dir->i_nlink++;
}

/*
 * Enter inode as name in dir, taking over the caller's reference (Linux's
 * d_instantiate + dget).  The caller checked that name is free.
 * 0 or -ENOMEM (the reference is then still the caller's).
 */
int simple_add_entry(struct inode *dir, const char *name, struct inode *inode)
{
	struct simple_dentry *d = new_entry(name, inode);

	if (!d)
		return -ENOMEM;
	insert_entry(dir, d);
	return 0;
}

/* Take entry d out of dir: the name goes, the entry's reference is dropped. */
static void remove_entry(struct inode *dir, struct simple_dentry *d)
{
	struct inode *inode = d->d_inode;

	if (S_ISDIR(inode->i_mode)) {
		dir->i_nlink--;
		inode->i_nlink = 0;
	} else {
		inode->i_nlink--;
	}
	list_del(&d->d_child);
	dir->i_size -= BOGO_DIRENT_SIZE;
	kfree(d);
	iput(inode);
}

/* link(): a second name for a file (Linux's simple_link).  0 or -errno. */
int simple_link(struct inode *inode, struct inode *dir, const char *name)
{
	int err;

	if (S_ISDIR(inode->i_mode))
		return -EPERM;
	ihold(inode);
	err = simple_add_entry(dir, name, inode);
	if (err) {
		iput(inode);
		return err;
	}
	inode->i_nlink++;
	return 0;
}

/* unlink(): remove a non-directory's name.  0, -ENOENT or -EISDIR. */
int simple_unlink(struct inode *dir, const char *name)
{
	struct simple_dentry *d = find_entry(dir, name);

	if (!d)
		return -ENOENT;
	if (S_ISDIR(d->d_inode->i_mode))
		return -EISDIR;
	remove_entry(dir, d);
	return 0;
}

/* May directory d go: -ENOTEMPTY with entries, -EBUSY as a mount point. */
static int may_delete_dir(struct simple_dentry *d)
{
	if (!list_empty(&d->d_inode->i_children))
		return -ENOTEMPTY;
	if (path_is_mountpoint(d->d_inode->i_private))
		return -EBUSY;
	return 0;
}

/* rmdir(): remove an empty directory.  0, -ENOENT, -ENOTDIR, -ENOTEMPTY or -EBUSY. */
int simple_rmdir(struct inode *dir, const char *name)
{
	struct simple_dentry *d = find_entry(dir, name);
	int err;

	if (!d)
		return -ENOENT;
	if (!S_ISDIR(d->d_inode->i_mode))
		return -ENOTDIR;
	err = may_delete_dir(d);
	if (!err)
		remove_entry(dir, d);
	return err;
}

/*
 * Set the paths of dir's subdirectories after dir's own changed (a
 * rename).  With check set only test that each new path fits:
 * 0 or -ENAMETOOLONG.
 */
static int rename_subtree(struct inode *dir, bool check)
{
	struct simple_dentry *d;
	char path[DIR_PATH_MAX];

	list_for_each_entry(d, &dir->i_children, d_child) {
		int err;

		if (!S_ISDIR(d->d_inode->i_mode))
			continue;
		if (join_path(path, dir->i_private, d->d_name))
			return -ENAMETOOLONG;
		if (!check)
			strlcpy(d->d_inode->i_private, path, DIR_PATH_MAX);
		err = rename_subtree(d->d_inode, check);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Give a directory moved into new_dir as name its new path, and its
 * subtree theirs.  All or nothing: 0 or -ENAMETOOLONG.
 */
static int rename_dir_path(struct inode *inode, struct inode *new_dir, const char *name)
{
	char path[DIR_PATH_MAX], old[DIR_PATH_MAX];
	int err = join_path(path, new_dir->i_private, name);

	if (err)
		return err;
	strlcpy(old, inode->i_private, DIR_PATH_MAX);
	strlcpy(inode->i_private, path, DIR_PATH_MAX);
	err = rename_subtree(inode, true);
	if (err)
		strlcpy(inode->i_private, old, DIR_PATH_MAX);
	else
		rename_subtree(inode, false);
	return err;
}

/* Is path a or inside directory path dir? */
static bool path_inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/* rename()'s checks of what new_name replaces (Linux's vfs_rename and simple_rename). */
static int may_replace(struct simple_dentry *old, struct simple_dentry *new, unsigned int flags)
{
	bool old_dir = S_ISDIR(old->d_inode->i_mode);

	if (flags & RENAME_NOREPLACE)
		return -EEXIST;
	if (old_dir && !S_ISDIR(new->d_inode->i_mode))
		return -ENOTDIR;
	if (!old_dir && S_ISDIR(new->d_inode->i_mode))
		return -EISDIR;
	return old_dir ? may_delete_dir(new) : 0;
}

/*
 * rename(): move old_dir/old_name to new_dir/new_name, replacing what is
 * there unless RENAME_NOREPLACE; a directory's subtree follows.  0, or
 * ENOENT, EEXIST, ENOTDIR, EISDIR, ENOTEMPTY, EBUSY, EINVAL (a directory
 * into itself), ENAMETOOLONG, ENOMEM.
 */
int simple_rename(struct inode *old_dir, const char *old_name, struct inode *new_dir,
		  const char *new_name, unsigned int flags)
{
	struct simple_dentry *old = find_entry(old_dir, old_name);
	struct simple_dentry *new = find_entry(new_dir, new_name), *moved;
	struct inode *inode;
	int err;

	if (!old)
		return -ENOENT;
	inode = old->d_inode;
	if (new && new->d_inode == inode)
		return 0;                       /* the same file: nothing to do */
	if (S_ISDIR(inode->i_mode) && path_inside(new_dir->i_private, inode->i_private))
		return -EINVAL;
	err = new ? may_replace(old, new, flags) : 0;
	if (err)
		return err;
	moved = new_entry(new_name, inode);
	if (!moved)
		return -ENOMEM;
	err = S_ISDIR(inode->i_mode) ? rename_dir_path(inode, new_dir, new_name) : 0;
	if (err) {
		kfree(moved);
		return err;
	}
	if (new)
		remove_entry(new_dir, new);
	if (S_ISDIR(inode->i_mode))
		old_dir->i_nlink--;
	list_del(&old->d_child);
	old_dir->i_size -= BOGO_DIRENT_SIZE;
	kfree(old);
	insert_entry(new_dir, moved);           /* the old entry's reference */
	return 0;
}

/*
 * Drop every entry under dir, depth first (the unmount of a tmpfs); files
 * still open live on unlinked.
 */
void simple_remove_all(struct inode *dir)
{
	while (!list_empty(&dir->i_children)) {
		struct simple_dentry *d = list_first_entry(&dir->i_children, struct simple_dentry,
							   d_child);

		if (S_ISDIR(d->d_inode->i_mode))
			simple_remove_all(d->d_inode);
		remove_entry(dir, d);
	}
}

/* The inode number of dir's parent (for ".."), found by its path; dir's own if none. */
static unsigned long parent_ino(struct inode *dir)
{
	const char *path = dir->i_private, *slash = strrchr(path, '/');
	char buf[DIR_PATH_MAX + 1] = "/";
	struct inode *parent;
	unsigned long ino = dir->i_ino;

	memcpy(buf + 1, path, slash ? (size_t)(slash - path) : 0);
	if (!path_lookupat(AT_FDCWD, buf, &parent)) {
		ino = parent->i_ino;
		iput(parent);
	}
	return ino;
}

/*
 * getdents of a directory (Linux's dcache_readdir): position 0 is ".",
 * 1 "..", 2 + n the n-th entry.
 */
static int dcache_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file_inode(file);
	struct simple_dentry *d;
	loff_t n = 2;

	if (ctx->pos == 0) {
		if (!dir_emit(ctx, ".", 1, dir->i_ino, DT_DIR))
			return 0;
		ctx->pos++;
	}
	if (ctx->pos == 1) {
		if (!dir_emit(ctx, "..", 2, parent_ino(dir), DT_DIR))
			return 0;
		ctx->pos++;
	}
	list_for_each_entry(d, &dir->i_children, d_child) {
		if (n++ < ctx->pos)
			continue;
		if (!dir_emit(ctx, d->d_name, strlen(d->d_name), d->d_inode->i_ino,
			      S_ISDIR(d->d_inode->i_mode) ? DT_DIR : DT_REG))
			return 0;
		ctx->pos++;
	}
	return 0;
}

/* Directories seek as Linux's dcache_dir_lseek: SEEK_SET and SEEK_CUR only. */
const struct file_operations simple_dir_operations = {
	.llseek = seq_lseek,
	.read = generic_read_dir,
	.iterate_shared = dcache_readdir,
	.fsync = noop_fsync,
};
