/*
 * Guest test (TAP): random numbers as Linux gives them.  getrandom (its
 * flags' EINVALs; two calls differ), /dev/urandom and /dev/random (64 KiB
 * whose bits are balanced and whose bytes pass a chi-square test; writes
 * are taken), AT_RANDOM's 16 bytes differing from one exec to the next,
 * and /dev/full (reads zeros, writes ENOSPC).
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh).
 */
#define _GNU_SOURCE
#include "tap.h"
#include <errno.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/wait.h>

#define SAMPLE  65536

static unsigned char sample[SAMPLE];

/* Read count bytes of path into buf; 0 or -1. */
static int read_all(const char *path, unsigned char *buf, size_t count)
{
	int fd = open(path, O_RDONLY);
	size_t done = 0;
	long n = 1;

	while (fd >= 0 && done < count && (n = read(fd, buf + done, count - done)) > 0)
		done += n;
	if (fd >= 0)
		close(fd);
	return done == count ? 0 : -1;
}

/* Are buf's bits balanced (within 1 %) and its bytes' chi-square plausible (< 400, 255 df)? */
static int looks_random(const unsigned char *buf, size_t n, double *chi)
{
	unsigned long ones = 0, hist[256] = { 0 };
	double expect = n / 256.0;

	*chi = 0;
	for (size_t i = 0; i < n; i++) {
		ones += __builtin_popcount(buf[i]);
		hist[buf[i]]++;
	}
	for (int i = 0; i < 256; i++)
		*chi += (hist[i] - expect) * (hist[i] - expect) / expect;
	return ones > n * 8 * 0.49 && ones < n * 8 * 0.51 && *chi < 400;
}

/* AT_RANDOM's 16 bytes of a fresh exec of this program. */
static int exec_at_random(const char *self, unsigned char out[16])
{
	int p[2], st;
	pid_t pid;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		execl(self, self, "at-random", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	st = read(p[0], out, 16) == 16 ? 0 : -1;
	close(p[0]);
	waitpid(pid, NULL, 0);
	return st;
}

int main(int argc, char **argv)
{
	unsigned char a[64], b[64], r1[16], r2[16];
	double chi;
	int fd, good;

	if (argc > 1 && !strcmp(argv[1], "at-random"))
		return write(1, (void *)getauxval(AT_RANDOM), 16) == 16 ? 0 : 1;
	mount_proc_sys();
	ok(getrandom(a, sizeof(a), 0) == sizeof(a) && getrandom(b, sizeof(b), GRND_NONBLOCK) ==
	   sizeof(b) && memcmp(a, b, sizeof(a)), "getrandom: 64 bytes, not the same twice");
	errno = 0;
	ok(getrandom(a, 1, 0x40) == -1 && errno == EINVAL, "getrandom with an unknown flag: EINVAL");
	errno = 0;
	ok(getrandom(a, 1, GRND_RANDOM | GRND_INSECURE) == -1 && errno == EINVAL,
	   "GRND_RANDOM with GRND_INSECURE: EINVAL");
	good = read_all("/dev/urandom", sample, SAMPLE) == 0 && looks_random(sample, SAMPLE, &chi);
	ok(good, "/dev/urandom: 64 KiB of balanced bits, chi-square %.0f (255 df)", chi);
	good = read_all("/dev/random", sample, SAMPLE) == 0 && looks_random(sample, SAMPLE, &chi);
	ok(good, "/dev/random: the same, without waiting (chi-square %.0f)", chi);
	fd = open("/dev/urandom", O_WRONLY);
	ok(fd >= 0 && write(fd, "seed", 4) == 4, "a write to /dev/urandom is taken");
	close(fd);
	ok(exec_at_random("/proc/self/exe", r1) == 0 && exec_at_random("/proc/self/exe", r2) == 0 &&
	   memcmp(r1, r2, 16), "AT_RANDOM differs from one exec to the next");
	fd = open("/dev/full", O_RDWR);
	memset(a, 1, sizeof(a));
	errno = 0;
	ok(fd >= 0 && write(fd, "x", 1) == -1 && errno == ENOSPC && read(fd, a, 8) == 8 &&
	   !a[0] && !a[7], "/dev/full: a write is ENOSPC, a read zeros");
	close(fd);
	return tap_done();
}
