/*
 * poll and ppoll (Linux's fs/select.c).  Each fd's file answers through
 * its ->poll (pipes, the console); a file without one (regular and proc
 * files) is always readable and writable, as on Linux.  A revents holds
 * what was asked for plus POLLERR and POLLHUP, or POLLNVAL for an fd that
 * is not open; a negative fd is skipped.
 *
 * Waiting: the ->poll methods take no wait queue yet, so a poller that
 * found nothing ready sleeps until the next timer tick (or a signal) and
 * asks again — a wake-up at most 1/HZ late.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/time64.h"
#include "linux/slab.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"
#include "uapi/linux/poll.h"
#include "uapi/linux/resource.h"
#include "mm/mm_api.h"
#include <asm/arch.h>

#define DEFAULT_POLLMASK        (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)
#define PPOLL_MAX_SECS          (1L << 32)

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
	mask = f.file->f_op->poll ? f.file->f_op->poll(f.file, NULL) : DEFAULT_POLLMASK;
	fdput(f);
	return mask & ((__poll_t)(unsigned short)pfd->events | POLLERR | POLLHUP);
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
		if (timed && ktime_get_ns() >= end)
			return 0;
		if (signal_pending(current))
			return -ERESTARTNOHAND;
		(void)wait_var_event_interruptible((void *)&jiffies, jiffies != j); /* the next tick */
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
 * ppoll(fds, nfds, tsp, sigmask, sigsetsize): poll with a timespec (NULL
 * for none) that is given back what remains of it, and with sigmask
 * blocked while it waits — kept until a handler has run if one
 * interrupts it.  -EINVAL for a bad timespec or set size.
 */
long sys_ppoll(struct pollfd *ufds, unsigned int nfds, const void *tsp, const sigset_t *sigmask,
	       unsigned long sigsetsize)
{
	long ts[2];
	u64 start = ktime_get_ns(), end = 0, spent;
	bool timed = false;
	long ret;

	if (tsp) {
		if (copy_from_user(ts, tsp, sizeof(ts)))
			return -EFAULT;
		if (ts[0] < 0 || ts[1] < 0 || (u64)ts[1] >= NSEC_PER_SEC)
			return -EINVAL;
		timed = ts[0] < PPOLL_MAX_SECS;         /* beyond: as good as forever */
		end = start + (u64)ts[0] * NSEC_PER_SEC + ts[1];
	}
	ret = set_user_sigmask(sigmask, sigsetsize);
	if (ret)
		return ret;
	ret = do_sys_poll(ufds, nfds, timed, end);
	restore_saved_sigmask_unless(ret == -ERESTARTNOHAND);
	if (tsp && (ts[0] || ts[1])) {          /* the time left goes back, as Linux's */
		spent = ktime_get_ns() - start;
		ts[0] -= spent / NSEC_PER_SEC;
		ts[1] -= spent % NSEC_PER_SEC;
		if (ts[1] < 0) {
			ts[0]--;
			ts[1] += NSEC_PER_SEC;
		}
		if (ts[0] < 0)
			ts[0] = ts[1] = 0;
		if (copy_to_user((void *)tsp, ts, sizeof(ts)) && ret == -ERESTARTNOHAND)
			ret = -EINTR;
	}
	return ret;
}
