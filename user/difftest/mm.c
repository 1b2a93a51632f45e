/*
 * difftest's memory steps: mmap, munmap, mprotect, madvise, brk, and
 * touching memory — directly where the model allows, else in a child.
 * Included by user/difftest.c (one program, one translation unit).
 */

/* An offset in the world: mostly page-aligned, often PMD-aligned or next to it. */
static unsigned long gen_off(void)
{
	switch (pick(10)) {
	case 0: case 1:
		return pick(6) * PMD;
	case 2:
		return (pick(5) + 1) * PMD + (pick(2) ? PG : -PG);
	default:
		return pick(12UL << 20) & ~(PG - 1);
	}
}

static unsigned long gen_len(int hostile)
{
	static const unsigned long ok[] = { PG, 2 * PG, 3 * PG, 16 * PG, 64 << 10, PMD,
					    PMD + PG, PMD - PG, 4UL << 20, 100 * PG };
	static const unsigned long bad[] = { 0, 1, PG + 1, -PG, 1UL << 46, -1UL, -PMD };

	if (hostile)
		return bad[pick(sizeof(bad) / sizeof(bad[0]))];
	if (pick(3) == 0)
		return (pick(16) + 1) * PG;
	return ok[pick(sizeof(ok) / sizeof(ok[0]))];
}

/* An address for a call: the arena's, or (hostile) one Linux rejects or ignores. */
static unsigned long gen_addr(unsigned long off, int hostile)
{
	static const unsigned long bad[] = { 0, KADDR, 0x800000000000UL, ARENA - PG, 1 };

	if (!hostile)
		return ARENA + off;
	if (pick(2))
		return ARENA + off + 1 + pick(PG - 1);
	return bad[pick(sizeof(bad) / sizeof(bad[0]))];
}

static int gen_prot(int hostile)
{
	static const int ok[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE,
				  PROT_READ | PROT_WRITE, PROT_READ | PROT_EXEC,
				  PROT_READ | PROT_WRITE | PROT_EXEC };
	static const int bad[] = { 0x10, 0x8, PROT_GROWSDOWN | PROT_READ, -1 };

	if (hostile)
		return bad[pick(sizeof(bad) / sizeof(bad[0]))];
	return ok[pick(sizeof(ok) / sizeof(ok[0]))];
}

static void prot_text(int prot)
{
	if (prot == PROT_NONE)
		say("PROT_NONE");
	else if (prot & ~7)
		say("%#x", prot);
	else
		say("%s%s%s", prot & PROT_READ ? "PROT_READ" : "",
		    prot & PROT_WRITE ? "|PROT_WRITE" : "", prot & PROT_EXEC ? "|PROT_EXEC" : "");
}

/* Where a successful call's range lies in the world: 1 if [*off, +*len) does. */
static int world_range(unsigned long addr, unsigned long len, unsigned long *off)
{
	if (addr < ARENA || addr - ARENA >= WORLD || (addr & (PG - 1)))
		return 0;
	*off = addr - ARENA;
	return len <= WORLD;
}

/*
 * The part of [addr, addr+len) (whole pages) inside the world, for a call
 * that succeeded on a range starting below it: 1 if there is one.
 */
static int world_overlap(unsigned long addr, unsigned long len, unsigned long *off,
			 unsigned long *olen)
{
	unsigned long end = len > ~0UL - addr - PG ? ~0UL : (addr + len + PG - 1) & ~(PG - 1);

	if (end <= ARENA || addr >= ARENA + WORLD)
		return 0;
	*off = addr > ARENA ? addr - ARENA : 0;
	*olen = (end > ARENA + WORLD ? WORLD : end - ARENA) - *off;
	return 1;
}

/*
 * A range for a call: an offset in the world, a length and an address,
 * hostile ones (wild lengths, kernel or unaligned addresses) now and then.
 */
static void gen_range(int hostile, unsigned long *off, unsigned long *len, unsigned long *addr)
{
	*off = gen_off();
	*len = gen_len(hostile && pick(2));
	*addr = gen_addr(*off, hostile && pick(2));
}

