/* ps: one line per process, from /proc/<pid>/status (runs on Linux too). */
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

int main(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d) {
		perror("ps: /proc");
		return 1;
	}
	printf("%5s %5s %-13s %10s  %s\n", "PID", "PPID", "STATE", "RSS", "NAME");
	while ((e = readdir(d))) {
		char path[300], text[2048] = "", name[32], state[32], ppid[16], rss[32];
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
		printf("%5s %5s %-13s %10s  %s\n", e->d_name, ppid, state, rss, name);
	}
	closedir(d);
	return 0;
}
