/*
 * difftest's steps on what a name's file is, for names of the arena
 * (user/difftest/paths.c, included before it): stat, chmod, chown, file
 * times, access checks, contents truncated and written at offsets, and
 * the working directory (getcwd relative to the arena, chdir into a
 * removed directory, O_PATH).  Included by user/difftest.c.
 */

/* ---- attributes ------------------------------------------------------------- */

static void step_stat(int step)
{
	static const struct { long flags; const char *name; } fl[] = {
		{ 0, "0" }, { AT_SYMLINK_NOFOLLOW, "AT_SYMLINK_NOFOLLOW" },
		{ AT_EMPTY_PATH, "AT_EMPTY_PATH" }, { 0x1, "0x1" },
	};
	const char *n = gen_lookup();
	int v = pick(5), f = pick(4), dk = gen_dirfd_kind();
	struct stat st;
	long r, fd;

	begin(step);
	if (v == 0) {
		say("stat(");
		name_text(n);
		say(") = ");
		r = rsys(SYS_stat, n, &st);
	} else if (v == 1) {
		say("lstat(");
		name_text(n);
		say(") = ");
		r = rsys(SYS_lstat, n, &st);
	} else if (v == 2) {
		fd = open_printed(n, O_RDONLY | O_NONBLOCK, "O_RDONLY|O_NONBLOCK");
		say(", fstat(fd) = ");
		r = rsys(SYS_fstat, fd, &st);
		close_fd(fd);
	} else {
		fd = open_dirfd(dk);
		say("fstatat(");
		dirfd_text(dk);
		name_text(n);
		say(", %s) = ", fl[f].name);
		r = rsys(SYS_newfstatat, fd, n, &st, fl[f].flags);
		if (dk)
			close_fd(fd);
	}
	if (r == 0)
		stat_fields(&st);
	else
		ret_num(r);
	end_line();
}

static void step_chmod(int step)
{
	const char *n = gen_lookup();
	unsigned mode = pick(8) == 0 ? 0100644 : gen_mode();
	int v = pick(3);
	long fd;

	begin(step);
	if (v == 0) {
		say("chmod(");
		name_text(n);
		say(", %04o) = ", mode);
		ret_num(rsys(SYS_chmod, n, mode));
	} else if (v == 1) {
		say("fchmodat(AT_FDCWD, ");
		name_text(n);
		say(", %04o) = ", mode);
		ret_num(rsys(SYS_fchmodat, AT_FDCWD, n, mode));
	} else {
		fd = open_printed(n, O_RDONLY | O_NONBLOCK, "O_RDONLY|O_NONBLOCK");
		say(", fchmod(fd, %04o) = ", mode);
		ret_num(rsys(SYS_fchmod, fd, mode));
		close_fd(fd);
	}
	after_lstat(n);
	end_line();
}

static void step_chown(int step)
{
	static const int ids[] = { 0, 1000, -1, 65534, 1000 };
	const char *n = gen_lookup();
	int u = ids[pick(5)], g = ids[pick(5)], v = pick(5);
	long fd, fl = pick(3) ? 0 : AT_SYMLINK_NOFOLLOW;

	begin(step);
	if (v == 0) {
		say("chown(");
		name_text(n);
		say(", %d, %d) = ", u, g);
		ret_num(rsys(SYS_chown, n, u, g));
	} else if (v == 1) {
		say("lchown(");
		name_text(n);
		say(", %d, %d) = ", u, g);
		ret_num(rsys(SYS_lchown, n, u, g));
	} else if (v < 4) {
		if (v == 3)
			fl = pick(2) ? AT_EMPTY_PATH : 0x1;
		say("fchownat(AT_FDCWD, ");
		name_text(n);
		say(", %d, %d, %s) = ", u, g, fl == AT_SYMLINK_NOFOLLOW ? "AT_SYMLINK_NOFOLLOW" :
		    fl == AT_EMPTY_PATH ? "AT_EMPTY_PATH" : fl ? "0x1" : "0");
		ret_num(rsys(SYS_fchownat, AT_FDCWD, n, u, g, fl));
	} else {
		fd = open_printed(n, O_RDONLY | O_NONBLOCK, "O_RDONLY|O_NONBLOCK");
		say(", fchown(fd, %d, %d) = ", u, g);
		ret_num(rsys(SYS_fchown, fd, u, g));
		close_fd(fd);
	}
	after_lstat(n);
	end_line();
}

/* Times we set (printed as they are) and now (printed "now"): the rest "other". */
static const struct timespec set_times[] = {
	{ 1000000000, 0 }, { 1234567890, 123456789 }, { 1500000000, 999999999 },
};

