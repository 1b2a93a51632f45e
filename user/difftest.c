/*
 * difftest: seeded system-call programs, run the same on foliOS and on Linux,
 * each observation printed as one normalised record line (docs/difftest.md).
 *
 *   difftest [-v] SEEDS STEPS [-k LIST]...
 *
 * SEEDS is N, N-M or N,M,...; each seed's program is STEPS steps, derived
 * from the seed alone (a PRNG per step: dropping a step changes no other).
 * With -k (one seed), each LIST ("1-5,9") is a trial that runs only those
 * steps — what the minimiser of scripts/difftest.py asks for.
 *
 * A record line is "<run> <step> <call> = <result>"; <run> is s<seed> or
 * s<seed>k<trial>.  Addresses are printed relative to the arena A (a fixed
 * address far from everything either kernel places), brk relative to the
 * first break, PIDs as "pid".  Each program runs in its own process (the
 * "runner"), whose end — exit or signal — is the last record, "<run> end".
 * Memory is touched directly only where the runner's own model of the
 * arena says it may be; elsewhere a forked child touches it ("probe") and
 * its wait status is the record.  Children never print.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "difftest/difftest.h"

static const char *self;        /* argv[0]: /bin/difftest here, /bin/prog on the peer */
static long self_size;
static char run_tag[32];
static unsigned long brk0;
static unsigned char model[WORLD_PAGES];
static struct pipe_slot pipes[NR_PIPES];
static struct child_slot kids[NR_KIDS];
static int files[NR_FILES];
static int file_kind[NR_FILES];         /* F_* of files[i] */
static char line[1024];
static int line_len;
static int verbose;             /* -v: each step's kind on stderr before it runs */

/* ---- output ------------------------------------------------------------ */

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_len += vsnprintf(line + line_len, sizeof(line) - line_len, fmt, ap);
	va_end(ap);
	if (line_len >= (int)sizeof(line))
		line_len = sizeof(line) - 1;
}

/* Ends the record line begun by begin() and writes it in one write(). */
static void end_line(void)
{
	say("\n");
	write(1, line, line_len);
	line_len = 0;
}

/* -v: the record so far on stderr, for a call that may not return. */
static void about_to_call(void)
{
	if (verbose) {
		write(2, line, line_len);
		write(2, "...\n", 4);
	}
}

static void begin(int step)
{
	line_len = 0;
	say("%s %d ", run_tag, step);
}

static const char *errname(long e)
{
	static char s[16];

	switch (e) {
#define E(x) case x: return #x;
	E(EPERM) E(ENOENT) E(ESRCH) E(EINTR) E(EIO) E(E2BIG) E(ENOEXEC) E(EBADF)
	E(ECHILD) E(EAGAIN) E(ENOMEM) E(EACCES) E(EFAULT) E(EBUSY) E(EEXIST)
	E(ENODEV) E(ENOTDIR) E(EISDIR) E(EINVAL) E(EMFILE) E(ENOTTY) E(ESPIPE)
	E(EPIPE) E(ERANGE) E(ENAMETOOLONG) E(ENOSYS) E(EOPNOTSUPP) E(EOVERFLOW)
	E(EROFS) E(ETXTBSY) E(ENFILE) E(ELOOP) E(ENOTEMPTY) E(EXDEV) E(EFBIG) E(EMLINK)
	E(ENXIO) E(EDEADLK) E(ENOLCK) E(ENOSPC)
#undef E
	}
	snprintf(s, sizeof(s), "E%ld", e);
	return s;
}

/* A plain result: a number, or -1 and the errno's name. */
static void ret_num(long r)
{
	if (r < 0 && r > -4096)
		say("-1 %s", errname(-r));
	else
		say("%ld", r);
}

/* An address: relative to the arena when near it, else its class. */
static void addr_text(unsigned long a)
{
	if (a >= ARENA - NEAR && a < ARENA + NEAR)
		say(a >= ARENA ? "A+0x%lx" : "A-0x%lx", a >= ARENA ? a - ARENA : ARENA - a);
	else
		say("%#lx", a);
}

static void ret_addr(long r)
{
	if (r < 0 && r > -4096)
		say("-1 %s", errname(-r));
	else if ((unsigned long)r >= ARENA - NEAR && (unsigned long)r < ARENA + NEAR)
		addr_text(r);
	else
		say("addr");
}

