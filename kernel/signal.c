/* Fatal signals: a task killed by sig exits with wait status sig. */
#include "kernel/signal.h"
#include "kernel/task.h"
#include "kernel/printk.h"

__noreturn void force_sig_fault(int sig, unsigned long addr)
{
	pr_info("%s[%d]: killed by signal %d at %#lx\n", current->comm, current->pid, sig, addr);
	do_exit(sig);
}
