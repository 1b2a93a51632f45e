/*
 * Guest test (TAP): the CPUs as user space sees them, the same three
 * ways: /proc/cpuinfo (one "processor : N" block per online CPU, Linux's
 * format), /sys/devices/system/cpu/{online,present,possible} ("0-3"), and
 * sysconf(_SC_NPROCESSORS_ONLN) (musl counts sched_getaffinity's mask).
 * Runs unchanged on Linux (../shared/peer/linux-peer.sh --mounts --smp 4).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include "tap.h"

#define MAX_CPUS 64

/* Read a small text file into buf; its length, or -1. */
static int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY), n = -1, r;

	if (fd < 0)
		return -1;
	for (n = 0; (size_t)n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0; n += r)
		;
	buf[n] = 0;
	close(fd);
	return n;
}

/* Parse a CPU list "0-3,6\n" into mask; the number of CPUs, or -1 if malformed. */
static int parse_cpu_list(const char *s, unsigned long long *mask)
{
	int count = 0;
	char *end;

	*mask = 0;
	while (*s && *s != '\n') {
		long first = strtol(s, &end, 10), last = first;

		if (end == s || first < 0 || first >= MAX_CPUS)
			return -1;
		if (*end == '-')
			last = strtol(end + 1, &end, 10);
		if (last < first || last >= MAX_CPUS)
			return -1;
		for (long cpu = first; cpu <= last; cpu++, count++)
			*mask |= 1ULL << cpu;
		s = *end == ',' ? end + 1 : end;
	}
	return *s == '\n' ? count : -1;
}

/* Count cpuinfo's blocks: numbered 0, 1, ... each with vendor, model name and flags. */
static int count_cpuinfo(const char *text, int *well_formed)
{
	const char *p = text;
	int n = 0, cpu;

	*well_formed = 1;
	while ((p = strstr(p, "processor\t: "))) {
		const char *next = strstr(p + 1, "processor\t: ");
		size_t len = next ? (size_t)(next - p) : strlen(p);
		char block[8192];

		if (sscanf(p, "processor\t: %d", &cpu) != 1 || cpu != n || len >= sizeof(block))
			*well_formed = 0;
		snprintf(block, sizeof(block), "%.*s", (int)len, p);
		if (!strstr(block, "\nvendor_id\t: ") || !strstr(block, "\nmodel name\t: ") ||
		    !strstr(block, "\nflags\t\t: "))
			*well_formed = 0;
		n++;
		p++;
	}
	return n;
}

static int sys_cpu_list(const char *name, unsigned long long *mask)
{
	char path[64], buf[256];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s", name);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	return parse_cpu_list(buf, mask);
}

static void check_sysconf(int online)
{
	unsigned char set[128];

	if (syscall(SYS_sched_getaffinity, 0, sizeof(set), set) < 0 && errno == ENOSYS) {
		skip("sysconf(_SC_NPROCESSORS_ONLN): no sched_getaffinity to count with");
		return;
	}
	ok(sysconf(_SC_NPROCESSORS_ONLN) == online, "sysconf(_SC_NPROCESSORS_ONLN) == %d", online);
}

int main(void)
{
	static char cpuinfo[65536];
	unsigned long long online_mask, present_mask, possible_mask;
	int n, online, present, possible, well_formed;

	mount_proc_sys();
	ok(read_text("/proc/cpuinfo", cpuinfo, sizeof(cpuinfo)) > 0, "/proc/cpuinfo reads");
	n = count_cpuinfo(cpuinfo, &well_formed);
	ok(n >= 1 && well_formed, "/proc/cpuinfo: %d blocks, processor 0..%d with vendor_id, "
	   "model name, flags", n, n - 1);
	online = sys_cpu_list("online", &online_mask);
	present = sys_cpu_list("present", &present_mask);
	possible = sys_cpu_list("possible", &possible_mask);
	ok(online == n, "/sys/devices/system/cpu/online lists %d CPUs, cpuinfo %d", online, n);
	ok(online_mask == (1ULL << n) - 1, "online is 0-%d", n - 1);
	ok(present >= online && (present_mask & online_mask) == online_mask,
	   "present (%d) holds the online CPUs", present);
	ok(possible >= present && (possible_mask & present_mask) == present_mask,
	   "possible (%d) holds the present CPUs", possible);
	check_sysconf(online);
	printf("# %d CPUs online\n", online);
	return tap_done();
}
