/*
 * File locks (Linux's fs/locks.c): advisory locks of three kinds, kept
 * per inode in a file_lock_context made at the first lock.
 *
 *   POSIX (fcntl F_SETLK/F_SETLKW/F_GETLK)  byte ranges owned by the
 *       process's fd table: a process's own locks never conflict, they
 *       merge and split; any close of an fd of the file by that process
 *       drops them all (locks_remove_posix); F_SETLKW fails with EDEADLK
 *       where waiting would close a cycle of owners.
 *   OFD (F_OFD_SETLK/SETLKW/GETLK)  the same ranges, owned by the open
 *       file: shared by dup and fork, gone with the file's last close.
 *   flock(2)  the whole file, shared or exclusive, owned by the open file.
 *
 * POSIX and OFD locks conflict with each other (one list), flock locks
 * only among themselves.  Two locks conflict when their owners differ,
 * their ranges overlap and one is a write (exclusive) lock.  A waiter
 * sleeps on the context's flc_wait, which every change wakes, and tries
 * again.
 *
 *   flc_posix:  [0,99] R (owner A) -> [200,EOF] W (owner B) -> ...
 *   flc_flock:  SH (file X) -> SH (file Y)
 *
 * Locking: file_lock_lock (a spinlock, never taken by interrupts) guards
 * every context's lists, each inode's i_flctx once set, and the list of
 * blocked POSIX owners the deadlock check walks.  Nothing is taken under
 * it; waiters sleep without it.  Lock order: see linux/fs.h.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/list.h"
#include "linux/printk.h"
#include "linux/sched.h"
#include "linux/slab.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "linux/wait.h"
#include "uapi/linux/fcntl.h"
#include "uapi/linux/fs.h"

#define OFFSET_MAX      0x7fffffffffffffffLL
#define MAX_DEADLK_ITERATIONS 10        /* Linux's bound on the owner chain */
#define FL_POSIX        1
#define FL_FLOCK        2
#define FL_OFDLCK       4

struct file_lock {
	struct list_head fl_list;       /* in its context's flc_posix or flc_flock */
	void *fl_owner;                 /* POSIX: the fd table; OFD, flock: the open file */
	int fl_pid;                     /* F_GETLK's l_pid: the owner's pid (OFD: -1) */
	unsigned char fl_flags;         /* FL_* */
	unsigned char fl_type;          /* F_RDLCK, F_WRLCK (F_UNLCK: a request to unlock) */
	loff_t fl_start, fl_end;        /* bytes, inclusive; fl_end OFFSET_MAX: to the end */
};

struct file_lock_context {
	struct list_head flc_posix, flc_flock;
	wait_queue_head_t flc_wait;     /* F_SETLKW and flock waiters */
};

/*
 * A POSIX owner asleep on another's lock (Linux's blocked_hash): the
 * deadlock check's edges.  Any change of ctx's locks removes its
 * waiters' edges (Linux's __locks_delete_block): each will look again.
 */
struct lock_waiter {
	struct list_head list;          /* on blocked_list, or empty */
	struct file_lock_context *ctx;
	void *owner, *waits_for;
};

static spinlock_t file_lock_lock = SPINLOCK_INIT("file_lock_lock");
static LIST_HEAD(blocked_list);

/* inode's lock context, made if it has none; NULL without memory. */
static struct file_lock_context *locks_get_context(struct inode *inode)
{
	struct file_lock_context *ctx = READ_ONCE(inode->i_flctx), *fresh;

	if (ctx)
		return ctx;
	fresh = kzalloc(sizeof(*fresh));
	if (!fresh)
		return NULL;
	INIT_LIST_HEAD(&fresh->flc_posix);
	INIT_LIST_HEAD(&fresh->flc_flock);
	init_waitqueue_head(&fresh->flc_wait);
	spin_lock(&file_lock_lock);
	ctx = inode->i_flctx;
	if (!ctx)
		ctx = inode->i_flctx = fresh;   /* published under the lock every reader takes */
	spin_unlock(&file_lock_lock);
	if (ctx != fresh)
		kfree(fresh);
	return ctx;
}

