/*
 * Mounts (Linux's fs/namespace.c).  /proc, /sys and /dev always exist
 * here, so that programs written as Linux's init run unchanged, mounting
 * proc or sysfs succeeds without effect.  tmpfs mounts are real: a table
 * of (path, root inode) entries, which lookups consult before anything
 * else (fs/namei.c): the longest mount path that is a path or a leading
 * part of it gives the tmpfs root the rest of the path is walked from.
 *
 *   mounts[]:  "tmp" -> root inode of a tmpfs   (mounted at boot)
 *              "dev/shm" -> another tmpfs
 *
 * A later mount on the same path hides an earlier one, as Linux stacks
 * them.  umount2() refuses a mount with open files (EBUSY, as Linux's
 * mount reference count does) unless told to detach it (MNT_DETACH):
 * then files still open live on until closed.
 *
 * Locking: namespace_sem (Linux's) guards the table: read by lookups
 * (which take a reference to the root they walk from), and by rmdir and
 * rename across their checks and change (so no mount appears on or below
 * what they remove or move, whose paths change); written by mount, under
 * the mount point's i_rwsem (Linux's lock_mount: it cannot be removed
 * meanwhile), and umount, which empties the detached tree afterwards.
 * Lock order: see linux/fs.h.
 */
#include "linux/capability.h"
#include "linux/errno.h"
#include "linux/err.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/printk.h"
#include "linux/shmem_fs.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "linux/seq_file.h"
#include "fs/proc/internal.h"
#include "linux/mm.h"

#define NR_MOUNTS       16
#define MS_REMOUNT      32              /* mount(2) flag: change a mount's options */
#define MNT_FORCE       1               /* umount2 flags */
#define MNT_DETACH      2
#define MNT_EXPIRE      4
#define UMOUNT_NOFOLLOW 8

struct vfsmount {
	char mnt_path[DIR_PATH_MAX];    /* normalized: no leading or trailing '/' */
	size_t mnt_path_len;            /* strlen(mnt_path): every lookup compares it */
	struct inode *mnt_root;         /* a reference; NULL: a free slot */
	bool mnt_expiry_mark;           /* a umount2(MNT_EXPIRE) found it unused */
	bool mnt_leaf;                  /* no mount below it: its tree is walked alone */
};

static struct vfsmount mounts[NR_MOUNTS];
static int mounts_end;                  /* past the last slot in use: lookups scan no further */
static unsigned int mount_seq;          /* bumped at each change of the table */
DECLARE_RWSEM(namespace_sem, "namespace_sem");

/* Is path the mount path mnt or below it?  Then *rest is what follows ("" or "a/b"). */
static bool mnt_covers(const struct vfsmount *mnt, const char *path, const char **rest)
{
	size_t n = mnt->mnt_path_len;

	if (!mnt->mnt_root || strncmp(path, mnt->mnt_path, n) || (path[n] && path[n] != '/'))
		return false;
	*rest = path + n + (path[n] == '/');
	return true;
}

/*
 * The root inode of the mount that covers a normalized path, referenced
 * (an umount meanwhile leaves the caller's walk a detached tree), *rest
 * set to the part of the path below it, *leaf to whether no mount sits
 * below it (then any path in its tree is walked by its directories'
 * lookups alone: fs/namei_link.c's cursor, while mounts_changed(*seq)
 * says no); NULL if no mount covers it.
 */
struct inode *lookup_mnt(const char *path, const char **rest, bool *leaf, unsigned int *seq)
{
	struct vfsmount *best = NULL;
	const char *r;

	down_read(&namespace_sem);
	for (int i = 0; i < mounts_end; i++)
		if (mnt_covers(&mounts[i], path, &r) &&
		    (!best || mounts[i].mnt_path_len >= best->mnt_path_len)) {
			best = &mounts[i];
			*rest = r;
		}
	if (best) {
		ihold(best->mnt_root);
		*leaf = best->mnt_leaf;
		*seq = mount_seq;
	}
	up_read(&namespace_sem);
	return best ? best->mnt_root : NULL;
}

