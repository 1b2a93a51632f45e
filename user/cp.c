/* cp SRC DST: copy a file; a DST that is a directory gets SRC's base name in it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* Copy every byte of in to out: 0, or -1 with errno set. */
static int copy(int in, int out)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) > 0)
		for (ssize_t done = 0, w; done < n; done += w)
			if ((w = write(out, buf + done, n - done)) < 0)
				return -1;
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	char target[4096];
	struct stat st;
	const char *base;
	int in, out, ret;

	if (argc != 3) {
		fprintf(stderr, "usage: cp SRC DST\n");
		return 2;
	}
	base = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
	if (!stat(argv[2], &st) && S_ISDIR(st.st_mode))
		snprintf(target, sizeof(target), "%s/%s", argv[2], base);
	else
		snprintf(target, sizeof(target), "%s", argv[2]);
	in = open(argv[1], O_RDONLY);
	out = in < 0 ? -1 : open(target, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ret = out < 0 ? -1 : copy(in, out);
	if (ret)
		fprintf(stderr, "cp: %s: %s\n", out < 0 && in >= 0 ? target : argv[1], strerror(errno));
	close(in);
	close(out);
	return ret ? 1 : 0;
}
