/*
 * Guest test (TAP): anonymous memory through the system calls musl uses —
 * brk growth and shrink, mmap/munmap, MAP_FIXED replacement, malloc of
 * large and small blocks, -EFAULT for bad buffers, -ENOSYS for unknown
 * calls.  Runs unchanged on Linux.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <fcntl.h>
#include "tap.h"


static int fill_check(unsigned char *p, size_t len, unsigned char seed)
{
	for (size_t i = 0; i < len; i += 512)
		p[i] = (unsigned char)(seed + i / 512);
	for (size_t i = 0; i < len; i += 512)
		if (p[i] != (unsigned char)(seed + i / 512))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	char *brk0 = (char *)syscall(SYS_brk, 0), *p;
	long ret;

	(void)argc;
	printf("TAP version 13\n");
	/* musl's sbrk() only reads the break: use the system call */
	ok(syscall(SYS_brk, brk0 + (1 << 20)) == (long)(brk0 + (1 << 20)), "brk grows by 1 MiB");
	ok(fill_check((unsigned char *)brk0, 1 << 20, 1), "new heap is usable");
	ok(syscall(SYS_brk, brk0 + (1 << 19)) == (long)(brk0 + (1 << 19)), "brk shrinks");
	ok(syscall(SYS_brk, (void *)1) == (long)(brk0 + (1 << 19)), "a bad brk returns the current break");
	p = mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok(p != MAP_FAILED, "mmap 4 MiB anonymous");
	ok(p[12345] == 0 && fill_check((unsigned char *)p, 4 << 20, 7), "mmap memory is zeroed and usable");
	ok(munmap(p + (1 << 20), 1 << 20) == 0, "munmap a hole in the middle");
	ok(p[2 << 20] == (char)(7 + (2 << 20) / 512) && p[0] == 7, "both sides of the hole remain");
	ok(mmap(p, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == p,
	   "MAP_FIXED over a mapping");
	ok(p[0] == 0 && p[4096] == (char)(7 + 8), "MAP_FIXED replaced exactly its page, with zeroes");
	ok(munmap(p, 4 << 20) == 0, "munmap the whole range");
	ok(munmap((void *)1, 4096) == -1 && errno == EINVAL, "munmap of a misaligned address: EINVAL");
	ok(mmap(NULL, 4096, PROT_READ, MAP_SHARED | MAP_ANONYMOUS, -1, 0) != MAP_FAILED ||
	   errno == EINVAL, "MAP_SHARED anonymous works or is EINVAL");
	p = malloc(10 << 20);
	ok(p && fill_check((unsigned char *)p, 10 << 20, 3), "malloc 10 MiB");
	free(p);
	p = malloc(100);
	ok(p && strcpy(p, "abc") && !strcmp(p, "abc"), "malloc 100 bytes");
	free(p);
	ret = syscall(SYS_write, 1, (void *)16, 10);
	ok(ret == -1 && errno == EFAULT, "write from a bad pointer: EFAULT");
	ret = syscall(SYS_write, 1, (void *)0xffff888000000000UL, 10);
	ok(ret == -1 && errno == EFAULT, "write from a kernel address: EFAULT");
	ret = syscall(SYS_uname, (void *)8);
	ok(ret == -1 && errno == EFAULT, "uname into a bad pointer: EFAULT");
	ret = syscall(SYS_clock_gettime, 1, (void *)8);
	ok(ret == -1 && errno == EFAULT, "clock_gettime into a bad pointer: EFAULT");
	{
		/* every pointer-taking call with a bad pointer: -EFAULT, never a crash */
		void *bad = (void *)16, *kern = (void *)0xffff888000001000UL;
		int file = open(argv[0], O_RDONLY), dir = open("/", O_RDONLY | O_DIRECTORY);
		struct { long nr, a, b, c, d; } calls[] = {
			{ SYS_read, file, (long)kern, 8, 0 }, { SYS_writev, 1, (long)bad, 1, 0 },
			{ SYS_readv, file, (long)bad, 1, 0 }, { SYS_pipe, (long)bad, 0, 0, 0 },
			{ SYS_wait4, -1, (long)bad, 0, 0 }, { SYS_execve, (long)bad, 0, 0, 0 },
			{ SYS_open, (long)bad, 0, 0, 0 }, { SYS_stat, (long)argv[0], (long)bad, 0, 0 },
			{ SYS_fstat, 1, (long)bad, 0, 0 }, { SYS_getdents64, dir, (long)bad, 64, 0 },
			{ SYS_nanosleep, (long)bad, 0, 0, 0 }, { SYS_getrandom, (long)bad, 8, 0, 0 },
			{ SYS_rt_sigaction, 15, (long)bad, 0, 8 }, { SYS_rt_sigprocmask, 0, 0, (long)bad, 8 },
			{ SYS_prlimit64, 0, 3, 0, (long)bad }, { SYS_arch_prctl, 0x1003, (long)bad, 0, 0 },
			{ SYS_pread64, file, (long)bad, 8, 0 }, { SYS_ioctl, 0, 0x5413, (long)bad, 0 },
			{ SYS_access, (long)kern, 0, 0, 0 }, { SYS_mount, 0, 0, (long)bad, 0 },
		};
		int all = 1;

		if (fork() == 0)        /* a child for wait4 to find */
			_exit(0);
		for (unsigned int i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
			long r = syscall(calls[i].nr, calls[i].a, calls[i].b, calls[i].c, calls[i].d);

			if (r != -1 || errno != EFAULT) {
				printf("# syscall %ld with a bad pointer: %ld (errno %d)\n", calls[i].nr, r, errno);
				all = 0;
			}
		}
		wait(NULL);
		close(file);
		close(dir);
		ok(all, "every pointer-taking system call rejects bad pointers with EFAULT");
	}
	ret = syscall(1000);
	ok(ret == -1 && errno == ENOSYS, "unknown system call: ENOSYS");
	p = mmap(NULL, 8 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(p, 'x', 8 * 4096);
	ok(mprotect(p + 4096, 4096, PROT_READ) == 0 && p[4096] == 'x', "mprotect one page read-only, still readable");
	ok(mprotect(p + 4096, 4096, PROT_READ | PROT_WRITE) == 0 && (p[4096] = 'y') == 'y',
	   "mprotect it writable again: writes work");
	ok(syscall(SYS_mprotect, p + 3, 4096, PROT_READ) == -1 && errno == EINVAL,
	   "mprotect of a misaligned address: EINVAL (musl would round it)");
	ok(madvise(p, 8 * 4096, MADV_DONTNEED) == 0 && p[0] == 0 && p[4096 * 7] == 0,
	   "MADV_DONTNEED drops the pages: they read back as zero");
	ok(madvise(p, 8 * 4096, MADV_HUGEPAGE) == 0 && madvise(p, 4096, MADV_NOHUGEPAGE) == 0,
	   "MADV_HUGEPAGE / MADV_NOHUGEPAGE are accepted");
	munmap(p, 8 * 4096);
	return tap_done();
}