/* ctx's locks changed: its waiters' edges go; each waiter wakes and looks again.  file_lock_lock held. */
static void locks_unblock_waiters(struct file_lock_context *ctx)
{
	struct lock_waiter *w, *tmp;

	list_for_each_entry_safe(w, tmp, &blocked_list, list)
		if (w->ctx == ctx)
			list_del_init(&w->list);
}

/* inode is freed: its context goes, with any lock a bug left behind (reported). */
void locks_free_lock_context(struct inode *inode)
{
	struct file_lock_context *ctx = inode->i_flctx;
	struct file_lock *fl, *tmp;

	if (!ctx)
		return;
	list_for_each_entry_safe(fl, tmp, &ctx->flc_posix, fl_list) {
		pr_warn("locks_free_lock_context: a lock outlived every file of its inode\n");
		kfree(fl);
	}
	list_for_each_entry_safe(fl, tmp, &ctx->flc_flock, fl_list) {
		pr_warn("locks_free_lock_context: a flock outlived every file of its inode\n");
		kfree(fl);
	}
	kfree(ctx);
}

static bool ranges_overlap(const struct file_lock *a, loff_t start, loff_t end)
{
	return a->fl_start <= end && start <= a->fl_end;
}

/* Do a and the request (owner, type, range) conflict? */
static bool locks_conflict(const struct file_lock *a, const struct file_lock *req)
{
	return a->fl_owner != req->fl_owner && ranges_overlap(a, req->fl_start, req->fl_end) &&
	       (a->fl_type == F_WRLCK || req->fl_type == F_WRLCK);
}

/* The first lock of list that conflicts with req, or NULL.  file_lock_lock held. */
static struct file_lock *first_conflict(struct list_head *list, const struct file_lock *req)
{
	struct file_lock *fl;

	list_for_each_entry(fl, list, fl_list)
		if (locks_conflict(fl, req))
			return fl;
	return NULL;
}

/*
 * Would owner waiting for blocker_owner close a cycle (Linux's
 * posix_locks_deadlock)?  Follows who waits for whom from blocker_owner,
 * MAX_DEADLK_ITERATIONS steps at most.  file_lock_lock held.
 */
static bool posix_locks_deadlock(void *owner, void *blocker_owner)
{
	for (int i = 0; i < MAX_DEADLK_ITERATIONS; i++) {
		struct lock_waiter *w, *next = NULL;

		if (blocker_owner == owner)
			return true;
		list_for_each_entry(w, &blocked_list, list)
			if (w->owner == blocker_owner)
				next = w;
		if (!next)
			return false;
		blocker_owner = next->waits_for;
	}
	return false;
}

/* Do [as, ae] and [bs, be] overlap or touch? */
static bool ranges_touch(loff_t as, loff_t ae, loff_t bs, loff_t be)
{
	return as <= (be == OFFSET_MAX ? be : be + 1) && bs <= (ae == OFFSET_MAX ? ae : ae + 1);
}

/*
 * Apply req to its owner's POSIX locks (Linux's posix_lock_inode, no
 * conflict left): locks of its type that touch it merge into it, others
 * it overlaps are cut back or split (spare: a lock for the far piece),
 * then req is inserted among its owner's by start unless it unlocks.
 * Takes over req and spare when it uses them (NULLs them).  file_lock_lock held.
 */
static void posix_apply(struct file_lock_context *ctx, struct file_lock **req,
			struct file_lock **spare)
{
	struct file_lock *new = *req, *fl, *tmp;

