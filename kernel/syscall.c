/*
 * System-call dispatch: Linux x86-64 numbers and registers (rax = number,
 * rdi rsi rdx r10 r8 r9 = arguments, rax = result or -errno).  Calls not
 * in the table return -ENOSYS and are logged once per number.
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/printk.h"
#include "linux/signal.h"
#include <asm/irqflags.h>
#include <asm/syscall.h>

#define NR_SYSCALLS 335

static long sys_newfstatat_stat(const char *upath, void *ubuf);

typedef long (*syscall_fn)(unsigned long, unsigned long, unsigned long,
			   unsigned long, unsigned long, unsigned long);

/* Arguments are passed in registers: extra ones are ignored by the callee. */
#define ENTRY(nr, fn) [nr] = (syscall_fn)(void (*)(void))fn
static const syscall_fn syscall_table[NR_SYSCALLS] = {
	ENTRY(0, sys_read),
	ENTRY(1, sys_write),
	ENTRY(2, sys_open),
	ENTRY(3, sys_close),
	ENTRY(4, sys_newfstatat_stat),
	ENTRY(5, sys_fstat),
	ENTRY(8, sys_lseek),
	ENTRY(9, sys_mmap),
	ENTRY(10, sys_mprotect),
	ENTRY(11, sys_munmap),
	ENTRY(12, sys_brk),
	ENTRY(13, sys_rt_sigaction),
	ENTRY(14, sys_rt_sigprocmask),
	ENTRY(16, sys_ioctl),
	ENTRY(17, sys_pread64),
	ENTRY(19, sys_readv),
	ENTRY(20, sys_writev),
	ENTRY(22, sys_pipe),
	ENTRY(21, sys_access),
	ENTRY(24, sys_sched_yield),
	ENTRY(28, sys_madvise),
	ENTRY(32, sys_dup),
	ENTRY(33, sys_dup2),
	ENTRY(34, sys_pause),
	ENTRY(35, sys_nanosleep),
	ENTRY(39, sys_getpid),
	ENTRY(57, sys_fork),
	ENTRY(58, sys_fork),            /* vfork: a fork is a correct vfork */
	ENTRY(59, sys_execve),
	ENTRY(60, sys_exit),
	ENTRY(61, sys_wait4),
	ENTRY(62, sys_kill),
	ENTRY(63, sys_uname),
	ENTRY(72, sys_fcntl),
	ENTRY(97, sys_getrlimit),
	ENTRY(99, sys_sysinfo),
	ENTRY(102, sys_getuid),
	ENTRY(104, sys_getuid),
	ENTRY(107, sys_getuid),
	ENTRY(108, sys_getuid),
	ENTRY(109, sys_setpgid),
	ENTRY(110, sys_getppid),
	ENTRY(111, sys_getpgrp),
	ENTRY(121, sys_getpgid),
	ENTRY(158, sys_arch_prctl),
	ENTRY(160, sys_setrlimit),
	ENTRY(165, sys_mount),
	ENTRY(169, sys_reboot),
	ENTRY(186, sys_getpid),
	ENTRY(217, sys_getdents64),
	ENTRY(218, sys_set_tid_address),
	ENTRY(228, sys_clock_gettime),
	ENTRY(231, sys_exit),
	ENTRY(257, sys_openat),
	ENTRY(262, sys_newfstatat),
	ENTRY(269, sys_faccessat),
	ENTRY(292, sys_dup3),
	ENTRY(293, sys_pipe2),
	ENTRY(302, sys_prlimit64),
	ENTRY(318, sys_getrandom),
};

/* stat(path, buf): newfstatat relative to the (root) working directory. */
static long sys_newfstatat_stat(const char *upath, void *ubuf)
{
	return sys_newfstatat(-100, upath, ubuf, 0);
}

static unsigned long enosys_logged[(NR_SYSCALLS + 63) / 64];

/*
 * Called from syscall_entry with the user's registers (<asm/syscall.h> says
 * where the number, arguments and result sit).  A successful execve returns
 * 0 into the frame it rebuilt, like any other call.
 */
void do_syscall(struct pt_regs *regs)
{
	struct task_struct *tsk = current;
	unsigned long nr = (unsigned int)syscall_get_nr(tsk, regs);
	unsigned long args[6];
	long ret = -ENOSYS;

	local_irq_enable();
	if (nr < NR_SYSCALLS && syscall_table[nr]) {
		syscall_get_arguments(tsk, regs, args);
		ret = syscall_table[nr](args[0], args[1], args[2], args[3], args[4], args[5]);
	} else if (nr >= NR_SYSCALLS || !(enosys_logged[nr / 64] & BIT(nr % 64))) {
		if (nr < NR_SYSCALLS)
			enosys_logged[nr / 64] |= BIT(nr % 64);
		pr_notice("%s[%d]: unimplemented system call %lu\n", current->comm, current->pid, nr);
	}
	syscall_set_return_value(tsk, regs, 0, ret);
	exit_to_user_mode();
	local_irq_disable();
}
