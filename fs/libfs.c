/*
 * Directories kept in memory (Linux's fs/libfs.c simple_* and dcache_*
 * helpers, which tmpfs uses).  Linux keeps a tmpfs directory's names in
 * the dcache; foliOS has no dentries, so each directory inode keeps a
 * list of entries of its own:
 *
 *   dir->i_children --> simple_dentry { "a", inode } --> { "sub", inode } ...
 *   dir->i_private     its absolute path without the leading '/' ("tmp/sub"):
 *                      relative lookups start there; it sits in a struct
 *                      simple_dir, which also keeps ".."'s inode number
 *
 * A change of entries makes the directory's mtime and ctime now, and the
 * ctime of the inode that gained or lost a name (fs/attr.c).
 * Each entry holds one reference to its inode; i_nlink counts the names
 * of a file, and 2 + subdirectories for a directory, as Linux's; a
 * directory's i_size is BOGO_DIRENT_SIZE per entry, "." and ".." included
 * (Linux's tmpfs).  An unlinked file lives on while open (its i_count),
 * with i_nlink 0; a removed directory has i_nlink 0 (IS_DEADDIR): nothing
 * can be made in it.  An open directory has a cursor in the list once a
 * getdents stopped inside it (Linux's dcache_readdir): an entry with no
 * inode, which the walks skip.
 *
 * Locking, as Linux's: the VFS (fs/namei_ops.c, fs/open.c) holds a
 * directory's i_rwsem exclusively around each inode operation that
 * changes its entries, and the inode of a name it removes (the victim);
 * lookups (fs/namei.c) and readdir (fs/readdir.c) hold it shared.
 * rename_lock (fs/d_path.c), a spinlock, also guards each list's links
 * and every directory's path: cursors move under the shared i_rwsem, and
 * a rename rewrites the paths of the subtree it moves without its locks.
 * An entry found under the i_rwsem stays while it is held.  Lock order:
 * see linux/fs.h.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/mm.h"
#include "uapi/linux/fs.h"

#define BOGO_DIRENT_SIZE 20             /* what stat calls an entry's size */

struct simple_dentry {
	struct list_head d_child;       /* in the directory's i_children */
	struct inode *d_inode;          /* a reference; NULL: a readdir cursor */
	char d_name[];
};

/* What a directory's i_private points into (at path). */
struct simple_dir {
	unsigned long parent_ino;       /* ".." (a mount's root: its own) */
	char path[DIR_PATH_MAX];
};

static struct simple_dir *SIMPLE_DIR(struct inode *dir)
{
	return container_of((char (*)[DIR_PATH_MAX])dir->i_private, struct simple_dir, path);
}

/* Join "parent/name" into buf (DIR_PATH_MAX); -ENAMETOOLONG if it does not fit. */
static int join_path(char *buf, const char *parent, const char *name)
{
	int n = snprintf(buf, DIR_PATH_MAX, "%s%s%s", parent, *parent ? "/" : "", name);

	return n < DIR_PATH_MAX ? 0 : -ENAMETOOLONG;
}

/*
 * Make dir (i_ino set) an empty directory: a mount's root at path, or
 * with "" one that simple_add_entry() names.  0 or -ENOMEM / -ENAMETOOLONG.
 */
int simple_dir_init(struct inode *dir, const char *path)
{
	struct simple_dir *sd;

	if (strlen(path) >= DIR_PATH_MAX)
		return -ENAMETOOLONG;
	sd = kmalloc(sizeof(*sd));
	if (!sd)
		return -ENOMEM;
	strlcpy(sd->path, path, DIR_PATH_MAX);
	sd->parent_ino = dir->i_ino;
	dir->i_private = sd->path;
	dir->i_nlink = 2;
	dir->i_size = 2 * BOGO_DIRENT_SIZE;
	INIT_LIST_HEAD(&dir->i_children);
	return 0;
}

