/* Process system calls: identity, exit, exec, TLS, time, power-off. */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/binfmts.h"
#include "linux/namei.h"
#include "linux/uaccess.h"
#include "linux/string.h"
#include "linux/printk.h"
#include "mm/mm.h"
#include "mm/mm_api.h"
#include <asm/arch.h>
#include <asm/timex.h>
#include "linux/signal.h"

#define LINUX_REBOOT_MAGIC1 0xfee1dead
#define LINUX_REBOOT_MAGIC2  672274793
#define LINUX_REBOOT_MAGIC2A 85072278
#define LINUX_REBOOT_MAGIC2B 369367448
#define LINUX_REBOOT_MAGIC2C 537993216
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedc
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1

long sys_getpid(void)
{
	return current->pid;
}

long sys_getppid(void)
{
	return current->parent ? current->parent->pid : 0;
}

long sys_getuid(void)
{
	return 0;
}

long sys_sched_yield(void)
{
	schedule();
	return 0;
}

long sys_exit(int code)
{
	do_exit((code & 0xff) << 8);
}

long sys_set_tid_address(int *tidptr)
{
	current->clear_child_tid = (unsigned long)tidptr;
	return current->pid;
}

/*
 * Signal dispositions (kernel/signal.c): stored whole and given back as
 * set; SIG_IGN and SIG_DFL are honoured, SA_NOCLDWAIT on SIGCHLD too; a
 * handler is accepted but, until delivery exists, acts as SIG_DFL.
 */
long sys_rt_sigaction(int sig, const void *act, void *oact, unsigned long sigsetsize)
{
	struct k_sigaction old, new;

	if (sigsetsize != 8)
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	if (sig < 1 || !valid_signal(sig) || ((sig == SIGKILL || sig == SIGSTOP) && act))
		return -EINVAL;
	old = current->action[sig - 1];
	if (act)
		current->action[sig - 1] = new;
	return oact && copy_to_user(oact, &old, sizeof(old)) ? -EFAULT : 0;
}

/*
 * setpgid(pid, pgid): put the caller or one of its children (pid; 0 is
 * the caller) into group pgid (0: its own pid), as Linux checks it:
 * EINVAL for pgid < 0, ESRCH for a process not ours, EACCES for a child
 * that has exec'd, EPERM for a group that has no member.  (No sessions
 * yet, so Linux's session EPERMs do not arise.)
 */
long sys_setpgid(int pid, int pgid)
{
	struct task_struct *p, *g;

	if (!pid)
		pid = current->pid;
	if (!pgid)
		pgid = pid;
	if (pgid < 0)
		return -EINVAL;
	p = find_task_by_vpid(pid);
	if (!p || (p != current && p->parent != current))
		return -ESRCH;
	if (p != current && p->did_exec)
		return -EACCES;
	if (pgid != pid) {
		for_each_process(g)
			if (g->pgid == pgid)
				break;
		if (&g->task_list == &all_tasks)
			return -EPERM;
	}
	p->pgid = pgid;
	return 0;
}

/* getpgid(pid): the process group of pid (0: the caller), a zombie's too. */
long sys_getpgid(int pid)
{
	struct task_struct *p = pid ? find_task_by_vpid(pid) : current;

	return p ? p->pgid : -ESRCH;
}

long sys_getpgrp(void)
{
	return current->pgid;
}

/*
 * No signal is blockable yet (only default actions exist), so the mask
 * stays empty; the arguments are checked as Linux does.
 */
long sys_rt_sigprocmask(int how, const void *set, void *oset, unsigned long sigsetsize)
{
	static const unsigned long empty;
	unsigned long new;

	if (sigsetsize != 8)
		return -EINVAL;
	if (set && copy_from_user(&new, set, sizeof(new)))
		return -EFAULT;
	if (set && (how < SIG_BLOCK || how > SIG_SETMASK))
		return -EINVAL;
	return oset && copy_to_user(oset, &empty, 8) ? -EFAULT : 0;
}

long sys_uname(void *buf)
{
	static const char fields[6][65] = { "foliOS", "folios", "0.1", "foliOS teaching kernel",
					    "x86_64", "(none)" };

	return copy_to_user(buf, fields, sizeof(fields)) ? -EFAULT : 0;
}

