/*
 * Guest test (TAP): issue 31's SMP stress — the page cache, shmem, tmpfs
 * directories and futexes used by threads and forked processes at once
 * (make test: 1 and 4 CPUs).  Each case races for CASE_NS, prints "# case:
 * N ops in T ms" (reported next to Linux), then accounts for every word or
 * record made.  "test_smp_stress 2 5" runs cases 2 and 5 only.
 *
 * 1. first touch: 2 processes and 4 threads store or pwrite their own word
 *    of the same new pages of a memfd, a tmpfs file and shared anon memory:
 *    no SIGBUS or write error; each word its writer's through mmap, read(2)
 *    and another process; st_blocks counts each page once.  Linux: the
 *    i_pages xa_lock in shmem_add_to_page_cache (the loser's -EEXIST finds
 *    the winner's folio), the folio and PTE locks, info->lock.
 * 2. truncation: the main thread shrinks and regrows a tmpfs file, or
 *    punches a hole, while 1 process and 3 threads load, store, pread and
 *    pwrite it.  It marks the pages each cycle cuts, then bumps a
 *    generation: a marker of a cycle that ended before an access began is
 *    stale; a worker's own word is 0 or the last it wrote; past EOF,
 *    SIGBUS.  Linux: inode_lock against write and fallocate, i_mmap_rwsem
 *    for the unmap, the folio lock and i_size check in the fault.
 * 3. directory churn: 1 process and 1 thread create, rename and remove
 *    names (never reused) in a tmpfs directory while 1 process and 1
 *    thread readdir it and open names: no name twice in a pass, each kept
 *    name once; then exactly the kept names, nlink 2, size 20 per entry.
 *    Linux: the directory's i_rwsem and dcache_readdir's cursor.
 * 4. futexes: threads wait, wake and CMP_REQUEUE on a page another thread
 *    drops (MADV_DONTNEED, munmap + mmap): only 0, EAGAIN, ETIMEDOUT or
 *    EFAULT, and each waiter woken is counted by one wake; never-touched
 *    and PROT_NONE pages give Linux's answers; parent and child wake each
 *    other on a shared futex in a memfd.  Linux: the hash bucket lock, the
 *    word read with page faults off (a fault: unlock, fault in, retry).
 * 5. O_APPEND: 2 processes and 4 threads append 48-byte records: size =
 *    records x 48, each intact, each writer's in order.  Linux: inode_lock
 *    across the read of i_size and the copy.
 * 6. seals: F_SEAL_WRITE while 3 processes map (writable, read-only then
 *    mprotect) and pwrite the memfd and 1 thread pwrites it: never granted
 *    while a writable shared mapping exists or a write is under way;
 *    granted once none is left; then a writable mmap and write() fail
 *    EPERM and the contents never change.  Linux: inode_lock in
 *    F_ADD_SEALS and write; i_mmap_writable raised atomically before mmap
 *    can fail.
 *
 * The same static binary runs on Linux (../shared/peer/linux-peer.sh
 * --mounts: /tmp is a tmpfs there).
 */
#define _GNU_SOURCE
#include "stress_util.h"
#include "stress_dirs.h"                /* case 3 */
#include "stress_futex.h"               /* case 4 */

/* ---- 1. first touch ----------------------------------------------------- */

#define FT_PAGES        2048
#define FT_BATCH        8       /* pages every worker first-touches together, each round */
#define FT_PROCS        2
#define FT_W            (FT_PROCS + 4)

static char *ft_map[3];
static int ft_fd[3] = { -1, -1, -1 };
static const char *const ft_name[3] = { "memfd", "tmpfs file", "shared anon" };

static uint64_t ft_val(int obj, long page, int w)
{
	return 0x4654000000000000ULL | (uint64_t)obj << 40 | (uint64_t)page << 8 | (uint64_t)w;
}

