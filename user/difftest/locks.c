/*
 * difftest's lock and fd steps, on names of the arena (user/difftest/
 * paths.c, included before it): POSIX record locks, OFD locks and flock
 * between the runner and a forked child, lock owners printed as whose
 * they are; pipe2's flags and dup3.  Included by user/difftest.c.
 */

/* ---- locks -------------------------------------------------------------------- */

static const char *lock_cmd_name(int cmd)
{
	return cmd == F_SETLK ? "F_SETLK" : cmd == F_GETLK ? "F_GETLK" : cmd == F_OFD_SETLK ?
	       "F_OFD_SETLK" : cmd == F_OFD_GETLK ? "F_OFD_GETLK" : "?";
}

static const char *lock_type_name(int t)
{
	static char s[8];

	if (t == F_RDLCK)
		return "F_RDLCK";
	if (t == F_WRLCK)
		return "F_WRLCK";
	if (t == F_UNLCK)
		return "F_UNLCK";
	snprintf(s, sizeof(s), "%d", t);
	return s;
}

struct lock_op {
	int cmd, type;
	long start, len;
	int pid;
};

static void gen_lock(struct lock_op *o, int get, int unlock_ok)
{
	static const int setc[] = { F_SETLK, F_SETLK, F_OFD_SETLK };
	static const int getc[] = { F_GETLK, F_OFD_GETLK, F_SETLK, F_OFD_SETLK };
	static const long starts[] = { 0, 10, 100, 5 }, lens[] = { 0, 10, 50, 100, -5 };
	int t = pick(unlock_ok ? 8 : 6);

	o->cmd = get ? getc[pick(4)] : setc[pick(3)];
	o->type = t < 3 ? F_WRLCK : t < 5 ? F_RDLCK : t == 5 ? 7 : F_UNLCK;
	o->start = starts[pick(4)];
	o->len = lens[pick(5)];
	o->pid = pick(12) == 0 ? 5 : 0;
}

static long lock_do(long fd, const struct lock_op *o, struct flock *fl)
{
	*fl = (struct flock){ .l_type = o->type, .l_whence = SEEK_SET, .l_start = o->start,
			      .l_len = o->len, .l_pid = o->pid };
	return rsys(SYS_fcntl, fd, o->cmd, fl);
}

static void lock_text(const struct lock_op *o)
{
	say("fcntl(fd, %s, {%s, SEEK_SET, %ld, %ld%s}) = ", lock_cmd_name(o->cmd),
	    lock_type_name(o->type), o->start, o->len, o->pid ? ", pid 5" : "");
}

/* A lock F_GETLK reported, its pid by whose it is. */
static void flock_text(const struct flock *fl, long runner, long child)
{
	say(" {%s", lock_type_name(fl->l_type));
	if (fl->l_type != F_UNLCK)
		say(", %s, %ld, %ld, pid %s", fl->l_whence == SEEK_SET ? "SEEK_SET" : "?",
		    (long)fl->l_start, (long)fl->l_len, fl->l_pid == runner ? "runner" :
		    fl->l_pid == child ? "child" : fl->l_pid == -1 ? "-1" : fl->l_pid == 0 ? "0" :
		    "other");
	say("}");
}

/*
 * Record locks between the runner and a forked child: the runner sets one or
 * two, the child (its own open, or the inherited fd) asks or sets one, the
 * runner asks once more; closing the fd at the end drops the runner's.
 */