/* Free what simple_dir_init() gave dir (its entries and cursors are gone by then). */
void simple_dir_destroy(struct inode *dir)
{
	if (!list_empty(&dir->i_children))
		panic("simple_dir_destroy: directory not empty");
	kfree(SIMPLE_DIR(dir));
}

/* The entry named name in dir (whose i_rwsem the caller holds), or NULL. */
static struct simple_dentry *find_entry(struct inode *dir, const char *name)
{
	struct simple_dentry *d, *found = NULL;

	spin_lock(&rename_lock);                /* other readers' cursors move */
	list_for_each_entry(d, &dir->i_children, d_child)
		if (d->d_inode && !strcmp(d->d_name, name)) {
			found = d;
			break;
		}
	spin_unlock(&rename_lock);
	return found;
}

/*
 * The inode named name in dir, referenced, or NULL.  The caller holds
 * dir's i_rwsem (shared will do): the reference is taken before an
 * unlink could drop the entry's.
 */
struct inode *simple_lookup(struct inode *dir, const char *name)
{
	struct simple_dentry *d;

	inode_assert_locked(dir);
	d = find_entry(dir, name);
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

/*
 * Link d into dir, newest first (getdents lists a tmpfs directory in the
 * order Linux's dcache_readdir does); a directory's ".." becomes dir.
 * Under rename_lock, with dir's i_rwsem held exclusively.
 */
static void __insert_entry(struct inode *dir, struct simple_dentry *d)
{
	list_add(&d->d_child, &dir->i_children);
	dir->i_size += BOGO_DIRENT_SIZE;
	inode_touch_mtime(dir);
	if (S_ISDIR(d->d_inode->i_mode)) {
		dir->i_nlink++;
		SIMPLE_DIR(d->d_inode)->parent_ino = dir->i_ino;
	}
}

/* Unlink d from dir: the counterpart of __insert_entry(), under the same locks. */
static void __detach_entry(struct inode *dir, struct simple_dentry *d)
{
	list_del(&d->d_child);
	dir->i_size -= BOGO_DIRENT_SIZE;
	inode_touch_mtime(dir);
	if (S_ISDIR(d->d_inode->i_mode))
		dir->i_nlink--;
}

/*
 * Enter inode as name in dir, taking over the caller's reference (Linux's
 * d_instantiate + dget); a directory gets its path.  The caller holds
 * dir's i_rwsem exclusively and found name free.  0, -ENOMEM or
 * -ENAMETOOLONG (the reference is then still the caller's).
 */
int simple_add_entry(struct inode *dir, const char *name, struct inode *inode)
{
	struct simple_dentry *d = new_entry(name, inode);
	char path[DIR_PATH_MAX];
	int err = 0;

	if (!d)
		return -ENOMEM;
	spin_lock(&rename_lock);                /* dir's path and the new one agree */
	if (S_ISDIR(inode->i_mode))
		err = join_path(path, dir->i_private, name);
	if (!err && S_ISDIR(inode->i_mode))
		strlcpy(inode->i_private, path, DIR_PATH_MAX);
	if (!err)
		__insert_entry(dir, d);
	spin_unlock(&rename_lock);
	if (err)
		kfree(d);
	return err;
}

static void detach_entry(struct inode *dir, struct simple_dentry *d)
{
	spin_lock(&rename_lock);
	__detach_entry(dir, d);
	spin_unlock(&rename_lock);
}

/*
 * A detached name is gone: its inode loses the link (a directory all of
 * them: it is dead), then the entry's reference.  The caller holds the
 * inode's i_rwsem: a file's other names may go at once in other directories.
 */
static void drop_entry(struct simple_dentry *d)
{
	struct inode *inode = d->d_inode;

	if (S_ISDIR(inode->i_mode))
		inode->i_nlink = 0;
	else
		inode->i_nlink--;
	inode_touch_ctime(inode);
	kfree(d);
	iput(inode);
}

/*
 * link(): a second name for a file (Linux's simple_link).  The VFS holds
 * dir's i_rwsem and the file's.  0 or -errno.
 */
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
	inode_touch_ctime(inode);
	return 0;
}