static void ft_worker(int id)
{
	long round, p;

	segv_catch();
	for (round = 0; barrier_wait(&sh->bar, FT_W) && (round + 1) * FT_BATCH <= FT_PAGES; round++)
		for (int obj = 0; obj < 3; obj++)
			for (p = round * FT_BATCH; p < (round + 1) * FT_BATCH; p++, sh->w[id].ops++) {
				uint64_t v = ft_val(obj, p, id);
				off_t off = p * PAGE + id * 8;

				if (ft_fd[obj] >= 0 && (p + id) % 3 == 0) {
					if (pwrite(ft_fd[obj], &v, 8, off) != 8)
						bad(id, "pwrite to the %s, page %ld: %s", ft_name[obj], p,
						    strerror(errno));
				} else if (try_store(ft_map[obj] + off, v)) {
					sh->w[id].sigbus++;
					bad(id, "a signal storing to the %s, page %ld", ft_name[obj], p);
				}
			}
	sh->w[id].aux = round;
}

/* How many words of obj's first pages differ from what their writers wrote. */
static long ft_wrong(const uint64_t *words, int obj, long pages, long touched)
{
	long wrong = 0;

	for (long p = 0; p < pages; p++)
		for (int w = 0; w < 512; w++)
			wrong += words[p * 512 + w] != (p < touched && w < FT_W ? ft_val(obj, p, w) : 0);
	return wrong;
}

static void case_first_touch(void)
{
	long touched = 0, pages, wrong_map = 0, wrong_read = 0, blocks[2], died;
	uint64_t *buf = malloc(FT_PAGES * PAGE), t0;
	struct team tm;
	struct stat st;
	int status;
	pid_t pid;

	ft_fd[0] = memfd_create("stress_first_touch", 0);
	ft_fd[1] = open_tmp("/tmp/stress_first_touch");
	if (ft_fd[0] < 0 || ft_fd[1] < 0 || ftruncate(ft_fd[0], FT_PAGES * PAGE) ||
	    ftruncate(ft_fd[1], FT_PAGES * PAGE)) {
		skip("first touch: no memfd or tmpfs file");
		return;
	}
	for (int obj = 0; obj < 3; obj++)
		ft_map[obj] = mmap(NULL, FT_PAGES * PAGE, PROT_READ | PROT_WRITE,
				   obj < 2 ? MAP_SHARED : MAP_SHARED | MAP_ANONYMOUS, ft_fd[obj], 0);
	t0 = start_case();
	team_start(&tm, FT_PROCS, FT_W - FT_PROCS, ft_worker);
	died = team_join(&tm);
	for (int i = 0; i < FT_W; i++)
		touched = MAX(touched, sh->w[i].aux * FT_BATCH);
	report("first-touch", SUM(ops), t0);
	ok(!SUM(bad) && !died, "first touch: %d processes and %d threads wrote their words of %ld new pages "
	   "at once: %ld signals, %ld errors (first: %s), %ld processes died", FT_PROCS, FT_W - FT_PROCS,
	   touched * 3, SUM(sigbus), SUM(bad), first_why(), died);
	for (int obj = 0; obj < 2; obj++)       /* before the views below fault in more */
		blocks[obj] = fstat(ft_fd[obj], &st) ? -1 : (long)st.st_blocks;
	pages = MIN(touched + FT_BATCH, FT_PAGES);
	fflush(NULL);
	if ((pid = fork()) == 0) {      /* another process's view */
		long wrong = 0;

		for (int obj = 0; obj < 3; obj++)
			wrong += ft_wrong((uint64_t *)ft_map[obj], obj, pages, touched);
		_exit(MIN(wrong, 255));
	}
	for (int obj = 0; obj < 3; obj++) {
		wrong_map += ft_wrong((uint64_t *)ft_map[obj], obj, pages, touched);
		if (obj < 2)
			wrong_read += pread(ft_fd[obj], buf, pages * PAGE, 0) != (ssize_t)(pages * PAGE) ?
				      pages * 512 : ft_wrong(buf, obj, pages, touched);
	}
	status = pid > 0 ? wait_exit(pid) : -1;
	ok(!wrong_map && !wrong_read && !status, "first touch: each word is its writer's: wrong through "
	   "mmap %ld, read(2) %ld, another process %d", wrong_map, wrong_read, status);
	ok(blocks[0] == touched * 8 && blocks[1] == touched * 8, "first touch: st_blocks of the memfd "
	   "%ld, of the tmpfs file %ld (%ld pages: %ld)", blocks[0], blocks[1], touched, touched * 8);
	for (int obj = 0; obj < 3; obj++) {
		munmap(ft_map[obj], FT_PAGES * PAGE);
		if (ft_fd[obj] >= 0)
			close(ft_fd[obj]);
	}
	free(buf);
}

