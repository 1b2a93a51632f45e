/* Fatal signals: a task killed by sig exits with wait status sig. */
#include "kernel/signal.h"
#include "kernel/task.h"
#include "kernel/printk.h"
#include "kernel/syscalls.h"

__noreturn void force_sig_fault(int sig, unsigned long addr)
{
	pr_info("%s[%d]: killed by signal %d at %#lx\n", current->comm, current->pid, sig, addr);
	do_exit(sig);
}

/*
 * kill(pid, sig): SIGKILL and SIGTERM end the task (their default action),
 * at its next return to user mode; signal 0 only checks that it exists.
 * Other signals are accepted and ignored until handlers exist.
 */
long sys_kill(int pid, int sig)
{
	struct task_struct *t = find_task(pid);

	if (sig < 0 || sig > 64)
		return -EINVAL;
	if (!t || pid <= 0)
		return -ESRCH;
	if (sig == SIGKILL || sig == SIGTERM) {
		t->pending_kill = sig;
		wake_up_task(t);                /* a sleeper dies when it wakes */
	}
	return 0;
}

/* On the way back to user mode: die of a pending fatal signal. */
void exit_to_user_mode(void)
{
	if (current->pending_kill)
		do_exit(current->pending_kill);
}
