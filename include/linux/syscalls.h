/* The system calls, with Linux's names and arguments, grouped by the file that has each. */
#ifndef _LINUX_SYSCALLS_H
#define _LINUX_SYSCALLS_H

#include "linux/types.h"
#include "linux/signal.h"

struct new_utsname;
struct tms;
struct pollfd;

/* fs/ */
long sys_read(int fd, char *buf, unsigned long count);
long sys_write(int fd, const char *buf, unsigned long count);
long sys_writev(int fd, const void *uiov, unsigned long iovcnt);
long sys_readv(int fd, const void *uiov, unsigned long iovcnt);
long sys_pread64(int fd, char *buf, unsigned long count, long off);
long sys_pwrite64(int fd, const char *buf, unsigned long count, long off);
long sys_ioctl(int fd, unsigned long cmd, unsigned long arg);
long sys_open(const char *upath, int flags, int mode);
long sys_openat(int dirfd, const char *upath, int flags, int mode);
long sys_close(int fd);
long sys_lseek(int fd, long off, int whence);
long sys_fstat(int fd, void *ubuf);
long sys_newfstatat(int dirfd, const char *upath, void *ubuf, int flags);
long sys_access(const char *upath, int mode);
long sys_faccessat(int dirfd, const char *upath, int mode);
long sys_getdents64(int fd, void *ubuf, unsigned long count);
long sys_dup(int oldfd);
long sys_mount(const char *usource, const char *utarget, const char *ufstype,
	       unsigned long flags, const void *data);
long sys_pipe(int *ufds);
long sys_pipe2(int *ufds, int flags);
long sys_vmsplice(int fd, const void *uiov, unsigned long nr_segs, unsigned int flags);
long sys_fcntl(int fd, int cmd, unsigned long arg);
long sys_dup2(int oldfd, int newfd);
long sys_dup3(int oldfd, int newfd, int flags);
long sys_sync(void);
long sys_syncfs(int fd);
long sys_fsync(int fd);
long sys_fdatasync(int fd);
long sys_creat(const char *upath, int mode);
long sys_truncate(const char *upath, long length);
long sys_ftruncate(int fd, long length);
long sys_fallocate(int fd, int mode, long offset, long len);
long sys_mkdir(const char *upath, int mode);
long sys_chdir(const char *upath);
long sys_fchdir(int fd);
long sys_getcwd(char *ubuf, unsigned long size);
long sys_mkdirat(int dirfd, const char *upath, int mode);
long sys_rmdir(const char *upath);
long sys_unlink(const char *upath);
long sys_unlinkat(int dirfd, const char *upath, int flags);
long sys_rename(const char *uold, const char *unew);
long sys_renameat(int olddfd, const char *uold, int newdfd, const char *unew);
long sys_renameat2(int olddfd, const char *uold, int newdfd, const char *unew, unsigned int flags);
long sys_link(const char *uold, const char *unew);
long sys_linkat(int olddfd, const char *uold, int newdfd, const char *unew, int flags);
long sys_symlinkat(const char *utarget, int newdfd, const char *upath);
long sys_symlink(const char *utarget, const char *upath);
long sys_mknodat(int dirfd, const char *upath, unsigned int mode, unsigned int dev);
long sys_mknod(const char *upath, unsigned int mode, unsigned int dev);
long sys_flock(int fd, unsigned int op);
long sys_syslog(int type, char *ubuf, int len);
long sys_readlinkat(int dirfd, const char *upath, char *ubuf, int bufsiz);
long sys_readlink(const char *upath, char *ubuf, int bufsiz);
long sys_fchmodat(int dirfd, const char *upath, unsigned int mode);
long sys_chmod(const char *upath, unsigned int mode);
long sys_fchmod(int fd, unsigned int mode);
long sys_fchownat(int dirfd, const char *upath, unsigned int uid, unsigned int gid, int flags);
long sys_chown(const char *upath, unsigned int uid, unsigned int gid);
long sys_lchown(const char *upath, unsigned int uid, unsigned int gid);
long sys_fchown(int fd, unsigned int uid, unsigned int gid);
long sys_umask(int mask);
struct timespec64;
long sys_utimensat(int dirfd, const char *upath, const struct timespec64 *utimes, int flags);
long sys_futimesat(int dirfd, const char *upath, const long *utimes);
long sys_utimes(const char *upath, const long *utimes);
long sys_utime(const char *upath, const long *ubuf);
long sys_statfs(const char *upath, void *ubuf);
long sys_fstatfs(int fd, void *ubuf);
long sys_umount2(const char *utarget, int flags);

