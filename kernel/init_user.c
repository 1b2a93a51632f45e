/*
 * Starting user space: PID 1 runs /bin/init with the words after " -- " on
 * the kernel command line as its arguments (Linux passes them to init the
 * same way).  run-qemu.sh --run puts the command there, each word with
 * '%', spaces and quotes written as %XX so words may contain spaces.
 */
#include "linux/errno.h"
#include "linux/sched.h"
#include "linux/fault-inject.h"
#include "linux/binfmts.h"
#include "linux/printk.h"
#include "linux/string.h"
#include "linux/mm.h"

/*
 * PID 1, set once here: the reaper of orphans, whose exit powers the
 * machine off (Linux's child_reaper; Linux's init_task is the idle task).
 */
struct task_struct *init_task;

static const char *const init_env[] = { "PATH=/bin", "HOME=/", "TERM=vt100" };
static char init_strings[32 << 10];    /* static: the leak baseline excludes it */
static struct exec_args init_args = { .buf = init_strings, .size = sizeof(init_strings) };
static struct mem_counts baseline;     /* taken once PID 1 exists, before its exec */

/* Append one word, decoding %XX, to a->buf; returns false if full. */
static bool add_word(struct exec_args *a, const char *w, size_t len)
{
	char *out = a->buf + a->len;
	size_t n = 0;

	if (a->len + len + 1 > a->size)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (w[i] == '%' && i + 2 < len) {
			char hex[3] = { w[i + 1], w[i + 2], 0 };

			out[n++] = simple_strtoul(hex, NULL, 16);
			i += 2;
		} else {
			out[n++] = w[i];
		}
	}
	out[n] = '\0';
	a->len += n + 1;
	return true;
}

/*
 * init's argv (/bin/init, then the words after " -- " on the command line),
 * its environment and its file name into a.  0 or -E2BIG.
 */
static int init_build_args(struct exec_args *a, const char *cmdline)
{
	const char *args = strstr(cmdline, " -- ");

	add_word(a, "/bin/init", 9);
	a->argc = 1;
	for (const char *p = args ? args + 4 : ""; *p; ) {
		size_t len = 0;

		while (*p == ' ')
			p++;
		while (p[len] && p[len] != ' ')
			len++;
		if (len && add_word(a, p, len))
			a->argc++;
		p += len;
	}
	for (size_t i = 0; i < ARRAY_SIZE(init_env); i++)
		if (add_word(a, init_env[i], strlen(init_env[i])))
			a->envc++;
	if (!add_word(a, "/bin/init", 9))       /* the file name, for AT_EXECFN */
		return -E2BIG;
	return 0;
}

/* Create PID 1 running /bin/init; it runs once the idle loop schedules. */
int user_init_from_cmdline(const char *cmdline)
{
	struct exec_args *a = &init_args;
	struct task_struct *t, *idle = current;
	int ret = init_build_args(a, cmdline);

	if (ret)
		return ret;
	t = task_create("init", NULL);
	if (!t)
		return -ENOMEM;
	init_task = t;
	mem_counts_snapshot(&baseline);
	t->files = files_init_console();
	if (!t->files || init_task_shared(t))
		return -ENOMEM;
	arch_switch_mm_and_stack(t);            /* exec builds t's mm as "current" */
	pr_info("Run /bin/init as init process\n");
	ret = do_execve("/bin/init", a);
	arch_switch_mm_and_stack(idle);
	if (ret)
		return ret;
	wake_up_new_task(t);
	fault_inject_arm(true);                 /* boot is done: inject from here on */
	return 0;
}

/*
 * When PID 1 is gone (its mm torn down), every page, page table and
 * kmalloc'd byte user space used must be back: report what is not.
 * Returns true if nothing leaked.
 */
bool user_space_leak_check(void)
{
	struct mem_counts now;

	fault_inject_arm(false);
	if (fail_page_alloc.enabled || failslab.enabled)
		pr_warn("fault injection: %lu of %lu page allocations and %lu of %lu kmallocs failed\n",
			fail_page_alloc.failures, fail_page_alloc.calls, failslab.failures,
			failslab.calls);
	mem_counts_snapshot(&now);
	if (mem_counts_equal(&baseline, &now))
		return true;
	pr_err("leak: memory not returned after PID 1 exited:\n");
	mem_counts_print_diff(&baseline, &now);
	return false;
}
