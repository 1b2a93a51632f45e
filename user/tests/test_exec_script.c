/*
 * execve of programs written at run time, as Linux's: a copy of this
 * program in tmpfs runs when its mode has an execute bit (EACCES without
 * one); a #! script runs its interpreter with "interp [arg] script args"
 * (the interpreter here: the copy, which writes the argv it got to a file
 * when one of its arguments is "dump-argv");
 * a script may name a script (5 interpreters deep), a script naming itself is
 * ELOOP, "#!" alone ENOEXEC, a missing interpreter ENOENT, and a first
 * line without a newline works.  A dynamically linked program (PT_INTERP:
 * musl's loader, /lib/ld-musl-x86_64.so.1) runs, and exits with its
 * status.  Runs unchanged on Linux (the peer needs hello-dyn and the
 * loader added: linux-peer.sh --add).
 */
#include "tap.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define DIR     "/tmp/es"
#define PROG    DIR "/prog"
#define OUT     DIR "/argv"

/* As the interpreter: write argv joined by '|' to OUT. */
static int dump_argv(int argc, char **argv)
{
	int fd = open(OUT, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	for (int i = 0; i < argc; i++) {
		write(fd, argv[i], strlen(argv[i]));
		write(fd, i + 1 < argc ? "|" : "\n", 1);
	}
	close(fd);
	return 0;
}

/* Copy this program's file to path with mode; 0 or -1. */
static int copy_self(const char *self, const char *path, mode_t mode)
{
	static char buf[1 << 16];
	int in = open("/proc/self/exe", O_RDONLY), out;
	long n;

	if (in < 0)
		in = open(self, O_RDONLY);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			return -1;
	close(in);
	close(out);
	return n;
}

static int write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	int ok_ = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);

	if (fd >= 0)
		close(fd);
	return ok_ ? 0 : -1;
}

/* fork, execve path with argv (NULL-terminated); the child's errno + 100 if execve failed, else its exit status. */
static int run(const char *path, char *const argv[])
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		dup2(open("/dev/null", O_WRONLY), 1);   /* hello-dyn prints: not into the TAP */
		execve(path, argv, (char *[]){ NULL });
		_exit(100 + errno);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* OUT's one line, without its newline, into buf. */
static const char *dumped(char *buf, size_t size)
{
	int fd = open(OUT, O_RDONLY);
	long n = fd >= 0 ? read(fd, buf, size - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n - 1 : 0] = '\0';
	unlink(OUT);
	return buf;
}

