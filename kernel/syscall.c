/*
 * System-call dispatch: Linux x86-64 numbers and registers (rax = number,
 * rdi rsi rdx r10 r8 r9 = arguments, rax = result or -errno).  Calls not
 * in the table return -ENOSYS and are logged once per number.
 */
#include "linux/entry-common.h"
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/printk.h"
#include "linux/signal.h"
#include <asm/irqflags.h>
#include "uapi/asm/unistd_64.h"
#include <asm/syscall.h>

static long sys_newfstatat_stat(const char *upath, void *ubuf);
static long sys_newfstatat_lstat(const char *upath, void *ubuf);

typedef long (*syscall_fn)(unsigned long, unsigned long, unsigned long,
			   unsigned long, unsigned long, unsigned long);

/*
 * Sorted by number, one line per call (Linux's asm/syscalls_64.h).
 * Arguments are passed in registers: extra ones are ignored by the callee.
 */
#define __SYSCALL(nr, sym) [nr] = (syscall_fn)(void (*)(void))sym
static const syscall_fn syscall_table[__NR_syscalls] = {
	__SYSCALL(__NR_read, sys_read),
	__SYSCALL(__NR_write, sys_write),
	__SYSCALL(__NR_open, sys_open),
	__SYSCALL(__NR_close, sys_close),
	__SYSCALL(__NR_stat, sys_newfstatat_stat),
	__SYSCALL(__NR_lstat, sys_newfstatat_lstat),
	__SYSCALL(__NR_fstat, sys_fstat),
	__SYSCALL(__NR_poll, sys_poll),
	__SYSCALL(__NR_select, sys_select),
	__SYSCALL(__NR_lseek, sys_lseek),
	__SYSCALL(__NR_mmap, sys_mmap),
	__SYSCALL(__NR_mprotect, sys_mprotect),
	__SYSCALL(__NR_munmap, sys_munmap),
	__SYSCALL(__NR_brk, sys_brk),
	__SYSCALL(__NR_getcwd, sys_getcwd),
	__SYSCALL(__NR_chdir, sys_chdir),
	__SYSCALL(__NR_fchdir, sys_fchdir),
	__SYSCALL(__NR_rt_sigaction, sys_rt_sigaction),
	__SYSCALL(__NR_rt_sigprocmask, sys_rt_sigprocmask),
	__SYSCALL(__NR_rt_sigreturn, sys_rt_sigreturn),
	__SYSCALL(__NR_ioctl, sys_ioctl),
	__SYSCALL(__NR_pread64, sys_pread64),
	__SYSCALL(__NR_pwrite64, sys_pwrite64),
	__SYSCALL(__NR_readv, sys_readv),
	__SYSCALL(__NR_writev, sys_writev),
	__SYSCALL(__NR_access, sys_access),
	__SYSCALL(__NR_pipe, sys_pipe),
	__SYSCALL(__NR_sched_yield, sys_sched_yield),
	__SYSCALL(__NR_mremap, sys_mremap),
	__SYSCALL(__NR_msync, sys_msync),
	__SYSCALL(__NR_mincore, sys_mincore),
	__SYSCALL(__NR_mlock, sys_mlock),
	__SYSCALL(__NR_mlock2, sys_mlock2),
	__SYSCALL(__NR_munlock, sys_munlock),
	__SYSCALL(__NR_mlockall, sys_mlockall),
	__SYSCALL(__NR_munlockall, sys_munlockall),
	__SYSCALL(__NR_madvise, sys_madvise),
	__SYSCALL(__NR_mbind, sys_mbind),
	__SYSCALL(__NR_set_mempolicy, sys_set_mempolicy),
	__SYSCALL(__NR_get_mempolicy, sys_get_mempolicy),
	__SYSCALL(__NR_dup, sys_dup),
	__SYSCALL(__NR_dup2, sys_dup2),
	__SYSCALL(__NR_pause, sys_pause),
	__SYSCALL(__NR_nanosleep, sys_nanosleep),
	__SYSCALL(__NR_getitimer, sys_getitimer),
	__SYSCALL(__NR_alarm, sys_alarm),
	__SYSCALL(__NR_setitimer, sys_setitimer),
	__SYSCALL(__NR_getpid, sys_getpid),
	__SYSCALL(__NR_clone, sys_clone),
	__SYSCALL(__NR_fork, sys_fork),
	__SYSCALL(__NR_vfork, sys_vfork),
	__SYSCALL(__NR_execve, sys_execve),
	__SYSCALL(__NR_exit, sys_exit),
	__SYSCALL(__NR_wait4, sys_wait4),
	__SYSCALL(__NR_kill, sys_kill),
	__SYSCALL(__NR_uname, sys_newuname),
	__SYSCALL(__NR_fcntl, sys_fcntl),
	__SYSCALL(__NR_fsync, sys_fsync),
	__SYSCALL(__NR_flock, sys_flock),
	__SYSCALL(__NR_fdatasync, sys_fdatasync),
	__SYSCALL(__NR_truncate, sys_truncate),
	__SYSCALL(__NR_ftruncate, sys_ftruncate),
	__SYSCALL(__NR_rename, sys_rename),
	__SYSCALL(__NR_mkdir, sys_mkdir),
	__SYSCALL(__NR_rmdir, sys_rmdir),
	__SYSCALL(__NR_creat, sys_creat),
	__SYSCALL(__NR_link, sys_link),
	__SYSCALL(__NR_unlink, sys_unlink),
	__SYSCALL(__NR_symlink, sys_symlink),
	__SYSCALL(__NR_mknod, sys_mknod),
	__SYSCALL(__NR_readlink, sys_readlink),
	__SYSCALL(__NR_chmod, sys_chmod),
	__SYSCALL(__NR_fchmod, sys_fchmod),
	__SYSCALL(__NR_chown, sys_chown),
	__SYSCALL(__NR_fchown, sys_fchown),
	__SYSCALL(__NR_lchown, sys_lchown),
	__SYSCALL(__NR_umask, sys_umask),
	__SYSCALL(__NR_utime, sys_utime),
	__SYSCALL(__NR_utimes, sys_utimes),
	__SYSCALL(__NR_getrlimit, sys_getrlimit),
	__SYSCALL(__NR_sysinfo, sys_sysinfo),
	__SYSCALL(__NR_syslog, sys_syslog),
	__SYSCALL(__NR_getuid, sys_getuid),
	__SYSCALL(__NR_getgid, sys_getgid),
	__SYSCALL(__NR_geteuid, sys_geteuid),
	__SYSCALL(__NR_getegid, sys_getegid),
	__SYSCALL(__NR_setpgid, sys_setpgid),
	__SYSCALL(__NR_getppid, sys_getppid),
	__SYSCALL(__NR_getpgrp, sys_getpgrp),
	__SYSCALL(__NR_getpgid, sys_getpgid),
	__SYSCALL(__NR_setsid, sys_setsid),
	__SYSCALL(__NR_setuid, sys_setuid),
	__SYSCALL(__NR_setgid, sys_setgid),
	__SYSCALL(__NR_setreuid, sys_setreuid),
	__SYSCALL(__NR_setregid, sys_setregid),
	__SYSCALL(__NR_getgroups, sys_getgroups),
	__SYSCALL(__NR_setgroups, sys_setgroups),
	__SYSCALL(__NR_setresuid, sys_setresuid),
	__SYSCALL(__NR_getresuid, sys_getresuid),
	__SYSCALL(__NR_setresgid, sys_setresgid),
	__SYSCALL(__NR_getresgid, sys_getresgid),
	__SYSCALL(__NR_setfsuid, sys_setfsuid),
	__SYSCALL(__NR_setfsgid, sys_setfsgid),
	__SYSCALL(__NR_getsid, sys_getsid),
	__SYSCALL(__NR_rt_sigpending, sys_rt_sigpending),
	__SYSCALL(__NR_rt_sigsuspend, sys_rt_sigsuspend),
	__SYSCALL(__NR_rt_sigtimedwait, sys_rt_sigtimedwait),
	__SYSCALL(__NR_sigaltstack, sys_sigaltstack),
	__SYSCALL(__NR_statfs, sys_statfs),
	__SYSCALL(__NR_fstatfs, sys_fstatfs),
	__SYSCALL(__NR_prctl, sys_prctl),
	__SYSCALL(__NR_arch_prctl, sys_arch_prctl),
	__SYSCALL(__NR_setrlimit, sys_setrlimit),
	__SYSCALL(__NR_sync, sys_sync),
	__SYSCALL(__NR_mount, sys_mount),
	__SYSCALL(__NR_umount2, sys_umount2),
	__SYSCALL(__NR_swapon, sys_swapon),
	__SYSCALL(__NR_swapoff, sys_swapoff),
	__SYSCALL(__NR_reboot, sys_reboot),
	__SYSCALL(__NR_gettid, sys_gettid),
	__SYSCALL(__NR_tkill, sys_tkill),
	__SYSCALL(__NR_futex, sys_futex),
	__SYSCALL(__NR_sched_setaffinity, sys_sched_setaffinity),
	__SYSCALL(__NR_sched_getaffinity, sys_sched_getaffinity),
	__SYSCALL(__NR_getdents64, sys_getdents64),
	__SYSCALL(__NR_set_tid_address, sys_set_tid_address),
	__SYSCALL(__NR_restart_syscall, sys_restart_syscall),
	__SYSCALL(__NR_timer_create, sys_timer_create),
	__SYSCALL(__NR_timer_settime, sys_timer_settime),
	__SYSCALL(__NR_timer_gettime, sys_timer_gettime),
	__SYSCALL(__NR_timer_getoverrun, sys_timer_getoverrun),
	__SYSCALL(__NR_timer_delete, sys_timer_delete),
	__SYSCALL(__NR_clock_gettime, sys_clock_gettime),
	__SYSCALL(__NR_clock_settime, sys_clock_settime),
	__SYSCALL(__NR_clock_getres, sys_clock_getres),
	__SYSCALL(__NR_clock_nanosleep, sys_clock_nanosleep),
	__SYSCALL(__NR_gettimeofday, sys_gettimeofday),
	__SYSCALL(__NR_settimeofday, sys_settimeofday),
	__SYSCALL(__NR_time, sys_time),
	__SYSCALL(__NR_times, sys_times),
	__SYSCALL(__NR_getrusage, sys_getrusage),
	__SYSCALL(__NR_statx, sys_statx),
	__SYSCALL(__NR_setxattr, sys_setxattr),
	__SYSCALL(__NR_lsetxattr, sys_lsetxattr),
	__SYSCALL(__NR_fsetxattr, sys_fsetxattr),
	__SYSCALL(__NR_getxattr, sys_getxattr),
	__SYSCALL(__NR_lgetxattr, sys_lgetxattr),
	__SYSCALL(__NR_fgetxattr, sys_fgetxattr),
	__SYSCALL(__NR_listxattr, sys_listxattr),
	__SYSCALL(__NR_llistxattr, sys_llistxattr),
	__SYSCALL(__NR_flistxattr, sys_flistxattr),
	__SYSCALL(__NR_removexattr, sys_removexattr),
	__SYSCALL(__NR_lremovexattr, sys_lremovexattr),
	__SYSCALL(__NR_fremovexattr, sys_fremovexattr),
	__SYSCALL(__NR_exit_group, sys_exit_group),
	__SYSCALL(__NR_tgkill, sys_tgkill),
	__SYSCALL(__NR_waitid, sys_waitid),
	__SYSCALL(__NR_openat, sys_openat),
	__SYSCALL(__NR_mkdirat, sys_mkdirat),
	__SYSCALL(__NR_newfstatat, sys_newfstatat),
	__SYSCALL(__NR_unlinkat, sys_unlinkat),
	__SYSCALL(__NR_renameat, sys_renameat),
	__SYSCALL(__NR_linkat, sys_linkat),
	__SYSCALL(__NR_symlinkat, sys_symlinkat),
	__SYSCALL(__NR_mknodat, sys_mknodat),
	__SYSCALL(__NR_readlinkat, sys_readlinkat),
	__SYSCALL(__NR_fchmodat, sys_fchmodat),
	__SYSCALL(__NR_fchownat, sys_fchownat),
	__SYSCALL(__NR_futimesat, sys_futimesat),
	__SYSCALL(__NR_utimensat, sys_utimensat),
	__SYSCALL(__NR_faccessat, sys_faccessat),
	__SYSCALL(__NR_pselect6, sys_pselect6),
	__SYSCALL(__NR_ppoll, sys_ppoll),
	__SYSCALL(__NR_set_robust_list, sys_set_robust_list),
	__SYSCALL(__NR_get_robust_list, sys_get_robust_list),
	__SYSCALL(__NR_fallocate, sys_fallocate),
	__SYSCALL(__NR_dup3, sys_dup3),
	__SYSCALL(__NR_pipe2, sys_pipe2),
	__SYSCALL(__NR_vmsplice, sys_vmsplice),
	__SYSCALL(__NR_prlimit64, sys_prlimit64),
	__SYSCALL(__NR_syncfs, sys_syncfs),
	__SYSCALL(__NR_getcpu, sys_getcpu),
	__SYSCALL(__NR_renameat2, sys_renameat2),
	__SYSCALL(__NR_getrandom, sys_getrandom),
	__SYSCALL(__NR_memfd_create, sys_memfd_create),
	__SYSCALL(__NR_pidfd_open, sys_pidfd_open),
	__SYSCALL(__NR_process_madvise, sys_process_madvise),
	__SYSCALL(__NR_process_mrelease, sys_process_mrelease),
	__SYSCALL(__NR_chroot, sys_chroot),
	__SYSCALL(__NR_faccessat2, sys_faccessat2),
	__SYSCALL(__NR_clone3, sys_clone3),
	__SYSCALL(__NR_getpriority, sys_getpriority),
	__SYSCALL(__NR_setpriority, sys_setpriority),
	__SYSCALL(__NR_capget, sys_capget),
	__SYSCALL(__NR_capset, sys_capset),
	__SYSCALL(__NR_rt_sigqueueinfo, sys_rt_sigqueueinfo),
	__SYSCALL(__NR_rt_tgsigqueueinfo, sys_rt_tgsigqueueinfo),
	__SYSCALL(__NR_membarrier, sys_membarrier),
	__SYSCALL(__NR_rseq, sys_rseq),
	__SYSCALL(__NR_pidfd_send_signal, sys_pidfd_send_signal),
};

/* stat(path, buf): newfstatat relative to the working directory. */
static long sys_newfstatat_stat(const char *upath, void *ubuf)
{
	return sys_newfstatat(AT_FDCWD, upath, ubuf, 0);
}

/* lstat(path, buf): the same, not following a last symlink. */
static long sys_newfstatat_lstat(const char *upath, void *ubuf)
{
	return sys_newfstatat(AT_FDCWD, upath, ubuf, AT_SYMLINK_NOFOLLOW);
}

static unsigned long enosys_logged[(__NR_syscalls + 63) / 64];

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
	if (nr < __NR_syscalls && syscall_table[nr]) {
		syscall_get_arguments(tsk, regs, args);
		ret = syscall_table[nr](args[0], args[1], args[2], args[3], args[4], args[5]);
	} else if (nr >= __NR_syscalls || !(enosys_logged[nr / 64] & BIT(nr % 64))) {
		if (nr < __NR_syscalls)
			enosys_logged[nr / 64] |= BIT(nr % 64);
		pr_notice("%s[%d]: unimplemented system call %lu\n", current->comm, current->pid, nr);
	}
	syscall_set_return_value(tsk, regs, 0, ret);
	exit_to_user_mode_prepare(regs);
}