static void step_mmap(int step)
{
	static const char *const how[] = { "MAP_FIXED", "MAP_FIXED_NOREPLACE", "hint", "NULL" };
	int hostile = pick(8) == 0, h = pick(10), prot = gen_prot(pick(12) == 0);
	unsigned long off, len, addr, o;
	long flags = MAP_PRIVATE | MAP_ANONYMOUS, pgoff = 0, r;

	gen_range(hostile, &off, &len, &addr);
	h = h < 5 ? 0 : h < 7 ? 1 : h < 9 ? 2 : 3;
	if (h == 0 && addr < ARENA - NEAR)
		h = 2;  /* MAP_FIXED low would replace the program itself (both kernels die) */
	flags |= h == 0 ? MAP_FIXED : h == 1 ? MAP_FIXED_NOREPLACE : 0;
	if (h == 3)
		addr = 0;
	if (pick(8) == 0)
		flags |= pick(2) ? MAP_POPULATE : MAP_NORESERVE;
	if (hostile && pick(3) == 0)
		flags &= pick(2) ? ~MAP_PRIVATE : ~0L, pgoff = pick(2) ? 1 : 0;
	begin(step);
	say("mmap(");
	addr_text(addr);
	say(", %#lx, ", len);
	prot_text(prot);
	say(", MAP_%sANONYMOUS|%s%s, -1, %ld) = ", flags & MAP_PRIVATE ? "PRIVATE|" : "",
	    how[h], flags & MAP_POPULATE ? "|MAP_POPULATE" : flags & MAP_NORESERVE ?
	    "|MAP_NORESERVE" : "", pgoff);
	about_to_call();
	r = raw_syscall(SYS_mmap, addr, len, prot, flags, -1, pgoff);
	ret_addr(r);
	if (r < 0 && r > -4096) {
		end_line();
		return;
	}
	if (world_range(r, len, &o)) {
		model_set(o, len, M_MAPPED | (prot & 7));
	} else {
		/* placed where the kernel chose: not part of the record's world */
		say(", munmap = ");
		ret_num(raw_syscall(SYS_munmap, r, len, 0, 0, 0, 0));
		if (world_overlap(r, len, &o, &len))    /* below A, reaching into the world */
			model_set(o, len, 0);
	}
	end_line();
}

static void step_munmap(int step)
{
	int hostile = pick(6) == 0;
	unsigned long off, len, addr, o;
	long r;

	gen_range(hostile, &off, &len, &addr);
	if (addr < ARENA - NEAR && addr + len > 0x400000 && addr + len > addr)
		len = PMD;      /* low and long, it would unmap the program itself (both kernels die) */
	begin(step);
	say("munmap(");
	addr_text(addr);
	say(", %#lx) = ", len);
	about_to_call();
	r = raw_syscall(SYS_munmap, addr, len, 0, 0, 0, 0);
	ret_num(r);
	end_line();
	if (r == 0 && world_range(addr, 0, &o))
		model_set(o, len > WORLD ? WORLD : len, 0);
	else if (r == 0 && addr < ARENA && world_overlap(addr, len, &o, &len))
		model_set(o, len, 0);
}

static void step_mprotect(int step)
{
	int hostile = pick(6) == 0, prot = gen_prot(pick(10) == 0);
	unsigned long off, len, addr, o;
	long r;

	gen_range(hostile, &off, &len, &addr);
	begin(step);
	say("mprotect(");
	addr_text(addr);
	say(", %#lx, ", len);
	prot_text(prot);
	say(") = ");
	about_to_call();
	r = raw_syscall(SYS_mprotect, addr, len, prot, 0, 0, 0);
	ret_num(r);
	end_line();
	if (addr < ARENA && !(addr & (PG - 1)) && world_overlap(addr, len, &o, &len))
		;       /* from below A into the world */
	else if (!world_range(addr, 0, &o))
		return;
	if (len > WORLD)
		len = WORLD;
	if (r == 0)
		model_prot(o, len, prot & 7);
	else if (r == -ENOMEM)
		model_prot(o, len, M_UNKNOWN);
}

