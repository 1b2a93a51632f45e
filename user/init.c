/*
 * PID 1.  With arguments (run-qemu.sh --run "CMD ARGS"), it becomes CMD
 * (execve), so CMD's exit status is the run's status.  Without, it says
 * that there is no shell yet and powers off.  The same binary runs on Linux.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/reboot.h>

int main(int argc, char **argv, char **envp)
{
	if (argc > 1) {
		execve(argv[1], argv + 1, envp);
		fprintf(stderr, "init: cannot run %s: %s\n", argv[1], strerror(errno));
		return 127;
	}
	printf("foliOS init: no shell yet; powering off\n");
	fflush(stdout);
	reboot(RB_POWER_OFF);
	return 0;
}
