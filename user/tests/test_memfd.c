/*
 * Guest test (TAP): memfd_create and file seals with Linux's semantics and
 * errnos — MFD_CLOEXEC, MFD_ALLOW_SEALING, F_GET_SEALS/F_ADD_SEALS with
 * SHRINK, GROW, WRITE, FUTURE_WRITE and SEAL; a memfd's data through
 * read/write and through MAP_SHARED mappings (shared with a child, EPERM
 * for a writable mapping of a write-sealed memfd, EBUSY for F_SEAL_WRITE
 * while one exists, SIGBUS past EOF); shmem_enabled=always gives a memfd
 * 2 MiB folios, as Linux's internal shm mount.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "thp_util.h"

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

static int fails(long ret, int e)
{
	return ret == -1 && errno == e;
}

static int memfd(const char *name, unsigned int flags)
{
	return syscall(SYS_memfd_create, name, flags);
}

static long blocks(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_blocks;
}

static void test_create(void)
{
	char name[300], link[64], target[128] = "";
	int fd = memfd("test", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	struct stat st;
	ssize_t n;

	ok(fd >= 0 && fcntl(fd, F_GETFD) == FD_CLOEXEC, "memfd_create MFD_CLOEXEC: close-on-exec");
	n = fstat(fd, &st);
	ok(!n && st.st_mode == (S_IFREG | 0777) && st.st_size == 0 && st.st_nlink == 0,
	   "a regular file, mode 0777, empty, unlinked (%o, %ld, %ld)", st.st_mode, (long)st.st_size,
	   (long)st.st_nlink);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0 && errno == ENOSYS)
		skip("no readlink");
	else
		ok(n > 0 && !strcmp(target, "/memfd:test (deleted)"), "/proc/self/fd names it %s", target);
	ok(fails(memfd("x", 0x100), EINVAL), "unknown flag: EINVAL");
	memset(name, 'n', sizeof(name));
	name[249] = '\0';
	n = memfd(name, 0);
	ok(n >= 0, "249-byte name accepted");
	close(n);
	name[249] = 'n';
	name[250] = '\0';
	ok(fails(memfd(name, 0), EINVAL), "250-byte name: EINVAL");
	ok(fails(memfd((char *)1, 0), EFAULT), "bad name pointer: EFAULT");
	close(fd);
}

static void test_data(void)
{
	int fd = memfd("data", 0), pfd[2];
	char buf[8] = "";

	ok(!ftruncate(fd, 8192) && pwrite(fd, "memfd", 5, 4096) == 5 && pread(fd, buf, 5, 4096) == 5 &&
	   !memcmp(buf, "memfd", 5) && blocks(fd) == 8, "ftruncate, pwrite, pread: one page allocated");
	ok(fcntl(fd, F_GET_SEALS) == F_SEAL_SEAL && fails(fcntl(fd, F_ADD_SEALS, F_SEAL_GROW), EPERM),
	   "without MFD_ALLOW_SEALING: F_SEAL_SEAL, F_ADD_SEALS EPERM");
	close(fd);
	fd = open("/tmp/memfd_tmpfs", O_CREAT | O_RDWR, 0600);
	ok(fcntl(fd, F_GET_SEALS) == F_SEAL_SEAL, "a tmpfs file: F_SEAL_SEAL");
	close(fd);
	unlink("/tmp/memfd_tmpfs");
	xpipe(pfd, 0);
	ok(fails(fcntl(pfd[0], F_GET_SEALS), EINVAL) && fails(fcntl(pfd[1], F_ADD_SEALS, F_SEAL_SEAL), EINVAL),
	   "a pipe has no seals: EINVAL");
	close(pfd[0]);
	close(pfd[1]);
}

static void test_size_seals(void)
{
	int fd = memfd("seals", MFD_ALLOW_SEALING);

	ok(fcntl(fd, F_GET_SEALS) == 0 && !ftruncate(fd, 8192), "MFD_ALLOW_SEALING: no seals");
	ok(!fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) && fails(ftruncate(fd, 4096), EPERM) &&
	   !ftruncate(fd, 12288), "F_SEAL_SHRINK: shrinking EPERM, growing fine");
	ok(!fcntl(fd, F_ADD_SEALS, F_SEAL_GROW) && fails(ftruncate(fd, 16384), EPERM) &&
	   fails(pwrite(fd, "x", 1, 12288), EPERM) && pwrite(fd, "x", 1, 12287) == 1,
	   "F_SEAL_GROW: growing by ftruncate or write EPERM, writing inside fine");
	ok(fails(fallocate(fd, 0, 0, 16384), EPERM) && !fallocate(fd, 0, 0, 4096),
	   "F_SEAL_GROW: fallocate past the size EPERM");
	ok(fcntl(fd, F_GET_SEALS) == (F_SEAL_SHRINK | F_SEAL_GROW), "F_GET_SEALS: SHRINK|GROW");
	ok(fails(fcntl(fd, F_ADD_SEALS, 0x1000), EINVAL), "an unknown seal: EINVAL");
	ok(!fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE) && fails(pwrite(fd, "y", 1, 0), EPERM) &&
	   fails(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096), EPERM),
	   "F_SEAL_WRITE: write and punch hole EPERM");
	ok(!fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL) && fails(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK), EPERM),
	   "F_SEAL_SEAL: no more seals");
	close(fd);
}

/* Does touching p in a child end it with SIGBUS? */
static int sigbus_at(volatile char *p)
{
	pid_t pid = fork();
	int status;

	if (!pid) {
		*p = 1;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS;
}

static void test_mmap(int fd)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), c = 0;
	pid_t pid;

	ok(p != MAP_FAILED, "mmap MAP_SHARED");
	strcpy(p, "mapped");
	ok(pread(fd, &c, 1, 0) == 1 && c == 'm', "a store is seen by read()");
	ok(pwrite(fd, "W", 1, 1) == 1 && p[1] == 'W', "a write() is seen through the mapping");
	if (!(pid = fork())) {
		p[100] = 'c';
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	ok(p[100] == 'c', "a child's store is seen by the parent");
	ok(fails(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), EBUSY),
	   "F_SEAL_WRITE with a writable shared mapping: EBUSY");
	ok(sigbus_at(p + 4096), "past EOF (a 1-page file): SIGBUS");
	munmap(p, 8192);
	ok(!fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), "unmapped: F_SEAL_WRITE taken");
	ok(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED && errno == EPERM,
	   "a writable shared mapping of a sealed memfd: EPERM");
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ok(p != MAP_FAILED && p[1] == 'W' && fails(mprotect(p, 4096, PROT_READ | PROT_WRITE), EACCES),
	   "read-only shared mapping: fine, but mprotect to writable EACCES");
	munmap(p, 4096);
}

