/*
 * POSIX per-process timers (Linux's kernel/time/posix-timers.c and the
 * timer half of posix-cpu-timers.c): timer_create, timer_settime,
 * timer_gettime, timer_getoverrun, timer_delete.
 *
 *   CLOCK_REALTIME(_ALARM)      expiry in ktime_get_real_ns(): a clock set
 *                               moves it; a relative CLOCK_REALTIME one
 *                               counts on the monotonic clock instead and
 *                               stays put (Linux's common_hrtimer_arm)
 *   CLOCK_MONOTONIC, CLOCK_BOOTTIME(_ALARM)
 *                               expiry in ktime_get_ns()
 *   CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID
 *                               expiry in the process's or the creating
 *                               thread's sum_exec_runtime (kernel/sched/
 *                               cputime.c), sampled by the tick of a CPU
 *                               running one of its threads
 *
 * The _ALARM clocks need CAP_WAKE_ALARM (-EPERM) and are their plain
 * clocks: foliOS never suspends.  The coarse and raw clocks are
 * -EOPNOTSUPP, as Linux's (no timer_create); CLOCK_TAI, which foliOS's
 * clocks lack, other processes' CPU clocks (negative ids) and unknown
 * clocks are -EINVAL.
 *
 * The timer tick drives them (kernel/itimer.c): run_itimers on CPU 0
 * walks every process's wall-clock timers, run_posix_cpu_timers on each
 * CPU the CPU-time timers of the process it ran; an expiry comes up to
 * 1/HZ late, as ITIMER_REAL's and nanosleep's.  Each timer owns one
 * preallocated sigqueue (SIGQUEUE_PREALLOC), queued at most once: an
 * expiry while it is still queued counts an overrun, taken into the
 * siginfo's si_overrun when the signal is dequeued (posixtimer_collect),
 * and then what timer_getoverrun returns.  Linux 6.1 stops a periodic
 * timer while its signal is pending and forwards it at dequeue
 * (posixtimer_rearm); counting the periods in the tick gives the same
 * counts.  Ids are 0, 1, 2, ... per process, not reused (Linux's
 * posix_timer_id); a process has at most RLIMIT_SIGPENDING timers (Linux
 * charges each timer's sigqueue to it, per user: here per process),
 * -EAGAIN past it.  exec and the last thread's exit delete them all;
 * fork's child has none.
 *
 * Locking: tasklist_lock (irqsave; Linux's sighand->siglock and it_lock)
 * guards signal->posix_timers and every field of its timers, and a timer's
 * sigqueue (on a pending list, as every queued signal).  The tick takes it
 * under itimer_lock (run_itimers) or alone (run_posix_cpu_timers_tick).
 */
#include "linux/capability.h"
#include "linux/errno.h"
#include "linux/posix-timers.h"
#include "linux/sched.h"
#include "linux/slab.h"
#include "linux/syscalls.h"
#include "linux/time64.h"
#include "linux/uaccess.h"
#include <asm/arch.h>
#include "uapi/linux/time.h"

#define SIGRTMAX        _NSIG

static bool cpu_clock(int clock)
{
	return clock == CLOCK_PROCESS_CPUTIME_ID || clock == CLOCK_THREAD_CPUTIME_ID;
}

/* May a timer count clock: 0, -EINVAL (no such clock) or -EOPNOTSUPP (no timers on it). */
static int clock_timer_ok(int clock)
{
	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
	case CLOCK_REALTIME_ALARM:
	case CLOCK_BOOTTIME_ALARM:
		return 0;
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP;
	}
	return -EINVAL;
}

/*
 * timr's clock now into *now, in its expiry's terms, for a timer of p's
 * process: false for a thread's CPU clock whose thread is gone (Linux's
 * cpu_timer_task_rcu finds none).  tasklist_lock held.
 */
static bool timer_clock_now(const struct k_itimer *timr, struct task_struct *p, u64 *now)
{
	struct task_cputime times;
	struct task_struct *t;

	switch (timr->it_clock) {
	case CLOCK_PROCESS_CPUTIME_ID:
		thread_group_cputime(p, &times);
		*now = times.sum_exec_runtime;
		return true;
	case CLOCK_THREAD_CPUTIME_ID:
		t = find_task_by_vpid(timr->it_clock_pid);
		if (!t || t->tgid != p->tgid)
			return false;
		*now = task_sched_runtime(t);
		return true;
	}
	*now = timr->it_wall ? ktime_get_real_ns() : ktime_get_ns();
	return true;
}

/*
 * The timer expired late ns ago: forward a periodic one past now, disarm
 * a one-shot, and signal unless SIGEV_NONE (Linux's posix_timer_fn and
 * posix_timer_event).  Expiries not signalled — its signal still queued,
 * or ignored (Linux 6.1 forwards an ignored periodic timer, counting) —
 * are overruns, reported with the next signal taken.  tasklist_lock held.
 */
