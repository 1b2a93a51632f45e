/*
 * Path-name lookup, after Linux's fs/namei.c, for foliOS's tree: the
 * read-only initrd with /proc, /sys and /dev/console (the serial console)
 * on top, and tmpfs mounts (fs/namespace.c) over all of them.  A user path is copied in with getname(), made absolute
 * (relative paths start at "/" or at a directory fd), its "//", "." and
 * ".." resolved as Linux's component walk resolves them, then looked up
 * whole; the errors are Linux's:
 *
 *   EFAULT        the name is not readable user memory (up to its NUL)
 *   ENAMETOOLONG  no NUL in PATH_MAX bytes
 *   ENOENT        no such entry, or "" without AT_EMPTY_PATH
 *   ENOTDIR       a file used as a directory ("/proc/meminfo/x", "f/", "f/..")
 *   EBADF         a relative path against a dirfd that is not open
 *   ELOOP         more than MAXSYMLINKS (40) symbolic links on the way
 *
 * Symbolic links (S_IFLNK inodes: tmpfs's, the initrd's, /proc's) are
 * followed where they stand in the middle of a path, and at its end with
 * LOOKUP_FOLLOW or a trailing '/'; a link's ".." is its target's parent,
 * as Linux's walk has it.  Most paths have no link: they are resolved as
 * text ("." and ".." dropped, each checked to follow a directory) and
 * looked up whole, which no file system resolves through a link (a link
 * is not a directory), except /proc's "self", whose answer is the link's
 * own.  Only when that fails, or ends on a link to follow, does
 * link_walk() (fs/namei_link.c) go on component by component, following
 * each link: from where the text's walk in a tmpfs stopped (the link it
 * met, in the directory holding it), else from the start.  In a tmpfs
 * with no mount below it, each further component is a lookup in the
 * directory the walk stands in (struct nameidata, fs/namei.h):
 *
 *   stat("/tmp/l/x"), /tmp/l -> "/tmp":
 *     text:      mount "tmp" -> root --lookup "l"--> a link: stop there
 *     link_walk: splice "/tmp" + "/x"; absolute: from the root again
 *                mount "tmp" -> root --lookup "x"--> the file
 *
 * Each file system answers for its part of the tree with a referenced
 * inode (fs/proc, fs/sysfs.c, fs/initrd.c); below a mount point the
 * mounted tmpfs's directories are walked one component at a time.
 * fs/namei_parent.c resolves the parent of a name to be made or removed;
 * fs/namei_ops.c has the calls that create and remove names.
 *
 * Locking: a tmpfs directory is searched under its i_rwsem shared, one
 * at a time (the walk holds a reference to the next before it lets go);
 * the mount table is read under namespace_sem; a directory's path, where
 * a relative name starts, is copied under rename_lock (dir_path()).  The
 * initrd never changes, /proc inodes are made per lookup.  Lock order:
 * see linux/fs.h.
 */
#include "linux/errno.h"
#include "linux/namei.h"
#include "linux/sched.h"
#include "linux/uaccess.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/tty.h"
#include "linux/err.h"
#include "linux/initrd.h"
#include "linux/debugfs.h"
#include "linux/mm.h"
#include "linux/blkdev.h"
#include "fs/namei.h"

#define EMBEDDED_NAME_MAX 192           /* most names fit: copied on the stack first */

/*
 * Copy the user's path name into a new kmalloc'd buffer (PATH_MAX bytes
 * at most, its NUL included; -ENAMETOOLONG beyond).  Returns it (the
 * caller kfree()s it), or NULL with *err set.  "" is -ENOENT unless the
 * caller passes LOOKUP_EMPTY (Linux's getname_flags).  A short name is
 * copied onto the stack first and then into a buffer its size, which a
 * small kmalloc class gives at once (Linux's names_cache does the like).
 */
char *getname(const char *upath, int flags, long *err)
{
	char small[EMBEDDED_NAME_MAX], *name;
	long n = strncpy_from_user(small, upath, sizeof(small));

	if (n == -ENAMETOOLONG) {               /* longer: copy it again, whole */
		name = kmalloc(PATH_MAX);
		n = name ? strncpy_from_user(name, upath, PATH_MAX) : -ENOMEM;
	} else {
		name = n >= 0 ? kmalloc(n + 1) : NULL;
		if (name)
			memcpy(name, small, n + 1);
		else if (n >= 0)
			n = -ENOMEM;
	}
	if (n > 0 || (n == 0 && (flags & LOOKUP_EMPTY)))
		return name;
	*err = n < 0 ? n : -ENOENT;
	kfree(name);
	return NULL;
}

