/* echo: print the arguments, separated by spaces, and a newline. */
#include <stdio.h>
#include <errno.h>
#include <string.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printf("%s%s", argv[i], i + 1 < argc ? " " : "");
	printf("\n");
	if (fflush(stdout) || ferror(stdout)) {     /* e.g. a sysfs knob refusing the value */
		fprintf(stderr, "echo: write error: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