/* unlink(): remove a non-directory's name (VFS: dir and victim locked).  0, -ENOENT or -EISDIR. */
int simple_unlink(struct inode *dir, const char *name)
{
	struct simple_dentry *d = find_entry(dir, name);

	if (!d)
		return -ENOENT;
	if (S_ISDIR(d->d_inode->i_mode))
		return -EISDIR;
	detach_entry(dir, d);
	drop_entry(d);
	return 0;
}

/* dir's first entry (cursors skipped) or NULL; dir's i_rwsem held. */
static struct simple_dentry *first_positive(struct inode *dir)
{
	struct simple_dentry *d, *found = NULL;

	spin_lock(&rename_lock);
	list_for_each_entry(d, &dir->i_children, d_child)
		if (d->d_inode) {
			found = d;
			break;
		}
	spin_unlock(&rename_lock);
	return found;
}

/* Has dir no entries (Linux's simple_empty)?  Its cursors do not count. */
static bool simple_empty(struct inode *dir)
{
	return !first_positive(dir);
}

/*
 * rmdir(): remove an empty directory (VFS: dir and victim locked, mount
 * points refused).  0, -ENOENT, -ENOTDIR or -ENOTEMPTY.
 */
int simple_rmdir(struct inode *dir, const char *name)
{
	struct simple_dentry *d = find_entry(dir, name);

	if (!d)
		return -ENOENT;
	if (!S_ISDIR(d->d_inode->i_mode))
		return -ENOTDIR;
	if (!simple_empty(d->d_inode))
		return -ENOTEMPTY;
	detach_entry(dir, d);
	drop_entry(d);
	return 0;
}

/*
 * Set the paths of dir's subdirectories after dir's own changed (a
 * rename).  With check set only test that each new path fits:
 * 0 or -ENAMETOOLONG.  Under rename_lock: the subtree's lists hold still.
 */
