/* ls [DIR...]: the names in each directory (default /), one per line. */
#include <stdio.h>
#include <dirent.h>

static int list(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d) {
		perror(path);
		return 1;
	}
	while ((e = readdir(d)))
		printf("%s%s\n", e->d_name, e->d_type == DT_DIR ? "/" : "");
	closedir(d);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 0;

	if (argc < 2)
		return list("/");
	for (int i = 1; i < argc; i++)
		ret |= list(argv[i]);
	return ret;
}
