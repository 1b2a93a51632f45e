/* mkdir [-p] DIR...: make each directory (mode 0777 less the umask); -p: parents too, existing ones fine. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* mkdir -p: each leading part of path, then path. */
static int make_parents(char *path)
{
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(path, 0777) && errno != EEXIST ? -1 : 0;
}

int main(int argc, char **argv)
{
	int parents = argc > 1 && !strcmp(argv[1], "-p"), ret = 0;

	for (int i = 1 + parents; i < argc; i++) {
		if (!(parents ? make_parents(argv[i]) : mkdir(argv[i], 0777)))
			continue;
		fprintf(stderr, "mkdir: %s: %s\n", argv[i], strerror(errno));
		ret = 1;
	}
	return ret;
}