static void step_madvise(int step)
{
	static const struct { int advice; const char *name; } adv[] = {
		{ MADV_DONTNEED, "MADV_DONTNEED" }, { MADV_DONTNEED, "MADV_DONTNEED" },
		{ MADV_HUGEPAGE, "MADV_HUGEPAGE" }, { MADV_HUGEPAGE, "MADV_HUGEPAGE" },
		{ MADV_NOHUGEPAGE, "MADV_NOHUGEPAGE" }, { MADV_NORMAL, "MADV_NORMAL" },
		{ MADV_RANDOM, "MADV_RANDOM" }, { MADV_SEQUENTIAL, "MADV_SEQUENTIAL" },
		{ MADV_WILLNEED, "MADV_WILLNEED" }, { MADV_FREE, "MADV_FREE" },
		{ MADV_COLD, "MADV_COLD" }, { MADV_PAGEOUT, "MADV_PAGEOUT" },
		{ 999, "999" }, { MADV_REMOVE, "MADV_REMOVE" },
	};
	int hostile = pick(6) == 0, a = pick(sizeof(adv) / sizeof(adv[0]));
	unsigned long off, len, addr;

	gen_range(hostile, &off, &len, &addr);
	begin(step);
	say("madvise(");
	addr_text(addr);
	say(", %#lx, %s) = ", len, adv[a].name);
	ret_num(raw_syscall(SYS_madvise, addr, len, adv[a].advice, 0, 0, 0));
	end_line();
}

/* A touch's range: a few unaligned bytes, pages, or a PMD's worth. */
static void gen_touch(unsigned long *off, unsigned long *len)
{
	static const unsigned long lens[] = { PG, 2 * PG, 16 * PG, 64 << 10, PMD, 8 * PG };

	*off = gen_off();
	if (pick(4) == 0) {
		*off += pick(PG);
		*len = 1 + pick(300);
	} else {
		*len = lens[pick(sizeof(lens) / sizeof(lens[0]))];
	}
	if (*off + *len > WORLD)
		*len = WORLD - *off;
}

/*
 * A child does what the runner may not: the wait status is the record
 * (exit 0, or the signal that stopped the access).
 */
static void probe(unsigned long off, unsigned long len, int write, int v)
{
	long pid = fork();

	if (pid == 0) {
		if (write)
			memset((void *)(ARENA + off), v, len);
		else
			_exit(checksum((void *)(ARENA + off), len) == 1);
		_exit(0);
	}
	if (pid < 0) {
		say("probe: fork failed");
		return;
	}
	say("probe: ");
	wait_for(pid);
}

static void step_touch(int step)
{
	unsigned long off, len;
	int v = 1 + pick(255);

	gen_touch(&off, &len);
	begin(step);
	say("memset(A+%#lx, %#x, %#lx) = ", off, v, len);
	if (model_allows(off, len, 1)) {
		memset((void *)(ARENA + off), v, len);
		say("done");
	} else {
		probe(off, len, 1, v);
	}
	end_line();
}

static void step_sum(int step)
{
	unsigned long off, len;

	gen_touch(&off, &len);
	begin(step);
	say("sum(A+%#lx, %#lx) = ", off, len);
	if (model_allows(off, len, 0))
		say("%#lx", checksum((void *)(ARENA + off), len));
	else
		probe(off, len, 0, 0);
	end_line();
}

/* After the kernel wrote r bytes at A+off: their sum, where the runner may read. */
static void sum_after(unsigned long off, long r)
{
	if (r > 0 && model_allows(off, r, 0))
		say(", sum = %#lx", checksum((void *)(ARENA + off), r));
}

/*
 * Has the kernel written these bytes of the runner's own file to A+off?
 * Then the kernel writes them over with 0xa5 (through a pipe: it wrote
 * there, so it may write again), so no later sum depends on the build.
 */