/* Does a mount sit below path (not on it)?  The caller holds namespace_sem. */
bool has_submounts(const char *path)
{
	size_t n = strlen(path);

	for (int i = 0; i < NR_MOUNTS; i++)
		if (mounts[i].mnt_root && !strncmp(mounts[i].mnt_path, path, n) &&
		    mounts[i].mnt_path[n] == '/')
			return true;
	return false;
}

/*
 * After the table changed: which mounts have none below them, and where
 * the slots in use end; namespace_sem written.
 */
static void update_leaves(void)
{
	WRITE_ONCE(mount_seq, mount_seq + 1);
	mounts_end = 0;
	for (int i = 0; i < NR_MOUNTS; i++) {
		if (!mounts[i].mnt_root)
			continue;
		mounts[i].mnt_leaf = !has_submounts(mounts[i].mnt_path);
		mounts_end = i + 1;
	}
}

/* Has the mount table changed since lookup_mnt() gave seq?  (A cursor walk then looks again.) */
bool mounts_changed(unsigned int seq)
{
	return READ_ONCE(mount_seq) != seq;
}

/* The topmost mount on exactly this path, or NULL; namespace_sem held. */
static struct vfsmount *find_mount(const char *path)
{
	struct vfsmount *found = NULL;

	for (int i = 0; i < NR_MOUNTS; i++)
		if (mounts[i].mnt_root && !strcmp(mounts[i].mnt_path, path))
			found = &mounts[i];
	return found;
}

/* Is a mount on path?  The caller holds namespace_sem. */
bool path_is_mountpoint(const char *path)
{
	return find_mount(path) != NULL;
}

/*
 * Mount a new file system of type fstype ("tmpfs") on the directory at
 * normalized path, with its option string; namespace_sem held for
 * writing.  0, -ENODEV (unknown type), -EINVAL (a bad option, or the
 * root), -EBUSY (the table is full), -ENOMEM.
 */
static int kern_mount(const char *path, const char *fstype, const char *options)
{
	struct vfsmount *slot = NULL;
	struct inode *root;
	int err;

	if (strcmp(fstype, "tmpfs"))
		return -ENODEV;
	if (!*path)
		return -EINVAL;
	for (int i = 0; i < NR_MOUNTS && !slot; i++)
		if (!mounts[i].mnt_root)
			slot = &mounts[i];
	if (!slot)
		return -EBUSY;
	err = shmem_fill_super(path, options, &root);
	if (err)
		return err;
	strlcpy(slot->mnt_path, path, DIR_PATH_MAX);
	slot->mnt_path_len = strlen(slot->mnt_path);
	slot->mnt_root = root;
	update_leaves();
	return 0;
}

/* path into m as /proc/mounts writes it: '/' first, space, tab, newline and '\\' in octal. */
static void mangle_path(struct seq_file *m, const char *path)
{
	seq_printf(m, "/");
	for (; *path; path++)
		if (strchr(" \t\n\\", *path))
			seq_printf(m, "\\%03o", *path);
		else
			seq_printf(m, "%c", *path);
}

/* " tmpfs rw,nosuid,nodev,noexec,relatime", the flags as Linux's show_mnt_opts lists them. */
static void show_mnt_flags(struct seq_file *m, unsigned long flags)
{
	seq_printf(m, " tmpfs rw%s%s%s,relatime", flags & SB_NOSUID ? ",nosuid" : "",
		   flags & SB_NODEV ? ",nodev" : "", flags & SB_NOEXEC ? ",noexec" : "");
}

/*
 * /proc/mounts (Linux's show_vfsmnt): "device mountpoint type options 0 0"
 * per mount — the read-only initrd at /, the kernel's own file systems at
 * their fixed places, then each tmpfs with the options it was given that
 * are not the defaults (shmem_show_options), under namespace_sem.
 */