static void time_text(const struct timespec *t)
{
	struct timespec now;
	unsigned i;

	for (i = 0; i < sizeof(set_times) / sizeof(set_times[0]); i++)
		if (t->tv_sec == set_times[i].tv_sec && t->tv_nsec == set_times[i].tv_nsec) {
			say("%ld.%09ld", (long)t->tv_sec, t->tv_nsec);
			return;
		}
	clock_gettime(CLOCK_REALTIME, &now);
	say(t->tv_sec >= t_start - 2 && t->tv_sec <= now.tv_sec + 2 ? "now" : "other");
}

static void ts_arg_text(const struct timespec *t)
{
	if (t->tv_nsec == UTIME_NOW)
		say("UTIME_NOW");
	else if (t->tv_nsec == UTIME_OMIT)
		say("UTIME_OMIT");
	else
		say("{%ld, %ld}", (long)t->tv_sec, t->tv_nsec);
}

/* utimensat: explicit times, UTIME_NOW, UTIME_OMIT, bad nanoseconds, a link's own. */
static void step_utimens(int step)
{
	struct timespec ts[2], bad = { 1, 1000000000 };
	const char *n = gen_lookup();
	int i, v = pick(6), nofollow = pick(4) == 0, null_times = pick(6) == 0;
	struct stat st;
	long r, fd = -1;

	for (i = 0; i < 2; i++) {
		int k = pick(7);

		ts[i] = k < 3 ? set_times[k] : k == 3 || k == 4 ?
			(struct timespec){ 0, UTIME_NOW } : k == 5 ?
			(struct timespec){ 0, UTIME_OMIT } : bad;
	}
	begin(step);
	if (v == 0) {
		fd = open_printed(n, O_RDONLY | O_NONBLOCK, "O_RDONLY|O_NONBLOCK");
		say(", utimensat(fd, NULL, ");
	} else {
		say("utimensat(AT_FDCWD, ");
		name_text(n);
		say(", ");
	}
	if (null_times) {
		say("NULL");
	} else {
		say("{");
		ts_arg_text(&ts[0]);
		say(", ");
		ts_arg_text(&ts[1]);
		say("}");
	}
	say(", %s) = ", nofollow ? "AT_SYMLINK_NOFOLLOW" : "0");
	r = rsys(SYS_utimensat, v == 0 ? fd : AT_FDCWD, v == 0 ? NULL : n,
		 null_times ? NULL : ts, nofollow ? AT_SYMLINK_NOFOLLOW : 0);
	ret_num(r);
	if (v == 0)
		r = rsys(SYS_fstat, fd, &st);
	else
		r = rsys(SYS_newfstatat, AT_FDCWD, n, &st, nofollow ? AT_SYMLINK_NOFOLLOW : 0);
	close_fd(fd);
	if (r == 0) {
		say(", atime ");
		time_text(&st.st_atim);
		say(", mtime ");
		time_text(&st.st_mtim);
	}
	end_line();
}

/* access, faccessat, faccessat2 (flags).  (As root: foliOS has no other user to be.) */
static void step_access(int step)
{
	static const struct { int mode; const char *name; } am[] = {
		{ F_OK, "F_OK" }, { R_OK, "R_OK" }, { W_OK, "W_OK" }, { X_OK, "X_OK" },
		{ X_OK, "X_OK" }, { R_OK | W_OK, "R_OK|W_OK" }, { R_OK | W_OK | X_OK, "R_OK|W_OK|X_OK" },
		{ 8, "8" },
	};
	static const struct { long flags; const char *name; } fl[] = {
		{ 0, "0" }, { AT_EACCESS, "AT_EACCESS" }, { AT_SYMLINK_NOFOLLOW, "AT_SYMLINK_NOFOLLOW" },
		{ AT_EMPTY_PATH, "AT_EMPTY_PATH" }, { AT_EACCESS | AT_SYMLINK_NOFOLLOW,
		"AT_EACCESS|AT_SYMLINK_NOFOLLOW" }, { 0x1, "0x1" },
	};
	const char *n = gen_lookup();
	int m = pick(sizeof(am) / sizeof(am[0])), f = pick(sizeof(fl) / sizeof(fl[0]));
	int v = pick(4);

	begin(step);
	if (v == 0) {
		say("access(");
		name_text(n);
		say(", %s) = ", am[m].name);
		ret_num(rsys(SYS_access, n, am[m].mode));
	} else if (v == 1) {
		say("faccessat(AT_FDCWD, ");
		name_text(n);
		say(", %s, 0) = ", am[m].name);
		ret_num(rsys(SYS_faccessat, AT_FDCWD, n, am[m].mode, 0));
	} else {
		say("faccessat2(AT_FDCWD, ");
		name_text(n);
		say(", %s, %s) = ", am[m].name, fl[f].name);
		ret_num(rsys(SYS_faccessat2, AT_FDCWD, n, am[m].mode, fl[f].flags));
	}
	end_line();
}

/* ---- contents --------------------------------------------------------------- */