/* ---- 2. truncation under faulting peers --------------------------------- */

#define TR_PAGES        16
#define TR_PROCS        1
#define TR_W            (TR_PROCS + 3)
#define TR_MARK(k, p)   (0x4d4b000000000000ULL | (uint64_t)(p) << 32 | (uint32_t)(k))
#define TR_OWN(w, p, s) (0x4f57000000000000ULL | (uint64_t)(w) << 40 | (uint64_t)(p) << 32 | (uint32_t)(s))

static int tr_fd;
static char *tr_map;

/* Word 0 of page p and worker id's own word, by loads or pread: 0, or -1 (SIGBUS, EOF). */
static int tr_read(int id, long p, int by_read, uint64_t w[2])
{
	uint64_t buf[TR_W + 1];
	ssize_t n, len = (id + 2) * 8;

	if (!by_read)
		return try_load(tr_map + p * PAGE, &w[0]) || try_load(tr_map + p * PAGE + (id + 1) * 8, &w[1]) ?
		       -1 : 0;
	if ((n = pread(tr_fd, buf, len, p * PAGE)) < 0)
		bad(id, "pread of page %ld: %s", p, strerror(errno));
	w[0] = buf[0];
	w[1] = buf[id + 1];
	return n == len ? 0 : -1;
}

static void tr_worker(int id)
{
	uint64_t last[TR_PAGES] = { 0 }, s = 0x9e3779b97f4a7c15ULL * (id + 1), seq = 0, w[2], v, g;

	segv_catch();
	while (now_ns() < deadline) {
		long p = rnd(&s) % TR_PAGES;
		int how = rnd(&s) % 4;

		g = __atomic_load_n(&sh->gen, __ATOMIC_SEQ_CST);       /* cycles ended before we look */
		if (tr_read(id, p, how & 1, w))
			sh->w[id].sigbus++;
		else if (w[0] && w[0] >> 32 != TR_MARK(0, p) >> 32)
			bad(id, "page %ld word 0 is %#llx: not its marker", p, (unsigned long long)w[0]);
		else if (w[0] && (uint32_t)w[0] < g)
			bad(id, "page %ld: cycle %u's marker, read after cycle %llu's truncation ended",
			    p, (uint32_t)w[0], (unsigned long long)g - 1);
		else if (w[1] && w[1] != last[p])
			bad(id, "page %ld: own word %#llx, last written %#llx", p,
			    (unsigned long long)w[1], (unsigned long long)last[p]);
		v = TR_OWN(id, p, ++seq);
		if (how & 2) {
			if (pwrite(tr_fd, &v, 8, p * PAGE + (id + 1) * 8) == 8)
				last[p] = v;
			else
				bad(id, "pwrite of page %ld: %s", p, strerror(errno));
		} else if (try_store(tr_map + p * PAGE + (id + 1) * 8, v) == 0) {
			last[p] = v;
		} else {
			sh->w[id].sigbus++;
		}
		if (!(++sh->w[id].ops & 7))
			sched_yield();  /* the truncater needs a CPU too */
	}
}