static int rename_subtree(struct inode *dir, bool check)
{
	struct simple_dentry *d;
	char path[DIR_PATH_MAX];

	list_for_each_entry(d, &dir->i_children, d_child) {
		int err;

		if (!d->d_inode || !S_ISDIR(d->d_inode->i_mode))
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
 * subtree theirs.  All or nothing: 0 or -ENAMETOOLONG.  Under rename_lock.
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
	return old_dir && !simple_empty(new->d_inode) ? -ENOTEMPTY : 0;
}

/*
 * Move entry old (in old_dir) to new_dir as moved, dropping new (the
 * target) from the list if there is one; a directory's paths follow.
 * 0 or -ENAMETOOLONG (nothing moved).
 */
static int move_entry(struct inode *old_dir, struct simple_dentry *old, struct inode *new_dir,
		      struct simple_dentry *new, struct simple_dentry *moved)
{
	int err = 0;

	spin_lock(&rename_lock);
	if (S_ISDIR(old->d_inode->i_mode))
		err = rename_dir_path(old->d_inode, new_dir, moved->d_name);
	if (!err) {
		if (new)
			__detach_entry(new_dir, new);
		__detach_entry(old_dir, old);
		__insert_entry(new_dir, moved);         /* the old entry's reference */
	}
	spin_unlock(&rename_lock);
	return err;
}

/*
 * RENAME_EXCHANGE: old and new trade inodes (Linux's
 * simple_rename_exchange), each directory's subtree following it; the
 * directories' link counts follow from the entries re-inserted.  All or
 * nothing: 0 or -ENAMETOOLONG.  Under the VFS's locks as simple_rename.
 */
static int exchange_entries(struct inode *old_dir, struct simple_dentry *old,
			    struct inode *new_dir, struct simple_dentry *new)
{
	struct inode *a = old->d_inode, *b = new->d_inode;
	int err = 0;

	spin_lock(&rename_lock);
	if (S_ISDIR(a->i_mode))
		err = rename_dir_path(a, new_dir, new->d_name);
	if (!err && S_ISDIR(b->i_mode)) {
		err = rename_dir_path(b, old_dir, old->d_name);
		if (err && S_ISDIR(a->i_mode))
			rename_dir_path(a, old_dir, old->d_name);      /* back: it fitted there */
	}
	if (!err) {
		__detach_entry(old_dir, old);
		__detach_entry(new_dir, new);
		old->d_inode = b;
		new->d_inode = a;
		__insert_entry(old_dir, old);
		__insert_entry(new_dir, new);
	}
	spin_unlock(&rename_lock);
	if (!err) {
		inode_touch_ctime(a);
		inode_touch_ctime(b);
	}
	return err;
}

/*
 * rename(): move old_dir/old_name to new_dir/new_name, replacing what is
 * there unless RENAME_NOREPLACE, or trading places with it with
 * RENAME_EXCHANGE; a directory's subtree follows.  The VFS
 * holds both directories (lock_rename), the target's inode and
 * namespace_sem.  0, or ENOENT, EEXIST, ENOTDIR, EISDIR, ENOTEMPTY,
 * EINVAL (a directory into itself), ENAMETOOLONG, ENOMEM.
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
	if (flags & RENAME_EXCHANGE)
		return new ? exchange_entries(old_dir, old, new_dir, new) : -ENOENT;
	if (S_ISDIR(inode->i_mode) && is_subdir(new_dir, inode))
		return -EINVAL;                 /* lock_rename keeps that true */
	err = new ? may_replace(old, new, flags) : 0;
	if (err)
		return err;
	moved = new_entry(new_name, inode);
	if (!moved)
		return -ENOMEM;
	err = move_entry(old_dir, old, new_dir, new, moved);
	if (err) {
		kfree(moved);
		return err;
	}
	kfree(old);
	if (new)
		drop_entry(new);
	inode_touch_ctime(inode);               /* as Linux's simple_rename */
	return 0;
}

/*
 * Drop every entry under dir, depth first, and mark dir dead (the
 * unmount of a tmpfs, whose lookups may still be walking it); files still
 * open live on unlinked.  Each directory is locked alone, as its entries
 * go one at a time.
 */
void simple_remove_all(struct inode *dir)
{
	struct simple_dentry *d;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	while ((d = first_positive(dir))) {
		struct inode *inode = d->d_inode;

		detach_entry(dir, d);
		inode_unlock(dir);
		if (S_ISDIR(inode->i_mode)) {
			simple_remove_all(inode);
		} else {
			inode_lock(inode);
			inode->i_nlink--;
			inode_unlock(inode);
		}
		kfree(d);
		iput(inode);
		inode_lock_nested(dir, I_MUTEX_PARENT);
	}
	dir->i_nlink = 0;
	inode_unlock(dir);
}

/* "." and ".." at positions 0 and 1 (Linux's dir_emit_dots). */
static bool dir_emit_dots(struct inode *dir, struct dir_context *ctx)
{
	unsigned long parent_ino;

	if (ctx->pos == 0) {
		if (!dir_emit(ctx, ".", 1, dir->i_ino, DT_DIR))
			return false;
		ctx->pos = 1;
	}
	if (ctx->pos == 1) {
		spin_lock(&rename_lock);        /* a rename into another directory sets it */
		parent_ino = SIMPLE_DIR(dir)->parent_ino;
		spin_unlock(&rename_lock);
		if (!dir_emit(ctx, "..", 2, parent_ino, DT_DIR))
			return false;
		ctx->pos = 2;
	}
	return true;
}

/*
 * The count-th entry after p in dir's list, cursors skipped, or NULL
 * (Linux's scan_positives).  The caller holds dir's i_rwsem: entries
 * stay while it does, only cursors move.
 */