static void scrub(unsigned long off, long r)
{
	static char pattern[4096];
	int p[2];
	long n;

	if (r <= 0 || pipe(p))
		return;
	memset(pattern, 0xa5, sizeof(pattern));
	for (; r > 0; r -= n, off += n) {
		n = r < (long)sizeof(pattern) ? r : (long)sizeof(pattern);
		if (write(p[1], pattern, n) != n || raw_syscall(SYS_read, p[0], ARENA + off, n, 0, 0, 0) != n)
			break;
	}
	close(p[0]);
	close(p[1]);
}

/*
 * After the kernel read r bytes of this program's file from pos to A+off:
 * are they the file's?  (Not a sum: the binary differs between builds.)
 */
static void compare_self(unsigned long off, long r, long pos)
{
	static char file[64 << 10];
	int fd;

	if (r > 0 && r <= (long)sizeof(file) && model_allows(off, r, 0)) {
		fd = open(self, O_RDONLY);
		if (fd >= 0 && pread(fd, file, r, pos) == r)
			say(", %s", memcmp(file, (void *)(ARENA + off), r) ?
			    "bytes differ from the file" : "bytes are the file's");
		if (fd >= 0)
			close(fd);
	}
	scrub(off, r);
}

/* The kernel reads user memory (write to a pipe) or writes it (read a file). */
static void step_kaccess(int step)
{
	static char back[4096];
	unsigned long off, len;
	int p[2], fd;
	long r;

	gen_touch(&off, &len);
	if (len > 4096)
		len = 4096;
	begin(step);
	if (pick(2)) {
		if (pipe(p)) {
			say("pipe failed");
			end_line();
			return;
		}
		say("write(pipe, A+%#lx, %#lx) = ", off, len);
		r = raw_syscall(SYS_write, p[1], ARENA + off, len, 0, 0, 0);
		ret_num(r);
		if (r > 0)
			say(", read back sum = %#lx",
			    checksum((void *)back, read(p[0], back, r) == r ? r : 0));
		close(p[0]);
		close(p[1]);
	} else {
		long pos = pick(4) * 4096 + pick(2) * 123;

		fd = open(self, O_RDONLY);
		lseek(fd, pos, SEEK_SET);
		say("read(self@%#lx, A+%#lx, %#lx) = ", pos, off, len);
		r = raw_syscall(SYS_read, fd, ARENA + off, len, 0, 0, 0);
		ret_num(r);
		compare_self(off, r, pos);
		close(fd);
	}
	end_line();
}

/* brk, printed relative to the first break; grown memory is written and summed. */
static void step_brk(int step)
{
	unsigned long cur = raw_syscall(SYS_brk, 0, 0, 0, 0, 0, 0), want;
	int v = pick(6);
	long r;

	want = v == 0 ? cur + (pick(64) + 1) * PG :
	       v == 1 ? (cur - brk0 > 16 * PG ? cur - (pick(16) + 1) * PG : cur + PG) :
	       v == 2 ? cur + (1UL << 40) :
	       v == 3 ? brk0 - 64 * PG :
	       v == 4 ? cur + PMD + pick(PG) : KADDR;
	begin(step);
	say("brk(");
	if (want == KADDR)
		say("%#lx", want);
	else
		say("brk0%s%#lx", want >= brk0 ? "+" : "-", want >= brk0 ? want - brk0 : brk0 - want);
	say(") = ");
	r = raw_syscall(SYS_brk, want, 0, 0, 0, 0, 0);
	if ((unsigned long)r >= brk0 && r > 0)
		say("brk0+0x%lx", r - brk0);
	else
		say("%#lx", r);
	/* a heap grown beyond any sane size is not read through (Linux refuses it) */
	if ((unsigned long)r > cur && (unsigned long)r - brk0 <= (16UL << 20)) {
		memset((void *)(r - 100), v + 1, 100);
		say(", sum(brk0, %#lx) = %#lx", r - brk0, checksum((void *)brk0, r - brk0));
	}
	end_line();
}
