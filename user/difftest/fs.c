/*
 * difftest's file steps: pipes in slots (contents counted so that no read
 * or write blocks), files opened, read, seeked, dup'ed and closed, and the
 * THP knobs in sysfs.  Included by user/difftest.c.
 */

static void pipe_close_end(struct pipe_slot *p, int end)
{
	say("close(%d) = ", p->fd[end]);
	ret_num(raw_syscall(SYS_close, p->fd[end], 0, 0, 0, 0, 0));
	p->fd[end] = -1;
	if (p->fd[0] < 0 && p->fd[1] < 0)
		p->used = 0;
}

static void pipe_create(struct pipe_slot *p, int k)
{
	int fds[2] = { -1, -1 }, v = pick(8);
	long flags = v == 0 ? O_CLOEXEC : v == 1 ? 0x1 : 0, r;

	if (v == 2) {
		say("pipe2(%#lx, 0) = ", KADDR);
		ret_num(raw_syscall(SYS_pipe2, KADDR, 0, 0, 0, 0, 0));
		return;
	}
	say("pipe2(slot %d, %s) = ", k, flags == O_CLOEXEC ? "O_CLOEXEC" : flags ? "0x1" : "0");
	r = raw_syscall(SYS_pipe2, (long)fds, flags, 0, 0, 0, 0);
	ret_num(r);
	if (r == 0) {
		say(", fds %d %d", fds[0], fds[1]);
		*p = (struct pipe_slot){ .used = 1, .fd = { fds[0], fds[1] } };
	}
}

static void pipe_write(struct pipe_slot *p)
{
	unsigned long off, len;
	long r;

	gen_touch(&off, &len);
	if (len > 4096 - (unsigned long)p->bytes)
		len = 4096 - p->bytes;
	say("write(%d, A+%#lx, %#lx) = ", p->fd[1], off, len);
	r = raw_syscall(SYS_write, p->fd[1], ARENA + off, len, 0, 0, 0);
	ret_num(r);
	if (r > 0)
		p->bytes += r;
}

static void pipe_read(struct pipe_slot *p)
{
	unsigned long off, len;
	long r;

	gen_touch(&off, &len);
	if (len > (unsigned long)p->bytes)
		len = p->bytes;
	say("read(%d, A+%#lx, %#lx) = ", p->fd[0], off, len);
	if (len == 0 && p->fd[1] >= 0) {
		say("skip: would block");
		return;
	}
	r = raw_syscall(SYS_read, p->fd[0], ARENA + off, len, 0, 0, 0);
	ret_num(r);
	if (r > 0)
		p->bytes -= r;
	sum_after(off, r);
}

static void step_pipe(int step)
{
	int k = pick(NR_PIPES), v = pick(10);
	struct pipe_slot *p = &pipes[k];

	begin(step);
	if (!p->used)
		pipe_create(p, k);
	else if (v < 4 && p->fd[1] >= 0)
		pipe_write(p);
	else if (v < 4)
		say("write(closed end of slot %d) = skip", k);
	else if (v < 8 && p->fd[0] >= 0)
		pipe_read(p);
	else if (v == 8 && p->fd[0] >= 0)
		pipe_close_end(p, 0);
	else if (p->fd[1] >= 0)
		pipe_close_end(p, 1);
	else
		pipe_close_end(p, 0);
	end_line();
}

/* ---- files ---------------------------------------------------------------- */

static int some_file(void)
{
	int i = pick(NR_FILES);

	if (pick(8) == 0)
		return pick(2) ? -1 : 1000;
	for (; i < 2 * NR_FILES; i++)
		if (files[i % NR_FILES] >= 0)
			return files[i % NR_FILES];
	return 63;
}

static void file_open(void)
{
	static const struct { const char *path, *name; int flags, kind; } paths[] = {
		{ NULL, "self", O_RDONLY, F_SELF }, { NULL, "self", O_RDONLY, F_SELF },
		{ THP_DIR "enabled", THP_DIR "enabled", O_RDONLY, F_KNOB },
		{ "/", "/", O_RDONLY | O_DIRECTORY, F_DIR },
		{ "/nonexistent", "/nonexistent", O_RDONLY, F_NONE },
		{ "", "\"\"", O_RDONLY, F_NONE }, { NULL, "self", O_RDONLY | O_DIRECTORY, F_NONE },
		{ "/proc/self/status", "/proc/self/status", O_RDONLY, F_PROC },
		{ (const char *)KADDR, "0xffffffff81000000", O_RDONLY, F_NONE },
	};
	int i = pick(sizeof(paths) / sizeof(paths[0]));
	const char *path = paths[i].path ? paths[i].path : self;
	long r;

	say("open(%s, %s) = ", paths[i].name,
	    paths[i].flags & O_DIRECTORY ? "O_RDONLY|O_DIRECTORY" : "O_RDONLY");
	r = raw_syscall(SYS_open, (long)path, paths[i].flags, 0, 0, 0, 0);
	ret_num(r);
	if (r >= 0 && !files_add(r, paths[i].kind)) {
		say(", close = ");
		ret_num(raw_syscall(SYS_close, r, 0, 0, 0, 0, 0));
	}
}