static void step_truncate(int step)
{
	static const long lens[] = { 0, 1, 100, 4095, 4096, 4097, 1 << 20, -1, 1L << 62, 5000 };
	const char *n = gen_lookup();
	long len = lens[pick(sizeof(lens) / sizeof(lens[0]))], fd;
	int v = pick(3);

	begin(step);
	if (v == 0) {
		say("truncate(");
		name_text(n);
		say(", %ld) = ", len);
		ret_num(rsys(SYS_truncate, n, len));
	} else {
		say("fd = open(");
		name_text(n);
		say(", %s|O_NONBLOCK) = ", v == 1 ? "O_WRONLY" : "O_RDONLY");
		fd = rsys(SYS_open, n, (v == 1 ? O_WRONLY : O_RDONLY) | O_NONBLOCK);
		ret_num(fd);
		say(", ftruncate(fd, %ld) = ", len);
		ret_num(rsys(SYS_ftruncate, fd, len));
		close_fd(fd);
	}
	after_digest(n);
	end_line();
}

/* write/pwrite at offsets (a hole before 1 MiB), O_APPEND (pwrite appends on Linux). */
static void step_fwrite(int step)
{
	static const long offs[] = { 0, 10, 4095, 1 << 20 }, lens[] = { 1, 100, 4096, 5000 };
	const char *n = gen_name();
	long off = offs[pick(4)], len = lens[pick(4)], fd;
	int app = pick(3) == 0, pw = pick(2), c = 'A' + pick(26);

	begin(step);
	say("fd = open(");
	name_text(n);
	say(", O_WRONLY|O_NONBLOCK%s) = ", app ? "|O_APPEND" : "");
	fd = rsys(SYS_open, n, O_WRONLY | O_NONBLOCK | (app ? O_APPEND : 0));
	ret_num(fd);
	write_fill(fd, c, len, pw ? off : -1);
	close_fd(fd);
	after_digest(n);
	end_line();
}

/* ---- the working directory ---------------------------------------------------- */

/* getcwd's answer with ARENA_DIR as "A". */
static void cwd_text(long size)
{
	static char buf[512];
	long r = rsys(SYS_getcwd, buf, size);

	say("getcwd(buf, %ld) = ", size);
	if (r < 0) {
		ret_num(r);
	} else if (!strncmp(buf, ARENA_DIR, strlen(ARENA_DIR))) {
		say("%ld \"A%s\"", r - (long)strlen(ARENA_DIR), buf + strlen(ARENA_DIR));
	} else {
		say("%ld \"%s\"", r, buf);
	}
}

static void step_cwd(int step)
{
	static const long sizes[] = { 512, 512, 512, 1, 14, 15, 0 };
	const char *n = gen_lookup();
	int v = pick(6);
	long size = sizes[pick(sizeof(sizes) / sizeof(sizes[0]))], fd;

	begin(step);
	if (v < 2) {
		path_call("chdir", SYS_chdir, n);
	} else if (v < 4) {
		say("fd = open(");
		name_text(n);
		say(", %s) = ", v == 2 ? "O_RDONLY|O_DIRECTORY" : "O_RDONLY|O_NONBLOCK");
		fd = rsys(SYS_open, n, v == 2 ? O_RDONLY | O_DIRECTORY : O_RDONLY | O_NONBLOCK);
		ret_num(fd);
		say(", fchdir(fd) = ");
		ret_num(rsys(SYS_fchdir, fd));
		close_fd(fd);
	} else if (v == 4) {
		/* a removed working directory: getcwd is ENOENT, creating in it too */
		say("mkdir(\"z\", 0755) = ");
		ret_num(rsys(SYS_mkdir, "z", 0755));
		say(", chdir(\"z\") = ");
		ret_num(rsys(SYS_chdir, "z"));
		say(", rmdir(\"" ARENA_DIR "/z\") = ");
		ret_num(rsys(SYS_rmdir, ARENA_DIR "/z"));
		say(", chdir(\".\") = ");
		ret_num(rsys(SYS_chdir, "."));
		say(", open(\"f\", O_CREAT|O_WRONLY, 0644) = ");
		fd = rsys(SYS_open, "f", O_CREAT | O_WRONLY, 0644);
		ret_num(fd);
		close_fd(fd);
	} else {
		/* O_PATH: names the file, a link itself; fchdir takes it, read does not */
		char c;

		say("fd = open(");
		name_text(n);
		say(", O_PATH|O_NOFOLLOW) = ");
		fd = rsys(SYS_open, n, O_PATH | O_NOFOLLOW);
		ret_num(fd);
		say(", read(fd, buf, 1) = ");
		ret_num(rsys(SYS_read, fd, &c, 1));
		say(", fchdir(fd) = ");
		ret_num(rsys(SYS_fchdir, fd));
		close_fd(fd);
	}
	say(", ");
	cwd_text(size);
	rsys(SYS_chdir, ARENA_DIR);
	end_line();
}
