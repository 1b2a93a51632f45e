/*
 * Guest test (TAP): the vDSO and the auxiliary vector as Linux gives them.
 * AT_SYSINFO_EHDR points at an ELF image mapped as [vdso] (r-xp) above a
 * [vvar] page (r--p) that mprotect cannot make writable; its symbols are
 * found by DT_HASH and version LINUX_2.6, as a C library finds them.
 * Each clock the vDSO tells reads between two system-call readings of
 * the same clock, and its resolution is the system call's; the clocks it
 * cannot tell (CPU time, a bad id) give the system call's answer, errno
 * as a negative return.  gettimeofday's zone, time(), getcpu on every
 * CPU this test may run on (by affinity), the wall clock after
 * clock_settime, and a forked child's vDSO.  AT_HWCAP is CPUID 1's EDX,
 * AT_PLATFORM "x86_64", AT_HWCAP2's FSGSBASE bit says whether rdfsbase
 * works, and a signal frame fits an alternate stack of AT_MINSIGSTKSZ.
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include "tap.h"
#include "each_cpu.h"
#include <cpuid.h>
#include <elf.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif
#define HWCAP2_FSGSBASE (1UL << 1)

typedef long (*vdso_gettime_t)(long clock, struct timespec *ts);
typedef long (*vdso_getres_t)(long clock, struct timespec *ts);
typedef long (*vdso_gettimeofday_t)(struct timeval *tv, struct timezone *tz);
typedef long (*vdso_time_t)(long *t);
typedef long (*vdso_getcpu_t)(unsigned int *cpu, unsigned int *node, void *cache);

static const Elf64_Ehdr *vdso;

/* The dynamic table's entry tag of the vDSO at base, or NULL. */
static void *vdso_dyn(long tag)
{
	const Elf64_Phdr *ph = (const void *)((const char *)vdso + vdso->e_phoff);
	const char *base = NULL;
	const Elf64_Dyn *dyn = NULL;

	for (int i = 0; i < vdso->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !base)
			base = (const char *)vdso + ph[i].p_offset - ph[i].p_vaddr;
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)((const char *)vdso + ph[i].p_offset);
	}
	for (; dyn && base && dyn->d_tag != DT_NULL; dyn++)
		if (dyn->d_tag == tag)
			return (void *)(base + dyn->d_un.d_ptr);
	return NULL;
}

/* The version name of version index ndx, from the vDSO's DT_VERDEF. */
static const char *vdso_version_name(unsigned int ndx, const char *strtab)
{
	const Elf64_Verdef *vd = vdso_dyn(DT_VERDEF);

	for (; vd; vd = vd->vd_next ? (const void *)((const char *)vd + vd->vd_next) : NULL)
		if ((vd->vd_ndx & 0x7fff) == ndx) {
			const Elf64_Verdaux *aux = (const void *)((const char *)vd + vd->vd_aux);

			return strtab + aux->vda_name;
		}
	return "";
}

/* The address of name@LINUX_2.6 in the vDSO (the symbol count from DT_HASH), or NULL. */
static void *vdso_sym(const char *name)
{
	const Elf32_Word *hash = vdso_dyn(DT_HASH);
	const Elf64_Sym *sym = vdso_dyn(DT_SYMTAB);
	const char *strtab = vdso_dyn(DT_STRTAB);
	const Elf64_Half *versym = vdso_dyn(DT_VERSYM);
	const char *base = (const char *)vdso;

	if (!hash || !sym || !strtab)
		return NULL;
	for (Elf32_Word i = 0; i < hash[1]; i++) {
		if (strcmp(strtab + sym[i].st_name, name) || sym[i].st_shndx == SHN_UNDEF)
			continue;
		if (versym && strcmp(vdso_version_name(versym[i] & 0x7fff, strtab), "LINUX_2.6"))
			continue;
		return (void *)(base + sym[i].st_value);
	}
	return NULL;
}

/*
 * [vvar] is no memory of the process: pagemap shows no page there (a PFN
 * map is a hole), MADV_DONTNEED and mremap's MREMAP_DONTUNMAP refuse it.
 */
static void check_vvar_is_no_memory(unsigned long vvar)
{
	unsigned long long entry = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);
	void *r;

	(void)*(volatile const char *)vvar;
	ok(fd >= 0 && pread(fd, &entry, 8, vvar / 4096 * 8) == 8 && !(entry >> 63),
	   "pagemap shows no page at [vvar] though it was read (%#llx)", entry);
	close(fd);
	errno = 0;
	ok(madvise((void *)vvar, 4096, MADV_DONTNEED) == -1 && errno == EINVAL,
	   "MADV_DONTNEED on [vvar]: EINVAL");
	errno = 0;
	r = mremap((void *)vvar, 4096, 4096, MREMAP_MAYMOVE | 4 /* MREMAP_DONTUNMAP */);
	ok(r == MAP_FAILED && errno == EINVAL, "mremap(MREMAP_DONTUNMAP) of [vvar]: EINVAL");
}

/* The start of the /proc/self/maps line named name, or 0. */
static unsigned long maps_find(const char *name)
{
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long start = 0, s;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, name) && sscanf(line, "%lx-", &s) == 1)
			start = s;
	if (f)
		fclose(f);
	return start;
}

