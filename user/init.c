/*
 * PID 1.  It starts a command as its child — the one from run-qemu.sh
 * --run "CMD ARGS", or else the shell /bin/sh — reaps every orphan that
 * comes its way, and when the command ends, exits with its status (128 +
 * signal if it was killed): the kernel then powers off with it.  The same
 * binary runs on Linux.
 *
 * The shell gets a terminal for job control, as BusyBox's cttyhack gives
 * it one: /dev/console can be no session's controlling tty (Linux's
 * rule), so the shell leads a session of its own and opens the serial
 * line itself, /dev/ttyS0, which makes it that session's terminal.  A
 * --run command runs as on Linux with a program for init: no terminal.
 * The shell starts as a login shell ("-sh", as login(1) starts one), so
 * it reads /etc/profile, which gives it BusyBox's PATH; a --run command
 * has the kernel's environment alone (PATH=/bin: docs/contract.md).
 *
 * A disk run-qemu.sh --swap attached (/dev/vda, made by mkswap) is swapped
 * on first, as the Linux peer's init does (a disk with no swap area gets
 * EINVAL and is left alone), and off again at the end, as a shutdown
 * does, so that the kernel's leak check finds everything back.
 *
 * init locks its own memory (mlockall: what is resident now and what it
 * touches later, nothing faulted in ahead): reclaim under a test's memory
 * pressure must not move PID 1's pages to swap and back, which a test
 * runner's count of free memory would read as that test's doing.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <sys/wait.h>

/* In the shell's child: a new session with /dev/ttyS0 as its terminal and fds 0-2. */
static void take_terminal(void)
{
	int fd;

	setsid();
	fd = open("/dev/ttyS0", O_RDWR);
	if (fd < 0)
		return;                         /* stay on the console, without job control */
	for (int i = 0; i < 3; i++)
		dup2(fd, i);
	if (fd > 2)
		close(fd);
}

int main(int argc, char **argv, char **envp)
{
	pid_t cmd;
	int status;

	static char *shell[] = { "init", "/bin/sh", NULL };
	static char *login_shell[] = { "-sh", NULL };
	bool interactive = argc < 2;

	mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT);
	if (!access("/dev/vda", F_OK))
		swapon("/dev/vda", 0);
	if (interactive) {
		printf("foliOS: BusyBox's ash (ls /bin, hello, cat /proc/meminfo | grep Anon, "
		       "exit to power off)\n");
		fflush(stdout);
		argv = shell;
	}
	cmd = fork();
	if (cmd < 0) {
		perror("init: fork");
		return 126;
	}
	if (cmd == 0) {
		if (interactive)
			take_terminal();
		execve(argv[1], interactive ? login_shell : argv + 1, envp);
		fprintf(stderr, "init: cannot run %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	for (;;) {
		pid_t pid = wait(&status);

		if (pid < 0)
			return 126;
		if (pid == cmd)
			break;
	}                                       /* the others: orphans, reaped */
	swapoff("/dev/vda");
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
