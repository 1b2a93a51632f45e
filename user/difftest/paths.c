/*
 * difftest's name steps: files, directories, links, FIFOs and device nodes
 * in the program's own directory ARENA_DIR on tmpfs (the runner's working
 * directory: every name in a record is relative to it), their attributes
 * (mode, owner, times), their contents (written, truncated, checksummed),
 * the working directory itself, access checks, record locks and flock.
 * Names come from a small pool so that steps meet each other's results:
 * links to links (ELOOP), a file where a directory is wanted (ENOTDIR).
 * Every step closes what it opens.  Included by user/difftest.c.
 */

#define rsys(nr, ...) rsys_(nr, __VA_ARGS__, 0, 0, 0, 0, 0, 0)
#define rsys_(nr, a, b, c, d, e, f, ...) raw_syscall(nr, (long)(a), (long)(b), (long)(c), \
						  (long)(d), (long)(e), (long)(f))

static long t_start;    /* CLOCK_REALTIME seconds at the runner's start (times print relative) */

/* Where steps create things: mostly at the top, some one or two directories down. */
static const char *const fs_names[] = {
	"a", "a", "b", "b", "c", "d", "d", "e", "l", "l", "m", "f",
	"d/a", "d/b", "d/e", "d/e/a", "e/a", "l/a", "a/x", "m/a",
};

/* What symbolic links point to: names of the pool, loops, the arena's absolute name. */
static const char *const link_targets[] = {
	"a", "b", "d", "d/a", "l", "m", "a/x", "d/e", "e",
	ARENA_DIR "/a", ARENA_DIR "/d", ARENA_DIR "/n", "",
};

static const char *gen_name(void)
{
	return fs_names[pick(sizeof(fs_names) / sizeof(fs_names[0]))];
}

/* A name to look up: the pool, now and then "", "." or a name too long. */
static const char *gen_lookup(void)
{
	static char too_long[300];
	int v = pick(24);

	if (v == 0)
		return "";
	if (v == 1)
		return ".";
	if (v == 2) {
		memset(too_long, 'n', sizeof(too_long) - 1);
		return too_long;
	}
	return gen_name();
}

/* A name in a record: quoted, a long one shortened. */
static void name_text(const char *n)
{
	if (strlen(n) > 64)
		say("\"n*%zu\"", strlen(n));
	else
		say("\"%s\"", n);
}

/* A directory fd for the *at calls: AT_FDCWD, or "d" opened — its text. */
static int gen_dirfd_kind(void)
{
	return pick(4) == 0;
}

static long open_dirfd(int kind)
{
	if (!kind)
		return AT_FDCWD;
	say("dfd = open(\"d\", O_RDONLY|O_DIRECTORY) = ");
	long fd = rsys(SYS_open, "d", O_RDONLY | O_DIRECTORY);
	ret_num(fd);
	say(", ");
	return fd;
}

static void dirfd_text(int kind)
{
	say(kind ? "dfd, " : "AT_FDCWD, ");
}

static void close_fd(long fd)
{
	if (fd >= 0)
		rsys(SYS_close, fd);
}

/* ---- what a name is ----------------------------------------------------- */

static const char *const file_types[16] = {
	[S_IFREG >> 12] = "reg", [S_IFDIR >> 12] = "dir", [S_IFLNK >> 12] = "lnk",
	[S_IFIFO >> 12] = "fifo", [S_IFCHR >> 12] = "chr", [S_IFBLK >> 12] = "blk",
	[S_IFSOCK >> 12] = "sock",
};

static void mode_text(unsigned mode)
{
	const char *t = file_types[(mode & S_IFMT) >> 12];

	if (t)
		say("%s %04o", t, mode & 07777);
	else
		say("%#o", mode);
}

