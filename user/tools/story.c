/*
 * story: replay one of the article's stories on a 64 KiB folio with the
 * mapcount trace on (/proc/mapcount_trace), then print the trace.
 *   story fork-exec   fork; the child execs; the parent's write reuses
 *   story three       three processes map the folio; two leave; the last
 *                     one's write must copy (the shared bit stays set)
 *   story swap        a 2 MiB THP paged out (its PMD split, every PTE a
 *                     swap entry) but kept in the swap cache; a child
 *                     forked then swaps it in whole, then the parent: two
 *                     slots, the shared bit; the child exits (needs a swap
 *                     device: run-qemu.sh --swap)
 * scripts/trace-plot.py draws the printed trace as a timeline.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/uio.h>
#include "thp_util.h"

#define TRACE MAPCOUNT_TRACE

static void fork_exec(void)
{
	char *p = traced_folio();
	int sync[2];
	char c;
	pid_t child;

	pipe2(sync, O_CLOEXEC);
	if (!(child = fork())) {
		close(sync[0]);
		execl("/bin/hello", "hello", (char *)NULL);
		_exit(127);
	}
	close(sync[1]);
	read(sync[0], &c, 1);                   /* EOF: the child exec'd */
	p[4096] = 2;                            /* reuse: only this mm maps the folio now */
	wait_exit(child);
}

static void three(void)
{
	char *p = traced_folio();
	int go_a[2], go_b[2], c = 0;
	pid_t a, b;

	pipe(go_a), pipe(go_b);
	if (!(a = fork())) {
		read(go_a[0], &c, sizeof(c));
		_exit(0);
	}
	if (!(b = fork())) {
		read(go_b[0], &c, sizeof(c));
		p[4096] = 3;                    /* shared bit still set: copy */
		_exit(0);
	}
	munmap(p, 64 * 1024);                   /* the first slot owner leaves */
	write(go_a[1], &c, sizeof(c));          /* the second one exits */
	wait_exit(a);
	write(go_b[1], &c, sizeof(c));
	wait_exit(b);
}

/*
 * A PMD-mapped THP goes to swap: a pipe holds a reference to one of its
 * pages (vmsplice), so after the write the folio stays in the swap cache,
 * and each swap-in finds it there and maps all 512 pages at once — the
 * child's first, then the parent's while the child still maps it.
 */
static void swap(void)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE), cmd[64], buf[1], c;
	struct iovec iov = { p, PAGE };
	int pipefd[2], go[2], done[2];
	pid_t child;

	write_text(TRACE, "clear");
	write_text(TRACE, "order 9");
	thp_only(2048);
	memset(p, 1, PMD_SIZE);
	thp_only(0);
	snprintf(cmd, sizeof(cmd), "pfn %lu", pfn_of(p));
	write_text(TRACE, cmd);
	pipe(pipefd);
	vmsplice(pipefd[1], &iov, 1, 0);
	madvise(p, PMD_SIZE, MADV_PAGEOUT);     /* PMD split, 512 swap entries; cached */
	pipe(go);
	pipe(done);
	if (!(child = fork())) {
		c = p[PAGE];                    /* the child's swap-in: the whole folio */
		write(done[1], &c, 1);
		read(go[0], &c, 1);             /* until the parent has it mapped too */
		_exit(0);
	}
	read(done[0], &c, 1);
	c = *(volatile char *)(p + 2 * PAGE);   /* the parent's: the same folio, now shared */
	write(go[1], &c, 1);
	wait_exit(child);
	read(pipefd[0], buf, 1);                /* drain the pipe: its reference goes */
	close(pipefd[0]);
	close(pipefd[1]);
	munmap(p, PMD_SIZE);
}

int main(int argc, char **argv)
{
	char buf[16384];

	if (argc != 2 || (strcmp(argv[1], "fork-exec") && strcmp(argv[1], "three") &&
			  strcmp(argv[1], "swap"))) {
		fprintf(stderr, "usage: story fork-exec|three|swap\n");
		return 2;
	}
	if (!strcmp(argv[1], "fork-exec"))
		fork_exec();
	else if (!strcmp(argv[1], "three"))
		three();
	else
		swap();
	write_text(TRACE, "off");
	read_text(TRACE, buf, sizeof(buf));
	fputs(buf, stdout);
	return 0;
}