	list_for_each_entry_safe(fl, tmp, &ctx->flc_posix, fl_list) {
		if (fl->fl_owner != new->fl_owner || fl->fl_type != new->fl_type ||
		    !ranges_touch(fl->fl_start, fl->fl_end, new->fl_start, new->fl_end))
			continue;
		new->fl_start = MIN(new->fl_start, fl->fl_start);
		new->fl_end = MAX(new->fl_end, fl->fl_end);
		list_del(&fl->fl_list);
		kfree(fl);
	}
	list_for_each_entry_safe(fl, tmp, &ctx->flc_posix, fl_list) {
		if (fl->fl_owner != new->fl_owner || !ranges_overlap(fl, new->fl_start, new->fl_end))
			continue;
		if (fl->fl_start < new->fl_start && fl->fl_end > new->fl_end) {
			**spare = *fl;          /* the piece after the request */
			(*spare)->fl_start = new->fl_end + 1;
			list_add(&(*spare)->fl_list, &fl->fl_list);
			*spare = NULL;
			fl->fl_end = new->fl_start - 1;
		} else if (fl->fl_start < new->fl_start) {
			fl->fl_end = new->fl_start - 1;
		} else if (fl->fl_end > new->fl_end) {
			fl->fl_start = new->fl_end + 1;
		} else {
			list_del(&fl->fl_list);
			kfree(fl);
		}
	}
	if (new->fl_type != F_UNLCK) {
		struct list_head *at = &ctx->flc_posix;  /* a new owner's: at the end */
		bool owners = false;

		/* an owner's locks stay together, by start, as Linux's: F_GETLK finds the first */
		list_for_each_entry(fl, &ctx->flc_posix, fl_list) {
			if (fl->fl_owner == new->fl_owner ? fl->fl_start > new->fl_end : owners) {
				at = &fl->fl_list;
				break;
			}
			owners |= fl->fl_owner == new->fl_owner;
		}
		list_add_tail(&new->fl_list, at);       /* before at */
		*req = NULL;
	}
}

/*
 * Take, change or drop the POSIX or OFD lock req on inode, waiting for
 * conflicting ones to go if wait (F_SETLKW).  0, -EAGAIN (a conflict,
 * no wait), -EDEADLK (waiting would deadlock), -ERESTARTSYS, -ENOMEM.
 * req (kmalloc'd) is taken over.
 */
static long posix_lock_inode_wait(struct inode *inode, struct file_lock *req, bool wait)
{
	struct file_lock_context *ctx = locks_get_context(inode);
	struct file_lock *spare = kmalloc(sizeof(*spare)), *blocker;
	struct lock_waiter waiter = { .ctx = ctx, .owner = req->fl_owner };
	DEFINE_WAIT(w);
	long err;

	if (!ctx || !spare) {
		kfree(spare);
		kfree(req);
		return -ENOMEM;
	}
	INIT_LIST_HEAD(&waiter.list);
	for (;;) {
		prepare_to_wait(&ctx->flc_wait, &w, TASK_INTERRUPTIBLE);
		spin_lock(&file_lock_lock);
		list_del_init(&waiter.list);
		blocker = req->fl_type == F_UNLCK ? NULL : first_conflict(&ctx->flc_posix, req);
		err = !blocker ? 0 : !wait ? -EAGAIN :
		      !(req->fl_flags & FL_OFDLCK) && posix_locks_deadlock(req->fl_owner,
									  blocker->fl_owner) ?
		      -EDEADLK : signal_pending(current) ? -ERESTARTSYS : 1;
		if (!err) {
			posix_apply(ctx, &req, &spare);
			locks_unblock_waiters(ctx);
		}
		if (err == 1) {
			waiter.waits_for = blocker->fl_owner;
			list_add(&waiter.list, &blocked_list);
		}
		spin_unlock(&file_lock_lock);
		if (err != 1)
			break;
		schedule();
	}
	finish_wait(&ctx->flc_wait, &w);
	if (!err)
		wake_up_all(&ctx->flc_wait);    /* an unlock or a downgrade may let a waiter in */
	kfree(spare);
	kfree(req);
	return err;
}

/*
 * A struct flock's range from the file's position (Linux's
 * flock_to_posix_lock) into fl: l_whence SEEK_SET/CUR/END, l_len 0 to
 * the end, a negative l_len the bytes before l_start.  0, -EINVAL,
 * -EOVERFLOW.
 */
static long flock_to_posix_lock(struct file *f, const struct flock *l, struct file_lock *fl)
{
	loff_t start;

	switch (l->l_whence) {
	case SEEK_SET:
		start = 0;
		break;
	case SEEK_CUR:
		start = f->f_pos;
		break;
	case SEEK_END:
		start = file_inode(f)->i_size;
		break;
	default:
		return -EINVAL;
	}
	if (l->l_start > OFFSET_MAX - start)
		return -EOVERFLOW;
	start += l->l_start;
	if (start < 0)
		return -EINVAL;
	if (l->l_len > 0) {
		if (l->l_len - 1 > OFFSET_MAX - start)
			return -EOVERFLOW;
		fl->fl_end = start + l->l_len - 1;
	} else if (l->l_len < 0) {
		fl->fl_end = start - 1;
		start += l->l_len;
		if (start < 0)
			return -EINVAL;
	} else {
		fl->fl_end = OFFSET_MAX;
	}
	fl->fl_start = start;
	return 0;
}

