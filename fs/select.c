/*
 * poll, ppoll, select and pselect6 (Linux's fs/select.c).  Each fd's file answers through
 * its ->poll (pipes, the console); a file without one (regular and proc
 * files) is always readable and writable, as on Linux.  A revents holds
 * what was asked for plus POLLERR and POLLHUP, or POLLNVAL for an fd that
 * is not open; a negative fd is skipped.  select's three fd sets ask the
 * same ->poll: readable is any of POLLIN_SET, writable POLLOUT_SET,
 * exceptional POLLEX_SET, and the count is of the bits set on return.
 *
 * Waiting: the ->poll methods take no wait queue yet, so a poller that
 * found nothing ready sleeps until the next timer tick (or a signal) and
 * asks again — a wake-up at most 1/HZ late.
 */
#include "linux/sched/signal.h"
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/time64.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "uapi/linux/poll.h"
#include "uapi/linux/resource.h"
#include "linux/mm.h"
#include <asm/arch.h>

#define DEFAULT_POLLMASK        (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)
#define PPOLL_MAX_SECS          (1L << 32)
#define POLLIN_SET      (EPOLLRDNORM | EPOLLRDBAND | EPOLLIN | EPOLLHUP | EPOLLERR)
#define POLLOUT_SET     (EPOLLWRBAND | EPOLLWRNORM | EPOLLOUT | EPOLLERR)
#define POLLEX_SET      EPOLLPRI
#define BITS_PER_LONG   64
#define FDS_LONGS       (NR_OPEN / BITS_PER_LONG)

/* A file's ready mask (Linux's vfs_poll): its ->poll, or always ready without one. */
static __poll_t file_poll(struct file *file)
{
	return file->f_op->poll ? file->f_op->poll(file, NULL) : DEFAULT_POLLMASK;
}

/* One fd's revents (Linux's do_pollfd). */
static __poll_t do_pollfd(const struct pollfd *pfd)
{
	struct fd f;
	__poll_t mask;

	if (pfd->fd < 0)
		return 0;
	f = fdget(pfd->fd);
	if (!f.file)
		return POLLNVAL;
	mask = file_poll(f.file);
	fdput(f);
	return mask & ((__poll_t)(unsigned short)pfd->events | POLLERR | POLLHUP);
}

/* The tick after j, or why not (schedule_tick_timeout) as poll's result; 1: ask again. */
static long poll_wait_tick(unsigned long j, bool timed, u64 end)
{
	long ret = schedule_tick_timeout(j, timed, end);

	return ret == -EINTR ? -ERESTARTNOHAND : ret;  /* pselect's mask lets a pending one in */
}

/*
 * Ask every fd until one is ready (Linux's do_poll): the number of fds
 * with revents, 0 once ktime_get_ns() reaches end (if timed), or
 * -ERESTARTNOHAND when a signal arrives first.
 */
static long do_poll(struct pollfd *fds, unsigned int nfds, bool timed, u64 end)
{
	for (;;) {
		unsigned long j = jiffies;
		long count = 0;

		for (unsigned int i = 0; i < nfds; i++) {
			fds[i].revents = do_pollfd(&fds[i]);
			count += fds[i].revents != 0;
		}
		if (count)
			return count;
		count = poll_wait_tick(j, timed, end);
		if (count <= 0)
			return count;
	}
}

/*
 * Copy the pollfds in, poll, and copy each revents back (Linux's
 * do_sys_poll): do_poll's result, -EINVAL for more fds than RLIMIT_NOFILE,
 * -EFAULT, or -ENOMEM.
 */
static long do_sys_poll(struct pollfd *ufds, unsigned int nfds, bool timed, u64 end)
{
	struct pollfd *fds;
	long ret;

	if (nfds > rlimit(RLIMIT_NOFILE))
		return -EINVAL;
	fds = kmalloc(nfds * sizeof(*fds) + 1);
	if (!fds)
		return -ENOMEM;
	ret = -EFAULT;
	if (copy_from_user(fds, ufds, nfds * sizeof(*fds)))
		goto out;
	ret = do_poll(fds, nfds, timed, end);
	for (unsigned int i = 0; i < nfds; i++)
		if (copy_to_user(&ufds[i].revents, &fds[i].revents, sizeof(short))) {
			ret = -EFAULT;
			break;
		}
out:
	kfree(fds);
	return ret;
}

/*
 * Give back what remains of a nonzero timeout ts (seconds, then
 * nanoseconds; utime a timeval if timeval) given at start, never below
 * zero, as Linux's poll_select_finish: a fault turns a restart into
 * -EINTR (the time could not be kept).  Returns ret.
 */
static long poll_select_finish(void *utime, long ts[2], bool timeval, u64 start, long ret)
{
	u64 spent = ktime_get_ns() - start;

	if (!ts[0] && !ts[1])
		return ret;
	ts[0] -= spent / NSEC_PER_SEC;
	ts[1] -= spent % NSEC_PER_SEC;
	if (ts[1] < 0) {
		ts[0]--;
		ts[1] += NSEC_PER_SEC;
	}
	if (ts[0] < 0)
		ts[0] = ts[1] = 0;
	if (timeval)
		ts[1] /= NSEC_PER_USEC;
	if (copy_to_user(utime, ts, 2 * sizeof(long)) && ret == -ERESTARTNOHAND)
		ret = -EINTR;
	return ret;
}

