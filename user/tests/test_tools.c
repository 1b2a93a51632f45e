/*
 * Guest test (TAP): the user tools print what the kernel shows — ps lists
 * this process, free reads meminfo, pagemap groups a 64 KiB folio into one
 * line, foliostat names the folio's order, slots (with PIDs), shared bit
 * and AnonExclusive pages, before and after a fork.  Running a tool forks
 * this process, which clears AnonExclusive on its pages (as on Linux); the
 * tool's exec gives the slot back, so the folio is not shared any more.
 */
#include "thp_util.h"

int main(void)
{
	char out[8192], pid[16], addr[32], slot[64];
	char *p = map_aligned(64 * 1024, 64 * 1024);
	int go[2], c = 0;
	pid_t child;

	thp_only(64);
	p[0] = 1;
	thp_only(0);
	snprintf(pid, sizeof(pid), "%d", getpid());
	snprintf(addr, sizeof(addr), "%#lx", (unsigned long)p);
	ok(run_output(out, sizeof(out), (char *[]){ "/bin/ps", NULL }) == 0 && strstr(out, "test_tools") &&
	   strstr(out, "PID"), "ps lists this process");
	ok(run_output(out, sizeof(out), (char *[]){ "/usr/bin/free", NULL }) == 0 && strstr(out, "Mem:") &&
	   strstr(out, "Swap:"), "free (BusyBox's) prints Mem: and Swap:");
	snprintf(addr, sizeof(addr), "%lx", (unsigned long)p);
	{
		char end[32];

		snprintf(end, sizeof(end), "%lx", (unsigned long)p + 64 * 1024);
		ok(run_output(out, sizeof(out), (char *[]){ "/bin/pagemap", pid, addr, end, NULL }) == 0 &&
		   strstr(out, "order 4  exclusive  16 pages") && !strchr(strchr(out, '\n') + 1, '\n'),
		   "pagemap: one line for the 16 pages of the folio, exclusive");
	}
	snprintf(addr, sizeof(addr), "%#lx", (unsigned long)p);
	snprintf(slot, sizeof(slot), "(pid %d) with 16 mappings", getpid());
	ok(run_output(out, sizeof(out), (char *[]){ "/bin/foliostat", pid, addr, NULL }) == 0 &&
	   strstr(out, "order 4 (64 KiB)") && strstr(out, slot) && strstr(out, "maybe shared:     no") &&
	   strstr(out, "none (0 of 16 pages)"),
	   "foliostat: order, this mm's slot, not shared; no page exclusive (run_output() forked)");
	xpipe(go, 0);
	if (!(child = fork())) {
		close(go[1]);                   /* a dead parent reads as EOF */
		read(go[0], &c, sizeof(c));
		_exit(0);
	}
	snprintf(slot, sizeof(slot), "(pid %d) with 16 mappings", child);
	ok(run_output(out, sizeof(out), (char *[]){ "/bin/foliostat", pid, addr, NULL }) == 0 &&
	   strstr(out, slot) && strstr(out, "maybe shared:     yes") && strstr(out, "none (0 of 16"),
	   "foliostat after fork: the child's slot, shared, no page exclusive");
	write(go[1], &c, sizeof(c));
	wait_exit(child);
	printf("# %s", out);
	munmap(p, 64 * 1024);
	return tap_done();
}
