/*
 * ls [-l] [DIR...]: the names in each directory (default /), one per
 * line, a directory's with a '/'.  -l: mode, links, size and name, as
 * Linux's `ls -l` prints them (without owner and time).
 */
#include <stdio.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

/* "drwxr-xr-x" from st_mode, the sticky bit as 't'. */
static void mode_string(mode_t m, char *s)
{
	const char *rwx = "rwxrwxrwx";

	s[0] = S_ISDIR(m) ? 'd' : S_ISCHR(m) ? 'c' : S_ISFIFO(m) ? 'p' : S_ISLNK(m) ? 'l' : '-';
	for (int i = 0; i < 9; i++)
		s[i + 1] = m & (0400 >> i) ? rwx[i] : '-';
	if (m & S_ISVTX)
		s[9] = m & 01 ? 't' : 'T';
	s[10] = '\0';
}

static void long_entry(int dfd, const char *name)
{
	struct stat st;
	char mode[11];

	if (fstatat(dfd, name, &st, 0)) {
		perror(name);
		return;
	}
	mode_string(st.st_mode, mode);
	printf("%s %2lu %8lld %s\n", mode, (unsigned long)st.st_nlink, (long long)st.st_size, name);
}

static int list(const char *path, int lng)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d) {
		perror(path);
		return 1;
	}
	while ((e = readdir(d))) {
		if (lng && e->d_name[0] == '.')
			continue;
		if (lng)
			long_entry(dirfd(d), e->d_name);
		else
			printf("%s%s\n", e->d_name, e->d_type == DT_DIR ? "/" : "");
	}
	closedir(d);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 0, lng = argc > 1 && !strcmp(argv[1], "-l"), first = 1 + lng;

	if (argc <= first)
		return list("/", lng);
	for (int i = first; i < argc; i++)
		ret |= list(argv[i], lng);
	return ret;
}