/* ftruncate of a mapped memfd: the cut pages leave the mapping (SIGBUS), the rest stays. */
static void test_truncate_mapped(void)
{
	int fd = memfd("trunc", 0);
	char *p;

	ftruncate(fd, 3 * PAGE);
	p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	memset(p, 't', 3 * PAGE);
	ok(!ftruncate(fd, PAGE) && p[PAGE - 1] == 't' && sigbus_at(p + PAGE) && sigbus_at(p + 2 * PAGE),
	   "truncated under a mapping: the cut pages give SIGBUS, the first stays");
	ok(blocks(fd) == 8 && !ftruncate(fd, 2 * PAGE) && p[PAGE] == 0,
	   "the cut pages freed (8 blocks left); grown again, the page reads zeros");
	munmap(p, 3 * PAGE);
	close(fd);
}

static void test_future_write(void)
{
	int fd = memfd("future", MFD_ALLOW_SEALING);
	char *p;

	ftruncate(fd, 4096);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ok(p != MAP_FAILED && !fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE),
	   "F_SEAL_FUTURE_WRITE with a writable mapping: allowed");
	p[0] = 'f';
	ok(fails(pwrite(fd, "x", 1, 0), EPERM) && mmap(NULL, 4096, PROT_WRITE, MAP_SHARED, fd, 0) ==
	   MAP_FAILED && errno == EPERM, "then write() and new writable mappings EPERM; old one writes");
	munmap(p, 4096);
	close(fd);
}

/* shmem_enabled=always: the internal mount's folios are 2 MiB (Linux's shm_mnt huge=). */
static void test_huge(void)
{
	static char buf[PMD_SIZE];
	char saved[128], *l, *r;
	int fd;

	if (read_text(THP_DIR "shmem_enabled", saved, sizeof(saved)) || !(l = strchr(saved, '[')) ||
	    !(r = strchr(l, ']'))) {
		skip("no shmem_enabled");
		return;
	}
	*r = '\0';
	write_text(THP_DIR "shmem_enabled", "always");
	fd = memfd("huge", 0);
	memset(buf, 'h', sizeof(buf));
	ok(write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) && blocks(fd) == 4096,
	   "shmem_enabled=always: 2 MiB written, one 2 MiB folio (4096 blocks)");
	close(fd);
	write_text(THP_DIR "shmem_enabled", "never");
	fd = memfd("small", 0);
	ok(write(fd, "s", 1) == 1 && blocks(fd) == 8, "shmem_enabled=never: one page");
	close(fd);
	write_text(THP_DIR "shmem_enabled", l + 1);
}

