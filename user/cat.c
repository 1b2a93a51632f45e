/* cat [FILE...]: copy files (default: standard input) to standard output. */
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

static int copy(int fd)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(1, buf, n) != n)
			return 1;
	return n < 0;
}

int main(int argc, char **argv)
{
	int ret = 0;

	if (argc < 2)
		return copy(0);
	for (int i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);

		if (fd < 0) {
			perror(argv[i]);
			ret = 1;
			continue;
		}
		ret |= copy(fd);
		close(fd);
	}
	return ret;
}