/*
 * The entry name in directory dir, under dir's i_rwsem shared: a
 * reference, or NULL if there is none or dir is no directory.
 */
struct inode *dir_lookup(struct inode *dir, const char *name)
{
	struct inode *next;

	if (!S_ISDIR(dir->i_mode) || !dir->i_op || !dir->i_op->lookup)
		return NULL;
	inode_lock_shared(dir);
	next = dir->i_op->lookup(dir, name);
	inode_unlock_shared(dir);
	return next;
}

/* nd takes over the reference to dir, which names the text of p up to at. */
static void nd_keep(struct nameidata *nd, struct inode *dir, size_t at)
{
	if (nd->dir)
		iput(nd->dir);
	nd->dir = dir;
	nd->at = at;
}

/* nd forgets where it stands. */
void nd_put(struct nameidata *nd)
{
	if (nd->dir)
		iput(nd->dir);
	if (nd->found)
		iput(nd->found);
	nd->dir = nd->found = NULL;
	nd->walkable = false;
}

/*
 * Walk rest ("a/b/c", "" for the root itself), the part of path p below
 * a mount, down from the mount's root (the caller's reference, taken
 * over) through each directory's lookup.  A referenced inode, NULL if a
 * component is missing or follows a file (a link, too), or
 * ERR_PTR(-ENAMETOOLONG).  With nd, where the walk stopped: nd->dir the
 * directory holding the last component it tried, nd->at that
 * component's offset in p (nd->dir NULL if it tried none), nd->found
 * the file it stopped at, if it stopped at one.
 */
static struct inode *walk_mnt(struct inode *root, const char *p, const char *rest,
			      struct nameidata *nd)
{
	struct inode *inode = root;
	char name[NAME_MAX + 1];

	while (*rest) {
		size_t len = strcspn(rest, "/");
		struct inode *next;

		if (nd && nd->dir && !S_ISDIR(inode->i_mode)) {
			nd->found = inode;      /* a link, say: link_walk() starts with it */
			return NULL;
		}
		if (len > NAME_MAX || !S_ISDIR(inode->i_mode)) {
			iput(inode);
			return len > NAME_MAX ? ERR_PTR(-ENAMETOOLONG) : NULL;
		}
		memcpy(name, rest, len);
		name[len] = '\0';
		next = dir_lookup(inode, name);
		if (nd)
			nd_keep(nd, inode, rest - p);
		else
			iput(inode);
		if (!next)
			return NULL;
		inode = next;
		rest += len + (rest[len] == '/');
	}
	return inode;
}

/* Is normalized path p the directory dir or below it? */
static bool path_below(const char *p, const char *dir, size_t len)
{
	return !strncmp(p, dir, len) && (!p[len] || p[len] == '/');
}

/*
 * The kernel's own files, each tree at its fixed place as Linux mounts
 * them: the terminals, the memory devices and the disks in /dev, /proc, /sys and
 * /sys/kernel/debug.  A path elsewhere asks none of them.  A referenced
 * inode, NULL if there is none, or an ERR_PTR.
 */
static struct inode *kernel_fs_lookup(const char *p)
{
	struct inode *inode = NULL;

	if (path_below(p, "dev", 3)) {
		inode = tty_dev_lookup(p);
		if (!inode)
			inode = mem_dev_lookup(p);
		if (!inode)
			inode = bdev_dev_lookup(p);
	} else if (path_below(p, "proc", 4)) {
		inode = proc_lookup(p);
	} else if (path_below(p, "sys", 3)) {
		inode = debugfs_lookup(p);
		if (!inode)
			inode = sysfs_lookup(p);
	}
	return inode;
}

/*
 * Look up one normalized path (no leading or trailing '/'; "" is the
 * root): a tmpfs mount covering it, then the kernel's own files, then
 * the initrd (which has their directories and the rest of /dev).  A
 * referenced inode, NULL if there is none, or an ERR_PTR.  With nd
 * (which it resets): where a walk in a mount stopped (walk_mnt) and
 * whether the answer lies in a walkable mount (struct nameidata).
 */