/* Does /proc/self/maps have a line at start with perms and name? */
static int maps_has(unsigned long start, const char *perms, const char *name)
{
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long s, e;
		char p[8];

		if (sscanf(line, "%lx-%lx %7s", &s, &e, p) == 3 && s == start &&
		    !strcmp(p, perms) && strstr(line, name))
			found = 1;
	}
	if (f)
		fclose(f);
	return found;
}

static long long ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static const struct { int id; const char *name; } clocks[] = {
	{ CLOCK_REALTIME, "REALTIME" }, { CLOCK_MONOTONIC, "MONOTONIC" },
	{ CLOCK_MONOTONIC_RAW, "MONOTONIC_RAW" }, { CLOCK_BOOTTIME, "BOOTTIME" },
	{ CLOCK_REALTIME_COARSE, "REALTIME_COARSE" }, { CLOCK_MONOTONIC_COARSE, "MONOTONIC_COARSE" },
};

/* Every clock the vDSO tells: system call <= vDSO <= system call, same resolution. */
static void check_clocks(vdso_gettime_t gettime, vdso_getres_t getres)
{
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		struct timespec a, b, c, r1, r2;
		long ret;

		syscall(SYS_clock_gettime, clocks[i].id, &a);
		ret = gettime(clocks[i].id, &b);
		syscall(SYS_clock_gettime, clocks[i].id, &c);
		ok(ret == 0 && ts_ns(&a) <= ts_ns(&b) && ts_ns(&b) <= ts_ns(&c) &&
		   b.tv_nsec >= 0 && b.tv_nsec < 1000000000,
		   "vdso clock_gettime(%s) lies between two system calls (%lld <= %lld <= %lld)",
		   clocks[i].name, ts_ns(&a), ts_ns(&b), ts_ns(&c));
		syscall(SYS_clock_getres, clocks[i].id, &r1);
		ret = getres(clocks[i].id, &r2);
		ok(ret == 0 && ts_ns(&r1) == ts_ns(&r2),
		   "vdso clock_getres(%s) is the system call's (%lld ns)", clocks[i].name, ts_ns(&r2));
	}
}

/* The clocks the vDSO passes on: CPU time (between readings), a bad id (-EINVAL). */
static void check_fallbacks(vdso_gettime_t gettime)
{
	struct timespec a, b, c;
	long ret;

	syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &a);
	ret = gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &c);
	ok(ret == 0 && ts_ns(&a) <= ts_ns(&b) && ts_ns(&b) <= ts_ns(&c),
	   "vdso clock_gettime(THREAD_CPUTIME_ID) is the system call's");
	ret = gettime(99, &b);
	ok(ret == -EINVAL, "vdso clock_gettime(99) returns -EINVAL (%ld)", ret);
}

static void check_wall(vdso_gettimeofday_t gtod, vdso_time_t vtime)
{
	struct timeval a, b, c;
	struct timezone z1, z2;
	long t0, t1, t2, tt;

	syscall(SYS_gettimeofday, &a, &z1);
	gtod(&b, &z2);
	syscall(SYS_gettimeofday, &c, NULL);
	ok(timercmp(&a, &b, <=) && timercmp(&b, &c, <=) && z1.tz_minuteswest == z2.tz_minuteswest &&
	   z1.tz_dsttime == z2.tz_dsttime, "vdso gettimeofday lies between two system calls, same zone");
	t0 = syscall(SYS_time, NULL);
	t1 = vtime(&tt);
	t2 = syscall(SYS_time, NULL);
	ok(t0 <= t1 && t1 <= t2 && tt == t1, "vdso time() lies between two system calls");
}

/* Moving the wall clock 1000 s on moves the vDSO's CLOCK_REALTIME too; then back. */
static void check_settime(vdso_gettime_t gettime)
{
	struct timespec before, now, moved;
	int err;

	clock_gettime(CLOCK_REALTIME, &before);
	moved = before;
	moved.tv_sec += 1000;
	err = clock_settime(CLOCK_REALTIME, &moved);
	gettime(CLOCK_REALTIME, &now);
	before.tv_sec = now.tv_sec - 1000;
	before.tv_nsec = now.tv_nsec;
	clock_settime(CLOCK_REALTIME, &before);
	ok(!err && now.tv_sec >= moved.tv_sec && now.tv_sec < moved.tv_sec + 10,
	   "vdso CLOCK_REALTIME follows clock_settime (+1000 s)");
}

/* On CPU cpu: does the vDSO's getcpu (arg) name it, node 0? */
static int getcpu_names_cpu(int cpu, void *arg)
{
	vdso_getcpu_t getcpu = (vdso_getcpu_t)arg;
	unsigned int c = ~0U, n = ~0U;

	return getcpu(&c, &n, NULL) == 0 && c == (unsigned int)cpu && n == 0;
}

/* getcpu on each CPU of the affinity mask, pinned there: the CPU's number. */
static void check_getcpu(vdso_getcpu_t getcpu)
{
	int tried, right = on_each_allowed_cpu(getcpu_names_cpu, (void *)getcpu, &tried);

	ok(tried > 0 && right == tried, "vdso getcpu names the CPU it runs on (%d of %d CPUs)",
	   right, tried);
}

