/*
 * clone()'s flags (Linux's include/uapi/linux/sched.h): the low byte is
 * the signal the parent gets when the child exits.
 */
#ifndef _UAPI_LINUX_SCHED_H
#define _UAPI_LINUX_SCHED_H

#define CSIGNAL                 0x000000ff
#define CLONE_VM                0x00000100
#define CLONE_FS                0x00000200
#define CLONE_FILES             0x00000400
#define CLONE_SIGHAND           0x00000800
#define CLONE_PIDFD             0x00001000
#define CLONE_PTRACE            0x00002000
#define CLONE_VFORK             0x00004000
#define CLONE_PARENT            0x00008000
#define CLONE_THREAD            0x00010000
#define CLONE_NEWNS             0x00020000
#define CLONE_SYSVSEM           0x00040000
#define CLONE_SETTLS            0x00080000
#define CLONE_PARENT_SETTID     0x00100000
#define CLONE_CHILD_CLEARTID    0x00200000
#define CLONE_DETACHED          0x00400000
#define CLONE_CLEAR_SIGHAND     0x100000000ULL  /* clone3: the child's handlers back to SIG_DFL */
#define CLONE_INTO_CGROUP       0x200000000ULL

/* clone3's argument block (versions 0 to 2: 64, 80 and 88 bytes). */
struct clone_args {
	unsigned long long flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	unsigned long long set_tid, set_tid_size, cgroup;
};
#define CLONE_ARGS_SIZE_VER0    64
#define CLONE_UNTRACED          0x00800000
#define CLONE_CHILD_SETTID      0x01000000
#define CLONE_NEWCGROUP         0x02000000
#define CLONE_NEWUTS            0x04000000
#define CLONE_NEWIPC            0x08000000
#define CLONE_NEWUSER           0x10000000
#define CLONE_NEWPID            0x20000000
#define CLONE_NEWNET            0x40000000
#define CLONE_IO                0x80000000

#endif
