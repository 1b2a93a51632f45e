/*
 * Guest test (TAP): mremap of anonymous memory — Linux's errnos; shrink,
 * grow in place, grow by moving, MREMAP_FIXED, MREMAP_DONTUNMAP; the moved
 * pages keep their PFNs (the page tables move, not the data); a PMD-mapped
 * THP moved between 2 MiB-aligned addresses stays PMD-mapped
 * (AnonHugePages), an unaligned move maps it by PTEs; a page a child moved
 * while its parent still shares it is copied on the child's write, survives
 * the parent's partial unmap and the deferred split (an rmap walk that must
 * find the child's mapping at its new address), and is reused once the
 * parent has gone.  Passes unchanged on Linux (the checks that read
 * foliOS's /proc/folio are skipped there).
 */
#define _GNU_SOURCE
#include "thp_util.h"
#include <errno.h>
#include <signal.h>

/* mremap's result and errno as one value: the address, or -errno. */
static long xmremap(void *old, size_t old_len, size_t new_len, int flags, void *new_addr)
{
	void *r = mremap(old, old_len, new_len, flags, new_addr);

	return r == MAP_FAILED ? -errno : (long)r;
}

static char *map_anon(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* AnonHugePages of the smaps entry that starts at addr, in kB; -1 if none. */
static long smaps_anon_huge_kb(const void *addr)
{
	char line[256], want[32];
	long kb = -1;
	int in = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%lx-", (unsigned long)addr);
	while (fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && strchr(line, ' ') > strchr(line, '-'))
			in = !strncmp(line, want, strlen(want));
		else if (in && !strncmp(line, "AnonHugePages:", 14))
			kb = strtol(line + 14, NULL, 10);
	}
	fclose(f);
	return kb;
}

/* foliOS's /proc/folio index of the page at addr (its linear page index); -1 elsewhere. */
static long folio_index_of(const void *addr)
{
	char path[64], buf[1024];

	snprintf(path, sizeof(path), "/proc/folio/%lu", pfn_of(addr));
	if (read_text(path, buf, sizeof(buf)))
		return -1;
	return fv_field(buf, "index");
}

static void test_errnos(void)
{
	char *p = map_anon(4 * PAGE), *q = map_anon(PAGE);

	ok(xmremap(p, PAGE, PAGE, 8, NULL) == -EINVAL, "unknown flag: EINVAL");
	ok(xmremap(p, PAGE, PAGE, MREMAP_FIXED, q) == -EINVAL, "FIXED without MAYMOVE: EINVAL");
	ok(xmremap(p, PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL) == -EINVAL,
	   "DONTUNMAP resizing: EINVAL");
	ok(xmremap(p, PAGE, PAGE, MREMAP_DONTUNMAP, NULL) == -EINVAL,
	   "DONTUNMAP without MAYMOVE: EINVAL");
	ok(xmremap(p + 1, PAGE, PAGE, 0, NULL) == -EINVAL, "unaligned address: EINVAL");
	ok(xmremap(p, PAGE, 0, 0, NULL) == -EINVAL, "new length 0: EINVAL");
	ok(xmremap(p, 0, 2 * PAGE, MREMAP_MAYMOVE, NULL) == -EINVAL,
	   "old length 0 of a private mapping: EINVAL");
	ok(xmremap(p, 4 * PAGE, 4 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, p + 2 * PAGE) == -EINVAL,
	   "FIXED onto an overlapping range: EINVAL");
	ok(xmremap(p, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, q + 1) == -EINVAL,
	   "FIXED to an unaligned address: EINVAL");
	munmap(q, PAGE);
	ok(xmremap(q, PAGE, 2 * PAGE, MREMAP_MAYMOVE, NULL) == -EFAULT, "nothing mapped: EFAULT");
	ok(xmremap(p, 8 * PAGE, 9 * PAGE, MREMAP_MAYMOVE, NULL) == -EFAULT,
	   "range past the end of its VMA: EFAULT");
	ok(xmremap(q, 2 * PAGE, PAGE, 0, NULL) == -EFAULT, "shrinking nothing: EFAULT");
	munmap(p, 4 * PAGE);
}