static void posix_timer_fire(struct k_itimer *timr, struct task_struct *leader, u64 late)
{
	u64 n = 1, iv = timr->it_interval;
	struct task_struct *t = leader;
	bool group = true;

	if (!iv) {
		timr->it_expires = 0;
	} else {
		n += late / iv;
		if (__builtin_add_overflow(timr->it_expires, n * iv, &timr->it_expires))
			timr->it_expires = ~0ULL;              /* never */
	}
	if (timr->it_sigev_notify == SIGEV_NONE)
		return;
	if (timr->it_sigev_notify & SIGEV_THREAD_ID) {
		t = find_task_by_vpid(timr->it_pid);
		if (!t || t->tgid != leader->tgid)
			return;                         /* the thread is gone */
		group = false;
	}
	switch (send_sigqueue(timr->sigq, t, group)) {
	case 0:
		timr->it_overrun += n - 1;
		break;
	default:                                /* ignored, or still queued */
		timr->it_overrun += n;
		break;
	}
}

/*
 * The tick on CPU 0: fire leader's process's wall-clock timers that have
 * expired (mono_now, real_now: the clocks now).  tasklist_lock held.
 */
void run_posix_timers(struct task_struct *leader, u64 mono_now, u64 real_now)
{
	struct k_itimer *timr;

	list_for_each_entry(timr, &leader->signal->posix_timers, list) {
		u64 now = timr->it_wall ? real_now : mono_now;

		if (timr->it_expires && !cpu_clock(timr->it_clock) && now >= timr->it_expires)
			posix_timer_fire(timr, leader, now - timr->it_expires);
	}
}

/*
 * The tick on p's CPU: fire its process's CPU-time timers and p's own
 * thread-CPU ones whose clock reached their expiry (Linux's
 * run_posix_cpu_timers).  Interrupts off.
 */
void run_posix_cpu_timers_tick(struct task_struct *p)
{
	u64 now, process = 0, thread = task_sched_runtime(p);
	struct task_cputime times;
	struct k_itimer *timr;

	spin_lock(&tasklist_lock);
	list_for_each_entry(timr, &p->signal->posix_timers, list) {
		if (!timr->it_expires || !cpu_clock(timr->it_clock) ||
		    (timr->it_clock == CLOCK_THREAD_CPUTIME_ID && timr->it_clock_pid != p->pid))
			continue;
		if (timr->it_clock == CLOCK_PROCESS_CPUTIME_ID && !process) {
			thread_group_cputime(p, &times);        /* once a tick: it walks the threads */
			process = times.sum_exec_runtime;
		}
		now = timr->it_clock == CLOCK_PROCESS_CPUTIME_ID ? process : thread;
		if (now >= timr->it_expires)
			posix_timer_fire(timr, p->group_leader, now - timr->it_expires);
	}
	spin_unlock(&tasklist_lock);
}

/*
 * A timer's signal q is being dequeued into info: its overruns go to
 * si_overrun and to timer_getoverrun (Linux's posixtimer_rearm).
 * tasklist_lock held.
 */
void posixtimer_collect(struct sigqueue *q, siginfo_t *info)
{
	struct k_itimer *timr = q->timer;

	info->si_overrun = timr->it_overrun > 0x7fffffff ? 0x7fffffff : (int)timr->it_overrun;
	timr->it_overrun_last = timr->it_overrun;
	timr->it_overrun = 0;
}

/* current's timer id, or NULL (Linux's lock_timer).  tasklist_lock held. */
static struct k_itimer *find_timer(int id)
{
	struct k_itimer *timr;

	list_for_each_entry(timr, &current->signal->posix_timers, list)
		if (timr->it_id == id)
			return timr;
	return NULL;
}

/*
 * Free a timer off its list; its signal, if queued, stays pending and is
 * freed when taken (Linux's release_posix_timer, sigqueue_free).
 * tasklist_lock held.
 */
static void release_posix_timer(struct k_itimer *timr)
{
	struct sigqueue *q = timr->sigq;

	if (list_empty(&q->list)) {
		kfree(q);
	} else {
		q->flags &= ~SIGQUEUE_PREALLOC;
		q->timer = NULL;
	}
	kfree(timr);
}

/* Take timr off sig's list and free it.  tasklist_lock held. */
static void delete_timer(struct signal_struct *sig, struct k_itimer *timr)
{
	list_del(&timr->list);
	sig->nr_posix_timers--;
	if (cpu_clock(timr->it_clock))
		WRITE_ONCE(sig->nr_cpu_timers, sig->nr_cpu_timers - 1);
	release_posix_timer(timr);
}

