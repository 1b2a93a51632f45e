/*
 * PID 1.  With arguments (run-qemu.sh --run "CMD ARGS"), it starts CMD as
 * its child, reaps every orphan that comes its way, and when CMD ends,
 * exits with CMD's status (128 + signal if it was killed) — the kernel then
 * powers off with it.  Without arguments: no shell yet, so it says so and
 * powers off.  The same binary runs on Linux.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/reboot.h>

int main(int argc, char **argv, char **envp)
{
	pid_t cmd;
	int status;

	if (argc < 2) {
		printf("foliOS init: no shell yet; powering off\n");
		fflush(stdout);
		reboot(RB_POWER_OFF);
		return 0;
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