/* The lock a fcntl request describes, owned as ofd says; -EINVAL for a bad type or OFD l_pid. */
static long fcntl_to_lock(struct file *f, const struct flock *l, bool ofd, struct file_lock *fl)
{
	if (l->l_type != F_RDLCK && l->l_type != F_WRLCK && l->l_type != F_UNLCK)
		return -EINVAL;
	if (ofd && l->l_pid)
		return -EINVAL;
	*fl = (struct file_lock){
		.fl_owner = ofd ? (void *)f : (void *)current->files, .fl_type = l->l_type,
		.fl_flags = ofd ? FL_OFDLCK : FL_POSIX, .fl_pid = ofd ? -1 : current->tgid,
	};
	return flock_to_posix_lock(f, l, fl);
}

/* F_GETLK, F_OFD_GETLK: the first lock that would conflict, or l_type F_UNLCK. */
static long fcntl_getlk(struct file *f, bool ofd, struct flock *ul)
{
	struct file_lock req, *fl;
	struct file_lock_context *ctx;
	struct flock l;
	long err;

	if (copy_from_user(&l, ul, sizeof(l)))
		return -EFAULT;
	if (l.l_type == F_UNLCK)
		return -EINVAL;
	err = fcntl_to_lock(f, &l, ofd, &req);
	if (err)
		return err;
	l.l_type = F_UNLCK;
	spin_lock(&file_lock_lock);
	ctx = file_inode(f)->i_flctx;
	fl = ctx ? first_conflict(&ctx->flc_posix, &req) : NULL;
	if (fl) {
		l.l_type = fl->fl_type;
		l.l_whence = SEEK_SET;
		l.l_start = fl->fl_start;
		l.l_len = fl->fl_end == OFFSET_MAX ? 0 : fl->fl_end - fl->fl_start + 1;
		l.l_pid = fl->fl_pid;
	}
	spin_unlock(&file_lock_lock);
	return copy_to_user(ul, &l, sizeof(l)) ? -EFAULT : 0;
}

/*
 * F_SETLK(W), F_OFD_SETLK(W): take or drop a range lock.  EBADF for a
 * read lock on a file not open for reading or a write lock on one not
 * open for writing; EAGAIN, EDEADLK, EINTR as posix_lock_inode_wait.  A
 * POSIX lock taken while another thread closed fd is dropped again
 * (Linux's fcntl_setlk): the close found none to drop.
 */
static long fcntl_setlk(unsigned int fd, struct file *f, bool ofd, bool wait, struct flock *ul)
{
	struct file_lock *req = kmalloc(sizeof(*req));
	struct flock l;
	long err = -ENOMEM;

	if (!req)
		return err;
	err = copy_from_user(&l, ul, sizeof(l)) ? -EFAULT : fcntl_to_lock(f, &l, ofd, req);
	if (!err && ((l.l_type == F_RDLCK && !(f->f_mode & FMODE_READ)) ||
		     (l.l_type == F_WRLCK && !(f->f_mode & FMODE_WRITE))))
		err = -EBADF;
	if (err) {
		kfree(req);
		return err;
	}
	err = posix_lock_inode_wait(file_inode(f), req, wait);
	if (!err && !ofd && l.l_type != F_UNLCK) {
		struct file *now = fget_files(current->files, fd);

		if (now != f)
			locks_remove_posix(f, current->files);
		if (now)
			fput(now);              /* the table's still holds it */
	}
	return err;
}

/* fcntl's lock commands on fd's file f; -EINVAL for the others (do_fcntl's). */
long fcntl_lock(unsigned int fd, struct file *f, unsigned int cmd, unsigned long arg)
{
	struct flock *ul = (struct flock *)arg;

	switch (cmd) {
	case F_GETLK:
	case F_OFD_GETLK:
		return fcntl_getlk(f, cmd == F_OFD_GETLK, ul);
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		return fcntl_setlk(fd, f, cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW,
				   cmd == F_SETLKW || cmd == F_OFD_SETLKW, ul);
	}
	return -EINVAL;
}