static void step_lock(int step)
{
	struct lock_op a, b, c, d;
	int two = pick(2), own_open = pick(3) != 0, last = pick(2);
	const char *n = gen_name();
	struct flock fl;
	long fd, pid, r, runner = getpid();
	struct { long r; struct flock fl; } res = { -1, {0} };
	int p[2], st = 0;

	gen_lock(&a, 0, 0);
	gen_lock(&b, 0, 1);
	gen_lock(&c, 1, 0);
	gen_lock(&d, 1, 0);
	begin(step);
	say("fd = open(");
	name_text(n);
	say(", O_RDWR|O_CREAT|O_NONBLOCK, 0644) = ");
	fd = rsys(SYS_open, n, O_RDWR | O_CREAT | O_NONBLOCK, 0644);
	ret_num(fd);
	if (fd < 0)
		goto out;
	say(", ");
	lock_text(&a);
	ret_num(lock_do(fd, &a, &fl));
	if (two) {
		say(", ");
		lock_text(&b);
		ret_num(lock_do(fd, &b, &fl));
	}
	say("; child: %s", own_open ? "fd = open(same, O_RDWR), " : "");
	lock_text(&c);
	if (pipe(p)) {
		say("pipe failed");
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		long cfd = own_open ? rsys(SYS_open, n, O_RDWR | O_NONBLOCK) : fd;

		close_extra_fds(p[1], cfd);
		res.r = lock_do(cfd, &c, &res.fl);
		write(p[1], &res, sizeof(res));
		_exit(0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &res, sizeof(res)) != sizeof(res))
		res.r = -EIO;
	close(p[0]);
	if (pid > 0)
		raw_syscall(SYS_wait4, pid, (long)&st, 0, 0, 0, 0);
	ret_num(res.r);
	if (res.r == 0 && (c.cmd == F_GETLK || c.cmd == F_OFD_GETLK))
		flock_text(&res.fl, runner, pid);
	if (last) {
		say("; ");
		lock_text(&d);
		r = lock_do(fd, &d, &fl);
		ret_num(r);
		if (r == 0 && (d.cmd == F_GETLK || d.cmd == F_OFD_GETLK))
			flock_text(&fl, runner, pid);
	}
out:
	close_fd(fd);
	end_line();
}

static const char *flock_op_name(int op)
{
	static char s[16];

	switch (op) {
	case LOCK_SH: return "LOCK_SH";
	case LOCK_EX: return "LOCK_EX";
	case LOCK_UN: return "LOCK_UN";
	case LOCK_SH | LOCK_NB: return "LOCK_SH|LOCK_NB";
	case LOCK_EX | LOCK_NB: return "LOCK_EX|LOCK_NB";
	case LOCK_UN | LOCK_NB: return "LOCK_UN|LOCK_NB";
	}
	snprintf(s, sizeof(s), "%d", op);
	return s;
}

/* flock: the runner takes one, a child (own open or the inherited fd) tries another. */
static void step_flock(int step)
{
	static const int ops[] = { LOCK_SH, LOCK_EX, LOCK_EX, LOCK_UN, LOCK_SH | LOCK_NB,
				   LOCK_EX | LOCK_NB, 0, LOCK_NB };
	static const int nb_ops[] = { LOCK_SH | LOCK_NB, LOCK_EX | LOCK_NB, LOCK_EX | LOCK_NB,
				      LOCK_UN | LOCK_NB, LOCK_UN, 0 };
	const char *n = gen_name();
	int a = ops[pick(8)], c = nb_ops[pick(6)], own_open = pick(3) != 0, st = 0;
	long fd, pid;

	begin(step);
	say("fd = open(");
	name_text(n);
	say(", O_RDONLY|O_CREAT|O_NONBLOCK, 0644) = ");
	fd = rsys(SYS_open, n, O_RDONLY | O_CREAT | O_NONBLOCK, 0644);
	ret_num(fd);
	if (fd >= 0) {
		say(", flock(fd, %s) = ", flock_op_name(a));
		ret_num(rsys(SYS_flock, fd, a));
		say("; child: %sflock(fd, %s) = ", own_open ? "fd = open(same, O_RDONLY), " : "",
		    flock_op_name(c));
		pid = fork();
		if (pid == 0) {
			long cfd = own_open ? rsys(SYS_open, n, O_RDONLY | O_NONBLOCK) : fd;

			_exit(-rsys(SYS_flock, cfd, c));
		}
		if (pid > 0 && raw_syscall(SYS_wait4, pid, (long)&st, 0, 0, 0, 0) == pid &&
		    WIFEXITED(st))
			ret_num(-WEXITSTATUS(st));
		else
			say("child failed");
		say("; flock(fd, LOCK_EX|LOCK_NB) = ");
		ret_num(rsys(SYS_flock, fd, LOCK_EX | LOCK_NB));
		close_fd(fd);
	}
	end_line();
}

/* ---- fds: pipe2's flags, dup3 ------------------------------------------------------ */

