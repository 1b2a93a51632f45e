/*
 * Guest test (TAP): user space cannot touch the kernel or break its own
 * protections.  Each attempt runs in a child, which must die of SIGSEGV
 * (wait status 139 as a shell shows it) while the kernel goes on: reading,
 * writing and jumping into kernel memory, a non-canonical address,
 * executing a page mapped without PROT_EXEC, writing a read-only mapping,
 * touching a PROT_NONE page.  Runs unchanged on Linux (same statuses).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define KERNEL_TEXT     0xffffffff81000000UL    /* Linux's; foliOS's kernel image is near too */
#define DIRECT_MAP      0xffff888000100000UL

static int n, failed;

static void ok(int cond, const char *name, int status)
{
	printf("%sok %d %s (status %d)\n", cond ? "" : "not ", ++n, name, status);
	fflush(stdout);
	failed += !cond;
}

static volatile unsigned long sink;

static void read_kernel(void) { sink = *(volatile unsigned long *)KERNEL_TEXT; }
static void write_kernel(void) { *(volatile unsigned long *)DIRECT_MAP = 1; }
static void jump_kernel(void) { ((void (*)(void))KERNEL_TEXT)(); }
static void noncanonical(void) { sink = *(volatile unsigned long *)0x8000000000000000UL; }

static void exec_noexec(void)
{
	unsigned char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	p[0] = 0xc3;                            /* ret */
	((void (*)(void))p)();
}

static void write_readonly(void)
{
	char *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	p[0] = 1;
}

static void touch_prot_none(void)
{
	char *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	sink = p[0];
}

static int status_of(void (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		fn();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

int main(void)
{
	static const struct { const char *name; void (*fn)(void); } cases[] = {
		{ "read kernel memory: SIGSEGV", read_kernel },
		{ "write the kernel's direct map: SIGSEGV", write_kernel },
		{ "jump into the kernel: SIGSEGV", jump_kernel },
		{ "a non-canonical address: SIGSEGV", noncanonical },
		{ "execute a page without PROT_EXEC (NX): SIGSEGV", exec_noexec },
		{ "write a PROT_READ mapping: SIGSEGV", write_readonly },
		{ "touch a PROT_NONE mapping: SIGSEGV", touch_prot_none },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int st = status_of(cases[i].fn);

		ok(st == 128 + SIGSEGV, cases[i].name, st);
	}
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
