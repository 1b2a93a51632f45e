/*
 * difftest's process steps: fork (COW seen from both sides), long-lived
 * children in slots (spawn, kill, wait), SIGCHLD's disposition, execve,
 * FPU state across fork, switch and exec, and PIPE_BUF atomicity.
 * Children never print; what they saw comes back as a wait status or
 * through a pipe.  Included by user/difftest.c.
 */

static const struct { int sig; const char *name; } sigs[] = {
	{ 0, "0" }, { SIGTERM, "SIGTERM" }, { SIGKILL, "SIGKILL" }, { SIGUSR1, "SIGUSR1" },
	{ SIGUSR2, "SIGUSR2" }, { SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" },
	{ SIGQUIT, "SIGQUIT" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
	{ 65, "65" }, { -1, "-1" },
};

/* wait4 that reports through the record line; "pid" when it is the one asked for. */
static long wait_text(long pid, long opts, long rusage)
{
	int st = 0;
	long r = raw_syscall(SYS_wait4, pid, (long)&st, opts, rusage, 0, 0);

	if (r > 0) {
		say("%s, ", r == pid || pid <= 0 ? "pid" : "other pid");
		status_text(st);
	} else {
		ret_num(r);
	}
	return r;
}

/* fork(): the child sums a region, writes a page, sums again; the parent sums after. */
static void step_fork(int step)
{
	unsigned long off, len, res[2] = { 0, 0 }, woff = gen_off();
	int p[2], v = 1 + pick(255);
	long pid;

	gen_touch(&off, &len);
	begin(step);
	say("fork(): child sum(A+%#lx, %#lx), memset(A+%#lx, %#x, 4096), sum again = ", off, len,
	    woff, v);
	if (pipe(p)) {
		say("pipe failed");
		end_line();
		return;
	}
	pid = fork();
	if (pid == 0) {
		close_extra_fds(p[1], -1);
		if (model_allows(off, len, 0))
			res[0] = checksum((void *)(ARENA + off), len);
		if (model_allows(woff, PG, 1))
			memset((void *)(ARENA + woff), v, PG);
		if (model_allows(off, len, 0))
			res[1] = checksum((void *)(ARENA + off), len);
		write(p[1], res, sizeof(res));
		_exit(v & 0x7f);
	}
	close(p[1]);
	if (pid < 0) {
		say("fork failed");
	} else {
		if (read(p[0], res, sizeof(res)) != sizeof(res))
			res[0] = res[1] = 1;
		say("%#lx %#lx, ", res[0], res[1]);
		wait_for(pid);
		if (model_allows(off, len, 0))
			say(", parent sum = %#lx", checksum((void *)(ARENA + off), len));
	}
	close(p[0]);
	end_line();
}

/*
 * A child in slot k that sets a signal's disposition, says it is ready and
 * blocks reading its hold pipe until the runner closes the other end (then
 * exits 7); or (zombie) exits 3 at once and is a zombie when the step ends.
 */
static void step_spawn(int step)
{
	static const int ign[] = { 0, SIGTERM, SIGUSR1, SIGINT, SIGHUP, SIGCHLD };
	int k = pick(NR_KIDS), zombie = pick(4) == 0, sig = ign[pick(6)];
	int hold[2], ready[2];
	char c;
	long pid;

	begin(step);
	if (zombie)
		say("spawn(slot %d, exits at once) = ", k);
	else
		say("spawn(slot %d, signal %d ignored) = ", k, sig);
	if (kids[k].used) {
		say("skip: slot busy");
		end_line();
		return;
	}
	if (pipe(hold) || pipe(ready)) {
		say("pipe failed");
		end_line();
		return;
	}
	pid = fork();
	if (pid == 0) {
		close_extra_fds(hold[0], ready[1]);
		if (zombie)
			_exit(3);
		if (sig)
			signal(sig, SIG_IGN);
		write(ready[1], "r", 1);
		_exit(read(hold[0], &c, 1) == 0 ? 7 : 8);
	}
	close(hold[0]);
	close(ready[1]);
	if (pid > 0)
		read(ready[0], &c, 1);
	close(ready[0]);
	if (zombie) {
		close(hold[1]);
		hold[1] = -1;
		nap_ms(20);
	}
	if (pid < 0) {
		close(hold[1]);
		say("fork failed");
	} else {
		kids[k] = (struct child_slot){ .used = 1, .pid = pid, .hold = hold[1] };
		say("pid");
	}
	end_line();
}

static void step_kill(int step)
{
	int k = pick(NR_KIDS), s = pick(sizeof(sigs) / sizeof(sigs[0])), v = pick(8);

	begin(step);
	if (v == 0) {
		say("kill(0, 0) = ");
		ret_num(raw_syscall(SYS_kill, 0, 0, 0, 0, 0, 0));
	} else if (v == 1) {
		say("kill(0x7ffffff0, %s) = ", sigs[s].name);
		ret_num(raw_syscall(SYS_kill, 0x7ffffff0, sigs[s].sig, 0, 0, 0, 0));
	} else if (!kids[k].used) {
		say("kill(slot %d, %s) = skip: empty slot", k, sigs[s].name);
	} else {
		say("kill(slot %d, %s) = ", k, sigs[s].name);
		ret_num(raw_syscall(SYS_kill, kids[k].pid, sigs[s].sig, 0, 0, 0, 0));
		nap_ms(20);
	}
	end_line();
}

/* How many children the slots hold (forks of other steps are always reaped). */
static int nr_kids(void)
{
	int i, n = 0;

	for (i = 0; i < NR_KIDS; i++)
		n += kids[i].used;
	return n;
}

static void release(int k)
{
	if (kids[k].hold >= 0)
		close(kids[k].hold);
	kids[k].hold = -1;
}

static void step_wait(int step)
{
	int k = pick(NR_KIDS), v = pick(6);
	long r, pid = kids[k].pid;

	begin(step);
	if (!kids[k].used) {
		say("wait4(-1, &st, WNOHANG, NULL) [slot %d empty, %d in slots] = ", k, nr_kids());
		if (nr_kids() <= 1)
			wait_text(-1, WNOHANG, 0);
		else
			say("skip");
		end_line();
		return;
	}
	if (v == 0) {
		say("wait4(slot %d, &st, WNOHANG, NULL) = ", k);
		r = wait_text(pid, WNOHANG, 0);
	} else if (v == 1) {
		say("wait4(slot %d, &st, 0x12345678, NULL) = ", k);
		r = wait_text(pid, 0x12345678, 0);
	} else {
		release(k);
		if (v == 2) {
			say("release, wait4(slot %d, &st, 0, %#lx) = ", k, KADDR);
			r = wait_text(pid, 0, KADDR);
		} else if (v == 3 && nr_kids() == 1) {
			say("release, wait4(0, &st, 0, NULL) [slot %d] = ", k);
			r = wait_text(0, 0, 0);
		} else {
			say("release, wait4(slot %d, &st, 0, NULL) = ", k);
			r = wait_text(pid, 0, 0);
		}
		if (r == 0 || r == -EINTR)
			r = raw_syscall(SYS_wait4, pid, 0, 0, 0, 0, 0);
		r = pid;        /* released and waited: gone, whatever wait said */
	}
	if (r == pid) {
		release(k);
		kids[k].used = 0;
	}
	end_line();
}

static void step_sigchld(int step)
{
	int ign = pick(2);

	begin(step);
	say("signal(SIGCHLD, %s) = ", ign ? "SIG_IGN" : "SIG_DFL");
	say("%s", signal(SIGCHLD, ign ? SIG_IGN : SIG_DFL) == SIG_ERR ? "SIG_ERR" : "ok");
	end_line();
}

/* At the runner's end: every slot's child released and waited for. */
static void reap_all(void)
{
	int i;

	for (i = 0; i < NR_KIDS; i++)
		release(i);
	for (i = 0; i < NR_KIDS; i++)
		if (kids[i].used)
			raw_syscall(SYS_wait4, kids[i].pid, 0, 0, 0, 0, 0);
	while (raw_syscall(SYS_wait4, -1, 0, 0, 0, 0, 0) > 0)
		;
}

/* ---- FPU state ------------------------------------------------------------ */

/*
 * xmm7 := v, then n sched_yield()s with nothing else in between (one asm
 * block, so the compiler cannot use xmm7 meanwhile); returns xmm7.
 */
static unsigned long xmm7_across_yields(unsigned long v, int n)
{
	unsigned long out;

	__asm__ volatile("movq %[v], %%xmm7\n"
			 "1: mov %[nr], %%eax\n"
			 "syscall\n"
			 "dec %[n]\n"
			 "jnz 1b\n"
			 "movq %%xmm7, %[out]\n"
			 : [out] "=r"(out), [n] "+r"(n)
			 : [v] "r"(v), [nr] "i"(SYS_sched_yield)
			 : "rax", "rcx", "r11", "xmm7", "memory");
	return out;
}

static void step_fpu(int step)
{
	long pid;

	begin(step);
	if (pick(2)) {
		say("ldmxcsr(0x7f80), fork(): child exits with mxcsr>>8 = ");
		set_mxcsr(0x7f80);
		pid = fork();
		if (pid == 0)
			_exit(get_mxcsr() >> 8);
		if (pid > 0)
			wait_for(pid);
		else
			say("fork failed");
		say(", parent mxcsr = %#x", get_mxcsr());
		set_mxcsr(0x1f80);
	} else {
		say("xmm7 across 50 sched_yield() in parent and child = ");
		pid = fork();
		if (pid == 0)
			_exit(xmm7_across_yields(0x1111222233334444UL, 50) != 0x1111222233334444UL);
		say("parent %s, child ", xmm7_across_yields(0x5555666677778888UL, 50) ==
		    0x5555666677778888UL ? "kept" : "lost");
		if (pid > 0)
			wait_for(pid);
		else
			say("fork failed");
	}
	end_line();
}

/* ---- execve --------------------------------------------------------------- */

/*
 * The program after execve (difftest --exec ARGC LEN ...): exit status bits
 * 1 MXCSR is Linux's default, 2 x87 CW is, 4 the arena is gone, 8 argc and
 * the argument bytes are what the caller passed.
 */
static int exec_check(int argc, char **argv)
{
	long len = 0, want_argc = argc > 2 ? atol(argv[2]) : -1;
	int p[2], code = 0, i;

	code |= get_mxcsr() == 0x1f80 ? 1 : 0;
	code |= get_fcw() == 0x37f ? 2 : 0;
	if (pipe(p) == 0 && raw_syscall(SYS_write, p[1], ARENA, 1, 0, 0, 0) == -EFAULT)
		code |= 4;
	for (i = 4; i < argc; i++)
		len += strlen(argv[i]);
	if (argc == want_argc && argc > 3 && len == atol(argv[3]))
		code |= 8;
	return code;
}

static char big_arg[4][40 << 10];

/* The argument vector of an exec variant; returns its description. */
static const char *exec_args(int v, char **argv, char *nums)
{
	int i, n = 4;
	long len = 0;

	if (v == 1) {
		for (i = 0; i < 300; i++)
			argv[n++] = "a";
	} else if (v == 2) {
		for (i = 0; i < 4; i++) {
			memset(big_arg[i], 'b' + i, sizeof(big_arg[i]) - 1);
			argv[n++] = big_arg[i];
		}
	}
	for (i = 4; i < n; i++)
		len += strlen(argv[i]);
	sprintf(nums, "%d", n);
	sprintf(nums + 16, "%ld", len);
	argv[0] = (char *)self;
	argv[1] = "--exec";
	argv[2] = nums;
	argv[3] = nums + 16;
	argv[n] = NULL;
	return v == 1 ? "300 more arguments" : v == 2 ? "four 40 KiB arguments" : "no more";
}

static void step_exec(int step)
{
	static char *argv[320];
	static char *const envp[] = { "DIFFTEST=1", NULL };
	static char nums[32];
	int v = pick(9), st = 0;
	long path = (long)self, av = (long)argv, pid, r;
	const char *what = exec_args(v < 3 ? v : 0, argv, nums);

	if (v == 3)
		path = (long)"/nonexistent", what = "path /nonexistent";
	else if (v == 4)
		path = KADDR, what = "path in the kernel half";
	else if (v == 5)
		av = KADDR, what = "argv in the kernel half";
	else if (v == 6)
		argv[4] = (char *)KADDR, argv[5] = NULL, what = "argv[4] in the kernel half";
	else if (v == 7)
		path = (long)"/", what = "path /";
	else if (v == 8)
		path = (long)THP_DIR "enabled", what = "path of a sysfs file";
	begin(step);
	say("fork(), mxcsr 0x7f80, fcw 0x27f, execve(self --exec, %s) = ", what);
	pid = fork();
	if (pid == 0) {
		close_extra_fds(-1, -1);
		set_mxcsr(0x7f80);
		set_fcw(0x27f);
		r = raw_syscall(SYS_execve, path, av, (long)envp, 0, 0, 0);
		_exit(r < 0 && r > -100 ? 100 - r : 99);
	}
	if (pid < 0) {
		say("fork failed");
	} else if ((r = raw_syscall(SYS_wait4, pid, (long)&st, 0, 0, 0, 0)) != pid) {
		say("wait4: ");
		ret_num(r);
	} else if (WIFEXITED(st) && WEXITSTATUS(st) >= 100) {
		say("-1 %s", errname(WEXITSTATUS(st) - 100));
	} else {
		say("ran: ");
		status_text(st);
	}
	end_line();
}

/* ---- PIPE_BUF ------------------------------------------------------------- */

/*
 * Two children write 4096 bytes each into a pipe that already holds 2048;
 * the parent reads 512 at a time, yielding in between, so that a kernel
 * that splits a write has every chance to let the other writer in.
 */
static void step_pipe_race(int step)
{
	static char buf[2][4096], got[2048 + 8192];
	int p[2], i, runs = 0;
	long pid[2], n = 0, r;

	begin(step);
	say("pipe, write 2048 bytes, 2 children write 4096 bytes each, read 512 at a time = ");
	if (pipe(p)) {
		say("pipe failed");
		end_line();
		return;
	}
	memset(got, 'p', 2048);
	write(p[1], got, 2048);
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			close_extra_fds(p[1], -1);
			memset(buf[i], 'a' + i, sizeof(buf[i]));
			_exit(write(p[1], buf[i], sizeof(buf[i])) == sizeof(buf[i]) ? 0 : 1);
		}
	}
	close(p[1]);
	sched_yield();
	while (n < (long)sizeof(got) && (r = read(p[0], got + n, 512)) > 0) {
		n += r;
		sched_yield();
	}
	for (i = 2049; i < n; i++)
		runs += got[i] != got[i - 1];
	say("%ld bytes, %s", n, n == (long)sizeof(got) && runs == 1 ? "each write whole" :
	    "interleaved");
	for (i = 0; i < 2; i++)
		if (pid[i] > 0) {
			say(", child ");
			wait_for(pid[i]);
		}
	close(p[0]);
	end_line();
}