static void fd_flags_text(long fd)
{
	long fl = rsys(SYS_fcntl, fd, F_GETFL), fdf = rsys(SYS_fcntl, fd, F_GETFD);

	if (fl < 0) {
		ret_num(fl);
		return;
	}
	say("%s%s%s%s", (fl & O_ACCMODE) == O_RDONLY ? "O_RDONLY" : (fl & O_ACCMODE) == O_WRONLY ?
	    "O_WRONLY" : "O_RDWR", fl & O_NONBLOCK ? "|O_NONBLOCK" : "",
	    fl & O_DIRECT ? "|O_DIRECT" : "", fdf & FD_CLOEXEC ? " cloexec" : "");
}

static void step_pipe2(int step)
{
	static const struct { long flags; const char *name; } fl[] = {
		{ 0, "0" }, { O_NONBLOCK, "O_NONBLOCK" }, { O_CLOEXEC, "O_CLOEXEC" },
		{ O_DIRECT, "O_DIRECT" }, { O_DIRECT | O_NONBLOCK, "O_DIRECT|O_NONBLOCK" },
		{ O_NONBLOCK | O_CLOEXEC | O_DIRECT, "O_NONBLOCK|O_CLOEXEC|O_DIRECT" },
		{ O_NOATIME, "O_NOATIME" }, { O_RDWR, "O_RDWR" },
	};
	int f = pick(sizeof(fl) / sizeof(fl[0])), fds[2] = { -1, -1 };
	char buf[16];
	long r;

	begin(step);
	say("pipe2(fds, %s) = ", fl[f].name);
	r = rsys(SYS_pipe2, fds, fl[f].flags);
	ret_num(r);
	if (r == 0) {
		say(", ");
		fd_flags_text(fds[0]);
		say(" ");
		fd_flags_text(fds[1]);
		say(", F_GETPIPE_SZ ");
		ret_num(rsys(SYS_fcntl, fds[0], F_GETPIPE_SZ));
		say(", write(\"ab\") = ");
		ret_num(rsys(SYS_write, fds[1], "ab", 2));
		say(", write(\"cde\") = ");
		ret_num(rsys(SYS_write, fds[1], "cde", 3));
		say(", read(8) = ");
		r = rsys(SYS_read, fds[0], buf, 8);
		ret_num(r);
		say(", read(8) = ");
		if (r < 5 || (fl[f].flags & O_NONBLOCK))
			ret_num(rsys(SYS_read, fds[0], buf, 8));
		else
			say("skip: would block");
		rsys(SYS_close, fds[1]);
		say(", close(write end), read(8) = ");
		ret_num(rsys(SYS_read, fds[0], buf, 8));
		rsys(SYS_close, fds[0]);
	}
	end_line();
}

static void step_dup3(int step)
{
	static const struct { long flags; const char *name; } fl[] = {
		{ 0, "0" }, { O_CLOEXEC, "O_CLOEXEC" }, { O_CLOEXEC, "O_CLOEXEC" },
		{ O_NONBLOCK, "O_NONBLOCK" }, { -1, "-1" },
	};
	int f = pick(sizeof(fl) / sizeof(fl[0])), v = pick(6), to = 50 + pick(10);
	long fd, r;

	if (v == 0)
		to = 1 << 20;
	begin(step);
	say("fd = open(\".\", O_RDONLY|O_DIRECTORY%s) = ", v == 1 ? "|O_CLOEXEC" : "");
	fd = rsys(SYS_open, ".", O_RDONLY | O_DIRECTORY | (v == 1 ? O_CLOEXEC : 0));
	ret_num(fd);
	if (fd < 0)
		goto out;
	if (v == 2)
		to = fd;
	if (to != fd && to < 64 && rsys(SYS_fcntl, to, F_GETFD) >= 0) {
		say(", dup3(fd, %d) = skip: in use", to);
		goto out;
	}
	say(", dup3(fd, %s, %s) = ", to == fd ? "fd" : to == 1 << 20 ? "1048576" : "N",
	    fl[f].name);
	r = rsys(SYS_dup3, fd, to, fl[f].flags);
	if (r == to && to != fd)
		say("N");
	else
		ret_num(r);
	if (r >= 0) {
		say(", new ");
		fd_flags_text(r);
		if (r != fd)
			close_fd(r);
	}
	say(", old ");
	fd_flags_text(fd);
out:
	close_fd(fd);
	end_line();
}
