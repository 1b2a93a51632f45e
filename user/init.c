/*
 * PID 1.  It starts a command as its child — the one from run-qemu.sh
 * --run "CMD ARGS", or else the shell /bin/sh — reaps every orphan that
 * comes its way, and when the command ends, exits with its status (128 +
 * signal if it was killed): the kernel then powers off with it.  The same
 * binary runs on Linux.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>

int main(int argc, char **argv, char **envp)
{
	pid_t cmd;
	int status;

	static char *shell[] = { "/bin/sh", NULL };

	if (argc < 2) {
		printf("foliOS: type commands (ls /bin, hello, exit to power off)\n");
		fflush(stdout);
		argv = shell - 1;
	}
	cmd = fork();
	if (cmd < 0) {
		perror("init: fork");
		return 126;
	}
	if (cmd == 0) {
		execve(argv[1], argv + 1, envp);
		fprintf(stderr, "init: cannot run %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	for (;;) {
		pid_t pid = wait(&status);

		if (pid < 0)
			return 126;
		if (pid != cmd)
			continue;               /* an orphan: reaped */
		if (WIFSIGNALED(status))
			return 128 + WTERMSIG(status);
		return WEXITSTATUS(status);
	}
}