struct inode *lookup_text(const char *p, struct nameidata *nd)
{
	struct inode *inode;
	const char *rest;
	unsigned int seq;
	bool leaf;

	if (nd)
		nd_put(nd);
	inode = lookup_mnt(p, &rest, &leaf, &seq);
	if (inode) {
		if (nd) {
			nd->walkable = leaf;
			nd->mount_seq = seq;
		}
		return walk_mnt(inode, p, rest, nd);
	}
	inode = kernel_fs_lookup(p);
	return inode ? inode : initrd_iget(p);
}

/* p does not exist: ENOTDIR if one of its leading components is a file. */
static long missing(char *p)
{
	for (char *slash = strchr(p, '/'); slash; slash = strchr(slash + 1, '/')) {
		struct inode *inode;
		bool dir;

		*slash = '\0';
		inode = lookup_text(p, NULL);
		*slash = '/';
		if (IS_ERR_OR_NULL(inode))
			break;
		dir = S_ISDIR(inode->i_mode);
		iput(inode);
		if (!dir)
			return -ENOTDIR;
	}
	return -ENOENT;
}

/* Before a "." or "..": the path so far must be a directory; 0, -ENOTDIR or -ENOENT. */
long must_be_dir(char *p)
{
	struct inode *inode;
	bool dir;

	if (!*p)
		return 0;                       /* the root */
	inode = lookup_text(p, NULL);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	if (!inode)
		return missing(p);
	dir = S_ISDIR(inode->i_mode);
	iput(inode);
	return dir ? 0 : -ENOTDIR;
}

/*
 * ".." of out (w bytes): its last component goes — but not at root, the
 * process's root directory's path ("" but after chroot), above which
 * ".." leads nowhere (Linux's follow_dotdot stops at the root).
 */
void path_pop(char *out, size_t *w, const char *root)
{
	if (!strcmp(out, root))
		return;
	while (*w && out[*w - 1] != '/')
		(*w)--;
	out[*w ? --*w : 0] = '\0';
}

/*
 * Walk the components of in into out (PATH_MAX + DIR_PATH_MAX bytes):
 * empty ones ("//") and "." are dropped, ".." drops the one before it
 * ("/.." is "/": path_pop), each after a check that what precedes is a
 * directory, as Linux's walk does.  out gets them joined by '/', no
 * leading or trailing '/' ("" is the root).  Returns 0 or -errno.
 */
long normalize(const char *in, char *out, const char *root)
{
	size_t w = 0;

	*out = '\0';
	while (*in) {
		size_t len = strcspn(in, "/");
		bool dot = len == 1 && in[0] == '.', dotdot = len == 2 && !strncmp(in, "..", 2);
		long err = dot || dotdot ? must_be_dir(out) : 0;

		if (err)
			return err;
		if (dotdot) {
			path_pop(out, &w, root);
		} else if (len && !dot) {
			if (w)
				out[w++] = '/';
			memcpy(out + w, in, len);
			w += len;
			out[w] = '\0';
		}
		in += len + (in[len] == '/');
	}
	return 0;
}

/*
 * Copy the path of the directory a relative name starts from into buf
 * (size bytes): dirfd's, or with AT_FDCWD the working directory's ("" for
 * "/").  0, -EBADF, -ENOTDIR, or -ENOENT if the directory was removed
 * (its path may name another one by now).
 */
/*
 * The directory a relative name starts from: dirfd's, or with AT_FDCWD
 * the working directory's, referenced; NULL for "/" (no working
 * directory set) or with *err -EBADF.
 */
static struct inode *start_dir(int dirfd, long *err)
{
	struct inode *dir;
	struct fd d;

	*err = 0;
	if (dirfd == AT_FDCWD)
		return get_fs_pwd(current->fs);
	d = fdget_raw(dirfd);           /* an O_PATH directory too */
	if (!d.file) {
		*err = -EBADF;
		return NULL;
	}
	dir = file_inode(d.file);
	ihold(dir);
	fdput(d);
	return dir;
}