/* Only power-off exists; both magic numbers must be Linux's. */
long sys_reboot(int magic1, int magic2, unsigned int cmd, void *arg)
{
	if ((unsigned int)magic1 != LINUX_REBOOT_MAGIC1 ||
	    (magic2 != LINUX_REBOOT_MAGIC2 && magic2 != LINUX_REBOOT_MAGIC2A &&
	     magic2 != LINUX_REBOOT_MAGIC2B && magic2 != LINUX_REBOOT_MAGIC2C))
		return -EINVAL;
	if (cmd == LINUX_REBOOT_CMD_POWER_OFF)
		arch_power_off(0);
	return -EINVAL;
}

/* Linux's struct sysinfo on x86-64 (mem_unit 1: sizes in bytes). */
struct sysinfo {
	long uptime;
	unsigned long loads[3];
	unsigned long totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	unsigned short procs, pad;
	unsigned long totalhigh, freehigh;
	unsigned int mem_unit;
	char _f[4];
};

/* sysinfo: uptime, memory in bytes, the number of processes; no load average (always 0). */
long sys_sysinfo(void *info)
{
	struct sysinfo si = { .uptime = ktime_get_ns() / 1000000000, .mem_unit = 1 };
	struct task_struct *t;

	si.totalram = zone.managed_pages * PAGE_SIZE;
	si.freeram = zone.free_pages * PAGE_SIZE;
	for_each_process(t)
		si.procs++;
	return copy_to_user(info, &si, sizeof(si)) ? -EFAULT : 0;
}

long sys_clock_gettime(int clock, void *tp)
{
	u64 ns = ktime_get_ns();
	long ts[2] = { ns / 1000000000, ns % 1000000000 };

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return -EINVAL;
	return copy_to_user(tp, ts, sizeof(ts)) ? -EFAULT : 0;
}

/*
 * Sleep at least the requested time, in whole timer ticks (HZ), rounded
 * up — and by the clock clock_gettime reads: an emulator that fell behind
 * delivers missed ticks in a burst, so ticks alone may end a sleep early.
 */
long sys_nanosleep(const void *ureq, void *urem)
{
	long req[2];
	unsigned long ticks, until;
	u64 end;

	if (copy_from_user(req, ureq, sizeof(req)))
		return -EFAULT;
	if (req[0] < 0 || req[1] < 0 || req[1] >= 1000000000)
		return -EINVAL;
	ticks = req[0] * HZ + (req[1] * HZ + 999999999) / 1000000000;
	until = jiffies + ticks + 1;    /* the current tick is partly over */
	end = ktime_get_ns() + req[0] * 1000000000ULL + req[1];
	while ((long)(jiffies - until) < 0 || ktime_get_ns() < end) {
		if (current->pending_kill)
			return -EINTR;
		sleep_on((const void *)&jiffies);
	}
	return 0;
}

/* Sleep until a signal arrives (only fatal ones exist so far). */
long sys_pause(void)
{
	while (!current->pending_kill)
		sleep_on(&current->pending_kill);
	return -EINTR;
}

#define GRND_NONBLOCK 1
#define GRND_RANDOM   2
#define GRND_INSECURE 4