/* restart_syscall after a timed poll: the same end time (Linux's do_restart_poll). */
static long do_restart_poll(struct restart_block *rb)
{
	long ret = do_sys_poll(rb->poll.ufds, rb->poll.nfds, rb->poll.has_timeout,
			       rb->poll.expires);

	return ret == -ERESTARTNOHAND ? -ERESTART_RESTARTBLOCK : ret;
}

/*
 * poll(fds, nfds, timeout): timeout in ms, negative for none.  A signal
 * gives -EINTR after its handler; with no handler the call goes on, a
 * timed one through restart_syscall with the end time it had.
 */
long sys_poll(struct pollfd *ufds, unsigned int nfds, int timeout_msecs)
{
	u64 end = ktime_get_ns() + (u64)(timeout_msecs > 0 ? timeout_msecs : 0) * NSEC_PER_MSEC;
	long ret = do_sys_poll(ufds, nfds, timeout_msecs >= 0, end);

	if (ret == -ERESTARTNOHAND && timeout_msecs >= 0) {
		struct restart_block *rb = &current->restart_block;

		rb->fn = do_restart_poll;
		rb->poll.ufds = ufds;
		rb->poll.nfds = nfds;
		rb->poll.has_timeout = true;
		rb->poll.expires = end;
		ret = -ERESTART_RESTARTBLOCK;
	}
	return ret;
}

/*
 * Read a timeout (seconds, then nanoseconds or, for a timeval,
 * microseconds — a million or more of them carried into the seconds, as
 * Linux's select does) into ts as seconds and nanoseconds and its end
 * from start into *end; *timed false for none (NULL) or one too far to
 * matter.  0, -EFAULT or -EINVAL (negative, or a timespec's nanoseconds
 * a second or more).
 */
static long get_timeout(const void *utime, bool timeval, u64 start, long ts[2], u64 *end,
			bool *timed)
{
	*timed = false;
	ts[0] = ts[1] = 0;
	if (!utime)
		return 0;
	if (copy_from_user(ts, utime, 2 * sizeof(long)))
		return -EFAULT;
	if (timeval) {
		ts[0] += ts[1] / USEC_PER_SEC;
		ts[1] = ts[1] % USEC_PER_SEC * NSEC_PER_USEC;
	}
	if (ts[0] < 0 || ts[1] < 0 || ts[1] >= NSEC_PER_SEC)
		return -EINVAL;
	*timed = ts[0] < PPOLL_MAX_SECS;
	*end = start + (u64)ts[0] * NSEC_PER_SEC + ts[1];
	return 0;
}

/*
 * ppoll(fds, nfds, tsp, sigmask, sigsetsize): poll with a timespec (NULL
 * for none) that is given back what remains of it, and with sigmask
 * blocked while it waits — kept until a handler has run if one
 * interrupts it.  -EINVAL for a bad timespec or set size.
 */
long sys_ppoll(struct pollfd *ufds, unsigned int nfds, const void *tsp, const sigset_t *sigmask,
	       unsigned long sigsetsize)
{
	u64 start = ktime_get_ns(), end = 0;
	bool timed;
	long ts[2], ret = get_timeout(tsp, false, start, ts, &end, &timed);

	if (ret)
		return ret;
	ret = set_user_sigmask(sigmask, sigsetsize);
	if (ret)
		return ret;
	ret = do_sys_poll(ufds, nfds, timed, end);
	restore_saved_sigmask_unless(ret == -ERESTARTNOHAND);
	return tsp ? poll_select_finish((void *)tsp, ts, false, start, ret) : ret;
}

/*
 * select's fd sets in the kernel: what was asked (in, out, ex) and what
 * is ready (res_*), NR_OPEN bits each (Linux's fd_set_bits).
 */
struct fd_set_bits {
	unsigned long in[FDS_LONGS], out[FDS_LONGS], ex[FDS_LONGS];
	unsigned long res_in[FDS_LONGS], res_out[FDS_LONGS], res_ex[FDS_LONGS];
};

/* Every fd asked about must be open (Linux's max_select_fd): 0 or -EBADF. */
static long select_fds_open(int n, const struct fd_set_bits *fds)
{
	for (int i = 0; i < n; i++) {
		unsigned long bit = 1UL << (i % BITS_PER_LONG), w = i / BITS_PER_LONG;
		struct fd f;

		if (!((fds->in[w] | fds->out[w] | fds->ex[w]) & bit))
			continue;
		f = fdget_raw(i);               /* open, O_PATH too (it is never ready) */
		if (!f.file)
			return -EBADF;
		fdput(f);
	}
	return 0;
}