/* Drop every lock of list that owner holds; true if one went.  file_lock_lock held. */
static bool remove_owned(struct list_head *list, void *owner)
{
	struct file_lock *fl, *tmp;
	bool removed = false;

	list_for_each_entry_safe(fl, tmp, list, fl_list)
		if (fl->fl_owner == owner) {
			list_del(&fl->fl_list);
			kfree(fl);
			removed = true;
		}
	return removed;
}

/* Drop owner's locks of one kind on f's inode and wake its waiters. */
static void locks_remove(struct file *f, void *owner, bool flock)
{
	struct file_lock_context *ctx = READ_ONCE(file_inode(f)->i_flctx);
	bool removed;

	if (!ctx)
		return;                         /* never locked: the common close */
	spin_lock(&file_lock_lock);
	removed = remove_owned(flock ? &ctx->flc_flock : &ctx->flc_posix, owner);
	if (removed)
		locks_unblock_waiters(ctx);
	spin_unlock(&file_lock_lock);
	if (removed)
		wake_up_all(&ctx->flc_wait);
}

/* A close of f by the process with fd table files: its POSIX locks on the file go (Linux's). */
void locks_remove_posix(struct file *f, struct files_struct *files)
{
	locks_remove(f, files, false);
}

/* f's last reference went: its OFD and flock locks go (Linux's locks_remove_file). */
void locks_remove_file(struct file *f)
{
	locks_remove(f, f, false);
	locks_remove(f, f, true);
}

/* Does file hold a flock of type on ctx? */
static bool flock_held(struct file_lock_context *ctx, struct file *file, unsigned char type)
{
	struct file_lock *fl;
	bool held = false;

	spin_lock(&file_lock_lock);
	list_for_each_entry(fl, &ctx->flc_flock, fl_list)
		held |= fl->fl_owner == file && fl->fl_type == type;
	spin_unlock(&file_lock_lock);
	return held;
}

/*
 * flock(fd, op): LOCK_SH or LOCK_EX on the whole file (the one held
 * already: nothing changes; one of the other kind is dropped first, as
 * Linux's, so the change is not atomic),
 * LOCK_UN drops it; LOCK_NB: EWOULDBLOCK instead of a wait.  EBADF,
 * EINVAL, EINTR.
 */
long sys_flock(int fd, unsigned int op)
{
	unsigned int type = op & ~LOCK_NB;
	struct file_lock_context *ctx;
	struct file_lock *req, *held;
	struct fd f = fdget(fd);
	DEFINE_WAIT(w);
	long err = 0;

	if (!f.file)
		return -EBADF;
	if (type != LOCK_SH && type != LOCK_EX && type != LOCK_UN) {
		fdput(f);
		return -EINVAL;
	}
	ctx = READ_ONCE(file_inode(f.file)->i_flctx);
	if (type != LOCK_UN && ctx && flock_held(ctx, f.file, type == LOCK_EX ? F_WRLCK : F_RDLCK)) {
		fdput(f);
		return 0;                       /* held already: nothing changes, nobody gets in */
	}
	locks_remove(f.file, f.file, true);
	if (type == LOCK_UN) {
		fdput(f);
		return 0;
	}
	ctx = locks_get_context(file_inode(f.file));
	req = kmalloc(sizeof(*req));
	if (!ctx || !req) {
		kfree(req);
		fdput(f);
		return -ENOMEM;
	}
	*req = (struct file_lock){ .fl_owner = f.file, .fl_flags = FL_FLOCK, .fl_pid = current->tgid,
				   .fl_type = type == LOCK_EX ? F_WRLCK : F_RDLCK, .fl_end = OFFSET_MAX };
	for (;;) {
		prepare_to_wait(&ctx->flc_wait, &w, TASK_INTERRUPTIBLE);
		spin_lock(&file_lock_lock);
		held = first_conflict(&ctx->flc_flock, req);
		err = !held ? 0 : (op & LOCK_NB) ? -EWOULDBLOCK : signal_pending(current) ?
		      -ERESTARTSYS : 1;
		if (!err)
			list_add_tail(&req->fl_list, &ctx->flc_flock);
		spin_unlock(&file_lock_lock);
		if (err != 1)
			break;
		schedule();
	}
	finish_wait(&ctx->flc_wait, &w);
	if (err)
		kfree(req);
	fdput(f);
	return err;
}