int main(int argc, char **argv)
{
	char got[512];

	for (int i = 1; i < argc; i++)          /* run as an interpreter */
		if (!strcmp(argv[i], "dump-argv"))
			return dump_argv(argc, argv);
	mount_proc_sys();
	mkdir("/tmp", 0777);
	mkdir(DIR, 0755);
	ok(copy_self(argv[0], PROG, 0755) == 0 &&
	   run(PROG, (char *[]){ PROG, "dump-argv", "x", NULL }) == 0 &&
	   !strcmp(dumped(got, sizeof(got)), PROG "|dump-argv|x"),
	   "a program written to tmpfs with mode 0755 runs (%s)", got);
	ok(copy_self(argv[0], DIR "/noexec", 0644) == 0 &&
	   run(DIR "/noexec", (char *[]){ "noexec", NULL }) == 100 + EACCES,
	   "mode 0644: EACCES");
	write_file(DIR "/s1", "#!" PROG " dump-argv\n", 0755);
	ok(run(DIR "/s1", (char *[]){ "s1", "a", "b", NULL }) == 0 &&
	   !strcmp(dumped(got, sizeof(got)), PROG "|dump-argv|" DIR "/s1|a|b"),
	   "#!interp arg: argv is interp, arg, the script's path, then argv[1..] (%s)", got);
	write_file(DIR "/s2", "#!  " DIR "/s1  \t\n", 0755);
	ok(run(DIR "/s2", (char *[]){ "s2", "c", NULL }) == 0 &&
	   !strcmp(dumped(got, sizeof(got)), PROG "|dump-argv|" DIR "/s1|" DIR "/s2|c"),
	   "a script as the interpreter, spaces around its name (%s)", got);
	write_file(DIR "/s3", "#!" PROG, 0755);
	ok(run(DIR "/s3", (char *[]){ "s3", "dump-argv", NULL }) == 0 &&
	   !strcmp(dumped(got, sizeof(got)), PROG "|" DIR "/s3|dump-argv"),
	   "a first line without a newline (%s)", got);
	write_file(DIR "/loop", "#!" DIR "/loop\n", 0755);
	ok(run(DIR "/loop", (char *[]){ "loop", NULL }) == 100 + ELOOP, "a script naming itself: ELOOP");
	write_file(DIR "/empty", "#!\n", 0755);
	ok(run(DIR "/empty", (char *[]){ "empty", NULL }) == 100 + ENOEXEC, "\"#!\" alone: ENOEXEC");
	write_file(DIR "/missing", "#!" DIR "/nothing\n", 0755);
	ok(run(DIR "/missing", (char *[]){ "missing", NULL }) == 100 + ENOENT,
	   "a missing interpreter: ENOENT");
	write_file(DIR "/text", "hello\n", 0755);
	ok(run(DIR "/text", (char *[]){ "text", NULL }) == 100 + ENOEXEC, "a text file: ENOEXEC");
	{
		char blanks[257];

		memset(blanks, ' ', 256);
		memcpy(blanks, "#!", 2);
		blanks[256] = '\0';
		write_file(DIR "/blank", blanks, 0755);
		ok(run(DIR "/blank", (char *[]){ "blank", NULL }) == 100 + ENOEXEC,
		   "\"#!\" and 254 blanks, no newline: ENOEXEC");
	}
	write_file(DIR "/c1", "#!" PROG " dump-argv\n", 0755);
	for (int i = 2; i <= 6; i++) {
		char path[64], text[64];

		snprintf(path, sizeof(path), DIR "/c%d", i);
		snprintf(text, sizeof(text), "#!" DIR "/c%d\n", i - 1);
		write_file(path, text, 0755);
	}
	ok(run(DIR "/c5", (char *[]){ "c5", NULL }) == 0 && dumped(got, sizeof(got)),
	   "five scripts, each the next one's interpreter, then the program: it runs");
	ok(run(DIR "/c6", (char *[]){ "c6", NULL }) == 100 + ELOOP, "six: ELOOP");
	{
		/* an ELF header whose program headers are at offset 2^63 */
		unsigned char elf[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
		int fd = open(DIR "/badelf", O_WRONLY | O_CREAT | O_TRUNC, 0755);

		elf[16] = 2;                    /* ET_EXEC */
		elf[18] = 62;                   /* x86-64 */
		elf[20] = 1;                    /* EV_CURRENT */
		elf[39] = 0x80;                 /* e_phoff = 1 << 63 */
		elf[54] = 56;                   /* e_phentsize */
		elf[56] = 1;                    /* e_phnum */
		ok(fd >= 0 && write(fd, elf, sizeof(elf)) == sizeof(elf) && close(fd) == 0 &&
		   run(DIR "/badelf", (char *[]){ "badelf", NULL }) == 100 + ENOEXEC,
		   "an ELF whose program headers lie at offset 2^63: ENOEXEC");
	}
	if (access("/lib/ld-musl-x86_64.so.1", X_OK) || access("/bin/hello-dyn", X_OK))
		skip("no /bin/hello-dyn or musl loader here");
	else
		ok(run("/bin/hello-dyn", (char *[]){ "hello-dyn", "42", NULL }) == 42,
		   "a dynamically linked program runs through its interpreter (exit 42)");
	const char *names[] = { "prog", "noexec", "s1", "s2", "s3", "loop", "empty", "missing", "text",
				"blank", "c1", "c2", "c3", "c4", "c5", "c6", "badelf" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[64];

		snprintf(path, sizeof(path), DIR "/%s", names[i]);
		unlink(path);
	}
	ok(rmdir(DIR) == 0, "cleaned up");
	return tap_done();
}