/* The fields both kernels must agree on: no inode numbers, no times, no blocks. */
static void stat_fields(const struct stat *st)
{
	say("{");
	mode_text(st->st_mode);
	say(", nlink %lu, size %ld, uid %u, gid %u", (unsigned long)st->st_nlink,
	    (long)st->st_size, st->st_uid, st->st_gid);
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		say(", rdev %u:%u", major(st->st_rdev), minor(st->st_rdev));
	say("}");
}

/* ", lstat = {...}" or the error: what a call left at a name. */
static void after_lstat(const char *n)
{
	struct stat st;
	long r = rsys(SYS_newfstatat, AT_FDCWD, n, &st, AT_SYMLINK_NOFOLLOW);

	say(", lstat(");
	name_text(n);
	say(") = ");
	if (r == 0)
		stat_fields(&st);
	else
		ret_num(r);
}

/* Its type alone (for renames): "reg", "dir", ..., or "-" when absent. */
static void type_text(const char *n)
{
	struct stat st;


	if (rsys(SYS_newfstatat, AT_FDCWD, n, &st, AT_SYMLINK_NOFOLLOW))
		say("-");
	else
		say("%s", file_types[(st.st_mode & S_IFMT) >> 12] ?: "?");
}

/* A file's contents: size and checksum of its first 2 MiB. */
static void digest_fd(long fd)
{
	static unsigned char buf[64 << 10];
	unsigned long h = 0xcbf29ce484222325UL;
	struct stat st;
	long off = 0, n, i;

	if (rsys(SYS_fstat, fd, &st)) {
		say("fstat failed");
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		say("not a file");
		return;
	}
	while (off < (2L << 20) && (n = rsys(SYS_pread64, fd, buf, sizeof(buf), off)) > 0) {
		for (i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3UL;
		off += n;
	}
	say("size %ld, sum %#lx", (long)st.st_size, n < 0 ? 0UL : h);
	if (n < 0) {
		say(" read ");
		ret_num(n);
	}
}

static void after_digest(const char *n)
{
	long fd = rsys(SYS_open, n, O_RDONLY | O_NONBLOCK);

	say(", contents: ");
	if (fd < 0) {
		say("open ");
		ret_num(fd);
		return;
	}
	digest_fd(fd);
	close_fd(fd);
}

/* Remove a tree (the arena's end): unlinkat, or the directory's entries first. */
static void remove_at(int dfd, const char *name)
{
	char buf[2048];         /* on the stack: one per level */
	struct stat st;
	long fd, n, i;
	int removed, passes = 0;

	if (rsys(SYS_newfstatat, dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return;
	if (!S_ISDIR(st.st_mode)) {
		rsys(SYS_unlinkat, dfd, name, 0);
		return;
	}
	fd = rsys(SYS_openat, dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		return;
	do {    /* until a pass finds only "." and ".." */
		removed = 0;
		rsys(SYS_lseek, fd, 0, SEEK_SET);
		while ((n = rsys(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
			for (i = 0; i < n; ) {
				/* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name */
				unsigned short reclen;
				const char *d_name = buf + i + 19;

				memcpy(&reclen, buf + i + 16, 2);
				if (strcmp(d_name, ".") && strcmp(d_name, "..")) {
					remove_at(fd, d_name);
					removed++;
				}
				i += reclen;
			}
		}
	} while (removed && ++passes < 8);
	close_fd(fd);
	rsys(SYS_unlinkat, dfd, name, AT_REMOVEDIR);
}

/* The runner's start: a fresh ARENA_DIR, its working directory, umask 022. */
static void arena_dir_begin(void)
{
	struct timespec ts;

	remove_at(AT_FDCWD, ARENA_DIR);
	rsys(SYS_mkdir, ARENA_DIR, 0755);
	rsys(SYS_chdir, ARENA_DIR);
	rsys(SYS_umask, 022);
	clock_gettime(CLOCK_REALTIME, &ts);
	t_start = ts.tv_sec;
}

static void arena_dir_end(void)
{
	rsys(SYS_chdir, "/");
	remove_at(AT_FDCWD, ARENA_DIR);
}

/* ---- creating and removing names ---------------------------------------- */

static const unsigned modes[] = { 0644, 0600, 0755, 0777, 0, 07777, 04755, 02755, 01777 };
#define gen_mode() modes[pick(sizeof(modes) / sizeof(modes[0]))]

/*
 * A step on a name relative to a dirfd of kind dk ends: the dirfd closed,
 * or (the arena directory itself) what the name is now, printed.
 */
static void end_at(int dk, long dfd, const char *name)
{
	if (dk)
		close_fd(dfd);
	else
		after_lstat(name);
	end_line();
}

/* fd = open(name, flags) = its result, printed; the fd (or -errno). */
static long open_printed(const char *name, long flags, const char *flags_name)
{
	long fd;

	say("fd = open(");
	name_text(name);
	say(", %s) = ", flags_name);
	fd = rsys(SYS_open, name, flags);
	ret_num(fd);
	return fd;
}

/* fn(name) = its result, for a call nr that takes a path alone. */
static void path_call(const char *fn, long nr, const char *name)
{
	say("%s(", fn);
	name_text(name);
	say(") = ");
	ret_num(rsys(nr, name));
}

/* fn(a, b) = its result, for a call nr that takes two paths. */
static void path2_call(const char *fn, long nr, const char *a, const char *b)
{
	say("%s(", fn);
	name_text(a);
	say(", ");
	name_text(b);
	say(") = ");
	ret_num(rsys(nr, a, b));
}

/* fn(AT_FDCWD, a, AT_FDCWD, b, flags) = its result (linkat, renameat2). */
static void path2_at_call(const char *fn, long nr, const char *a, const char *b, long flags,
			  const char *flags_name)
{
	say("%s(AT_FDCWD, ", fn);
	name_text(a);
	say(", AT_FDCWD, ");
	name_text(b);
	say(", %s) = ", flags_name);
	ret_num(rsys(nr, AT_FDCWD, a, AT_FDCWD, b, flags));
}

/* len bytes of c at off (pwrite), or where fd stands (off < 0: write), printed. */
static void write_fill(long fd, int c, long len, long off)
{
	static char data[5000];

	memset(data, c, len);
	if (off >= 0) {
		say(", pwrite(fd, '%c' * %ld, %ld) = ", c, len, off);
		ret_num(rsys(SYS_pwrite64, fd, data, len, off));
	} else {
		say(", write('%c' * %ld) = ", c, len);
		ret_num(rsys(SYS_write, fd, data, len));
	}
}

/* open(O_CREAT) and a write: a file with known contents. */
static void step_mkfile(int step)
{
	static const long lens[] = { 0, 1, 100, 4096, 5000 };
	const char *n = gen_name();
	unsigned mode = gen_mode();
	int excl = pick(3) == 0, trunc = pick(2), c = 'a' + pick(26);
	long len = lens[pick(5)], flags = O_CREAT | O_WRONLY | O_NONBLOCK, fd;

	flags |= excl ? O_EXCL : 0;
	flags |= trunc ? O_TRUNC : 0;
	begin(step);
	say("open(");
	name_text(n);
	say(", O_CREAT|O_WRONLY|O_NONBLOCK%s%s, %04o) = ", excl ? "|O_EXCL" : "",
	    trunc ? "|O_TRUNC" : "", mode);
	fd = rsys(SYS_open, n, flags, mode);
	ret_num(fd);
	if (fd >= 0) {
		write_fill(fd, c, len, -1);
		close_fd(fd);
	}
	after_lstat(n);
	end_line();
}

static void step_mkdir(int step)
{
	static const unsigned dmodes[] = { 0755, 0700, 0777, 01777, 07777, 02755, 0 };
	const char *n = gen_name();
	unsigned mode = dmodes[pick(sizeof(dmodes) / sizeof(dmodes[0]))];
	int dk = gen_dirfd_kind();
	long dfd;

	begin(step);
	dfd = open_dirfd(dk);
	if (dk) {
		say("mkdirat(dfd, ");
		name_text(n);
		say(", %04o) = ", mode);
		ret_num(rsys(SYS_mkdirat, dfd, n, mode));
		close_fd(dfd);
	} else {
		say("mkdir(");
		name_text(n);
		say(", %04o) = ", mode);
		ret_num(rsys(SYS_mkdir, n, mode));
	}
	if (!dk)
		after_lstat(n);
	end_line();
}

static void step_unlink(int step)
{
	const char *n = gen_lookup();
	int v = pick(6), dk = gen_dirfd_kind();
	long dfd;

	begin(step);
	if (v < 2) {
		path_call("unlink", SYS_unlink, n);
	} else if (v < 4) {
		path_call("rmdir", SYS_rmdir, n);
	} else {
		long flags = v == 4 ? AT_REMOVEDIR : pick(2) ? 0 : 0x1;

		dfd = open_dirfd(dk);
		say("unlinkat(");
		dirfd_text(dk);
		name_text(n);
		say(", %s) = ", flags == AT_REMOVEDIR ? "AT_REMOVEDIR" : flags ? "0x1" : "0");
		ret_num(rsys(SYS_unlinkat, dfd, n, flags));
		if (dk)
			close_fd(dfd);
	}
	end_line();
}

/* mknodat: FIFOs, regular files, sockets, memory devices and one without a driver. */
static void step_mknod(int step)
{
	static const struct { unsigned type; int maj, min; const char *name; } nodes[] = {
		{ S_IFIFO, 0, 0, "S_IFIFO" }, { S_IFIFO, 0, 0, "S_IFIFO" },
		{ S_IFCHR, 1, 3, "S_IFCHR" }, { S_IFCHR, 1, 5, "S_IFCHR" },
		{ S_IFCHR, 1, 7, "S_IFCHR" }, { S_IFCHR, 250, 0, "S_IFCHR" },
		{ S_IFBLK, 7, 0, "S_IFBLK" }, { S_IFREG, 0, 0, "S_IFREG" },
		{ 0, 0, 0, "0" }, { S_IFSOCK, 0, 0, "S_IFSOCK" },
		{ S_IFDIR, 0, 0, "S_IFDIR" }, { 0170000, 0, 0, "0170000" },
	};
	const char *n = gen_name();
	int k = pick(sizeof(nodes) / sizeof(nodes[0])), dk = gen_dirfd_kind();
	unsigned mode = pick(2) ? 0644 : gen_mode();
	long dfd;

	begin(step);
	dfd = open_dirfd(dk);
	say("mknodat(");
	dirfd_text(dk);
	name_text(n);
	say(", %s|%04o, makedev(%d, %d)) = ", nodes[k].name, mode, nodes[k].maj, nodes[k].min);
	ret_num(rsys(SYS_mknodat, dfd, n, nodes[k].type | mode,
		     makedev(nodes[k].maj, nodes[k].min)));
	end_at(dk, dfd, n);
}

static void step_umask(int step)
{
	static const unsigned masks[] = { 022, 022, 0, 077, 002, 0777, 01777 };
	unsigned m = masks[pick(sizeof(masks) / sizeof(masks[0]))];
	long r;

	begin(step);
	say("umask(%04o) = ", m);
	r = rsys(SYS_umask, m);
	say("%04lo", r);
	end_line();
}

/* ---- links ------------------------------------------------------------------ */

static void step_symlink(int step)
{
	const char *t = link_targets[pick(sizeof(link_targets) / sizeof(link_targets[0]))];
	const char *n = gen_name();
	int dk = gen_dirfd_kind(), at = pick(2);
	long dfd;

	begin(step);
	dfd = open_dirfd(dk);
	if (at || dk) {
		say("symlinkat(");
		name_text(t);
		say(", ");
		dirfd_text(dk);
		name_text(n);
		say(") = ");
		ret_num(rsys(SYS_symlinkat, t, dfd, n));
	} else {
		path2_call("symlink", SYS_symlink, t, n);
	}
	end_at(dk, dfd, n);
}

/* readlink: whole, cut short, size 0; through links; an fd and "" (ENOENT: not a link). */
static void step_readlink(int step)
{
	static const long sizes[] = { 256, 256, 256, 1, 3, 0, -1 };
	static char buf[256];
	const char *n = gen_lookup();
	long size = sizes[pick(sizeof(sizes) / sizeof(sizes[0]))], r, fd = -1;
	int v = pick(4), dk = gen_dirfd_kind();

	begin(step);
	memset(buf, '#', sizeof(buf));
	if (v == 0) {
		fd = open_printed(n, O_RDONLY | O_NONBLOCK, "O_RDONLY|O_NONBLOCK");
		say(", readlinkat(fd, \"\", buf, %ld) = ", size);
		r = rsys(SYS_readlinkat, fd, "", buf, size);
		close_fd(fd);
	} else if (v == 1 || dk) {
		fd = open_dirfd(dk);
		say("readlinkat(");
		dirfd_text(dk);
		name_text(n);
		say(", buf, %ld) = ", size);
		r = rsys(SYS_readlinkat, fd, n, buf, size);
		if (dk)
			close_fd(fd);
	} else {
		say("readlink(");
		name_text(n);
		say(", buf, %ld) = ", size);
		r = rsys(SYS_readlink, n, buf, size);
	}
	ret_num(r);
	if (r >= 0)
		say(" \"%.*s\"", (int)r, buf);
	end_line();
}

static void step_link(int step)
{
	static const struct { long flags; const char *name; } fl[] = {
		{ 0, "0" }, { 0, "0" }, { AT_SYMLINK_FOLLOW, "AT_SYMLINK_FOLLOW" },
		{ AT_EMPTY_PATH, "AT_EMPTY_PATH" }, { 0x1, "0x1" },
	};
	const char *o = gen_lookup(), *n = gen_name();
	int v = pick(3), f = pick(sizeof(fl) / sizeof(fl[0]));
	long fd = AT_FDCWD;

	begin(step);
	if (v == 0) {
		path2_call("link", SYS_link, o, n);
	} else if (v == 1 && fl[f].flags == AT_EMPTY_PATH) {
		fd = open_printed(o, O_RDONLY | O_NONBLOCK, "O_RDONLY|O_NONBLOCK");
		say(", linkat(fd, \"\", AT_FDCWD, ");
		name_text(n);
		say(", AT_EMPTY_PATH) = ");
		ret_num(rsys(SYS_linkat, fd, "", AT_FDCWD, n, AT_EMPTY_PATH));
		close_fd(fd);
	} else {
		path2_at_call("linkat", SYS_linkat, o, n, fl[f].flags, fl[f].name);
	}
	after_lstat(n);
	end_line();
}

static void step_rename(int step)
{
	static const struct { long flags; const char *name; } fl[] = {
		{ 0, "0" }, { RENAME_NOREPLACE, "RENAME_NOREPLACE" },
		/* not RENAME_WHITEOUT alone: foliOS has not got it (EINVAL) */
		{ RENAME_EXCHANGE, "RENAME_EXCHANGE" },
		{ RENAME_NOREPLACE | RENAME_EXCHANGE, "RENAME_NOREPLACE|RENAME_EXCHANGE" },
		{ 0x8, "0x8" },
	};
	const char *o = gen_lookup(), *n = gen_name();
	int v = pick(3), f = pick(sizeof(fl) / sizeof(fl[0]));

	begin(step);
	if (v == 0) {
		path2_call("rename", SYS_rename, o, n);
	} else {
		path2_at_call("renameat2", SYS_renameat2, o, n, fl[f].flags, fl[f].name);
	}
	if (strlen(o) < 64) {
		say(", now ");
		name_text(o);
		say(" ");
		type_text(o);
	}
	say(", ");
	name_text(n);
	say(" ");
	type_text(n);
	end_line();
}

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
