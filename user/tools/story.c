/*
 * story: replay one of the article's stories on a 64 KiB folio with the
 * mapcount trace on (/proc/mapcount_trace), then print the trace.
 *   story fork-exec   fork; the child execs; the parent's write reuses
 *   story three       three processes map the folio; two leave; the last
 *                     one's write must copy (the shared bit stays set)
 * scripts/trace-plot.py draws the printed trace as a timeline.
 */
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

int main(int argc, char **argv)
{
	char buf[16384];

	if (argc != 2 || (strcmp(argv[1], "fork-exec") && strcmp(argv[1], "three"))) {
		fprintf(stderr, "usage: story fork-exec|three\n");
		return 2;
	}
	if (!strcmp(argv[1], "fork-exec"))
		fork_exec();
	else
		three();
	write_text(TRACE, "off");
	read_text(TRACE, buf, sizeof(buf));
	fputs(buf, stdout);
	return 0;
}
