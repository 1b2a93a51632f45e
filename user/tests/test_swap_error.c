/*
 * Guest test (TAP): swap I/O errors, made by Linux's fault injection for
 * block I/O — the fail_make_request= boot option (make test boots with
 * fail_make_request=1,100,0,-1) and /sys/block/<disk>/make-it-fail — for
 * the tasks marked in /proc/<pid>/make-it-fail.  A failed swap write
 * keeps the page in memory (pswpout does not move): its data reads back
 * intact, and a pageout without the error then writes it.  A failed swap-in read kills only the
 * process that faulted, with SIGBUS: the parent, which shares the entry
 * since fork, gets its data once the disk works again, and nobody ever
 * sees another page's bytes.  The same for a tmpfs page (read(2) gives
 * EIO).  Each check fails without swap-out or
 * without the errors reaching the fault (a page read back whole, or a
 * child not killed); a kernel without the injection (Linux's Debian
 * kernel) or a boot without the option skips the test.
 */
#define _GNU_SOURCE
#include <signal.h>
#include "swap_util.h"

static char disk_knob[128];     /* /sys/block/<disk>/make-it-fail */

static void set_value(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		fail("%s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* Disk I/O from this task (and its children from now on) fails while on. */
static void disk_errors(bool on)
{
	set_value(disk_knob, on ? "1" : "0");
}

/* Is the injection there: the boot option, the disk's knob, and the task filter? */
static bool injection_ready(void)
{
	char cmdline[1024], dev[128], *name;
	int prio, fd;

	if (!first_swap(dev, sizeof(dev), &prio) || !(name = strrchr(dev, '/')))
		return false;
	snprintf(disk_knob, sizeof(disk_knob), "/sys/block%s/make-it-fail", name);
	if (read_all("/proc/cmdline", cmdline, sizeof(cmdline)) < 0 ||
	    !strstr(cmdline, "fail_make_request=") || (fd = open(disk_knob, O_WRONLY)) < 0)
		return false;
	close(fd);
	set_value("/proc/self/make-it-fail", "1");
	return !why[0];
}

/* A failed write: the page stays in memory, intact; the next pageout writes it. */
static void test_write_error(void)
{
	char *p = anon_4k(1);
	long out = vmstat("pswpout");

	fill(p, 1, 1);
	disk_errors(true);
	pageout(p, PAGE);
	disk_errors(false);
	if (vmstat("pswpout") != out)
		fail("pswpout %ld -> %ld: the write did not fail", out, vmstat("pswpout"));
	if (n_intact(p, 1, 1) != 1)
		fail("data changed after a failed write");
	pageout(p, PAGE);
	if (n_swapped(p, 1) != 1 || vmstat("pswpout") != out + 1)
		fail("a pageout without errors did not write the page (pswpout %ld -> %ld)", out,
		     vmstat("pswpout"));
	if (n_intact(p, 1, 1) != 1)
		fail("data changed after the swap-in");
	munmap(p, PAGE);
	check_done("a failed swap write keeps the page in memory, intact; the next pageout writes it");
}

/*
 * A failed read: the faulting child dies of SIGBUS; the parent, whose
 * entry names the same slot, reads its data once the disk works.
 */
static void test_read_error(void)
{
	char *p = swapped_pages(1, 2);
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		disk_errors(true);
		_exit(n_intact(p, 1, 2) == 1 ? 0 : 3);  /* SIGBUS expected before */
	}
	waitpid(pid, &status, 0);
	disk_errors(false);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGBUS)
		fail("child status %#x, not killed by SIGBUS", status);
	if (n_swapped(p, 1) != 1)
		fail("the parent's entry went");
	if (n_intact(p, 1, 2) != 1)
		fail("the parent did not read its data back");
	munmap(p, PAGE);
	check_done("a failed swap-in read kills the faulting child with SIGBUS; the parent, "
		   "sharing the entry, reads its data once the disk works");
}

/* A 1-page tmpfs file, mapped shared, filled with seed's pattern; its fd in *fd. */
static char *shmem_page(int seed, int *fd)
{
	char *p;

	*fd = open("/tmp/swap_error", O_RDWR | O_CREAT | O_TRUNC, 0600);
	unlink("/tmp/swap_error");
	p = *fd < 0 || ftruncate(*fd, PAGE) ? MAP_FAILED :
		mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED) {
		printf("Bail out! a tmpfs page: %s\n", strerror(errno));
		exit(1);
	}
	fill(p, 1, seed);
	return p;
}

/* The same for a tmpfs page: a failed write keeps it (in memory, intact), the next pageout writes it. */
static void test_shmem_write_error(void)
{
	long out = vmstat("pswpout"), shmem;
	int fd;
	char *p = shmem_page(3, &fd);

	disk_errors(true);
	pageout(p, PAGE);
	disk_errors(false);
	if (vmstat("pswpout") != out)
		fail("pswpout %ld -> %ld: the write did not fail", out, vmstat("pswpout"));
	if (n_intact(p, 1, 3) != 1)
		fail("data changed after a failed write");
	shmem = proc_value("/proc/meminfo", "Shmem:");
	pageout(p, PAGE);
	if (vmstat("pswpout") != out + 1 || proc_value("/proc/meminfo", "Shmem:") != shmem - 4)
		fail("a pageout without errors did not write the page (pswpout %ld -> %ld)", out,
		     vmstat("pswpout"));
	if (n_intact(p, 1, 3) != 1)
		fail("data changed after the swap-in");
	munmap(p, PAGE);
	close(fd);
	check_done("a tmpfs page: a failed swap write keeps it, intact; the next pageout writes it");
}

/*
 * A failed read of a tmpfs page: read(2) is EIO and a fault SIGBUS, for
 * the child that met the error; the parent reads the data once the disk
 * works.
 */
static void test_shmem_read_error(void)
{
	int fd, status;
	char *p = shmem_page(4, &fd), buf[64];
	pid_t pid;

	pageout(p, PAGE);
	pid = fork();
	if (pid == 0) {
		disk_errors(true);
		if (pread(fd, buf, sizeof(buf), 0) != -1 || errno != EIO)
			_exit(4);
		_exit(n_intact(p, 1, 4) == 1 ? 0 : 3);  /* SIGBUS expected before */
	}
	waitpid(pid, &status, 0);
	disk_errors(false);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGBUS)
		fail("child status %#x, not EIO then killed by SIGBUS", status);
	if (n_intact(p, 1, 4) != 1)
		fail("the parent did not read its data back");
	munmap(p, PAGE);
	close(fd);
	check_done("a failed swap-in of a tmpfs page: read(2) EIO and a fault SIGBUS for the task "
		   "that met it; the data reads back once the disk works");
}

int main(void)
{
	char dev[128];
	int prio;

	if (!first_swap(dev, sizeof(dev), &prio)) {
		printf("1..0 # SKIP no swap\n");
		return 0;
	}
	if (!injection_ready()) {
		printf("1..0 # SKIP no fail_make_request= or no %s\n", disk_knob);
		return 0;
	}
	test_write_error();
	test_read_error();
	test_shmem_write_error();
	test_shmem_read_error();
	set_value("/proc/self/make-it-fail", "0");
	return tap_done();
}