static void case_truncate(void)
{
	uint64_t s = 0x2545f4914f6cdd1dULL, t0, k, v;
	long failed = 0, punches = 0, died;
	int punch = 1;
	struct team tm;

	tr_fd = open_tmp("/tmp/stress_truncate");
	if (tr_fd < 0 || ftruncate(tr_fd, TR_PAGES * PAGE) ||
	    (tr_map = mmap(NULL, TR_PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, tr_fd, 0)) == MAP_FAILED) {
		skip("truncation: no shared tmpfs mapping");
		return;
	}
	segv_catch();
	t0 = start_case();
	team_start(&tm, TR_PROCS, TR_W - TR_PROCS, tr_worker);
	for (k = 0; now_ns() < deadline; k++) {
		long cut = rnd(&s) % (TR_PAGES / 2);

		for (long p = cut; p < TR_PAGES; p++) {         /* mark what this cycle cuts */
			v = TR_MARK(k, p);
			failed += k & 1 ? pwrite(tr_fd, &v, 8, p * PAGE) != 8 : try_store(tr_map + p * PAGE, v) != 0;
		}
		int punched = punch && k % 3 == 2 && !fallocate(tr_fd, FALLOC_FL_PUNCH_HOLE |
								FALLOC_FL_KEEP_SIZE, cut * PAGE, (TR_PAGES - cut) * PAGE);

		if (punch && k % 3 == 2 && !punched)
			punch = 0, failed += errno != EOPNOTSUPP;
		if (!punched)
			failed += ftruncate(tr_fd, cut * PAGE) || ftruncate(tr_fd, TR_PAGES * PAGE);
		punches += punched;
		__atomic_store_n(&sh->gen, k + 1, __ATOMIC_SEQ_CST);
	}
	died = team_join(&tm);
	report("truncate", SUM(ops) + k, t0);
	ok(!SUM(bad) && !failed && !died, "truncation: %llu cycles (%ld hole punches%s) under %d processes and "
	   "%d threads (%ld accesses, %ld past EOF): %ld stale or wrong (first: %s), %ld truncater errors, "
	   "%ld processes died", (unsigned long long)k, punches, punch ? "" : ", no PUNCH_HOLE", TR_PROCS,
	   TR_W - TR_PROCS, SUM(ops), SUM(sigbus), SUM(bad), first_why(), failed, died);
	ok(ftruncate(tr_fd, 0) == 0 && try_load(tr_map, &v) == -1, "truncation: a load past EOF gets SIGBUS");
	munmap(tr_map, TR_PAGES * PAGE);
	close(tr_fd);
}

/* ---- 5. O_APPEND -------------------------------------------------------- */

#define AP_FILE         "/tmp/stress_append"
#define AP_PROCS        2
#define AP_W            (AP_PROCS + 4)
#define AP_CHECK(r)     ((r)->seq * 0x9e3779b97f4a7c15ULL ^ (r)->writer)

struct rec {
	uint32_t magic, writer;
	uint64_t seq, check;
	char pad[24];                   /* 48 bytes: records straddle pages */
};

static void ap_worker(int id)
{
	struct rec r = { .magic = 0x41505044, .writer = id };
	int fd = open(AP_FILE, O_WRONLY | O_APPEND);
	ssize_t n;

	memset(r.pad, 'a' + id, sizeof(r.pad));
	for (r.seq = 0; fd >= 0 && now_ns() < deadline; r.seq++) {
		r.check = AP_CHECK(&r);
		if ((n = write(fd, &r, sizeof(r))) != sizeof(r)) {
			bad(id, "write: %zd (%s)", n, strerror(errno));
			break;
		}
	}
	if (fd < 0)
		bad(id, "open " AP_FILE ": %s", strerror(errno));
	sh->w[id].ops = r.seq;
	close(fd);
}