/* mm/memfd.c */
long sys_memfd_create(const char *uname, unsigned int flags);

/* mm/syscalls.c */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, long fd, unsigned long off);
long sys_munmap(unsigned long addr, unsigned long len);
long sys_brk(unsigned long brk);
long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		unsigned long flags, unsigned long new_addr);
long sys_mprotect(unsigned long addr, unsigned long len, unsigned long prot);
long sys_madvise(unsigned long addr, unsigned long len, int advice);
long sys_mlock(unsigned long start, size_t len);
long sys_mlock2(unsigned long start, size_t len, int flags);
long sys_munlock(unsigned long start, size_t len);
long sys_mlockall(int flags);
long sys_munlockall(void);
long sys_process_madvise(int pidfd, const void *uvec, unsigned long vlen, int advice,
			 unsigned int flags);
long sys_process_mrelease(int pidfd, unsigned int flags);
long sys_msync(unsigned long start, size_t len, int flags);
long sys_swapon(const char *specialfile, int swap_flags);
long sys_swapoff(const char *specialfile);
long sys_mincore(unsigned long start, unsigned long len, unsigned char *vec);
long sys_mbind(unsigned long start, unsigned long len, unsigned long mode,
	       const unsigned long *nmask, unsigned long maxnode, unsigned int flags);
long sys_set_mempolicy(int mode, const unsigned long *nmask, unsigned long maxnode);
long sys_get_mempolicy(int *policy, unsigned long *nmask, unsigned long maxnode,
		       unsigned long addr, unsigned long flags);

/* kernel/exec.c */
long sys_execve(const char *path, char *const *argv, char *const *envp);

/* kernel/exit.c */
long sys_exit(int code);
long sys_exit_group(int code);
long sys_wait4(int pid, int *wstatus, int options, void *rusage);
long sys_waitid(int which, int upid, siginfo_t *infop, int options, void *rusage);

/* kernel/itimer.c */
struct __kernel_old_itimerval;
long sys_getitimer(int which, struct __kernel_old_itimerval *uvalue);
long sys_setitimer(int which, const struct __kernel_old_itimerval *uvalue,
		   struct __kernel_old_itimerval *uovalue);
long sys_alarm(unsigned int seconds);

/* kernel/pid.c */
long sys_pidfd_open(int pid, unsigned int flags);
long sys_pidfd_send_signal(int pidfd, int sig, const void *uinfo, unsigned int flags);
long sys_rt_sigqueueinfo(int pid, int sig, const void *uinfo);
long sys_rt_tgsigqueueinfo(int tgid, int pid, int sig, const void *uinfo);
long sys_capget(void *uhdr, void *udata);
long sys_getpriority(int which, int who);
long sys_chroot(const char *upath);
long sys_faccessat2(int dirfd, const char *upath, int mode, int flags);
long sys_clone3(const void *uargs, size_t size);
long sys_setpriority(int which, int who, int nice);
long sys_capset(void *uhdr, const void *udata);
long sys_membarrier(int cmd, unsigned int flags, int cpu_id);
long sys_rseq(void *uarea, u32 len, int flags, u32 sig);

/* kernel/fork.c */
long sys_set_tid_address(int *tidptr);
long sys_fork(void);
long sys_vfork(void);
long sys_clone(unsigned long flags, unsigned long newsp, int *parent_tid, int *child_tid,
	       unsigned long tls);
long sys_futex(u32 *uaddr, int op, u32 val, const void *utime, u32 *uaddr2, u32 val3);
long sys_set_robust_list(void *head, unsigned long len);
long sys_get_robust_list(int pid, void **head_ptr, unsigned long *len_ptr);

/* kernel/reboot.c */
long sys_reboot(int magic1, int magic2, unsigned int cmd, void *arg);

/* kernel/sched/syscalls.c */
long sys_sched_yield(void);
long sys_sched_setaffinity(int pid, unsigned int len, const unsigned long *user_mask_ptr);
long sys_sched_getaffinity(int pid, unsigned int len, unsigned long *user_mask_ptr);
long sys_getcpu(unsigned int *cpup, unsigned int *nodep, void *unused);

/* kernel/signal.c */
long sys_kill(int pid, int sig);
long sys_rt_sigaction(int sig, const void *act, void *oact, unsigned long sigsetsize);
long sys_rt_sigprocmask(int how, const sigset_t *nset, sigset_t *oset, unsigned long sigsetsize);
long sys_rt_sigpending(sigset_t *uset, unsigned long sigsetsize);
long sys_rt_sigsuspend(const sigset_t *unewset, unsigned long sigsetsize);
struct __kernel_timespec;
long sys_rt_sigtimedwait(const sigset_t *uthese, siginfo_t *uinfo,
			 const struct __kernel_timespec *uts, unsigned long sigsetsize);