static int mounts_proc_show(struct seq_file *m, void *v)
{
	static const char *const fixed[][3] = {
		{ "rootfs", "", "rootfs ro" }, { "proc", "proc", "proc rw,relatime" },
		{ "sysfs", "sys", "sysfs rw,relatime" },
		{ "debugfs", "sys/kernel/debug", "debugfs rw,relatime" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++) {
		seq_printf(m, "%s ", fixed[i][0]);
		mangle_path(m, fixed[i][1]);
		seq_printf(m, " %s 0 0\n", fixed[i][2]);
	}
	down_read(&namespace_sem);
	for (int i = 0; i < NR_MOUNTS; i++) {
		if (!mounts[i].mnt_root)
			continue;
		seq_printf(m, "tmpfs ");
		mangle_path(m, mounts[i].mnt_path);
		show_mnt_flags(m, mounts[i].mnt_root->i_sb->s_flags);
		shmem_show_options(m, mounts[i].mnt_root);
		seq_printf(m, " 0 0\n");
	}
	up_read(&namespace_sem);
	return 0;
}

const struct proc_dir_entry proc_mounts = { "mounts", mounts_proc_show };

/* Copy mount(2)'s option page in (Linux's copy_mount_options); NULL for none. */
static char *copy_mount_options(const void *data, long *err)
{
	char *opts;
	long n;

	if (!data)
		return NULL;
	opts = kzalloc(PAGE_SIZE);
	*err = opts ? 0 : -ENOMEM;
	if (!opts)
		return NULL;
	n = strncpy_from_user(opts, data, PAGE_SIZE - 1);
	if (n < 0) {
		*err = n;
		kfree(opts);
		return NULL;
	}
	return opts;
}

/* tmpfs on path, or with MS_REMOUNT new options for the one there; namespace_sem written. */
static long do_mount_path(const char *path, const char *fstype, unsigned long flags,
			  const char *opts)
{
	struct vfsmount *mnt;
	long err;

	if (!(flags & MS_REMOUNT)) {
		err = kern_mount(path, fstype, opts);
		mnt = err ? NULL : find_mount(path);
	} else {
		mnt = find_mount(path);
		err = mnt ? shmem_reconfigure(mnt->mnt_root->i_sb, opts) : -EINVAL;
	}
	if (!err)       /* nosuid, nodev, noexec: the mount's, kept by its super block */
		WRITE_ONCE(mnt->mnt_root->i_sb->s_flags, flags & SB_MNT_FLAGS);
	return err;
}

/*
 * Mount what fstype names on the directory target: proc and sysfs are
 * always there (no effect); tmpfs is mounted, or with MS_REMOUNT its
 * options changed.  A tmpfs directory is locked first (Linux's
 * lock_mount), so an rmdir cannot remove it between the check that it
 * lives and the mount.  0 or -errno (ENOENT: it was removed).
 */
static long do_mount(struct inode *target, const char *fstype, unsigned long flags,
		     const char *opts)
{
	char path[DIR_PATH_MAX];
	bool lock = target->i_op != NULL;       /* the read-only trees never change */
	long err = -ENOENT;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;          /* Linux's may_mount */
	if (!strcmp(fstype, "proc") || !strcmp(fstype, "sysfs"))
		return 0;
	if (!S_ISDIR(target->i_mode))
		return -ENOTDIR;
	if (lock)
		inode_lock(target);
	if (!IS_DEADDIR(target)) {
		down_write(&namespace_sem);
		dir_path(target, path, sizeof(path));
		err = do_mount_path(path, fstype, flags, opts ? opts : "");
		up_write(&namespace_sem);
	}
	if (lock)
		inode_unlock(target);
	return err;
}

/*
 * mount: arguments checked in Linux's order: the type, source and option
 * strings are copied, the target looked up, then the type must be known.
 */
long sys_mount(const char *usource, const char *utarget, const char *ufstype,
	       unsigned long flags, const void *data)
{
	char *fstype, *source = NULL, *opts = NULL;
	struct inode *target;
	long ret = 0;

	fstype = getname(ufstype, LOOKUP_EMPTY, &ret);
	if (fstype && usource)
		source = getname(usource, LOOKUP_EMPTY, &ret);
	if (!ret)
		opts = copy_mount_options(data, &ret);
	if (!ret)
		ret = user_path_at(AT_FDCWD, utarget, LOOKUP_FOLLOW, &target);
	if (!ret) {
		ret = do_mount(target, fstype, flags, opts);
		iput(target);
	}
	kfree(opts);
	kfree(source);
	kfree(fstype);
	return ret;
}

/*
 * May mnt go (Linux's do_umount checks)?  Not while files of it are open,
 * unless MNT_DETACH; MNT_EXPIRE unmounts only a mount that an earlier
 * MNT_EXPIRE already found unused (-EAGAIN marks it), never with
 * MNT_FORCE or MNT_DETACH.  0, -EINVAL, -EBUSY or -EAGAIN.
 */
static long may_umount(struct vfsmount *mnt, int flags)
{
	bool busy = atomic_read(&mnt->mnt_root->i_sb->s_nr_files) > 0;

	if (has_submounts(mnt->mnt_path))
		return -EBUSY;
	if (flags & MNT_EXPIRE) {
		if (flags & (MNT_FORCE | MNT_DETACH))
			return -EINVAL;
		if (busy)
			return -EBUSY;
		if (!mnt->mnt_expiry_mark) {
			mnt->mnt_expiry_mark = true;
			return -EAGAIN;
		}
	}
	return busy && !(flags & MNT_DETACH) ? -EBUSY : 0;
}

/*
 * Take the mount whose root is target out of the table (namespace_sem
 * written): its root, still referenced, or an ERR_PTR (see sys_umount2).
 */
static struct inode *umount_root(struct inode *target, int flags)
{
	char path[DIR_PATH_MAX];
	struct vfsmount *mnt;
	struct inode *root;
	long ret;

	dir_path(target, path, sizeof(path));
	mnt = find_mount(path);
	if (!mnt || mnt->mnt_root != target)
		return ERR_PTR(-EINVAL);
	ret = may_umount(mnt, flags);
	if (ret)
		return ERR_PTR(ret);
	root = mnt->mnt_root;
	mnt->mnt_root = NULL;
	mnt->mnt_expiry_mark = false;
	update_leaves();
	return root;
}

/*
 * umount2: detach the tmpfs mounted at target and drop its tree; with
 * MNT_DETACH, open files keep their inodes (and the super block) until
 * closed.  0, -EINVAL (not a mount point, a bad flag), -EBUSY (mounts
 * below it, open files) or -EAGAIN (see may_umount).
 */
long sys_umount2(const char *utarget, int flags)
{
	struct inode *target, *root = ERR_PTR(-EINVAL);
	long ret;

	if (flags & ~(MNT_FORCE | MNT_DETACH | MNT_EXPIRE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	ret = user_path_at(AT_FDCWD, utarget, flags & UMOUNT_NOFOLLOW ? 0 : LOOKUP_FOLLOW, &target);
	if (ret)
		return ret;
	if (!capable(CAP_SYS_ADMIN)) {
		iput(target);
		return -EPERM;
	}
	if (S_ISDIR(target->i_mode)) {
		down_write(&namespace_sem);
		root = umount_root(target, flags);
		up_write(&namespace_sem);
	}
	iput(target);
	if (IS_ERR(root))
		return PTR_ERR(root);
	simple_remove_all(root);        /* its own locks: not under namespace_sem */
	iput(root);
	return 0;
}

/* The boot mounts: tmpfs on /tmp and /dev/shm, as a Linux distribution's. */
void mnt_init(void)
{
	down_write(&namespace_sem);
	if (kern_mount("tmp", "tmpfs", "") || kern_mount("dev/shm", "tmpfs", ""))
		panic("mnt_init: cannot mount tmpfs");
	up_write(&namespace_sem);
}
