/*
 * test_smp_stress's case 3 (see user/tests/test_smp_stress.c): tmpfs directory
 * churn — names created, renamed and removed in one directory while
 * others list it and open by name.  Header-only, included once.
 */
#ifndef USER_STRESS_DIRS_H
#define USER_STRESS_DIRS_H

#include "stress_util.h"
#include <dirent.h>

#define DIR_PATH        "/tmp/stress_dir"
#define DIR_KEEP        200     /* names there throughout: several getdents calls a pass */
#define DIR_LIVE        16      /* names a churner makes, then removes, in one burst */
#define DIR_SEEN        512

/* Churned name seq of worker id: f/d made, g/e once renamed (every 4th a directory). */
static void dir_name(char *buf, int id, long seq, int renamed)
{
	sprintf(buf, DIR_PATH "/%c%d.%ld", "fgde"[(seq % 4 == 3) * 2 + renamed], id, seq);
}

static void dir_churner(int id)
{
	char a[64], b[64];
	long seq = 0, first;
	int fd;

	while (now_ns() < deadline) {
		for (first = seq; seq < first + DIR_LIVE; seq++, sh->w[id].ops += 2) {
			dir_name(a, id, seq, 0);
			dir_name(b, id, seq, 1);
			if (seq % 4 == 3 ? mkdir(a, 0755) : (fd = open(a, O_CREAT | O_EXCL | O_WRONLY, 0644)) < 0 ||
			    close(fd))
				bad(id, "create %s: %s", a, strerror(errno));
			if (rename(a, b))
				bad(id, "rename %s: %s", a, strerror(errno));
		}
		for (long i = first; i < seq; i++, sh->w[id].ops++) {
			dir_name(b, id, i, 1);
			if (i % 4 == 3 ? rmdir(b) : unlink(b))
				bad(id, "remove %s: %s", b, strerror(errno));
		}
	}
}

/* One readdir pass: each kept name once, no name twice.  The entries read; others[] the churned ones. */
static long dir_pass(int id, char (*other)[24], int *nother)
{
	unsigned char seen[DIR_KEEP] = { 0 };
	DIR *d = opendir(DIR_PATH);
	struct dirent *e;
	long n = 0, dots = 0, k;
	char *end;

	for (*nother = 0; d && (e = readdir(d)); n++) {
		k = strncmp(e->d_name, "keep", 4) ? -1 : strtol(e->d_name + 4, &end, 10);
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			dots++;
		else if (k >= 0 && k < DIR_KEEP && !*end)
			seen[k]++;
		else if (!strchr("fgde", e->d_name[0]) || strlen(e->d_name) >= 24)
			bad(id, "a name nobody made: '%s'", e->d_name);
		else {
			for (int i = 0; i < *nother; i++)
				if (!strcmp(other[i], e->d_name))
					bad(id, "%s twice in one readdir pass", e->d_name);
			if (*nother < DIR_SEEN)
				strcpy(other[(*nother)++], e->d_name);
		}
	}
	if (!d || closedir(d))
		bad(id, "opendir: %s", strerror(errno));
	for (k = 0; k < DIR_KEEP; k++)
		if (seen[k] != 1)
			bad(id, "keep%03ld seen %d times in one readdir pass", k, seen[k]);
	if (dots != 2)
		bad(id, "%ld of . and .. in one readdir pass", dots);
	return n;
}

static void dir_reader(int id)
{
	char other[DIR_SEEN][24], path[64], got[4];
	uint64_t s = id + 11;
	int nother, fd;

	while (now_ns() < deadline) {
		sh->w[id].ops += dir_pass(id, other, &nother) + 2;
		sprintf(path, DIR_PATH "/keep%03d", (int)(rnd(&s) % DIR_KEEP));
		if ((fd = open(path, O_RDONLY)) < 0 || read(fd, got, 3) != 3 || memcmp(got, path + 20, 3))
			bad(id, "open and read %s: %s", path, fd < 0 ? strerror(errno) : "wrong data");
		if (fd >= 0)
			close(fd);
		if (nother) {   /* a churned name: there, or gone */
			sprintf(path, DIR_PATH "/%s", other[rnd(&s) % nother]);
			if ((fd = open(path, O_RDONLY)) >= 0)
				close(fd);
			else if (errno != ENOENT)
				bad(id, "open %s: %s", path, strerror(errno));
		}
	}
}

static void dir_worker(int id)
{
	(id & 1 ? dir_reader : dir_churner)(id);
}

static void case_dir_churn(void)
{
	char path[64], (*other)[24] = malloc(DIR_SEEN * 24);
	int fd, nother = 0, made = 0;
	long died, before;
	struct team tm;
	struct stat st;
	uint64_t t0;

	mkdir(DIR_PATH, 0755);
	for (int k = 0; k < DIR_KEEP; k++) {
		sprintf(path, DIR_PATH "/keep%03d", k);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		made += fd >= 0 && dprintf(fd, "%03d", k) == 3 && !close(fd);
	}
	t0 = start_case();
	team_start(&tm, 2, 2, dir_worker);
	died = team_join(&tm);
	report("dir-churn", SUM(ops), t0);
	ok(made == DIR_KEEP && !SUM(bad) && !died, "directory churn: 1 process and 1 thread creating, renaming "
	   "and removing, 1 process and 1 thread listing and opening, %ld operations: %ld wrong (first: %s), "
	   "%ld processes died", SUM(ops), SUM(bad), first_why(), died);
	before = SUM(bad);
	dir_pass(0, other, &nother);
	if (stat(DIR_PATH, &st))
		memset(&st, 0, sizeof(st));
	ok(SUM(bad) == before && !nother && st.st_nlink == 2 && st.st_size == 20 * (DIR_KEEP + 2),
	   "directory churn: afterwards the %d kept names and %d others, nlink %ld (2), size %ld (%d)",
	   DIR_KEEP, nother, (long)st.st_nlink, (long)st.st_size, 20 * (DIR_KEEP + 2));
	for (int k = 0; k < DIR_KEEP; k++) {    /* anything else: runtests removes it, and says so */
		sprintf(path, DIR_PATH "/keep%03d", k);
		unlink(path);
	}
	rmdir(DIR_PATH);
	free(other);
}

#endif
