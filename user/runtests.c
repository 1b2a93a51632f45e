/*
 * The guest test runner: runs every /bin/test_* (or the ones named) in its
 * own process, passes its TAP output through indented as a subtest, and
 * after each checks that no memory leaked: MemFree, PageTables and Slab in
 * /proc/meminfo must be back to their values from before the test, once
 * the deferred split queue is drained (split_deferred).  THP knobs a test
 * changed are set back after it.
 * Prints KTAP: "ok N test_x" or "not ok N test_x # reason", then
 * "# runtests: N passed, N failed".  Exits 0 if all passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/wait.h>

struct mem {
	long free, pagetables, slab;
};

#define THP_DIR "/sys/kernel/mm/transparent_hugepage/"

static int read_meminfo(struct mem *m)
{
	FILE *f = fopen(THP_DIR "split_deferred", "w");

	if (f) {                        /* foliOS only; Linux has no such knob */
		fputs("1", f);
		fclose(f);
	}
	f = fopen("/proc/meminfo", "r");
	char line[128];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "MemFree: %ld", &m->free);
		sscanf(line, "PageTables: %ld", &m->pagetables);
		sscanf(line, "Slab: %ld", &m->slab);
	}
	fclose(f);
	return 0;
}

/* The THP knobs: the top level, then hugepages-16kB … 2048kB. */
#define NR_KNOBS 9
static void knob_path(int i, char *path, size_t size)
{
	if (!i)
		snprintf(path, size, THP_DIR "enabled");
	else
		snprintf(path, size, THP_DIR "hugepages-%dkB/enabled", 8 << i);
}

/* Read each knob's current choice (the bracketed word); "" if absent. */
static void knobs_save(char saved[NR_KNOBS][16])
{
	for (int i = 0; i < NR_KNOBS; i++) {
		char path[96], line[96] = "", *l, *r;
		FILE *f;

		knob_path(i, path, sizeof(path));
		saved[i][0] = '\0';
		if (!(f = fopen(path, "r")))
			continue;
		if (fgets(line, sizeof(line), f) && (l = strchr(line, '[')) && (r = strchr(l, ']'))) {
			*r = '\0';
			snprintf(saved[i], 16, "%s", l + 1);
		}
		fclose(f);
	}
}

static void knobs_restore(char saved[NR_KNOBS][16])
{
	for (int i = 0; i < NR_KNOBS; i++) {
		char path[96];
		FILE *f;

		knob_path(i, path, sizeof(path));
		if (saved[i][0] && (f = fopen(path, "w"))) {
			fputs(saved[i], f);
			fclose(f);
		}
	}
}

/* Run one test, its output indented; returns its wait status. */
static int run_one(const char *path)
{
	int pfd[2], status = -1;
	char buf[512];
	FILE *out;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid == 0) {
		FILE *mark = fopen("/proc/self/make-it-fail", "w");

		if (mark) {             /* only tests see injected allocation failures */
			fputs("1", mark);
			fclose(mark);
		}
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	out = fdopen(pfd[0], "r");
	while (out && fgets(buf, sizeof(buf), out))
		printf("    %s", buf);
	if (out)
		fclose(out);
	waitpid(pid, &status, 0);
	return status;
}

int main(int argc, char **argv)
{
	char *names[64];
	int nr = 0, passed = 0, failed = 0;
	DIR *d;
	struct dirent *e;

	for (int i = 1; i < argc && nr < 64; i++)
		names[nr++] = argv[i];
	if (!nr && (d = opendir("/bin"))) {
		while ((e = readdir(d)) && nr < 64)
			if (!strncmp(e->d_name, "test_", 5))
				names[nr++] = strdup(e->d_name);
		closedir(d);
	}
	printf("KTAP version 1\n1..%d\n", nr);
	for (int i = 0; i < nr; i++) {
		struct mem before = { 0 }, after = { 0 };
		char path[128], why[200] = "", knobs[NR_KNOBS][16];
		int status;

		snprintf(path, sizeof(path), "/bin/%s", names[i]);
		fflush(stdout);
		knobs_save(knobs);
		read_meminfo(&before);
		status = run_one(path);
		knobs_restore(knobs);
		read_meminfo(&after);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			snprintf(why, sizeof(why), "exit status %#x; ", status);
		if (before.free != after.free || before.pagetables != after.pagetables ||
		    before.slab != after.slab)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 "leak: MemFree %ld -> %ld kB, PageTables %ld -> %ld kB, "
				 "Slab %ld -> %ld kB", before.free, after.free, before.pagetables,
				 after.pagetables, before.slab, after.slab);
		printf("%sok %d %s%s%s\n", *why ? "not " : "", i + 1, names[i], *why ? " # " : "", why);
		*why ? failed++ : passed++;
	}
	printf("# runtests: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