/* A forked child's vDSO: its clock works, and a store into the vDSO kills it (SIGSEGV). */
static void check_fork(vdso_gettime_t gettime)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		struct timespec ts;

		_exit(gettime(CLOCK_MONOTONIC, &ts) == 0 && ts.tv_sec >= 0 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a forked child's vDSO works");
	pid = fork();
	if (!pid) {
		*(volatile char *)vdso = 0;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "a store into the vDSO is SIGSEGV");
}

static volatile int handled;

static void on_usr1(int sig)
{
	handled = sig;
}

/*
 * A signal frame fits an alternate stack of AT_MINSIGSTKSZ bytes (or
 * MINSIGSTKSZ, sigaltstack's floor) with a PROT_NONE page under it.
 */
static void check_minsigstksz(void)
{
	unsigned long min = getauxval(AT_MINSIGSTKSZ), size = min < MINSIGSTKSZ ? MINSIGSTKSZ : min;
	unsigned long span = (size + 4095) / 4096 * 4096 + 4096;
	char *area = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack_t ss = { .ss_sp = area + span - size, .ss_size = size }, old;
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_ONSTACK };
	int status;
	pid_t pid;

	ok(min >= 1024 && min <= 65536, "AT_MINSIGSTKSZ is a frame's size (%lu)", min);
	mprotect(area, 4096, PROT_NONE);
	pid = fork();
	if (!pid) {
		sigaltstack(&ss, &old);
		sigaction(SIGUSR1, &sa, NULL);
		raise(SIGUSR1);
		_exit(handled == SIGUSR1 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "a signal frame fits an alternate stack of AT_MINSIGSTKSZ bytes");
	munmap(area, span);
}

/* AT_HWCAP2's FSGSBASE bit: rdfsbase works in user mode exactly when it is set. */
static void check_hwcap2(void)
{
	unsigned long hwcap2 = getauxval(AT_HWCAP2);
	int status;
	pid_t pid = fork();

	if (!pid) {
		unsigned long base;

		__asm__ __volatile__("rdfsbase %0" : "=r"(base));
		_exit(base ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	if (hwcap2 & HWCAP2_FSGSBASE)
		ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "HWCAP2_FSGSBASE: rdfsbase works");
	else
		ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGILL,
		   "no HWCAP2_FSGSBASE: rdfsbase is SIGILL");
}

static void check_auxv(void)
{
	unsigned int a, b, c, d;
	const char *platform = (const char *)getauxval(AT_PLATFORM);

	__cpuid(1, a, b, c, d);
	ok(getauxval(AT_HWCAP) == d, "AT_HWCAP is CPUID 1's EDX (%#lx)", getauxval(AT_HWCAP));
	ok(platform && !strcmp(platform, "x86_64"), "AT_PLATFORM is \"x86_64\"");
	check_hwcap2();
	check_minsigstksz();
}

int main(void)
{
	vdso_gettime_t gettime;
	vdso_getres_t getres;
	vdso_gettimeofday_t gtod;
	vdso_time_t vtime;
	vdso_getcpu_t getcpu;
	unsigned long base, vvar;

	mount_proc_sys();
	vdso = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	base = (unsigned long)vdso;
	ok(vdso && !memcmp(vdso->e_ident, ELFMAG, SELFMAG) && vdso->e_type == ET_DYN,
	   "AT_SYSINFO_EHDR points at an ELF shared object");
	if (!vdso)
		return tap_done();
	ok(maps_has(base, "r-xp", "[vdso]"), "maps shows [vdso] r-xp at AT_SYSINFO_EHDR");
	vvar = maps_find("[vvar]");
	ok(vvar && vvar < base && vvar >= base - 4 * 4096 && maps_has(vvar, "r--p", "[vvar]"),
	   "maps shows [vvar] r--p under it");
	ok(mprotect((void *)vvar, 4096, PROT_READ | PROT_WRITE) == -1 && errno == EACCES,
	   "mprotect cannot make [vvar] writable (EACCES)");
	check_vvar_is_no_memory(vvar);
	gettime = (vdso_gettime_t)vdso_sym("__vdso_clock_gettime");
	getres = (vdso_getres_t)vdso_sym("__vdso_clock_getres");
	gtod = (vdso_gettimeofday_t)vdso_sym("__vdso_gettimeofday");
	vtime = (vdso_time_t)vdso_sym("__vdso_time");
	getcpu = (vdso_getcpu_t)vdso_sym("__vdso_getcpu");
	ok(gettime && getres && gtod && vtime && getcpu,
	   "the vDSO exports clock_gettime, clock_getres, gettimeofday, time, getcpu @LINUX_2.6");
	if (gettime && getres && gtod && vtime && getcpu) {
		check_clocks(gettime, getres);
		check_fallbacks(gettime);
		check_wall(gtod, vtime);
		check_settime(gettime);
		check_getcpu(getcpu);
		check_fork(gettime);
	}
	check_auxv();
	return tap_done();
}
