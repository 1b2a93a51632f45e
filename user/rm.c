/* rm [-f] FILE...: remove each name (not directories); -f: a missing one is no error. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int force = argc > 1 && !strcmp(argv[1], "-f"), ret = 0;

	for (int i = 1 + force; i < argc; i++) {
		if (!unlink(argv[i]) || (force && errno == ENOENT))
			continue;
		fprintf(stderr, "rm: %s: %s\n", argv[i], strerror(errno));
		ret = 1;
	}
	return ret;
}
