/*
 * execve (Linux's fs/exec.c): the file name, argv and envp are copied
 * into the kernel (struct exec_args, linux/binfmts.h) within the limits
 * Linux sets, the file is looked up and its first bytes read; a #! script
 * names an interpreter to run instead (kernel/binfmt_script.c, up to
 * BINPRM_MAX_RECURSION deep), and the ELF loader (kernel/binfmt_elf.c)
 * replaces the program.  On failure the old program continues.
 */
#include "linux/sched/signal.h"
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/sched.h"
#include "linux/rseq.h"
#include "linux/string.h"
#include "linux/uaccess.h"
#include "linux/binfmts.h"
#include "linux/namei.h"
#include "linux/pagemap.h"
#include "linux/signal.h"
#include "linux/posix-timers.h"
#include "linux/mm.h"
#include "linux/slab.h"
#include <asm/irqflags.h>

#define ARG_MAX         (32 * PAGE_SIZE)    /* the argument space never goes below */

/* Let go of a file open_exec() gave (Linux's do_close_execat): writers may open it again. */
void do_close_execat(struct file *file)
{
	allow_write_access(file);
	fput(file);
}

/*
 * The file of an executable, read-only and named by its normalized path
 * (/proc/<pid>/maps shows it), as Linux's open_exec: a regular file with
 * an execute bit (root needs one), on any file system whose files live
 * in the page cache (the initrd, tmpfs).  The file denies writers while
 * it is held (deny_write_access: an open for writing is ETXTBSY), until
 * do_close_execat().  NULL with *err set otherwise: -EACCES for
 * directories, devices, /proc files, mode 0644; -ETXTBSY if the file is
 * open for writing; -ENOMEM.
 */
struct file *open_exec(const char *path, long *err)
{
	char *name = kmalloc(PATH_MAX);
	struct file *file = NULL;
	struct inode *inode;

	*err = name ? filename_lookup(AT_FDCWD, path, LOOKUP_FOLLOW, &inode, name) : -ENOMEM;
	if (*err)
		goto out;
	*err = -EACCES;         /* also on a noexec mount (Linux's do_open_execat) */
	if (S_ISREG(inode->i_mode) && (inode->i_mode & 0111) && inode->i_mapping &&
	    !inode_noexec(inode)) {
		*err = -ENOMEM;
		file = alloc_file(inode, O_RDONLY);     /* takes over the reference */
	}
	if (!file) {
		iput(inode);
	} else if ((*err = deny_write_access(file))) {
		fput(file);
		file = NULL;
	} else if ((*err = file_set_name(file, "%s", name))) {
		do_close_execat(file);
		file = NULL;
	}
out:
	kfree(name);
	return file;
}

/*
 * A new reference to a program's file for an mm's exe_file, which denies
 * writers for as long as the mm lives (Linux 6.1's set_mm_exe_file and
 * dup_mm_exe_file): the caller holds a deny already (exec's, or the
 * parent mm's), so this one cannot fail.  put_mm_exe_file_ref() ends it.
 */
struct file *get_mm_exe_file_ref(struct file *exe)
{
	if (deny_write_access(exe))
		panic("get_mm_exe_file_ref: a program's file is open for writing");
	return get_file(exe);
}

void put_mm_exe_file_ref(struct file *exe)
{
	do_close_execat(exe);
}

/* Read the first BINPRM_BUF_SIZE bytes of a->file into a->hdr, zeros past its end (Linux's prepare_binprm). */
static int prepare_binprm(struct exec_args *a)
{
	loff_t pos = 0;
	long n;

	memset(a->hdr, 0, sizeof(a->hdr));
	n = kernel_read(a->file, a->hdr, sizeof(a->hdr), &pos);
	return n < 0 ? (int)n : 0;
}

/*
 * Run the loader a->file's first bytes call for (Linux's exec_binprm and
 * search_binary_handler): a script's names its interpreter, which is
 * opened and looked at in turn, at most BINPRM_MAX_RECURSION times
 * (-ELOOP past that); an ELF is loaded.  a->file may be replaced (and NULL
 * if an interpreter could not be opened).  0 or -errno.
 */
static int exec_binprm(struct exec_args *a, unsigned long *ip, unsigned long *sp)
{
	for (int depth = 0;; depth++) {
		long ret = prepare_binprm(a);

		if (ret)
			return ret;
		if (a->hdr[0] != '#' || a->hdr[1] != '!')
			return load_elf_binary(a, ip, sp);
		if (depth == BINPRM_MAX_RECURSION)
			return -ELOOP;
		ret = load_script(a);
		if (ret)
			return ret;
		do_close_execat(a->file);
		a->file = open_exec(a->interp, &ret);
		if (!a->file)
			return ret;
	}
}

/*
 * The exec'ing thread takes over the leader's place (Linux's de_thread's
 * end): its PID, parent, children and place in the parent's list; the
 * old leader, a zombie now, is the caller's to free.  Only tsk and leader
 * are left.  tasklist_lock held.
 */
static void exchange_leader(struct task_struct *tsk, struct task_struct *leader)
{
	struct task_struct *c;

	leader->pid = tsk->pid;
	tsk->pid = tsk->tgid;
	tsk->group_leader = leader->group_leader = tsk;
	tsk->parent = leader->parent;
	list_add(&tsk->sibling, &leader->sibling);
	list_del(&leader->sibling);
	leader->parent = NULL;
	while (!list_empty(&leader->children)) {
		c = list_first_entry(&leader->children, struct task_struct, sibling);
		list_del(&c->sibling);
		list_add_tail(&c->sibling, &tsk->children);
		c->parent = tsk;
	}
}