/* Shrink, grow in place, grow by moving (and ENOMEM without MAYMOVE). */
static void test_resize(void)
{
	char *p = map_anon(8 * PAGE), *next;
	long r;

	fill_pattern(p, 8, 100);
	ok(xmremap(p, 8 * PAGE, 4 * PAGE, 0, NULL) == (long)p && check_pattern(p, 4, 100, -1) &&
	   touch_in_child(p + 5 * PAGE, 0) == SIGSEGV, "shrink: the tail is unmapped");
	ok(xmremap(p, 4 * PAGE, 8 * PAGE, 0, NULL) == (long)p && check_pattern(p, 4, 100, -1) &&
	   *(int *)(p + 6 * PAGE) == 0, "grow in place: data kept, new pages zero");
	next = mmap(p + 8 * PAGE, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ok(next == p + 8 * PAGE && xmremap(p, 8 * PAGE, 16 * PAGE, 0, NULL) == -ENOMEM,
	   "grow into a mapping without MAYMOVE: ENOMEM");
	r = xmremap(p, 8 * PAGE, 16 * PAGE, MREMAP_MAYMOVE, NULL);
	ok(r > 0 && (char *)r != p && check_pattern((char *)r, 4, 100, -1) &&
	   touch_in_child(p, 0) == SIGSEGV, "grow with MAYMOVE moves: data kept, old range gone");
	munmap((char *)r, 16 * PAGE);
	munmap(next, PAGE);
}

/* MREMAP_FIXED and MREMAP_DONTUNMAP: the pages themselves move. */
static void test_fixed_dontunmap(void)
{
	char *p = map_anon(4 * PAGE), *dst = map_anon(8 * PAGE);
	unsigned long pfn0, pfn3;
	long r, idx3;

	fill_pattern(p, 4, 200);
	pfn0 = pfn_of(p);
	pfn3 = pfn_of(p + 3 * PAGE);
	idx3 = folio_index_of(p + 3 * PAGE);
	ok(idx3 == -1 || idx3 == (long)((unsigned long)p / PAGE + 3),
	   "an anon page's index is its linear page index");
	r = xmremap(p, 4 * PAGE, 4 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst + 2 * PAGE);
	ok(r == (long)(dst + 2 * PAGE) && check_pattern((char *)r, 4, 200, -1) &&
	   *(int *)dst == 0 && touch_in_child(p, 0) == SIGSEGV, "FIXED: moved, old range gone");
	ok(pfn0 && pfn_of((char *)r) == pfn0 && pfn_of((char *)r + 3 * PAGE) == pfn3 &&
	   folio_index_of((char *)r + 3 * PAGE) == idx3,
	   "FIXED: the same physical pages, their index kept");
	p = (char *)r;
	r = xmremap(p, 4 * PAGE, 4 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	ok(r > 0 && check_pattern((char *)r, 4, 200, -1) && pfn_of((char *)r) == pfn0,
	   "DONTUNMAP: moved with its pages");
	ok(r > 0 && *(volatile int *)p == 0 && *(int *)(p + 3 * PAGE) == 0,
	   "DONTUNMAP: the old range stays mapped and refaults zero");
	munmap((char *)r, 4 * PAGE);
	munmap(dst, 8 * PAGE);
}

/* A PMD-mapped THP moved 2 MiB-aligned stays a PMD; moved by a page it becomes PTEs. */
static void test_thp_move(void)
{
	char *p, *dst;
	unsigned long pfn;
	long r;

	thp_only(2048);
	p = map_aligned(PMD_SIZE, PMD_SIZE);
	dst = map_aligned(3 * PMD_SIZE, PMD_SIZE);
	fill_pattern(p, 512, 300);
	thp_only(0);
	pfn = pfn_of(p);
	if (!pfns_contiguous(p, 512) || smaps_anon_huge_kb(p) != 2048) {
		skip("no PMD-mapped THP to move");
		skip("no PMD-mapped THP to move");
		return;
	}
	r = xmremap(p, PMD_SIZE, PMD_SIZE, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	ok(r == (long)dst && pfn_of(dst) == pfn && pfns_contiguous(dst, 512) &&
	   smaps_anon_huge_kb(dst) == 2048 && check_pattern(dst, 512, 300, -1),
	   "aligned move of a THP: the same PMD-mapped folio");
	r = xmremap(dst, PMD_SIZE, PMD_SIZE, MREMAP_MAYMOVE | MREMAP_FIXED, dst + PMD_SIZE + PAGE);
	ok(r == (long)(dst + PMD_SIZE + PAGE) && pfn_of((char *)r) == pfn &&
	   pfns_contiguous((char *)r, 512) && smaps_anon_huge_kb((char *)r) == 0 &&
	   check_pattern((char *)r, 512, 300, -1), "unaligned move of a THP: split into PTEs");
	munmap(dst, 3 * PMD_SIZE);
}

/*
 * The child moves the folio it shares with its parent, writes page 0 (a
 * copy) and unmaps its first half; the parent unmaps three quarters of its
 * own, which leaves the folio partially mapped, and splits the deferred
 * folios: the rmap walk must find the child's pages at their new address.
 * The child's pages stay intact; the parent unmaps the rest and the
 * child's write reuses its page in place.  Returns what failed, 0 if
 * nothing (the child's exit status).
 */
static int child_moves(char *p, unsigned long n, int from_parent, int to_parent)
{
	char *dst = map_aligned(2 * n * PAGE, PMD_SIZE), c = 0;
	unsigned long pfn0 = pfn_of(p), pfn_last = pfn_of(p + (n - 1) * PAGE);
	struct folio_view v;
	char *q;

	q = (char *)xmremap(p, n * PAGE, n * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst + PAGE);
	if (q != dst + PAGE || !check_pattern(q, n, 400, -1) || pfn_of(q) != pfn0)
		return 1;
	*(int *)q = 7;                          /* shared with the parent: COW */
	if (pfn_of(q) == pfn0 || *(int *)q != 7)
		return 2;
	munmap(q, n / 2 * PAGE);
	if (write(to_parent, &c, 1) != 1 || read(from_parent, &c, 1) != 1)
		return 3;
	q += n / 2 * PAGE;
	if (!check_pattern(q, n / 2, 400 + (int)(n / 2), -1) ||
	    pfn_of(q + (n / 2 - 1) * PAGE) != pfn_last)
		return 4;
	/* foliOS: the folio was split, so the walk found every mapping */
	if (n > 2 && folio_at(q, &v) == 0 && v.order != 0)
		return 5;
	if (write(to_parent, &c, 1) != 1 || read(from_parent, &c, 1) != 1)
		return 6;
	*(int *)(q + (n / 2 - 1) * PAGE) = 8;   /* the parent is gone: reuse */
	if (folio_at(q, &v) == 0 && pfn_of(q + (n / 2 - 1) * PAGE) != pfn_last)
		return 7;
	return check_pattern(q, n / 2 - 1, 400 + (int)(n / 2), -1) ? 0 : 8;
}

static void test_child_mremap_cow(unsigned long n, const char *what)
{
	int to_child[2], to_parent[2], st;
	unsigned long keep = n - 3 * n / 4;
	char *p, c = 0;
	pid_t pid;

	thp_only(n == 2 ? 0 : n * 4);
	p = map_aligned(n * PAGE, n * PAGE);
	fill_pattern(p, n, 400);
	thp_only(0);
	xpipe(to_child, 0);
	xpipe(to_parent, 0);
	pid = fork();
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		_exit(child_moves(p, n, to_child[0], to_parent[1]));
	}
	close(to_child[0]);
	close(to_parent[1]);
	if (read(to_parent[0], &c, 1) == 1) {
		ok(*(int *)p == 400, "%s: the child's write to its moved page copied it", what);
		munmap(p, (n - keep) * PAGE);
		split_deferred();
		ok(check_pattern(p + (n - keep) * PAGE, keep, 400 + (int)(n - keep), -1),
		   "%s: the parent's other pages are untouched", what);
		if (write(to_child[1], &c, 1) == 1 && read(to_parent[0], &c, 1) == 1)
			munmap(p + (n - keep) * PAGE, keep * PAGE);
		if (write(to_child[1], &c, 1) != 1)
			ok(0, "%s: pipe to the child", what);
	}
	close(to_child[1]);
	close(to_parent[0]);
	st = wait_exit(pid);
	ok(st == 0, "%s: moved in a child, COW, split and reuse (child status %d)", what, st);
}

/* A piece of the region: original pages [lo, hi), now mapped at addr. */
struct piece {
	unsigned long lo, hi;
	char *addr;
};

#define MAX_PIECES      64
#define GONE            (-1)
#ifndef SEEDS
#define SEEDS           4
#endif

struct walk {
	struct piece pc[MAX_PIECES];
	int np;
	int *expect;                    /* per original page: its first int, or GONE */
	char *next;                     /* where the next move goes: never reused */
	unsigned int seed;
};

static unsigned int rnd(struct walk *w, unsigned int n)
{
	w->seed = w->seed * 1103515245u + 12345u;
	return (w->seed >> 8) % n;
}

/* Move pages [s, e) of piece i to a fresh address, aligned to 2 MiB or off it by a few pages. */
static int walk_move(struct walk *w, int i, unsigned long s, unsigned long e)
{
	struct piece *pc = &w->pc[i];
	char *dst = (char *)(((unsigned long)w->next + PMD_SIZE - 1) & ~(PMD_SIZE - 1)) +
		    rnd(w, 2) * rnd(w, 8) * PAGE;
	char *src = pc->addr + (s - pc->lo) * PAGE;

	if (w->np + 2 > MAX_PIECES)
		return 0;
	if (xmremap(src, (e - s) * PAGE, (e - s) * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst) !=
	    (long)dst)
		return -1;
	w->next = dst + (e - s) * PAGE + PAGE;
	if (e < pc->hi)
		w->pc[w->np++] = (struct piece){ e, pc->hi, pc->addr + (e - pc->lo) * PAGE };
	if (s > pc->lo) {
		w->pc[w->np++] = (struct piece){ s, e, dst };
		pc->hi = s;
	} else {
		*pc = (struct piece){ s, e, dst };
	}
	return 0;
}

/* One random step: move a piece or part of it, write a page, unmap an end page, or split. */
static int walk_step(struct walk *w, int step)
{
	int i = rnd(w, w->np);
	struct piece *pc = &w->pc[i];
	unsigned long len = pc->hi - pc->lo, s, e;

	if (!len)
		return 0;
	switch (rnd(w, 5)) {
	case 0:
		return walk_move(w, i, pc->lo, pc->hi);
	case 1:
		s = pc->lo + rnd(w, len);
		e = s + 1 + rnd(w, pc->hi - s);
		return walk_move(w, i, s, e);
	case 2:
		s = rnd(w, len);
		*(int *)(pc->addr + s * PAGE) = w->expect[pc->lo + s] = step * 1000 + (int)(w->seed & 511);
		return 0;
	case 3:
		if (rnd(w, 2)) {
			w->expect[pc->lo] = GONE;
			munmap(pc->addr, PAGE);
			pc->addr += PAGE;
			pc->lo++;
		} else {
			w->expect[--pc->hi] = GONE;
			munmap(pc->addr + (pc->hi - pc->lo) * PAGE, PAGE);
		}
		return 0;
	default:
		split_deferred();
		return 0;
	}
}

/* Does every page of every piece hold what the walk expects? */
static int walk_check(const struct walk *w)
{
	for (int i = 0; i < w->np; i++)
		for (unsigned long k = w->pc[i].lo; k < w->pc[i].hi; k++)
			if (*(const int *)(w->pc[i].addr + (k - w->pc[i].lo) * PAGE) != w->expect[k])
				return 0;
	return 1;
}

/* 40 random steps over the n-page region at p; 0 if every check held, else the failing step. */
static int random_walk(char *p, unsigned long n, char *area, unsigned int seed)
{
	static int expect[1024];
	struct walk w = { .np = 1, .expect = expect, .next = area, .seed = seed };

	w.pc[0] = (struct piece){ 0, n, p };
	for (unsigned long k = 0; k < n; k++)
		expect[k] = 1000 + (int)k;
	for (int step = 1; step <= 40; step++)
		if (walk_step(&w, step) || !walk_check(&w))
			return step;
	return 0;
}

/*
 * A parent and its child each take a random walk of moves, partial moves,
 * writes, unmaps and deferred splits over the region they share: large
 * folios end up mapped at different addresses in the two, split, copied
 * and reused, and every page keeps the content each process expects.
 */
static void test_random_moves(unsigned int seed)
{
	const unsigned long n = 1024;
	char *p, *area;
	int mine, st;
	pid_t pid;

	thp_set(64, "always");
	thp_set(2048, "always");
	p = map_aligned(n * PAGE, PMD_SIZE);
	fill_pattern(p, n, 1000);
	thp_only(0);
	area = mmap(NULL, 256UL << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	pid = fork();
	if (pid == 0)
		_exit(random_walk(p, n, area, seed + 1000));
	mine = random_walk(p, n, area, seed);
	st = wait_exit(pid);
	ok(mine == 0 && st == 0, "random moves %u in parent and child: every page as expected "
	   "(failing steps %d, %d)", seed, mine, st);
	munmap(area, 256UL << 20);
	munmap(p, n * PAGE);
}

int main(void)
{
	mount_proc_sys();
	test_errnos();
	test_resize();
	test_fixed_dontunmap();
	test_thp_move();
	test_child_mremap_cow(2, "4K pages");
	test_child_mremap_cow(16, "64K mTHP");
	test_child_mremap_cow(512, "2M THP");
	for (unsigned int seed = 1; seed <= SEEDS; seed++)
		test_random_moves(seed);
	thp_only(0);
	return tap_done();
}
