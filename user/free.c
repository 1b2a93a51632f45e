/* free: memory in kB from /proc/meminfo, procps's layout plus the anon lines. */
#include <stdio.h>
#include <string.h>

static long get(const char *key)
{
	char line[128];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");
	size_t n = strlen(key);

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			sscanf(line + n + 1, "%ld", &v);
	if (f)
		fclose(f);
	return v;
}

int main(void)
{
	long total = get("MemTotal"), mfree = get("MemFree");

	if (total < 0) {
		perror("free: /proc/meminfo");
		return 1;
	}
	printf("%14s %11s %11s\n", "total", "used", "free");
	printf("Mem: %9ld %11ld %11ld\n", total, total - mfree, mfree);
	printf("AnonPages: %ld kB (AnonHugePages %ld kB), PageTables: %ld kB, Slab: %ld kB\n",
	       get("AnonPages"), get("AnonHugePages"), get("PageTables"), get("Slab"));
	return 0;
}