/*
 * Make tsk the only thread of its process (Linux's de_thread): the others
 * are killed, and tsk waits until they are gone (a leader as a zombie)
 * and, if it is not the leader, takes the leader's PID.  Each exiting
 * thread's exit_notify wakes tsk (sig->group_exec_task) under
 * tasklist_lock, which tsk holds to look.
 */
static void de_thread(struct task_struct *tsk)
{
	struct signal_struct *sig = tsk->signal;
	struct task_struct *leader = tsk->group_leader;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);

	if (thread_group_empty(tsk)) {
		spin_unlock_irqrestore(&tasklist_lock, flags);
		return;
	}
	sig->group_exec_task = tsk;
	zap_other_threads(tsk);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (sig->nr_threads <= (leader == tsk ? 1 : 2) &&
		    (leader == tsk || leader->state == TASK_ZOMBIE))
			break;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		schedule();
		spin_lock_irqsave(&tasklist_lock, flags);
	}
	__set_current_state(TASK_RUNNING);
	if (leader != tsk)
		exchange_leader(tsk, leader);
	sig->group_exec_task = NULL;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (leader != tsk)
		task_release(leader);
}

/*
 * A new program shares no dispositions or fd table with another process
 * (CLONE_SIGHAND or CLONE_FILES without CLONE_THREAD): exec, once
 * de_thread left tsk alone in its group, takes copies (Linux's
 * unshare_sighand and unshare_files).  0 or -ENOMEM.
 */
static int unshare_sighand_files(struct task_struct *tsk)
{
	struct sighand_struct *sighand = tsk->sighand;
	struct files_struct *files = tsk->files;

	if (sighand->count > 1) {
		struct sighand_struct *copy = kmalloc(sizeof(*sighand));
		unsigned long flags;

		if (!copy)
			return -ENOMEM;
		spin_lock_irqsave(&tasklist_lock, flags);       /* sigaction, kill, /proc read it */
		memcpy(copy, sighand, sizeof(*sighand));
		copy->count = 1;
		tsk->sighand = copy;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		if (!__atomic_sub_fetch(&sighand->count, 1, __ATOMIC_ACQ_REL))
			kfree(sighand);         /* the other user went meanwhile */
	}
	if (files->count > 1) {
		struct files_struct *copy = dup_fd(files);
		unsigned long flags;

		if (!copy)
			return -ENOMEM;
		spin_lock_irqsave(&tasklist_lock, flags);       /* /proc/<pid>/fd reads it */
		tsk->files = copy;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		put_files_struct(files);
	}
	return 0;
}

/*
 * Replace current's program by the file at path with a->strings (argv then
 * envp, copied into the kernel already).  On success the task returns to
 * user mode at the new entry point; on failure the old program continues.
 * The new mappings hold the file; exec's own reference goes at the end.
 */
int do_execve(const char *path, struct exec_args *a)
{
	unsigned long ip, sp;
	const char *base;
	long ret;

	a->file = open_exec(path, &ret);
	if (!a->file)
		return ret;
	ret = exec_binprm(a, &ip, &sp);
	if (a->file)
		do_close_execat(a->file);
	a->file = NULL;
	kfree(a->interp);
	a->interp = NULL;
	if (ret)
		return ret;
	de_thread(current);
	exit_itimers(current->signal);          /* POSIX timers do not survive exec (begin_new_exec) */
	if (unshare_sighand_files(current))
		do_group_exit(SIGKILL);         /* past the point of no return */
	current->robust_list = current->clear_child_tid = 0;
	base = strrchr(path, '/');
	strlcpy(current->comm, base ? base + 1 : path, sizeof(current->comm));
	flush_thread();
	files_close_on_exec(current->files);
	arch_switch_mm_and_stack(current);
	start_thread(task_pt_regs(current), ip, sp);
	return 0;
}

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
 * Replace argv[0] with the n strings strs (a script's interpreter, its
 * argument and the script's path: Linux's remove_arg_zero and
 * copy_string_kernel); argv[0] may be missing (argc 0).  0, -E2BIG past
 * the limit or -ENOMEM.
 */
int exec_args_replace_arg0(struct exec_args *a, const char *const *strs, int n)
{
	unsigned long old = a->argc ? strlen(a->buf) + 1 : 0, new = 0;
	int ret;

	for (int i = 0; i < n; i++)
		new += strlen(strs[i]) + 1;
	if (a->len - old + new > a->limit)
		return -E2BIG;
	ret = new > old ? grow_args(a, new - old) : 0;
	if (ret)
		return ret;
	memmove(a->buf + new, a->buf + old, a->len - old);
	for (int i = 0, at = 0; i < n; i++) {
		memcpy(a->buf + at, strs[i], strlen(strs[i]) + 1);
		at += strlen(strs[i]) + 1;
	}
	a->len = a->len - old + new;
	a->argc += n - (old ? 1 : 0);
	return 0;
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
 * up by do_execve.  Signal handlers go back to SIG_DFL.  Returns 0 into
 * the new program (do_execve rebuilt the frame, so the 0 lands in its
 * rax as any call's result does) or -errno to the old one.
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
		cap_bprm_creds(current);
		rseq_execve(current);
		current->did_exec = true;
	}
	kfree(path);
	kfree(a.buf);
	return ret;
}