static struct simple_dentry *scan_positives(struct inode *dir, struct list_head *p, loff_t count)
{
	struct simple_dentry *found = NULL;

	spin_lock(&rename_lock);
	while ((p = p->next) != &dir->i_children) {
		struct simple_dentry *d = list_entry(p, struct simple_dentry, d_child);

		if (d->d_inode && !--count) {
			found = d;
			break;
		}
	}
	spin_unlock(&rename_lock);
	return found;
}

/*
 * getdents of a directory (Linux's dcache_readdir), under its i_rwsem
 * shared (fs/readdir.c): position 0 is ".", 1 "..", 2 + n the n-th
 * entry.  The file's cursor sits before the next entry to give, so a
 * getdents that continues a listing resumes there whatever came or went
 * meanwhile: a name present throughout comes once (new ones come first,
 * so not in this pass).
 */
static int dcache_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file_inode(file);
	struct simple_dentry *cursor = file->private_data, *next;
	struct list_head *p = &dir->i_children;
	bool on_list;

	if (!dir_emit_dots(dir, ctx))
		return 0;
	spin_lock(&rename_lock);
	on_list = !list_empty(&cursor->d_child);
	spin_unlock(&rename_lock);
	if (ctx->pos > 2 && !on_list)
		return 0;                       /* the end was reached */
	if (ctx->pos > 2)
		p = &cursor->d_child;
	while ((next = scan_positives(dir, p, 1))) {
		if (!dir_emit(ctx, next->d_name, strlen(next->d_name), next->d_inode->i_ino,
			      S_DT(next->d_inode->i_mode)))
			break;
		ctx->pos++;
		p = &next->d_child;
	}
	spin_lock(&rename_lock);
	if (next)
		list_move_tail(&cursor->d_child, &next->d_child);
	else
		list_del_init(&cursor->d_child);
	spin_unlock(&rename_lock);
	return 0;
}

/*
 * lseek of a directory (Linux's dcache_dir_lseek): SEEK_SET and SEEK_CUR
 * only; the cursor moves behind the entry before the new position.
 */
static loff_t dcache_dir_lseek(struct file *file, loff_t offset, int whence)
{
	struct inode *dir = file_inode(file);
	struct simple_dentry *cursor = file->private_data, *to = NULL;

	if (whence == SEEK_CUR && __builtin_add_overflow(file->f_pos, offset, &offset))
		return -EINVAL;
	if ((whence != SEEK_SET && whence != SEEK_CUR) || offset < 0)
		return -EINVAL;
	if (offset == file->f_pos)
		return offset;
	inode_lock_shared(dir);
	if (offset > 2)
		to = scan_positives(dir, &dir->i_children, offset - 2);
	spin_lock(&rename_lock);
	if (to)
		list_move(&cursor->d_child, &to->d_child);
	else
		list_del_init(&cursor->d_child);
	spin_unlock(&rename_lock);
	file->f_pos = offset;
	inode_unlock_shared(dir);
	return offset;
}

/* An open directory gets its cursor, off the list until a getdents stops inside it. */
static int dcache_dir_open(struct inode *inode, struct file *file)
{
	struct simple_dentry *cursor = new_entry("", NULL);

	if (!cursor)
		return -ENOMEM;
	INIT_LIST_HEAD(&cursor->d_child);
	file->private_data = cursor;
	return 0;
}

static int dcache_dir_close(struct inode *inode, struct file *file)
{
	struct simple_dentry *cursor = file->private_data;

	spin_lock(&rename_lock);
	list_del(&cursor->d_child);
	spin_unlock(&rename_lock);
	kfree(cursor);
	return 0;
}

const struct file_operations simple_dir_operations = {
	.open = dcache_dir_open,
	.release = dcache_dir_close,
	.llseek = dcache_dir_lseek,
	.read = generic_read_dir,
	.iterate_shared = dcache_readdir,
	.fsync = noop_fsync,
};