/*
 * Ask each fd of the sets until one is ready (Linux's do_select): the
 * number of bits set in res_*, 0 once the time is up, -ERESTARTNOHAND
 * for a signal.  An fd closed meanwhile is ready for nothing.
 */
static long do_select(int n, struct fd_set_bits *fds, bool timed, u64 end)
{
	for (;;) {
		unsigned long j = jiffies;
		long count = 0;

		for (int i = 0; i < n; i++) {
			unsigned long bit = 1UL << (i % BITS_PER_LONG), w = i / BITS_PER_LONG;
			__poll_t mask;
			struct fd f;

			if (!((fds->in[w] | fds->out[w] | fds->ex[w]) & bit))
				continue;
			f = fdget(i);
			mask = f.file ? file_poll(f.file) : 0;
			fdput(f);
			if ((fds->in[w] & bit) && (mask & POLLIN_SET)) {
				fds->res_in[w] |= bit;
				count++;
			}
			if ((fds->out[w] & bit) && (mask & POLLOUT_SET)) {
				fds->res_out[w] |= bit;
				count++;
			}
			if ((fds->ex[w] & bit) && (mask & POLLEX_SET)) {
				fds->res_ex[w] |= bit;
				count++;
			}
		}
		if (count)
			return count;
		count = poll_wait_tick(j, timed, end);
		if (count <= 0)
			return count;
	}
}

/* Copy a user fd set of n bits in (zeros for NULL): 0 or -EFAULT. */
static long get_fd_set(int n, const unsigned long *uset, unsigned long *set)
{
	memset(set, 0, FDS_LONGS * sizeof(long));
	return uset && copy_from_user(set, uset, DIV_ROUND_UP(n, BITS_PER_LONG) * sizeof(long)) ?
	       -EFAULT : 0;
}

/* Copy a result set of n bits out where the caller gave one: 0 or -EFAULT. */
static long set_fd_set(int n, unsigned long *uset, const unsigned long *set)
{
	return uset && copy_to_user(uset, set, DIV_ROUND_UP(n, BITS_PER_LONG) * sizeof(long)) ?
	       -EFAULT : 0;
}

/*
 * select's core (Linux's core_sys_select): n clamped to the fd table,
 * the sets copied in, every fd asked about open (EBADF), polled until
 * ready, the time is up or a signal comes; the sets (what is ready) go
 * back unless a signal interrupted.  The count of ready bits or -errno.
 */
static long core_sys_select(int n, unsigned long *inp, unsigned long *outp, unsigned long *exp,
			    bool timed, u64 end)
{
	struct fd_set_bits *fds;
	long ret;

	if (n < 0)
		return -EINVAL;
	n = n < NR_OPEN ? n : NR_OPEN;
	fds = kzalloc(sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	ret = get_fd_set(n, inp, fds->in);
	if (!ret)
		ret = get_fd_set(n, outp, fds->out);
	if (!ret)
		ret = get_fd_set(n, exp, fds->ex);
	if (!ret)
		ret = select_fds_open(n, fds);
	if (!ret)
		ret = do_select(n, fds, timed, end);
	if (ret >= 0 && (set_fd_set(n, inp, fds->res_in) || set_fd_set(n, outp, fds->res_out) ||
			 set_fd_set(n, exp, fds->res_ex)))
		ret = -EFAULT;
	kfree(fds);
	return ret;
}

/*
 * select(n, readfds, writefds, exceptfds, timeval): what remains of the
 * timeout is written back (so a restart after a signal without a handler
 * waits only for the rest), as Linux's.
 */
long sys_select(int n, unsigned long *inp, unsigned long *outp, unsigned long *exp, void *tvp)
{
	u64 start = ktime_get_ns(), end = 0;
	bool timed;
	long ts[2], ret = get_timeout(tvp, true, start, ts, &end, &timed);

	if (ret)
		return ret;
	ret = core_sys_select(n, inp, outp, exp, timed, end);
	return tvp ? poll_select_finish(tvp, ts, true, start, ret) : ret;
}

/*
 * pselect6(n, readfds, writefds, exceptfds, timespec, sig): sig points
 * to { const sigset_t *ss; size_t ss_len }, the mask blocked while it
 * waits (kept until a handler has run if one interrupts it), as ppoll's.
 */
long sys_pselect6(int n, unsigned long *inp, unsigned long *outp, unsigned long *exp, void *tsp,
		  void *sig)
{
	u64 start = ktime_get_ns(), end = 0;
	unsigned long sigarg[2] = { 0, 0 };
	bool timed;
	long ts[2], ret = get_timeout(tsp, false, start, ts, &end, &timed);

	if (ret)
		return ret;
	if (sig && copy_from_user(sigarg, sig, sizeof(sigarg)))
		return -EFAULT;
	ret = set_user_sigmask((const sigset_t *)sigarg[0], sigarg[1]);
	if (ret)
		return ret;
	ret = core_sys_select(n, inp, outp, exp, timed, end);
	restore_saved_sigmask_unless(ret == -ERESTARTNOHAND);
	return tsp ? poll_select_finish(tsp, ts, false, start, ret) : ret;
}