static void file_dup(int fd)
{
	int v = pick(3), to = 3 + pick(29), kind = kind_of(fd);
	long r;

	if (v == 0) {
		say("dup(%d) = ", fd);
		r = raw_syscall(SYS_dup, fd, 0, 0, 0, 0, 0);
	} else if (v == 1 && !fd_reserved(to)) {
		say("dup2(%d, %d) = ", fd, to);
		r = raw_syscall(SYS_dup2, fd, to, 0, 0, 0, 0);
	} else {
		say("dup3(%d, %d, 0) = ", fd, fd);
		ret_num(raw_syscall(SYS_dup3, fd, fd, 0, 0, 0, 0));
		return;
	}
	ret_num(r);
	if (r >= 0 && r != fd) {
		files_forget(r);
		if (!files_add(r, kind)) {
			say(", close = ");
			ret_num(raw_syscall(SYS_close, r, 0, 0, 0, 0, 0));
		}
	}
}

/* What a read from a file put in memory, as far as both kernels agree on the file. */
static void file_read_check(int fd, unsigned long off, long r)
{
	int kind = kind_of(fd);

	if (kind == F_SELF)
		compare_self(off, r, raw_syscall(SYS_lseek, fd, 0, SEEK_CUR, 0, 0, 0) - r);
	else if (kind == F_KNOB)
		sum_after(off, r);
}

static void step_file(int step)
{
	static char proc_text[4096];
	static const long pos[] = { 0, 100, 4096, -1, 1L << 40, 12345 };
	int v = pick(10), fd = some_file();
	unsigned long off, len;
	long r;

	begin(step);
	if (v < 3 || fd == 63) {
		file_open();
	} else if (v < 6) {
		gen_touch(&off, &len);
		if (len > 4096)
			len = 4096;     /* the file's end is the build's: keep far from it */
		say("read(%d, A+%#lx, %#lx) = ", fd, off, len);
		if (kind_of(fd) == F_PROC) {
			/* /proc text differs by design: its length and bytes stay out of the arena */
			r = raw_syscall(SYS_read, fd, (long)proc_text, len, 0, 0, 0);
			say("%s", r > 0 ? "some /proc text" : "");
			if (r <= 0)
				ret_num(r);
		} else {
			r = raw_syscall(SYS_read, fd, ARENA + off, len, 0, 0, 0);
			ret_num(r);
			file_read_check(fd, off, r);
		}
	} else if (v == 6) {
		long p = pos[pick(6)], whence = pick(3);

		say("lseek(%d, %ld, %s) = ", fd, p,
		    whence == SEEK_SET ? "SEEK_SET" : whence == SEEK_CUR ? "SEEK_CUR" : "SEEK_END");
		r = raw_syscall(SYS_lseek, fd, p, whence, 0, 0, 0);
		/* the file's size is the build's: positions near its end are relative */
		if (kind_of(fd) == F_SELF && r >= SELF_FAR)
			say("size%+ld", r - self_size);
		else if (kind_of(fd) == F_PROC && r > 0)
			say("some position");   /* in a text whose length differs */
		else
			ret_num(r);
	} else if (v < 9) {
		file_dup(fd);
	} else {
		say("close(%d) = ", fd);
		ret_num(fd_reserved(fd) ? -EBADF : raw_syscall(SYS_close, fd, 0, 0, 0, 0, 0));
		files_forget(fd);
	}
	end_line();
}

/* ---- the THP knobs -------------------------------------------------------- */

static void knob_read(const char *path)
{
	char buf[128];
	int fd = open(path, O_RDONLY);
	long n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0) {
		say("-1 %s", errname(errno));
		return;
	}
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	say("\"%s\"", buf);
}

static void step_thp(int step)
{
	static const char *const modes[] = { "always", "madvise", "never", "bogus" };
	const char *m = modes[pick(4)];
	int v = pick(4), fd;
	const char *knob = v == 1 ? THP_DIR "hugepages-2048kB/enabled" : THP_DIR "enabled";

	begin(step);
	if (v < 2) {
		say("write(%s, \"%s\") = ", knob, m);
		fd = open(knob, O_WRONLY);
		if (fd < 0) {
			say("open: -1 %s", errname(errno));
		} else {
			ret_num(raw_syscall(SYS_write, fd, (long)m, strlen(m), 0, 0, 0));
			close(fd);
		}
		say(", reads ");
		knob_read(knob);
	} else {
		say("read(%s) = ", knob);
		knob_read(knob);
	}
	end_line();
}
