/*
 * The terminal's side of job control (Linux's drivers/tty/tty_jobctrl.c):
 * which session a tty controls, its foreground process group, and what
 * a process in a background group may do with it.
 *
 *   A session leader with no terminal that opens a tty (not /dev/console,
 *   not O_NOCTTY) nobody controls makes it its session's controlling tty
 *   (or takes it with TIOCSCTTY); its group is the foreground group, and
 *   every process of the session inherits the tty at fork.  The shell
 *   moves the foreground with TIOCSPGRP; ^C, ^\ and ^Z signal that group
 *   (fs/n_tty.c).  A background process that reads its terminal gets
 *   SIGTTIN (EIO if it ignores or blocks it, or its group is orphaned);
 *   one that changes the modes, the foreground or (with TOSTOP) writes
 *   gets SIGTTOU unless it ignores or blocks it.  When the session leader
 *   exits or gives the tty up (TIOCNOTTY), the foreground group gets
 *   SIGHUP and SIGCONT and the session loses its terminal.
 *
 * foliOS has one terminal, the serial console (console_tty): /dev/ttyS0
 * and /dev/console are both it, /dev/tty is the caller's controlling tty.
 *
 * Locking: tty->session and tty->pgrp change under tasklist_lock, with
 * each process's sid, pgid and signal->tty; the receive interrupt reads
 * tty->pgrp without it (READ_ONCE).  Lock order: see linux/tty.h.
 */
#include "linux/errno.h"
#include "linux/sched.h"
#include "linux/signal.h"
#include "linux/tty.h"
#include "linux/uaccess.h"
#include "uapi/linux/ioctls.h"

/* Does current ignore or block sig (Linux's is_ignored)? */
static bool is_ignored(int sig)
{
	return (current->blocked & sigmask(sig)) ||
	       current->sighand->action[sig - 1].handler == SIG_IGN;
}

/*
 * May current, maybe in a background group, use its controlling tty as
 * sig says (SIGTTOU: change it or, with TOSTOP, write; SIGTTIN: read)
 * (Linux's __tty_check_change)?  0; -EIO if it may not and cannot be
 * stopped for it; -ERESTARTSYS after sig went to its group (the call
 * starts again once the shell continues it in the foreground).
 */
int __tty_check_change(struct tty_struct *tty, int sig)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&tasklist_lock, flags);
	if (current->signal->tty == tty && tty->pgrp && current->pgid != tty->pgrp) {
		if (is_ignored(sig))
			ret = sig == SIGTTIN ? -EIO : 0;
		else if (is_current_pgrp_orphaned())
			ret = -EIO;
		else
			ret = -ERESTARTSYS;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (ret == -ERESTARTSYS)
		kill_pgrp(current->pgid, sig);
	return ret;
}

int tty_check_change(struct tty_struct *tty)
{
	return __tty_check_change(tty, SIGTTOU);
}

/* tty becomes current's session's controlling tty (Linux's __proc_set_tty).  tasklist_lock held. */
static void proc_set_tty(struct tty_struct *tty)
{
	tty->session = current->sid;
	WRITE_ONCE(tty->pgrp, current->pgid);
	current->signal->tty = tty;
}

/* Every process of session sid loses its controlling tty (Linux's session_clear_tty).  tasklist_lock held. */
static void session_clear_tty(int sid)
{
	struct task_struct *p;

	for_each_process(p)
		if (p->sid == sid)
			p->signal->tty = NULL;
}

/*
 * An open of tty without O_NOCTTY (Linux's tty_open_proc_set_tty): a
 * session leader with no terminal takes it if no session has it.
 */
