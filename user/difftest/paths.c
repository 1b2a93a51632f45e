/*
 * difftest's name steps: files, directories, links, FIFOs and device nodes
 * in the program's own directory ARENA_DIR on tmpfs (the runner's working
 * directory: every name in a record is relative to it), their attributes
 * (in user/difftest/fileattrs.c: mode, owner, times, access checks, their
 * contents written, truncated and checksummed, the working directory
 * itself; in user/difftest/locks.c: locks and fd flags).
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