static void case_append(void)
{
	int fd = open(AP_FILE, O_RDWR | O_CREAT | O_TRUNC, 0644);
	long next[AP_W] = { 0 }, records, torn = 0, order = 0, died;
	uint64_t t0 = start_case();
	struct rec *recs, *r;
	struct team tm;
	struct stat st;
	char pad[24];

	team_start(&tm, AP_PROCS, AP_W - AP_PROCS, ap_worker);
	died = team_join(&tm);
	records = SUM(ops);
	report("append", records, t0);
	unlink(AP_FILE);
	if (fd < 0 || fstat(fd, &st) || !(recs = malloc(st.st_size + 1)) ||
	    pread(fd, recs, st.st_size, 0) != st.st_size) {
		ok(0, "O_APPEND: read " AP_FILE " back");
		return;
	}
	for (r = recs; r < recs + st.st_size / sizeof(*r); r++) {
		memset(pad, 'a' + (r->writer & 15), sizeof(pad));
		if (r->magic != 0x41505044 || r->writer >= AP_W || r->check != AP_CHECK(r) ||
		    memcmp(r->pad, pad, sizeof(pad)))
			torn++;
		else if (r->seq != (uint64_t)next[r->writer]++)
			order++;
	}
	for (int i = 0; i < AP_W; i++)
		order += next[i] != sh->w[i].ops;
	ok(!SUM(bad) && !died && st.st_size == records * 48 && !torn && !order, "O_APPEND: %d processes "
	   "and %d threads appended %ld records of 48 bytes: size %lld (%ld), %ld torn, %ld out of order "
	   "or missing, %ld write errors (first: %s)", AP_PROCS, AP_W - AP_PROCS, records,
	   (long long)st.st_size, records * 48, torn, order, SUM(bad), first_why());
	free(recs);
	close(fd);
}

/* ---- 6. memfd seals against mmap and write ------------------------------ */

#define SL_LEN          (4 * PAGE)

static int sl_fd;

/* pwrite the whole memfd; or map it shared, writable or read-only (then mprotect it), and store. */
static void sl_mapper(int id)
{
	static __thread uint64_t words[SL_LEN / 8];
	uint64_t s = id + 3, n = 0;
	char *p;

	for (; !__atomic_load_n(&sh->bar.stop, __ATOMIC_SEQ_CST); sh->w[id].ops++) {
		int sealed_before = __atomic_load_n(&sh->sealed, __ATOMIC_SEQ_CST);
		int op = id < 3 ? rnd(&s) % 4 : 2;     /* the thread only writes: see case_seals */

		if (op >= 2) {
			for (unsigned i = 0; i < SL_LEN / 8; i++)
				words[i] = ++n;
			if (pwrite(sl_fd, words, SL_LEN, 0) == SL_LEN ? sealed_before : errno != EPERM)
				bad(id, "pwrite %s F_SEAL_WRITE: %s", sealed_before ? "after" : "before",
				    strerror(errno));
			continue;
		}
		p = mmap(NULL, SL_LEN, op == 1 ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, sl_fd, 0);
		if (p == MAP_FAILED) {
			if (errno != EPERM)     /* EPERM after the seal (Linux 6.1: read-only ones too) */
				bad(id, "mmap: %s", strerror(errno));
			continue;
		}
		if (!op && !mprotect(p, SL_LEN, PROT_READ | PROT_WRITE))
			op = 1;
		if (op && sealed_before)
			bad(id, "a shared mapping became writable after F_SEAL_WRITE was granted");
		for (int i = 0; op && i < 16; i++) {
			((volatile uint64_t *)p)[id + i % 4 * 512] = ++n;
			if (__atomic_load_n(&sh->sealed, __ATOMIC_SEQ_CST)) {
				bad(id, "F_SEAL_WRITE was granted while a writable shared mapping existed");
				break;
			}
		}
		munmap(p, SL_LEN);
	}
}