void tty_open_proc_set_tty(struct tty_struct *tty)
{
	struct task_struct *me = current->group_leader;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	if (me->sid == me->tgid && !me->signal->tty && !tty->session)
		proc_set_tty(tty);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/*
 * Session sid leaves tty: its foreground group gets SIGHUP and SIGCONT,
 * nobody controls it any more (Linux's disassociate_ctty; Linux also
 * hangs up the files open on a serial line when its leader exits, which
 * foliOS does not).  Nothing if another session took it meanwhile
 * (TIOCSCTTY 1).  tasklist_lock not held.
 */
static void tty_disassociate(struct tty_struct *tty, int sid)
{
	unsigned long flags;
	int pgrp;

	spin_lock_irqsave(&tasklist_lock, flags);
	if (tty->session != sid) {
		spin_unlock_irqrestore(&tasklist_lock, flags);
		return;
	}
	pgrp = tty->pgrp;
	session_clear_tty(tty->session);
	tty->session = 0;
	WRITE_ONCE(tty->pgrp, 0);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (pgrp) {
		kill_pgrp(pgrp, SIGHUP);
		kill_pgrp(pgrp, SIGCONT);
	}
}

/* A session leader is gone (do_exit): its terminal is let go, as by TIOCNOTTY. */
void disassociate_ctty(struct task_struct *leader)
{
	struct tty_struct *tty = READ_ONCE(leader->signal->tty);

	if (tty && leader->sid == leader->tgid)
		tty_disassociate(tty, leader->sid);
}

/*
 * TIOCSCTTY: make tty the caller's controlling tty; the caller leads its
 * session and has none.  A tty another session has is taken only with
 * arg 1 (root may, and every process is root here).  0 or -EPERM.
 */
static long tiocsctty(struct tty_struct *tty, unsigned long arg)
{
	struct task_struct *me = current->group_leader;
	unsigned long flags;
	long ret = 0;

	spin_lock_irqsave(&tasklist_lock, flags);
	if (me->sid == me->tgid && me->signal->tty == tty)
		goto out;
	if (me->sid != me->tgid || me->signal->tty || (tty->session && arg != 1)) {
		ret = -EPERM;
		goto out;
	}
	if (tty->session)
		session_clear_tty(tty->session);
	proc_set_tty(tty);
out:
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ret;
}

/* TIOCNOTTY: the caller gives up its controlling tty; a session leader's whole session does. */
static long tiocnotty(struct tty_struct *tty)
{
	struct task_struct *me = current->group_leader;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	if (me->signal->tty != tty) {
		spin_unlock_irqrestore(&tasklist_lock, flags);
		return -ENOTTY;
	}
	if (me->sid != me->tgid) {
		me->signal->tty = NULL;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		return 0;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	tty_disassociate(tty, me->sid);
	return 0;
}

/*
 * TIOCSPGRP: the foreground group becomes *p, a group of the caller's
 * session, which tty must control (Linux's tiocspgrp).  ENOTTY, EINVAL,
 * ESRCH (no such group), EPERM (another session's); a background caller
 * gets SIGTTOU first (tty_check_change).
 */
static long tiocspgrp(struct tty_struct *tty, int *p)
{
	struct task_struct *g;
	unsigned long flags;
	long ret = tty_check_change(tty);
	int pgrp;

	if (ret)
		return ret == -EIO ? -ENOTTY : ret;     /* Linux's answer for an orphaned caller */
	if (get_user(pgrp, p))
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	spin_lock_irqsave(&tasklist_lock, flags);
	ret = -ENOTTY;
	if (current->signal->tty != tty || tty->session != current->sid)
		goto out;
	ret = -ESRCH;
	for_each_process(g)
		if (g->pgid == pgrp) {
			ret = g->sid == current->sid ? 0 : -EPERM;
			break;
		}
	if (!ret)
		WRITE_ONCE(tty->pgrp, pgrp);
out:
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ret;
}

/* TIOCGPGRP, TIOCGSID: the foreground group or the session of the caller's controlling tty; ENOTTY. */
static long tiocgpgrp_sid(struct tty_struct *tty, unsigned int cmd, int *p)
{
	unsigned long flags;
	int val = -1;

	spin_lock_irqsave(&tasklist_lock, flags);
	if (current->signal->tty == tty)
		val = cmd == TIOCGPGRP ? tty->pgrp : tty->session;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (val < 0 || (cmd == TIOCGSID && !val))
		return -ENOTTY;
	return put_user(val, p) ? -EFAULT : 0;
}

/* The job-control ioctls (Linux's tty_jobctrl_ioctl); -ENOIOCTLCMD for the others. */
long tty_jobctrl_ioctl(struct tty_struct *tty, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case TIOCSCTTY:
		return tiocsctty(tty, arg);
	case TIOCNOTTY:
		return tiocnotty(tty);
	case TIOCGPGRP:
	case TIOCGSID:
		return tiocgpgrp_sid(tty, cmd, (int *)arg);
	case TIOCSPGRP:
		return tiocspgrp(tty, (int *)arg);
	}
	return -ENOIOCTLCMD;
}