/* Delete every timer of sig: exec, the last thread's exit (Linux's exit_itimers).  tasklist_lock held. */
void __exit_itimers(struct signal_struct *sig)
{
	while (!list_empty(&sig->posix_timers))
		delete_timer(sig, list_first_entry(&sig->posix_timers, struct k_itimer, list));
}

void exit_itimers(struct signal_struct *sig)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	__exit_itimers(sig);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/*
 * Check a sigevent (Linux's good_sigevent): SIGEV_THREAD_ID's thread must
 * be in the caller's process, a signal 1..SIGRTMAX.  The pid to signal
 * (the process, or that thread), or 0: -EINVAL.  tasklist_lock held.
 */
static int good_sigevent(const struct sigevent *ev)
{
	int pid = current->tgid;
	struct task_struct *t;

	switch (ev->sigev_notify) {
	case SIGEV_SIGNAL | SIGEV_THREAD_ID:
		t = find_task_by_vpid(ev->sigev_notify_thread_id);
		if (!t || t->tgid != current->tgid)
			return 0;
		pid = t->pid;
		/* fallthrough */
	case SIGEV_SIGNAL:
	case SIGEV_THREAD:
		if (ev->sigev_signo <= 0 || ev->sigev_signo > SIGRTMAX)
			return 0;
		/* fallthrough */
	case SIGEV_NONE:
		return pid;
	}
	return 0;
}

/*
 * timer_create(clock, sevp, timerid): a disarmed timer on clock; its id
 * to *timerid.  sevp NULL is SIGEV_SIGNAL with SIGALRM and si_value the
 * id.  -EFAULT, -EINVAL (clock, sigevent), -EOPNOTSUPP (no timers on the
 * clock), -EPERM (an _ALARM clock without CAP_WAKE_ALARM), -EAGAIN (too
 * many timers, or no memory).  As Linux's, a failure after the id was
 * taken (bad sigevent, -EFAULT, -EPERM) uses the id up.
 */
long sys_timer_create(int clock, const struct sigevent *uevent, int *uid)
{
	struct signal_struct *sig = current->signal;
	struct k_itimer *timr, *other;
	struct sigqueue *q;
	unsigned long flags;
	sigevent_t ev;
	int err, pid = 0;

	if (uevent && copy_from_user(&ev, uevent, sizeof(ev)))
		return -EFAULT;
	err = clock_timer_ok(clock);
	if (err)
		return err;
	timr = kzalloc(sizeof(*timr));
	q = kzalloc(sizeof(*q));
	if (!timr || !q) {
		kfree(timr);
		kfree(q);
		return -EAGAIN;
	}
	INIT_LIST_HEAD(&q->list);
	q->flags = SIGQUEUE_PREALLOC;
	q->timer = timr;
	timr->sigq = q;
	timr->it_clock = clock;

	spin_lock_irqsave(&tasklist_lock, flags);
	if ((unsigned long)sig->nr_posix_timers >= sig->rlim[RLIMIT_SIGPENDING].rlim_cur) {
		spin_unlock_irqrestore(&tasklist_lock, flags);
		kfree(timr);
		kfree(q);
		return -EAGAIN;
	}
	sig->nr_posix_timers++;                 /* taken now: other threads see the limit */
	do {                                    /* the next id not in use (Linux's posix_timer_add) */
		timr->it_id = sig->next_posix_timer_id;
		sig->next_posix_timer_id = (sig->next_posix_timer_id + 1) & 0x7fffffff;
		other = find_timer(timr->it_id);
	} while (other);
	if (uevent) {
		pid = good_sigevent(&ev);
		timr->it_sigev_notify = ev.sigev_notify;
		q->info.si_signo = ev.sigev_signo;
		q->info.si_value = ev.sigev_value;
	} else {
		timr->it_sigev_notify = SIGEV_SIGNAL;
		q->info.si_signo = SIGALRM;
		q->info.si_value = timr->it_id;
	}
	q->info.si_timerid = timr->it_id;
	q->info.si_code = SI_TIMER;
	if (timr->it_sigev_notify & SIGEV_THREAD_ID)
		timr->it_pid = pid;
	if (clock == CLOCK_THREAD_CPUTIME_ID)
		timr->it_clock_pid = current->pid;      /* the thread whose time counts */
	spin_unlock_irqrestore(&tasklist_lock, flags);

	if (uevent && !pid)
		err = -EINVAL;
	else if (put_user(timr->it_id, uid))
		err = -EFAULT;
	else if ((clock == CLOCK_REALTIME_ALARM || clock == CLOCK_BOOTTIME_ALARM) &&
		 !capable(CAP_WAKE_ALARM))
		err = -EPERM;
	spin_lock_irqsave(&tasklist_lock, flags);
	if (err) {
		sig->nr_posix_timers--;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		kfree(timr);
		kfree(q);
		return err;
	}
	list_add_tail(&timr->list, &sig->posix_timers);
	if (cpu_clock(clock))
		WRITE_ONCE(sig->nr_cpu_timers, sig->nr_cpu_timers + 1);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return 0;
}

