/*
 * Guest test (TAP): the mapcount trace.  The article's fork -> child exec
 * -> parent reuse story and the three-process story are replayed on a
 * 64 KiB folio with /proc/mapcount_trace on; the records are parsed and
 * checked: operations, acting PIDs, large mapcount, slots and the shared
 * bit before and after each.  Also: bad commands, "off", "clear".
 */
#include "thp_util.h"

#define TRACE MAPCOUNT_TRACE

struct rec {
	char op[16];
	int pid, nr, lm0, lm1, sh0, sh1;
	unsigned int s0a, s0b, s1a, s1b;        /* slot MM IDs before / after */
	int m0a, m0b, m1a, m1b;
};

/* Parse the trace into recs; returns how many. */
static int read_trace(struct rec *recs, int max)
{
	static char buf[32768];
	char *line, *save = NULL;
	int n = 0;

	if (read_text(TRACE, buf, sizeof(buf)))
		return 0;
	for (line = strtok_r(buf, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save)) {
		struct rec *r = &recs[n];

		if (sscanf(line, "#%*u pid=%d mm=%*u %15s nr=%d folio=%*s by %*s lm %d->%d %*s %*s "
			   "npm %*s slot0 %u:%d->%u:%d slot1 %u:%d->%u:%d shared %d->%d", &r->pid, r->op,
			   &r->nr, &r->lm0, &r->lm1, &r->s0a, &r->m0a, &r->s0b, &r->m0b, &r->s1a, &r->m1a,
			   &r->s1b, &r->m1b, &r->sh0, &r->sh1) == 15)
			n++;
	}
	return n;
}

static void test_fork_exec(void)
{
	char *p = traced_folio(), c;
	struct rec r[16];
	int sync[2], n;
	pid_t child;

	xpipe(sync, O_CLOEXEC);
	if (!(child = fork())) {
		execl("/bin/hello", "hello", (char *)NULL);
		_exit(127);
	}
	close(sync[1]);
	read(sync[0], &c, 1);
	p[4096] = 2;
	wait_exit(child);
	write_text(TRACE, "off");
	n = read_trace(r, 16);
	ok(n == 4 && !strcmp(r[0].op, "new") && !strcmp(r[1].op, "dup_ptes") &&
	   !strcmp(r[2].op, "remove_ptes") && !strcmp(r[3].op, "reuse"),
	   "fork-exec story: new, dup_ptes, remove_ptes, reuse (%d records)", n);
	ok(n == 4 && r[0].pid == getpid() && r[0].lm1 == 16 && r[0].m0b == 16 && r[0].sh1 == 0,
	   "new: 16 PTEs in slot 0, by this process");
	ok(n == 4 && r[1].lm1 == 32 && r[1].m1b == 16 && r[1].sh0 == 0 && r[1].sh1 == 1,
	   "fork: the child's 16 mappings in slot 1, shared bit 0 -> 1");
	ok(n == 4 && r[2].pid == child && r[2].lm1 == 16 && r[2].s1b == 0 && r[2].sh1 == 0,
	   "child exec: its slot freed, shared bit 1 -> 0");
	ok(n == 4 && r[3].pid == getpid() && r[3].lm0 == 16 && r[3].lm1 == 16,
	   "parent's write: reuse, nothing copied");
	munmap(p, 64 * 1024);
	close(sync[0]);
}

static void test_three(void)
{
	char *p = traced_folio();
	int go_a[2], go_b[2], c = 0, n;
	struct rec r[16];
	pid_t a, b;

	xpipe(go_a, 0), xpipe(go_b, 0);
	if (!(a = fork())) {
		close(go_a[1]), close(go_b[0]), close(go_b[1]);        /* a dead parent: EOF */
		read(go_a[0], &c, sizeof(c));
		_exit(0);
	}
	if (!(b = fork())) {
		close(go_a[0]), close(go_a[1]), close(go_b[1]);
		read(go_b[0], &c, sizeof(c));
		p[4096] = 3;
		_exit(0);
	}
	close(go_a[0]), close(go_b[0]);
	munmap(p, 64 * 1024);
	write(go_a[1], &c, sizeof(c));
	wait_exit(a);
	write(go_b[1], &c, sizeof(c));
	wait_exit(b);
	write_text(TRACE, "off");
	n = read_trace(r, 16);
	ok(n >= 6 && r[2].lm1 == 48 && r[2].s1a == r[2].s1b && r[2].sh1 == 1,
	   "the third mm takes no slot: LM 48, slots unchanged, shared");
	ok(n >= 6 && r[4].lm1 == 16 && r[4].s0b == 0 && r[4].s1b == 0 && r[4].sh1 == 1,
	   "two left: no slot names the last mm, the shared bit stays");
	ok(n >= 6 && !strcmp(r[5].op, "remove_ptes") && r[5].nr == 1 && r[5].pid == b,
	   "so the last mm's write copied a page (remove_ptes nr=1)");
	close(go_a[1]), close(go_b[1]);
}

static void test_control(void)
{
	struct rec r[4];
	char *p = map_aligned(64 * 1024, 64 * 1024);

	ok(write_text(TRACE, "bogus") < 0 && write_text(TRACE, "order") < 0, "bad commands: EINVAL");
	write_text(TRACE, "clear");
	write_text(TRACE, "off");
	thp_only(64);
	p[0] = 1;
	thp_only(0);
	munmap(p, 64 * 1024);
	ok(read_trace(r, 4) == 0, "off records nothing; clear emptied the trace");
}

int main(void)
{
	test_fork_exec();
	test_three();
	test_control();
	return tap_done();
}