static void case_seals(void)
{
	long rounds, granted = 0, ebusy = 0, wrong = 0, ops = 0, violations = 0, died = 0;
	static char before[SL_LEN], after[SL_LEN];     /* touched now: no fault later */
	uint64_t t0 = start_case(), s = 5, until;
	char why[112] = "none", *p;
	struct team tm;
	int r;

	memset(before, 0, SL_LEN);
	memset(after, 0, SL_LEN);
	for (rounds = 0; now_ns() < deadline; rounds++, close(sl_fd)) {
		sl_fd = memfd_create("stress_seal", MFD_ALLOW_SEALING);
		if (sl_fd < 0 || ftruncate(sl_fd, SL_LEN) ||
		    (p = mmap(NULL, SL_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, sl_fd, 0)) == MAP_FAILED) {
			skip("seals: no memfd_create(MFD_ALLOW_SEALING) to map");
			return;
		}
		memset(p, 'x', SL_LEN);
		munmap(p, SL_LEN);
		team_start(&tm, 3, 1, sl_mapper);       /* its mmap_lock is ours: a thread maps nothing */
		spin_for(rnd(&s) % 2000000);
		for (r = -1, until = MIN(now_ns() + 5000000, deadline);
		     now_ns() < until && (r = fcntl(sl_fd, F_ADD_SEALS, F_SEAL_WRITE)); ebusy++)
			wrong += errno != EBUSY;
		if (r == 0) {
			granted++;
			__atomic_store_n(&sh->sealed, 1, __ATOMIC_SEQ_CST);
			wrong += pread(sl_fd, before, SL_LEN, 0) != SL_LEN;
			spin_for(1000000);
		}
		__atomic_store_n(&sh->bar.stop, 1, __ATOMIC_SEQ_CST);
		died += team_join(&tm);
		ops += SUM(ops);
		if (SUM(bad) && !violations)
			snprintf(why, sizeof(why), "%s", first_why());
		violations += SUM(bad);
		if (r && fcntl(sl_fd, F_ADD_SEALS, F_SEAL_WRITE)) {     /* no mapping left now */
			snprintf(why, sizeof(why), "F_SEAL_WRITE with no mapping left: %s", strerror(errno));
			violations++;
			continue;
		}
		if (r)
			wrong += pread(sl_fd, before, SL_LEN, 0) != SL_LEN;
		p = mmap(NULL, SL_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, sl_fd, 0);
		if (p != MAP_FAILED || errno != EPERM || write(sl_fd, "y", 1) != -1 || errno != EPERM) {
			snprintf(why, sizeof(why), "after F_SEAL_WRITE, a writable mmap or write() did not fail EPERM");
			violations++;
		}
		if (p != MAP_FAILED)
			munmap(p, SL_LEN);
		if (pread(sl_fd, after, SL_LEN, 0) != SL_LEN || memcmp(before, after, SL_LEN)) {
			snprintf(why, sizeof(why), "the contents changed after F_SEAL_WRITE was granted");
			violations++;
		}
	}
	report("seals", ops + ebusy + rounds, t0);
	ok(!violations && !wrong && !died, "seals: %ld memfds sealed while 3 processes mapped and wrote "
	   "them, 1 thread wrote (%ld mmaps and pwrites; %ld seals granted meanwhile, %ld EBUSY): %ld violations "
	   "(%s), %ld other errors, %ld processes died", rounds, ops, granted, ebusy, violations, why,
	   wrong, died);
}

int main(int argc, char **argv)
{
	static void (*const cases[])(void) = { case_first_touch, case_truncate, case_dir_churn,
						case_futex, case_append, case_seals };

	mount_proc_sys();
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		skip("no MAP_SHARED|MAP_ANONYMOUS: no process could report");
		return tap_done();
	}
	printf("# %d CPUs, %llu ms of racing per case\n", nr_cpus(), CASE_NS / 1000000);
	for (int i = 0; i < 6; i++) {
		int run = argc == 1;

		for (int a = 1; a < argc; a++)
			run |= atoi(argv[a]) == i + 1;
		if (run)
			cases[i]();
	}
	return tap_done();
}
