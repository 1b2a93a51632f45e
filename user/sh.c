/*
 * A small shell: reads a line, splits it into words (double quotes group),
 * runs the program (searching PATH) as a child and waits for it.  Prints
 * the status of a command that failed or was killed.  Built-ins: exit [N],
 * cd [DIR].  Commands separated by ';' run one after the other.
 * "> FILE" (or ">FILE") sends the command's output to FILE, e.g.
 * echo always > /sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled
 * ">> FILE" appends to it (both create FILE, e.g. on the tmpfs /tmp).
 * `sh -c "CMD ARGS; CMD"` runs the line and exits with its last status.
 * Interactive (stdin a terminal), it ignores ^C and ^\ as a shell without
 * job control does: the terminal signals its whole process group, so the
 * running command dies and the shell goes on; the command gets them back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <signal.h>

#define MAX_WORDS 64

static int split(char *line, char **argv)
{
	int argc = 0;
	char *out = line;

	while (*line && argc < MAX_WORDS - 1) {
		int quoted = 0;

		while (*line == ' ' || *line == '\t' || *line == '\n')
			line++;
		if (!*line)
			break;
		argv[argc++] = out;
		while (*line && (quoted || (*line != ' ' && *line != '\t' && *line != '\n'))) {
			if (*line == '"')
				quoted = !quoted;
			else
				*out++ = *line;
			line++;
		}
		if (*line)
			line++;
		*out++ = '\0';
	}
	argv[argc] = NULL;
	return argc;
}

/*
 * Take "> FILE" / ">FILE" / ">> FILE" out of argv; returns FILE, or NULL
 * if there is none (or "" when ">" has no file after it).  *append is set
 * for ">>".
 */
static const char *take_redirect(char **argv, int *argc, int *append)
{
	const char *file = NULL;
	int out = 0;

	for (int i = 0; i < *argc; i++) {
		const char *w = argv[i];

		if (w[0] != '>') {
			argv[out++] = argv[i];
			continue;
		}
		*append = w[1] == '>';
		w += 1 + *append;
		file = *w ? w : i + 1 < *argc ? argv[++i] : "";
	}
	argv[out] = NULL;
	*argc = out;
	return file;
}

/* In the child: point stdout at file, truncated or (append) added to. */
static void redirect_stdout(const char *file, int append)
{
	int fd = open(file, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0644);

	if (fd < 0) {
		fprintf(stderr, "sh: %s: %s\n", file, strerror(errno));
		_exit(1);
	}
	dup2(fd, 1);
	close(fd);
}

/* Run one command line; returns its status as a shell reports it. */
static int run(char *line)
{
	char *argv[MAX_WORDS];
	int argc = split(line, argv), status, append = 0;
	const char *file = take_redirect(argv, &argc, &append);
	pid_t pid;

	if (!argc)
		return 0;
	if (!strcmp(argv[0], "exit"))
		exit(argc > 1 ? atoi(argv[1]) : 0);
	if (!strcmp(argv[0], "cd")) {
		if (!chdir(argc > 1 ? argv[1] : "/"))
			return 0;
		fprintf(stderr, "sh: cd: %s: %s\n", argc > 1 ? argv[1] : "/", strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("sh: fork");
		return 126;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		if (file)
			redirect_stdout(file, append);
		execvp(argv[0], argv);
		fprintf(stderr, "sh: %s: %s\n", argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 126;
	if (WIFSIGNALED(status)) {
		printf("sh: %s: killed by signal %d\n", argv[0], WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	if (WEXITSTATUS(status))
		printf("sh: %s: exit %d\n", argv[0], WEXITSTATUS(status));
	return WEXITSTATUS(status);
}

/* Run the commands of a line separated by ';' (outside quotes); the last one's status. */
static int run_list(char *line)
{
	int quoted = 0;
	char *cmd = line;

	for (char *p = line;; p++) {
		if (*p == '"')
			quoted = !quoted;
		if (*p && (*p != ';' || quoted))
			continue;
		if (!*p)
			return run(cmd);
		*p = '\0';
		run(cmd);
		cmd = p + 1;
	}
}

int main(int argc, char **argv)
{
	char line[512];

	if (argc == 3 && !strcmp(argv[1], "-c"))
		return run_list(argv[2]);
	if (isatty(0)) {
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
	}
	for (;;) {
		fputs("$ ", stdout);
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin))
			return 0;
		run_list(line);
	}
}
