/* Prints its arguments and environment; exits with argv[1] if it is a number. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv, char **envp)
{
	printf("hello from %s:", argv[0]);
	for (int i = 1; i < argc; i++)
		printf(" [%s]", argv[i]);
	printf("\n");
	for (char **e = envp; *e; e++)
		printf("env %s\n", *e);
	return argc > 1 ? atoi(argv[1]) : 0;
}