/* Is the folio at pfn 2 MiB: /proc/folio's order on foliOS, kpageflags THP on Linux? */
static int is_pmd_folio(unsigned long pfn)
{
	struct folio_view v;

	if (!folio_view_pfn(pfn, &v))
		return v.order == 9;
	return !!(kpageflags(pfn) & (1ULL << KPF_THP));
}

/* The 2 MiB at p (2 MiB-aligned) after touching it: one 2 MiB folio (PFNs, kpageflags THP)? */
static int one_pmd_folio(volatile char *p)
{
	unsigned long pfn;

	for (size_t i = 0; i < PMD_SIZE; i += PAGE)
		p[i] = 1;
	pfn = pfn_of((char *)p);
	return pfn && !(pfn % 512) && pfns_contiguous((char *)p, PMD_SIZE / PAGE) && is_pmd_folio(pfn);
}

/* Does /proc/self/maps show the VMA at p as shared ("rw-s")? */
static int maps_shared(const char *p)
{
	static char maps[16384];
	char key[32], *line;

	snprintf(key, sizeof(key), "%lx-", (unsigned long)p);
	if (read_text("/proc/self/maps", maps, sizeof(maps)))
		return 0;
	for (line = maps; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (!strncmp(line, key, strlen(key)))
			return strchr(line, ' ') && strchr(line, ' ')[4] == 's';
	return 0;
}

/*
 * 2 MiB of MAP_SHARED|MAP_ANONYMOUS memory at a 2 MiB boundary, advised
 * (or not) MADV_HUGEPAGE; NULL if the kernel did not make it shared.
 */
static char *map_shared_anon(int advise)
{
	char *p = map_aligned(PMD_SIZE, PMD_SIZE);

	if (!p)
		return NULL;
	if (mmap(p, PMD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED,
		 -1, 0) != p || !maps_shared(p)) {
		munmap(p, PMD_SIZE);
		return NULL;
	}
	if (advise)
		madvise(p, PMD_SIZE, MADV_HUGEPAGE);
	return p;
}

/*
 * MAP_SHARED|MAP_ANONYMOUS: shared with a child; its folio size follows
 * shmem_enabled (always: 2 MiB; advise: with MADV_HUGEPAGE; never: 4 KiB),
 * and from Linux 6.11 hugepages-2048kB/shmem_enabled.
 */
static void test_shared_anon(void)
{
	char *p = map_shared_anon(0), saved[128] = "never";
	pid_t pid;

	if (!p) {
		skip("no MAP_SHARED|MAP_ANONYMOUS yet");
		return;
	}
	if (!(pid = fork())) {
		p[4096] = 'a';
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	ok(p[4096] == 'a', "MAP_SHARED|MAP_ANONYMOUS: a child's store is seen");
	ok(!one_pmd_folio(p), "shmem_enabled=never: small folios");
	munmap(p, PMD_SIZE);
	write_text(THP_DIR "shmem_enabled", "always");
	p = map_shared_anon(0);
	ok(one_pmd_folio(p), "shmem_enabled=always: one 2 MiB folio");
	munmap(p, PMD_SIZE);
	write_text(THP_DIR "shmem_enabled", "advise");
	p = map_shared_anon(1);
	ok(one_pmd_folio(p), "shmem_enabled=advise and MADV_HUGEPAGE: one 2 MiB folio");
	munmap(p, PMD_SIZE);
	write_text(THP_DIR "shmem_enabled", "always");
	if (!read_text(THP_DIR "hugepages-2048kB/shmem_enabled", saved, sizeof(saved)) &&
	    !write_text(THP_DIR "hugepages-2048kB/shmem_enabled", "never")) {
		p = map_shared_anon(0);
		ok(!one_pmd_folio(p), "hugepages-2048kB/shmem_enabled=never overrides always for anon shmem");
		munmap(p, PMD_SIZE);
		write_text(THP_DIR "hugepages-2048kB/shmem_enabled", "inherit");
	}
	write_text(THP_DIR "shmem_enabled", "never");
}

int main(void)
{
	int fd;
	void *p;

	mount_proc_sys();
	test_create();
	test_data();
	test_size_seals();
	test_huge();
	fd = memfd("map", MFD_ALLOW_SEALING);
	ftruncate(fd, 4096);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED && errno == EINVAL) {
		skip("no MAP_SHARED of files yet");
	} else {
		munmap(p, 4096);
		test_mmap(fd);
		test_future_write();
		test_truncate_mapped();
		test_shared_anon();
	}
	close(fd);
	return tap_done();
}