static struct __kernel_timespec ns_to_timespec(u64 ns)
{
	return (struct __kernel_timespec){ ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };
}

/*
 * timr's setting now (Linux's common_timer_get): the interval, and the
 * time to the next expiry — 0 disarmed; a periodic timer past its
 * expiry (the tick not yet there) reads the time to the next period, a
 * one-shot 1 ns (0 with SIGEV_NONE).  A thread-CPU timer whose thread is
 * gone reads all zero (Linux's posix_cpu_timer_get).  tasklist_lock held.
 */
static void common_timer_get(struct k_itimer *timr, struct __kernel_itimerspec *cur)
{
	u64 left = 0, now, iv = timr->it_interval;

	if (!timer_clock_now(timr, current, &now)) {
		*cur = (struct __kernel_itimerspec){};
		return;
	}
	cur->it_interval = ns_to_timespec(iv);
	if (timr->it_expires) {
		if (timr->it_expires > now)
			left = timr->it_expires - now;
		else if (iv)
			left = iv - (now - timr->it_expires) % iv;
		else
			left = timr->it_sigev_notify == SIGEV_NONE ? 0 : 1;
	}
	cur->it_value = ns_to_timespec(left);
}

/*
 * timer_settime(id, flags, new, old): arm timer id with new (it_value
 * relative, or with TIMER_ABSTIME the clock's time; zero disarms;
 * it_interval reloads it), its previous setting to old if given (Linux's
 * do_timer_settime, common_timer_set).  A signal already queued stays
 * queued; an expiry already past fires now.  -EINVAL (no new, an unknown
 * id, a bad timespec), -ESRCH (a thread-CPU timer whose thread is gone),
 * -EFAULT (old is written after the timer was set, as Linux's).
 */
long sys_timer_settime(int id, int tflags, const struct __kernel_itimerspec *unew,
		       struct __kernel_itimerspec *uold)
{
	struct __kernel_itimerspec new, old;
	struct k_itimer *timr;
	unsigned long flags;
	u64 value, interval, now;

	if (!unew)
		return -EINVAL;
	if (copy_from_user(&new, unew, sizeof(new)))
		return -EFAULT;
	if (timespec_to_ns(&new.it_interval, &interval, KTIME_SEC_MAX) ||
	    timespec_to_ns(&new.it_value, &value, KTIME_SEC_MAX))
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);
	timr = find_timer(id);
	if (!timr) {
		spin_unlock_irqrestore(&tasklist_lock, flags);
		return -EINVAL;
	}
	common_timer_get(timr, &old);
	timr->it_wall = timr->it_clock == CLOCK_REALTIME_ALARM ||
			(timr->it_clock == CLOCK_REALTIME && (tflags & TIMER_ABSTIME));
	if (!timer_clock_now(timr, current, &now)) {
		spin_unlock_irqrestore(&tasklist_lock, flags);
		return -ESRCH;
	}
	timr->it_overrun = timr->it_overrun_last = 0;
	timr->it_interval = value ? interval : 0;
	timr->it_expires = 0;
	if (value && __builtin_add_overflow(tflags & TIMER_ABSTIME ? 0 : now, value, &timr->it_expires))
		timr->it_expires = ~0ULL;
	if (timr->it_expires && now >= timr->it_expires)
		posix_timer_fire(timr, current->group_leader, now - timr->it_expires);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return uold && copy_to_user(uold, &old, sizeof(old)) ? -EFAULT : 0;
}

/* timer_gettime(id, cur): common_timer_get's; -EINVAL (unknown id) or -EFAULT. */
long sys_timer_gettime(int id, struct __kernel_itimerspec *ucur)
{
	struct __kernel_itimerspec cur;
	struct k_itimer *timr;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	timr = find_timer(id);
	if (timr)
		common_timer_get(timr, &cur);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!timr)
		return -EINVAL;
	return copy_to_user(ucur, &cur, sizeof(cur)) ? -EFAULT : 0;
}

/* timer_getoverrun(id): the overruns of the last signal taken, at most INT_MAX; -EINVAL. */
long sys_timer_getoverrun(int id)
{
	struct k_itimer *timr;
	unsigned long flags;
	long ret = -EINVAL;

	spin_lock_irqsave(&tasklist_lock, flags);
	timr = find_timer(id);
	if (timr)
		ret = timr->it_overrun_last > 0x7fffffff ? 0x7fffffff : timr->it_overrun_last;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ret;
}

/* timer_delete(id): disarm and free it; a queued signal of it stays pending.  -EINVAL. */
long sys_timer_delete(int id)
{
	struct k_itimer *timr;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	timr = find_timer(id);
	if (timr)
		delete_timer(current->signal, timr);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return timr ? 0 : -EINVAL;
}