static void status_text(int st)
{
	if (WIFEXITED(st))
		say("exit %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		say("signal %d%s", WTERMSIG(st), WCOREDUMP(st) ? " core" : "");
	else
		say("status %#x", st);
}

/* wait4(pid) for a child the runner made: its status, or why there is none. */
static void wait_for(long pid)
{
	int st = 0;
	long r = raw_syscall(SYS_wait4, pid, (long)&st, 0, 0, 0, 0);

	if (r == pid)
		status_text(st);
	else
		ret_num(r);
}

/* ---- raw calls: no libc between the case and the kernel ------------------ */

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	raw_syscall(SYS_nanosleep, (long)&ts, 0, 0, 0, 0, 0);
}

/* ---- the PRNG: splitmix64, one stream per (seed, step) ------------------- */

static unsigned long rng_state;

static unsigned long rnd(void)
{
	unsigned long z = (rng_state += 0x9e3779b97f4a7c15UL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
	return z ^ (z >> 31);
}

static unsigned long pick(unsigned long n)
{
	return rnd() % n;
}

/* ---- the arena model ------------------------------------------------------ */

static void model_set(unsigned long off, unsigned long len, unsigned char st)
{
	unsigned long p;

	for (p = off / PG; p < (off + len + PG - 1) / PG && p < WORLD_PAGES; p++)
		model[p] = st;
}

/* mprotect that succeeded (st = prot) or failed half-way (st = M_UNKNOWN). */
static void model_prot(unsigned long off, unsigned long len, unsigned char st)
{
	unsigned long p;

	for (p = off / PG; p < (off + len + PG - 1) / PG && p < WORLD_PAGES; p++)
		if (model[p] & M_MAPPED)
			model[p] = st == M_UNKNOWN ? (M_MAPPED | M_UNKNOWN) : (M_MAPPED | st);
}

/* May the runner itself read (write) [off, off+len) of the arena? */
static int model_allows(unsigned long off, unsigned long len, int write)
{
	unsigned long p;

	if (off + len > WORLD || len == 0)
		return 0;
	for (p = off / PG; p < (off + len + PG - 1) / PG; p++) {
		unsigned char m = model[p];

		if (!(m & M_MAPPED) || (m & M_UNKNOWN))
			return 0;
		if (write ? !(m & PROT_WRITE) : !(m & (PROT_READ | PROT_WRITE)))
			return 0;
	}
	return 1;
}

/* The bytes of a region, folded: equal memory gives equal sums on both. */
static unsigned long checksum(const unsigned char *p, unsigned long len)
{
	unsigned long h = 0xcbf29ce484222325UL, i;

	for (i = 0; i + 8 <= len; i += 8) {
		unsigned long w;

		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3UL;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3UL;
	return h;
}

/* ---- fds ------------------------------------------------------------------ */

/* Close every fd above stderr: a child keeps nothing that holds a pipe open. */
void close_extra_fds(int keep1, int keep2)
{
	int fd;

	for (fd = 3; fd < 64; fd++)
		if (fd != keep1 && fd != keep2)
			raw_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
}

/* Is fd one of the runner's own (a pipe, a child's hold end)? */
int fd_reserved(int fd)
{
	int i;

	for (i = 0; i < NR_PIPES; i++)
		if (pipes[i].used && (pipes[i].fd[0] == fd || pipes[i].fd[1] == fd))
			return 1;
	for (i = 0; i < NR_KIDS; i++)
		if (kids[i].used && kids[i].hold == fd)
			return 1;
	return fd <= 2;
}

static void files_forget(int fd)
{
	int i;

	for (i = 0; i < NR_FILES; i++)
		if (files[i] == fd)
			files[i] = -1;
}

static int files_add(int fd, int kind)
{
	int i;

	for (i = 0; i < NR_FILES; i++)
		if (files[i] < 0) {
			files[i] = fd;
			file_kind[i] = kind;
			return 1;
		}
	return 0;
}

static int kind_of(int fd)
{
	int i;

	for (i = 0; i < NR_FILES; i++)
		if (files[i] == fd && fd >= 0)
			return file_kind[i];
	return F_NONE;
}

/* ---- the steps ------------------------------------------------------------ */

#include "difftest/mm.c"
#include "difftest/proc.c"
#include "difftest/fs.c"
#include "difftest/paths.c"
#include "difftest/fileattrs.c"
#include "difftest/locks.c"
#include "difftest/attrs.c"

struct step_kind {
	const char *name;
	int weight;
	void (*run)(int step);
};

static const struct step_kind kinds[] = {
	{ "mmap", 10, step_mmap },
	{ "munmap", 6, step_munmap },
	{ "mprotect", 10, step_mprotect },
	{ "madvise", 8, step_madvise },
	{ "touch", 12, step_touch },
	{ "sum", 10, step_sum },
	{ "kaccess", 5, step_kaccess },
	{ "brk", 5, step_brk },
	{ "fork", 5, step_fork },
	{ "spawn", 4, step_spawn },
	{ "kill", 5, step_kill },
	{ "wait", 4, step_wait },
	{ "sigchld", 1, step_sigchld },
	{ "exec", 3, step_exec },
	{ "fpu", 2, step_fpu },
	{ "pipe", 8, step_pipe },
	{ "pipe_race", 1, step_pipe_race },
	{ "file", 8, step_file },
	{ "thp", 3, step_thp },
	{ "mkfile", 6, step_mkfile },
	{ "mkdir", 5, step_mkdir },
	{ "unlink", 4, step_unlink },
	{ "mknod", 3, step_mknod },
	{ "umask", 1, step_umask },
	{ "symlink", 6, step_symlink },
	{ "readlink", 5, step_readlink },
	{ "link", 3, step_link },
	{ "rename", 4, step_rename },
	{ "stat", 5, step_stat },
	{ "chmod", 3, step_chmod },
	{ "chown", 3, step_chown },
	{ "utimens", 3, step_utimens },
	{ "access", 4, step_access },
	{ "truncate", 3, step_truncate },
	{ "fwrite", 3, step_fwrite },
	{ "cwd", 3, step_cwd },
	{ "lock", 4, step_lock },
	{ "flock", 2, step_flock },
	{ "pipe2", 2, step_pipe2 },
	{ "dup3", 2, step_dup3 },
	{ "prio", 2, step_prio },
	{ "prctl", 3, step_prctl },
	{ "capget", 2, step_capget },
	{ "session", 2, step_session },
	{ "altstack", 2, step_altstack },
};

static void run_step(int step)
{
	int total = 0, i, r;

	for (i = 0; i < (int)(sizeof(kinds) / sizeof(kinds[0])); i++)
		total += kinds[i].weight;
	r = pick(total);
	for (i = 0; r >= kinds[i].weight; i++)
		r -= kinds[i].weight;
	if (verbose)
		fprintf(stderr, "%s %d: %s\n", run_tag, step, kinds[i].name);
	kinds[i].run(step);
}

/* The runner: the arena, then the kept steps, then every child reaped. */
static void runner(unsigned long seed, int steps, const unsigned char *keep)
{
	long r;
	int i;

	signal(SIGPIPE, SIG_IGN);
	arena_dir_begin();
	for (i = 0; i < NR_FILES; i++)
		files[i] = -1;
	brk0 = raw_syscall(SYS_brk, 0, 0, 0, 0, 0, 0);
	r = raw_syscall(SYS_mmap, ARENA, WORLD / 2, PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	begin(0);
	say("mmap(A, %#lx, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = ",
	    WORLD / 2);
	ret_addr(r);
	end_line();
	if (r == (long)ARENA)
		model_set(0, WORLD / 2, M_MAPPED | PROT_READ | PROT_WRITE);
	for (i = 1; i <= steps; i++) {
		if (keep && !keep[i])
			continue;
		rng_state = seed * 0x2545f4914f6cdd1dUL + (unsigned long)i * 0x9e3779b97f4a7c15UL;
		rnd();
		run_step(i);
	}
	reap_all();
	arena_dir_end();
	_exit(0);
}

/* Linux's THP defaults (docs/contract.md), before each program. */
static void thp_defaults(void)
{
	static const char *const knobs[][2] = {
		{ THP_DIR "enabled", "always" },
		{ THP_DIR "hugepages-2048kB/enabled", "inherit" },
		{ THP_DIR "hugepages-1024kB/enabled", "never" },
		{ THP_DIR "hugepages-512kB/enabled", "never" },
		{ THP_DIR "hugepages-256kB/enabled", "never" },
		{ THP_DIR "hugepages-128kB/enabled", "never" },
		{ THP_DIR "hugepages-64kB/enabled", "never" },
		{ THP_DIR "hugepages-32kB/enabled", "never" },
		{ THP_DIR "hugepages-16kB/enabled", "never" },
	};
	unsigned i;

	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		int fd = open(knobs[i][0], O_WRONLY);

		if (fd >= 0) {
			write(fd, knobs[i][1], strlen(knobs[i][1]));
			close(fd);
		}
	}
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A runner that hangs: its State from /proc, where it sleeps (for the reader). */
static void hang_text(long pid, long ms)
{
	char path[64], buf[512], *st;
	int fd;
	long n;

	say("timeout after %ld ms", ms);
	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	st = strstr(buf, "State:");
	if (st)
		say(", runner %.*s", (int)strcspn(st, "\n"), st);
}

/*
 * One program in its own runner process, watched: a runner that has not
 * ended after RUNNER_TIMEOUT_MS is killed (and says so), so one hang costs
 * one record, not the boot.
 */
static void run_one(unsigned long seed, int steps, const unsigned char *keep)
{
	long pid, w = 0, start = now_ms();
	int st = 0;

	thp_defaults();
	pid = fork();
	if (pid == 0)
		runner(seed, steps, keep);
	while (pid > 0 && now_ms() - start < RUNNER_TIMEOUT_MS) {
		w = raw_syscall(SYS_wait4, pid, (long)&st, WNOHANG, 0, 0, 0);
		if (w != 0)
			break;
		nap_ms(10);
	}
	line_len = 0;
	say("%s end ", run_tag);
	if (pid < 0) {
		say("fork failed");
	} else if (w == 0) {
		hang_text(pid, now_ms() - start);
		kill(pid, SIGKILL);
		raw_syscall(SYS_wait4, pid, (long)&st, 0, 0, 0, 0);
	} else {
		status_text(st);
	}
	end_line();
}

/* "1-5,9" → keep[1..5] = keep[9] = 1. */
static void parse_list(const char *s, unsigned char *keep, int max)
{
	memset(keep, 0, max + 1);
	while (*s) {
		char *e;
		long a = strtol(s, &e, 10), b = a;

		if (*e == '-')
			b = strtol(e + 1, &e, 10);
		for (; a <= b; a++)
			if (a >= 0 && a <= max)
				keep[a] = 1;
		s = *e ? e + 1 : e;
	}
}

static long file_size(const char *path)
{
	int fd = open(path, O_RDONLY);
	long n = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;

	if (fd >= 0)
		close(fd);
	return n;
}

static int usage(void)
{
	fprintf(stderr, "usage: difftest [-v] SEEDS STEPS [-k LIST]...  (SEEDS: N, N-M or N,M,...)\n");
	return 2;
}

int main(int argc, char **argv)
{
	static unsigned char keep[MAX_STEPS + 1];
	unsigned long seed, last;
	int steps, i, trial = 0;
	char *s;

	self = argv[0];
	self_size = file_size(self);
	if (argc >= 2 && !strcmp(argv[1], "--exec"))
		return exec_check(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "-v"))
		verbose = 1, argc--, argv++;
	if (argc < 3)
		return usage();
	steps = atoi(argv[2]);
	if (steps < 0 || steps > MAX_STEPS)
		return usage();
	for (i = 3; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "-k"))
			return usage();
		parse_list(argv[i + 1], keep, steps);
		snprintf(run_tag, sizeof(run_tag), "s%sk%d", argv[1], ++trial);
		run_one(strtoul(argv[1], NULL, 10), steps, keep);
	}
	if (trial)
		return remove_at(AT_FDCWD, ARENA_DIR), 0;
	for (s = argv[1]; *s; ) {
		seed = strtoul(s, &s, 10);
		last = seed;
		if (*s == '-')
			last = strtoul(s + 1, &s, 10);
		for (; seed <= last; seed++) {
			snprintf(run_tag, sizeof(run_tag), "s%lu", seed);
			run_one(seed, steps, NULL);
		}
		if (*s == ',')
			s++;
		else if (*s)
			return usage();
	}
	remove_at(AT_FDCWD, ARENA_DIR);         /* a killed runner's, if any */
	return 0;
}