static long start_dir_path(int dirfd, char *buf, size_t size, struct inode **dead)
{
	struct inode *dir;
	long err;

	buf[0] = '\0';
	dir = start_dir(dirfd, &err);
	if (!dir)
		return err;
	if (!S_ISDIR(dir->i_mode)) {
		err = -ENOTDIR;
	} else if (IS_DEADDIR(dir)) {
		*dead = dir;            /* "." still names it: only_dots() */
		return -ENOENT;
	} else {
		dir_path(dir, buf, size);
	}
	iput(dir);
	return err;
}

/* The bytes "dir/name" may take: a directory's path, '/', name, NUL. */
static size_t walk_size(const char *name)
{
	return DIR_PATH_MAX + 1 + strlen(name) + 1;
}

int walk_bufs_alloc(struct walk_bufs *w, const char *name)
{
	size_t size = walk_size(name);

	w->in = kmalloc(2 * size);
	w->out = w->in + size;
	w->out_size = size;
	w->grown = NULL;
	w->jumped = false;
	w->dead = NULL;
	if (!w->in)
		return -ENOMEM;
	if (get_fs_root_path(current->fs, w->root, sizeof(w->root))) {
		kfree(w->in);
		return -ENOENT;         /* the root was removed: nothing is found from it */
	}
	return 0;
}

void walk_bufs_free(struct walk_bufs *w)
{
	if (w->dead)
		iput(w->dead);
	kfree(w->grown);
	kfree(w->in);
}

/*
 * Make out hold need bytes (WALK_MAX at most), its text kept: a new
 * buffer, a power of two, when a followed link makes it longer.  0,
 * -ENAMETOOLONG or -ENOMEM.
 */
int walk_out_reserve(struct walk_bufs *w, size_t need)
{
	size_t size = 256;
	char *grown;

	if (need <= w->out_size)
		return 0;
	if (need > WALK_MAX)
		return -ENAMETOOLONG;
	while (size < need)
		size *= 2;
	size = size < WALK_MAX ? size : WALK_MAX;
	grown = kmalloc(size);
	if (!grown)
		return -ENOMEM;
	strlcpy(grown, w->out, size);
	kfree(w->grown);
	w->grown = w->out = grown;
	w->out_size = size;
	return 0;
}

/*
 * Put "dir/name" (name relative to dirfd, or with AT_FDCWD to the working
 * directory; name absolute: relative to the root, w->root) into w->in
 * (walk_size(name) bytes); *trailing: it ends in '/'.  0 or
 * start_dir_path()'s error.
 */
long absolute(int dirfd, const char *name, struct walk_bufs *w, bool *trailing)
{
	char *buf = w->in;
	size_t n, len = strlen(name);
	long err;

	strlcpy(buf, w->root, DIR_PATH_MAX);
	if (name[0] != '/') {
		err = start_dir_path(dirfd, buf, DIR_PATH_MAX, &w->dead);
		if (err)
			return err;
	}
	n = strlen(buf);
	buf[n] = '/';
	memcpy(buf + n + 1, name, len + 1);
	n += 1 + len;
	*trailing = buf[n - 1] == '/';
	return 0;
}

/*
 * The target of the magic link *inode (jump_link), in place of the link's
 * reference, its file's name in w->out.  0 or -errno (*inode NULL).
 */
static long jump_link(struct walk_bufs *w, struct inode **inode)
{
	struct inode *link = *inode;
	long err = walk_out_reserve(w, PATH_MAX);

	*inode = err ? ERR_PTR(err) : link->i_op->jump_link(link, w->out);
	iput(link);
	if (IS_ERR(*inode)) {
		err = PTR_ERR(*inode);
		*inode = NULL;
		return err;
	}
	w->jumped = true;
	return 0;
}

/*
 * Resolve the absolute path w->in into w->out and look it up (Linux's
 * path_lookupat): *inode a reference.  As text first; if that fails or
 * ends on a link LOOKUP_FOLLOW follows, by link_walk() — from where the
 * text's walk in a mount stopped if it stopped in one (the text is
 * normalized: what follows is walked as it stands), else from the start;
 * but a last magic link (jump_link) gives its target.  0 or -errno.
 */