long sys_getrandom(void *buf, unsigned long len, unsigned int flags)
{
	unsigned long done = 0;

	if ((flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE)) ||
	    (flags & (GRND_RANDOM | GRND_INSECURE)) == (GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	len = MIN(len, MAX_RW_COUNT);

	while (done < len) {
		u64 r = get_cycles() * 6364136223846793005ULL + done;
		unsigned long n = MIN(len - done, sizeof(r));

		if (copy_to_user((char *)buf + done, &r, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return done;
}

#define ARG_MAX         (32 * PAGE_SIZE)    /* the argument space never goes below */

/* How many pointers a user vector has before its NULL (Linux's count()); -EFAULT. */
static int count(char *const *uvec)
{
	int i = 0;

	for (char *p = NULL; uvec; i++) {
		if (copy_from_user(&p, uvec + i, sizeof(p)))
			return -EFAULT;
		if (!p)
			break;
	}
	return i;
}

/*
 * How much the strings may take (Linux's bprm_stack_limits): a quarter of
 * the stack rlimit (2 MiB of the default 8), at most 3/4 of the 8 MiB stack
 * and at least ARG_MAX, less the argv and envp pointers; -E2BIG if the
 * pointers alone take it.
 */
static int bprm_stack_limits(struct exec_args *a)
{
	unsigned long limit = MAX(MIN(STACK_SIZE_MAX / 4 * 3, rlimit(RLIMIT_STACK) / 4), ARG_MAX);
	unsigned long ptr_size = (MAX(a->argc, 1) + a->envc) * sizeof(void *);

	if (limit <= ptr_size)
		return -E2BIG;
	a->limit = limit - ptr_size;
	return 0;
}

/* Make a->buf hold at least len more bytes, doubling it; 0 or -ENOMEM. */
static int grow_args(struct exec_args *a, unsigned long len)
{
	unsigned long size = a->size ? a->size : PAGE_SIZE;
	char *buf;

	while (size - a->len < len)
		size *= 2;
	if (size == a->size)
		return 0;
	buf = kmalloc(size);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, a->buf, a->len);
	kfree(a->buf);
	a->buf = buf;
	a->size = size;
	return 0;
}

/* Append a kernel string (the file name, or "" for an empty argv); -E2BIG past the limit. */
static int copy_string_kernel(const char *s, struct exec_args *a)
{
	unsigned long len = strlen(s) + 1;
	int ret = a->len + len > a->limit ? -E2BIG : grow_args(a, len);

	if (!ret) {
		memcpy(a->buf + a->len, s, len);
		a->len += len;
	}
	return ret;
}

/*
 * Append count user strings (Linux's copy_strings): each at most
 * MAX_ARG_STRLEN bytes with its NUL, all within a->limit, else -E2BIG;
 * -EFAULT for an unreadable one.  A string is copied into the free space,
 * which doubles until the string's NUL is found in it.
 */
static int copy_strings(int count, char *const *uvec, struct exec_args *a)
{
	for (int i = 0; i < count; i++) {
		char *ustr;
		long n = -ENAMETOOLONG;

		if (copy_from_user(&ustr, uvec + i, sizeof(ustr)) || !ustr)
			return -EFAULT;
		while (n == -ENAMETOOLONG) {
			unsigned long room = MIN(a->size - a->len, MAX_ARG_STRLEN);
			int ret;

			n = strncpy_from_user(a->buf + a->len, ustr, room);
			if (n == -EFAULT)
				return -EFAULT;
			if (n >= 0)
				break;
			if (room == MAX_ARG_STRLEN || a->len + room >= a->limit)
				return -E2BIG;
			ret = grow_args(a, room + 1);
			if (ret)
				return ret;
		}
		if (a->len + n + 1 > a->limit)
			return -E2BIG;
		a->len += n + 1;
	}
	return 0;
}

/*
 * Copy in argv, envp and the file name (Linux's do_execveat_common):
 * count both vectors, set the limit, copy the strings; an empty argv gets
 * "" as argv[0], as Linux does since 5.18.  0 or -errno.
 */
static int copy_exec_args(const char *path, char *const *argv, char *const *envp,
			  struct exec_args *a)
{
	int ret;

	a->argc = ret = count(argv);
	if (ret >= 0)
		a->envc = ret = count(envp);
	if (ret >= 0)
		ret = bprm_stack_limits(a);
	if (!ret)
		ret = copy_strings(a->argc, argv, a);
	if (!ret && !a->argc) {
		ret = copy_string_kernel("", a);
		a->argc = 1;
	}
	if (!ret)
		ret = copy_strings(a->envc, envp, a);
	return ret ? ret : copy_string_kernel(path, a);
}

/*
 * execve: the name, then argv and envp are copied in; the file is looked
 * up by do_execve.  Signal handlers go back to SIG_DFL.  Returns only on
 * failure.
 */
long sys_execve(const char *upath, char *const *argv, char *const *envp)
{
	struct exec_args a = { 0 };
	long ret = -ENOMEM;
	char *path = getname(upath, 0, &ret);

	if (!path)
		return ret;
	ret = grow_args(&a, PAGE_SIZE);
	if (!ret)
		ret = copy_exec_args(path, argv, envp, &a);
	if (!ret)
		ret = do_execve(path, &a);
	if (!ret) {
		flush_signal_handlers(current);
		current->did_exec = true;
	}
	kfree(path);
	kfree(a.buf);
	return ret;
}
