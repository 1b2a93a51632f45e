/*
 * Benchmark: shared memory and the page cache; guest cycles (rdtsc; run
 * under --icount) of
 *   fault     touching every page of 64 MiB (or argv[1] MiB) of
 *             MAP_SHARED|MAP_ANONYMOUS memory backed by 4K, 64K or 2M
 *             shmem folios (shmem_enabled / hugepages-64kB/shmem_enabled)
 *   fork      the parent's fork() with the child alive, the region
 *             populated with 4 KiB folios and mapped MAP_SHARED (no page
 *             table is copied) or MAP_PRIVATE (every PTE copied and
 *             write-protected)
 *   read      read() of a 64 MiB tmpfs file into a buffer, 64 KiB at a time
 *   exec      fork + execve of this program (which exits at once) + wait
 * Median of 3.  Before a fault number is printed, the backing is checked
 * through /proc/kpageflags (compound head and tails), so a kernel that
 * cannot back the region as intended prints "unbacked", one without the
 * knob "unsupported".  Output: "bench_shmem OP KIND CYCLES".
 */
#include "thp_util.h"
#include <x86intrin.h>
#include "bench_util.h"

#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define RUNS 3

static size_t len;


/* Set the shmem policy for MAP_SHARED|MAP_ANONYMOUS: kb == 0 means 4K only. */
static int shmem_policy(unsigned long kb)
{
	char path[128];
	int err = write_text(THP_DIR "shmem_enabled", kb == 2048 ? "always" : "never");

	for (unsigned long k = 16; k < 2048; k *= 2) {
		snprintf(path, sizeof(path), THP_DIR "hugepages-%lukB/shmem_enabled", k);
		if (write_text(path, k == kb ? "always" : "never") && k == kb)
			err = -1;
	}
	return err;
}

/* Is page 5 of each 2 MiB a tail of a folio of nr pages whose head is aligned? */
static int backed(const char *p, unsigned long nr)
{
	for (size_t off = 0; off < len; off += PMD_SIZE) {
		unsigned long pfn = pfn_of(p + off), tail = pfn_of(p + off + 5 * PAGE);
		unsigned long long hf = kpageflags(pfn), tf = kpageflags(tail);

		if (nr == 1 ? (hf & (1ULL << KPF_COMPOUND_HEAD)) :
		    !(hf & (1ULL << KPF_COMPOUND_HEAD)) || pfn % nr ||
		    (nr > 5) != !!(tf & (1ULL << KPF_COMPOUND_TAIL)))
			return 0;
	}
	return 1;
}

static void bench_fault(const char *kind, unsigned long kb)
{
	unsigned long long t[RUNS];
	int ok = 1;

	if (shmem_policy(kb)) {
		printf("bench_shmem fault %s unsupported\n", kind);
		return;
	}
	for (int r = 0; r < RUNS; r++) {
		char *p = mmap(NULL, len + PMD_SIZE, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		char *a = (char *)(((unsigned long)p + PMD_SIZE - 1) & ~(PMD_SIZE - 1));
		unsigned long long t0 = __rdtsc();

		if (p == MAP_FAILED) {
			printf("bench_shmem fault %s unsupported\n", kind);
			return;
		}
		for (size_t off = 0; off < len; off += PAGE)
			a[off] = 1;
		t[r] = __rdtsc() - t0;
		ok &= backed(a, kb ? kb / 4 : 1);
		munmap(p, len + PMD_SIZE);
	}
	shmem_policy(0);
	if (ok)
		printf("bench_shmem fault %s %llu\n", kind, median_of(t, RUNS));
	else
		printf("bench_shmem fault %s unbacked\n", kind);
}

/*
 * fork() of a parent with len bytes populated in 4 KiB folios, mapped
 * with flags; the child waits.
 */
static void bench_fork(const char *kind, int flags)
{
	unsigned long long t[RUNS];

	shmem_policy(0);
	thp_set(0, "never");
	for (int r = 0; r < RUNS; r++) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS, -1, 0);
		int fds[2], status;
		unsigned long long t0;
		pid_t pid;

		if (p == MAP_FAILED) {
			printf("bench_shmem fork %s unsupported\n", kind);
			return;
		}
		for (size_t off = 0; off < len; off += PAGE)
			p[off] = 1;
		if (pipe(fds))
			exit(1);
		t0 = __rdtsc();
		pid = fork();
		if (pid == 0) {
			char c;

			close(fds[1]);
			read(fds[0], &c, 1);
			_exit(0);
		}
		t[r] = __rdtsc() - t0;
		close(fds[0]);
		close(fds[1]);
		waitpid(pid, &status, 0);
		munmap(p, len);
	}
	thp_set(0, "always");
	printf("bench_shmem fork %s %llu\n", kind, median_of(t, RUNS));
}

static void bench_read(void)
{
	static char buf[64 << 10];
	unsigned long long t[RUNS];
	int fd = open("/tmp/bench_shmem", O_RDWR | O_CREAT | O_TRUNC, 0600);

	shmem_policy(0);
	memset(buf, 1, sizeof(buf));
	for (size_t off = 0; fd >= 0 && off < len; off += sizeof(buf))
		write(fd, buf, sizeof(buf));
	for (int r = 0; fd >= 0 && r < RUNS; r++) {
		unsigned long long t0 = __rdtsc();

		for (size_t off = 0; off < len; off += sizeof(buf))
			pread(fd, buf, sizeof(buf), off);
		t[r] = __rdtsc() - t0;
	}
	if (fd < 0) {
		printf("bench_shmem read tmpfs unsupported\n");
		return;
	}
	close(fd);
	unlink("/tmp/bench_shmem");
	printf("bench_shmem read tmpfs %llu\n", median_of(t, RUNS));
}

static void bench_exec(const char *self)
{
	unsigned long long t[RUNS];

	for (int r = 0; r < RUNS; r++) {
		unsigned long long t0 = __rdtsc();
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			execl(self, self, "exit", (char *)NULL);
			_exit(127);
		}
		waitpid(pid, &status, 0);
		t[r] = __rdtsc() - t0;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("bench_shmem exec self failed\n");
			return;
		}
	}
	printf("bench_shmem exec self %llu\n", median_of(t, RUNS));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0;
	mount_proc_sys();
	len = (size_t)(argc > 1 ? atoi(argv[1]) : 64) << 20;
	bench_fault("4K", 0);
	bench_fault("64K", 64);
	bench_fault("2M", 2048);
	bench_fork("shared", MAP_SHARED);
	bench_fork("private", MAP_PRIVATE);
	bench_read();
	bench_exec(argv[0]);
	return 0;
}