static long resolve(struct walk_bufs *w, unsigned int flags, struct inode **inode)
{
	struct nameidata nd = { 0 };
	long err = normalize(w->in, w->out, w->root);

	*inode = err ? NULL : lookup_text(w->out, &nd);
	if (IS_ERR(*inode)) {
		err = PTR_ERR(*inode);
		*inode = NULL;
		goto out;
	}
	err = 0;
	if (*inode && !(S_ISLNK((*inode)->i_mode) && (flags & LOOKUP_FOLLOW)))
		goto out;
	if (*inode && (*inode)->i_op && (*inode)->i_op->jump_link) {
		err = jump_link(w, inode);
		goto out;
	}
	if (*inode && nd.dir)
		nd.found = *inode;      /* the last link: link_walk() starts with it */
	else if (*inode)
		iput(*inode);
	*inode = NULL;
	err = link_walk(w, nd.dir ? w->out : w->in, &nd, flags, inode);
	if (err || *inode)
		goto out;
	*inode = lookup_text(w->out, NULL);
	err = IS_ERR(*inode) ? PTR_ERR(*inode) : *inode ? 0 : -ENOENT;
	if (err)
		*inode = NULL;
out:
	nd_put(&nd);
	return err;
}

/*
 * A relative name of "." components only ("." "./." ".//"): it names the
 * start directory itself, even a removed one (whose path may name
 * another by now), as Linux's walk, which never leaves it.
 */
bool only_dots(const char *name)
{
	if (*name == '/' || !*name)
		return false;
	for (; *name; name++)
		if (*name != '/' && (*name != '.' || (name[1] && name[1] != '/')))
			return false;
	return true;
}

/*
 * Resolve a kernel copy of a path name, relative to dirfd, into *inode (a
 * reference the caller iput()s), following a last link with
 * LOOKUP_FOLLOW; if path is not NULL, also the absolute resolved path
 * ("/tmp/x") into it (PATH_MAX bytes): an open file's name
 * (fs/d_path.c).  Returns 0 or -errno.
 */
long filename_lookup(int dirfd, const char *name, unsigned int flags, struct inode **inode,
		     char *path)
{
	struct walk_bufs w;
	bool trailing = false;
	long err = walk_bufs_alloc(&w, name);

	if (err)
		return err;
	err = absolute(dirfd, name, &w, &trailing);
	if (w.dead && only_dots(name)) {        /* "." of a removed directory */
		*inode = w.dead;
		w.dead = NULL;
		err = 0;
		dir_path(*inode, w.out, w.out_size);    /* its last path */
	} else if (!err)
		err = resolve(&w, flags | (trailing ? LOOKUP_FOLLOW : 0), inode);
	if (!err && trailing && !S_ISDIR((*inode)->i_mode)) {
		iput(*inode);
		err = -ENOTDIR;
	}
	if (!err && path)
		snprintf(path, PATH_MAX, w.jumped ? "%s" : "/%s", w.out);
	walk_bufs_free(&w);
	return err;
}

/* filename_lookup() without the name. */
long path_lookupat(int dirfd, const char *name, unsigned int flags, struct inode **inode)
{
	return filename_lookup(dirfd, name, flags, inode, NULL);
}

/*
 * getname() then path_lookupat(): flags LOOKUP_FOLLOW follows a last
 * link, LOOKUP_EMPTY lets "" through.
 */
long user_path_at(int dirfd, const char *upath, unsigned int flags, struct inode **inode)
{
	long err = 0;
	char *name = getname(upath, flags, &err);

	if (!name)
		return err;
	err = path_lookupat(dirfd, name, flags, inode);
	kfree(name);
	return err;
}

/*
 * The inode a *at call names, by its AT_* flags (Linux's user_path_at
 * with the lookup flags they make): dirfd's own with AT_EMPTY_PATH and
 * "", else the path's, its last link followed unless AT_SYMLINK_NOFOLLOW.
 * A reference; 0 or -errno.
 */
long user_path_at_flags(int dirfd, const char *upath, int at_flags, struct inode **inode)
{
	struct fd f;
	char c;

	if ((at_flags & AT_EMPTY_PATH) && dirfd != AT_FDCWD && !copy_from_user(&c, upath, 1) &&
	    !c) {
		f = fdget_raw(dirfd);
		if (!f.file)
			return -EBADF;
		*inode = file_inode(f.file);
		ihold(*inode);
		fdput(f);
		return 0;
	}
	return user_path_at(dirfd, upath, (at_flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
			    (at_flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), inode);
}

/* lookup_text() for the rest of fs/: a normalized path's inode (referenced), NULL or an ERR_PTR. */
struct inode *lookup_path(const char *path)
{
	return lookup_text(path, NULL);
}
