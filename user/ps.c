/*
 * ps: one line per process, from /proc/<pid>/status, and the CPU it runs
 * or last ran on from /proc/<pid>/stat (field 39, "processor"); runs on
 * Linux too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <dirent.h>

/* The value after "key:" in a status text, whitespace trimmed, or "?". */
static void field(const char *text, const char *key, char *out, size_t size)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), "\n%s:", key);
	p = !strncmp(text, pat + 1, strlen(pat + 1)) ? text - 1 : strstr(text, pat);
	if (!p) {
		snprintf(out, size, "?");
		return;
	}
	p += strlen(pat);
	while (*p == ' ' || *p == '\t')
		p++;
	snprintf(out, size, "%.*s", (int)strcspn(p, "\n"), p);
}

/* Field 39 of /proc/<pid>/stat, or "?" (the fields after the ")" of the name). */
static void stat_cpu(const char *pid, char *out, size_t size)
{
	char path[300], text[1024] = "", *p;
	FILE *f;
	size_t n;
	int field = 2;

	snprintf(out, size, "?");
	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if (!(f = fopen(path, "r")))
		return;
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	p = strrchr(text, ')');
	for (p = p ? strtok(p + 1, " \n") : NULL; p; p = strtok(NULL, " \n"))
		if (++field == 39) {
			snprintf(out, size, "%s", p);
			return;
		}
}

int main(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d) {
		perror("ps: /proc");
		return 1;
	}
	printf("%5s %5s %3s %-13s %10s  %s\n", "PID", "PPID", "CPU", "STATE", "RSS", "NAME");
	while ((e = readdir(d))) {
		char path[300], text[2048] = "", name[32], state[32], ppid[16], rss[32], cpu[16];
		FILE *f;
		size_t n;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		n = fread(text, 1, sizeof(text) - 1, f);
		text[n] = '\0';
		fclose(f);
		field(text, "Name", name, sizeof(name));
		field(text, "State", state, sizeof(state));
		field(text, "PPid", ppid, sizeof(ppid));
		field(text, "VmRSS", rss, sizeof(rss));
		stat_cpu(e->d_name, cpu, sizeof(cpu));
		printf("%5s %5s %3s %-13s %10s  %s\n", e->d_name, ppid, cpu, state, rss, name);
	}
	closedir(d);
	return 0;
}