long sys_rt_sigreturn(void);
long sys_sigaltstack(const stack_t *uss, stack_t *uoss);
long sys_tkill(int pid, int sig);
long sys_tgkill(int tgid, int pid, int sig);
long sys_restart_syscall(void);
long sys_pause(void);
long sys_poll(struct pollfd *ufds, unsigned int nfds, int timeout_msecs);
long sys_select(int n, unsigned long *inp, unsigned long *outp, unsigned long *exp, void *tvp);
long sys_pselect6(int n, unsigned long *inp, unsigned long *outp, unsigned long *exp, void *tsp,
		  void *sig);
long sys_ppoll(struct pollfd *ufds, unsigned int nfds, const void *tsp, const sigset_t *sigmask,
	       unsigned long sigsetsize);

/* kernel/sys.c */
long sys_getpid(void);
long sys_gettid(void);
long sys_getppid(void);
long sys_getuid(void);
long sys_geteuid(void);
long sys_getgid(void);
long sys_getegid(void);
long sys_setpgid(int pid, int pgid);
long sys_getpgid(int pid);
long sys_getpgrp(void);
long sys_getsid(int pid);
long sys_setuid(unsigned int uid);
long sys_setgid(unsigned int gid);
long sys_setreuid(unsigned int ruid, unsigned int euid);
long sys_setregid(unsigned int rgid, unsigned int egid);
long sys_setresuid(unsigned int ruid, unsigned int euid, unsigned int suid);
long sys_setresgid(unsigned int rgid, unsigned int egid, unsigned int sgid);
long sys_setfsuid(unsigned int uid);
long sys_setfsgid(unsigned int gid);
long sys_getresuid(unsigned int *ruid, unsigned int *euid, unsigned int *suid);
long sys_getresgid(unsigned int *rgid, unsigned int *egid, unsigned int *sgid);
long sys_getgroups(int size, unsigned int *list);
long sys_setgroups(int size, unsigned int *list);
long sys_setsid(void);
long sys_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	       unsigned long arg5);
long sys_newuname(struct new_utsname *name);
long sys_sysinfo(void *info);
long sys_getrandom(void *buf, unsigned long len, unsigned int flags);
long sys_getrlimit(unsigned int resource, void *rlim);
long sys_setrlimit(unsigned int resource, const void *rlim);
long sys_prlimit64(int pid, unsigned int resource, const void *new_rlim, void *old_rlim);

/* arch/x86_64/process.c */
long sys_arch_prctl(int code, unsigned long addr);

/* kernel/time.c */
long sys_clock_gettime(int clock, void *tp);
long sys_clock_getres(int clock, void *tp);
long sys_clock_settime(int clock, const void *tp);
long sys_clock_nanosleep(int clock, int flags, const void *ureq, void *urem);
struct sigevent;
struct __kernel_itimerspec;
long sys_timer_create(int clock, const struct sigevent *uevent, int *uid);
long sys_timer_settime(int id, int tflags, const struct __kernel_itimerspec *unew,
		       struct __kernel_itimerspec *uold);
long sys_timer_gettime(int id, struct __kernel_itimerspec *ucur);
long sys_timer_getoverrun(int id);
long sys_timer_delete(int id);
long sys_nanosleep(const void *ureq, void *urem);
long sys_gettimeofday(void *tv, void *tz);
long sys_settimeofday(const void *tv, const void *tz);
long sys_time(long *tloc);
long sys_times(struct tms *tbuf);
long sys_getrusage(int who, void *ru);
long sys_statx(int dirfd, const char *upath, int flags, unsigned int mask, void *ubuf);
long sys_getxattr(const char *path, const char *name, void *value, size_t size);
long sys_lgetxattr(const char *path, const char *name, void *value, size_t size);
long sys_fgetxattr(int fd, const char *name, void *value, size_t size);
long sys_setxattr(const char *path, const char *name, const void *value, size_t size, int flags);
long sys_lsetxattr(const char *path, const char *name, const void *value, size_t size, int flags);
long sys_fsetxattr(int fd, const char *name, const void *value, size_t size, int flags);
long sys_removexattr(const char *path, const char *name);
long sys_lremovexattr(const char *path, const char *name);
long sys_fremovexattr(int fd, const char *name);
long sys_listxattr(const char *path, char *list, size_t size);
long sys_llistxattr(const char *path, char *list, size_t size);
long sys_flistxattr(int fd, char *list, size_t size);

#endif
