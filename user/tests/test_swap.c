/*
 * Guest test (TAP): anonymous memory out to swap and back as Linux 6.1
 * does it, driven by MADV_PAGEOUT: 4 KiB pages, a PMD THP and a 64 KiB
 * mTHP, across fork, by process_madvise, and through swapoff.  In detail:
 * a 4 KiB page leaves a swap entry in pagemap (PM_SWAP, not PM_PRESENT),
 * VmSwap and SwapFree move, a read brings the data back; the swapped-in
 * page stays AnonExclusive (a write reuses it, same PFN); a THP goes out
 * whole (all 512 entries swapped, thp_swpout + 1) and a 64 KiB mTHP too
 * (hugepages-64kB/stats/swpout), and comes back in as one 64 KiB folio
 * (stats/swpin; a SKIP on Linux 6.1, which has no mTHP — and Linux 6.10+
 * swaps mTHPs in whole only from zram-like synchronous devices);
 * fork copies swap entries (the child reads and writes its own copy, the
 * parent keeps its data), a child's swap-in leaves the parent's entry
 * alone; MADV_PAGEOUT skips a page two processes map; MADV_COLD is 0 and
 * leaves swapped and present pages as they are; munmap gives the slots
 * back (SwapFree); smaps' Swap: line; process_madvise(MADV_PAGEOUT) of
 * another process's memory; and, last, swapoff of the disk under a live
 * process brings every page in (then swapon again with its priority:
 * later tests expect swap).
 * Every check needs pages to reach swap, so each fails on a kernel without
 * swap-out; without a swap device at all the test skips.  Runs unchanged
 * on Linux (../shared/peer/linux-peer.sh --swap 64M --mem 1G).
 *
 * Linux details the checks allow for: a swapped-out page stays in the
 * swap cache under writeback, and its slot is only freed at munmap once
 * the write completed (so test_munmap waits for Writeback: 0 first); the
 * per-CPU swap slot cache takes and returns slots 64 at a time, so
 * SwapFree moves in steps of 256 kB (the first pageout after swapon
 * always takes a batch) and is back after munmap only to within two
 * batches; a THP goes out whole only to a non-rotational disk, so where
 * the disk has Linux's /sys/block/<disk>/queue/rotational at 1 (QEMU's
 * virtio-blk) the test sets it to 0 and swaps the disk off and on again
 * first (and sets it back at the end).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include "swap_util.h"

/* The bracketed choice of a THP "enabled" file into mode ("" if unreadable). */
static void thp_mode(const char *path, char *mode, size_t size)
{
	char buf[128], *l, *r;

	mode[0] = '\0';
	if (read_all(path, buf, sizeof(buf)) > 0 && (l = strchr(buf, '[')) && (r = strchr(l, ']'))) {
		*r = '\0';
		snprintf(mode, size, "%s", l + 1);
	}
}

static int swap_flags(int prio)
{
	return prio >= 0 ? SWAP_FLAG_PREFER | (prio & SWAP_FLAG_PRIO_MASK) : 0;
}

/* The rotational knob set to 0 for this test, to be set back to 1 ("": none). */
static char rotational[160];

/*
 * Linux gives a THP one cluster of swap (and so swaps it out whole) only on
 * a non-rotational device (SWP_SOLIDSTATE, read at swapon); QEMU's
 * virtio-blk says rotational, and Linux 6.1 then splits every THP it swaps
 * (thp_swpout_fallback).  So, as an SSD would be: rotational 0, then the
 * disk swapped off and on again, before any page goes out.  test_swapoff
 * sets the knob back before its swapon.  Nothing to do without the knob.
 */
static void swap_as_ssd(const char *dev, int prio)
{
	const char *name = strrchr(dev, '/');
	char buf[16];

	snprintf(rotational, sizeof(rotational), "/sys/block/%s/queue/rotational",
		 name ? name + 1 : dev);
	if (read_all(rotational, buf, sizeof(buf)) <= 0 || buf[0] != '1') {
		rotational[0] = '\0';
		return;
	}
	if (write_text(rotational, "0") || swapoff(dev) || swapon(dev, swap_flags(prio)))
		printf("# %s as non-rotational: %s\n", dev, strerror(errno));
	else
		printf("# %s: rotational 1 -> 0, swapped off and on again\n", dev);
}

/* 1 and 2: one 4 KiB page out and back; the page it came back in stays exclusive. */
static void test_4k(void)
{
	char *p = anon_4k(1);
	unsigned long long e;
	long swap0, swap1, free0, free1;
	unsigned long pfn, pfn2;
	bool out;

	fill(p, 1, 1);
	swap0 = vmswap_kb();
	free0 = swapfree_kb();
	pageout(p, PAGE);
	e = pagemap_entry(p);
	swap1 = vmswap_kb();
	free1 = swapfree_kb();
	out = is_swapped(e);
	if (!out)
		fail("pagemap %#llx, not a swap entry", e);
	if (swap0 < 0 || swap1 - swap0 < 4)
		fail("VmSwap %ld -> %ld kB", swap0, swap1);
	if (free0 < 0 || free1 >= free0)
		fail("SwapFree %ld -> %ld kB", free0, free1);
	if (n_intact(p, 1, 1) != 1)
		fail("the data read back is wrong");
	if (!(pagemap_entry(p) & PM_PRESENT))
		fail("not present after the read");
	check_done("4 KiB page: MADV_PAGEOUT leaves a swap entry (PM_SWAP), VmSwap +4 kB, SwapFree "
		   "falls; a read brings the data back, present");

	pfn = pfn_of(p);
	p[100] ^= 0x5a;
	pfn2 = pfn_of(p);
	if (!out)
		fail("the page never went out");
	if (!pfn || pfn2 != pfn)
		fail("PFN %#lx -> %#lx after the write", pfn, pfn2);
	if (!pm_exclusive(p))
		fail("no PM_MMAP_EXCLUSIVE");
	p[100] ^= 0x5a;
	if (n_intact(p, 1, 1) != 1)
		fail("the data is wrong after the write");
	check_done("AnonExclusive survives swap: a write after the read swap-in reuses the page "
		   "(same PFN, PM_MMAP_EXCLUSIVE)");
	munmap(p, PAGE);
}

/* 3: a PMD-mapped THP goes out whole. */
static void test_thp(void)
{
	char mode[32], *p;
	long ahp, out0, out1, fb0, fb1;
	unsigned long n;

	thp_mode(THP_DIR "enabled", mode, sizeof(mode));
	if (!strcmp(mode, "never"))
		write_text(THP_DIR "enabled", "madvise");
	p = map_aligned(PMD_SIZE, PMD_SIZE);
	madvise(p, PMD_SIZE, MADV_HUGEPAGE);
	fill(p, 512, 3);
	ahp = smaps_kb(p, "AnonHugePages:");
	out0 = vmstat("thp_swpout");
	fb0 = vmstat("thp_swpout_fallback");
	if (ahp < 2048)
		fail("not a THP (AnonHugePages %ld kB)", ahp);
	pageout(p, PMD_SIZE);
	n = n_swapped(p, 512);
	out1 = vmstat("thp_swpout");
	fb1 = vmstat("thp_swpout_fallback");
	if (n != 512)
		fail("%lu of 512 pages swapped", n);
	if (out0 < 0 || out1 != out0 + 1)
		fail("thp_swpout %ld -> %ld (thp_swpout_fallback %ld -> %ld)", out0, out1, fb0, fb1);
	if ((n = n_intact(p, 512, 3)) != 512)
		fail("%lu of 512 pages read back intact", n);
	check_done("2 MiB THP: MADV_PAGEOUT swaps out all 512 pages, whole (thp_swpout + 1); "
		   "the data reads back");
	munmap(p, PMD_SIZE);
	if (!strcmp(mode, "never"))
		write_text(THP_DIR "enabled", "never");
}

/* 4: a 64 KiB mTHP goes out whole (kernels with per-size THP knobs). */
static void test_mthp(void)
{
	const char *dir = THP_DIR "hugepages-64kB/";
	char mode[32], *p;
	long out0, out1, in0, in1;
	unsigned long n;

	if (access(dir, F_OK)) {
		skip("64 KiB mTHP: no hugepages-64kB (Linux 6.1 has no mTHP)");
		return;
	}
	thp_mode(THP_DIR "hugepages-64kB/enabled", mode, sizeof(mode));
	thp_set(64, "always");
	p = map_aligned(64 * 1024, 64 * 1024);
	fill(p, 16, 4);
	if (!pfns_contiguous(p, 16) || pfn_of(p) % 16)
		fail("not a 64 KiB folio (PFN %#lx)", pfn_of(p));
	out0 = sysfs_value(THP_DIR "hugepages-64kB/stats/swpout");
	pageout(p, 64 * 1024);
	n = n_swapped(p, 16);
	out1 = sysfs_value(THP_DIR "hugepages-64kB/stats/swpout");
	if (n != 16)
		fail("%lu of 16 pages swapped", n);
	if (out0 < 0 || out1 != out0 + 1)
		fail("hugepages-64kB/stats/swpout %ld -> %ld", out0, out1);
	in0 = sysfs_value(THP_DIR "hugepages-64kB/stats/swpin");
	if ((n = n_intact(p, 16, 4)) != 16)
		fail("%lu of 16 pages read back intact", n);
	in1 = sysfs_value(THP_DIR "hugepages-64kB/stats/swpin");
	if (!pfns_contiguous(p, 16) || pfn_of(p) % 16 || in1 != in0 + 1)
		fail("not swapped in as one 64 KiB folio (PFN %#lx, stats/swpin %ld -> %ld)",
		     pfn_of(p), in0, in1);
	check_done("64 KiB mTHP: MADV_PAGEOUT swaps out all 16 pages, whole (stats/swpout + 1); "
		   "the data reads back, swapped in whole (stats/swpin + 1)");
	munmap(p, 64 * 1024);
	if (mode[0])
		thp_set(64, mode);
}

/* 5: fork copies the swap entries; each process then has its own data. */
static void test_fork(void)
{
	char *p = anon_4k(16);
	unsigned long n;
	pid_t pid;
	int st;

	fill(p, 16, 5);
	pageout(p, 16 * PAGE);
	if ((n = n_swapped(p, 16)) != 16)
		fail("%lu of 16 pages swapped before fork", n);
	pid = xfork();
	if (!pid) {
		st = n_swapped(p, 16) == 16 ? 0 : 1;
		st |= n_intact(p, 16, 5) == 16 ? 0 : 2;
		fill(p, 16, 55);
		st |= n_intact(p, 16, 55) == 16 ? 0 : 4;
		_exit(st);
	}
	st = wait_exit(pid);
	if (st)
		fail("child: status %d (1: no swap entries inherited, 2: data read wrong, "
		     "4: its writes wrong)", st);
	if ((n = n_intact(p, 16, 5)) != 16)
		fail("parent: %lu of 16 pages intact after the child wrote", n);
	check_done("fork after swap-out: the child reads all 16 pages and writes its copy, "
		   "the parent then reads its own data");
	munmap(p, 16 * PAGE);
}

/* 6: a child's swap-in of a page leaves the parent's swap entry as it was. */
static void test_child_swapin(void)
{
	char *p = swapped_pages(1, 6);
	pid_t pid;
	int st;

	pid = xfork();
	if (!pid) {
		st = is_swapped(pagemap_entry(p)) ? 0 : 1;
		st |= n_intact(p, 1, 6) == 1 ? 0 : 2;
		st |= pagemap_entry(p) & PM_PRESENT ? 0 : 4;
		_exit(st);
	}
	st = wait_exit(pid);
	if (st)
		fail("child: status %d (1: no swap entry, 2: data wrong, 4: not present after)", st);
	if (!is_swapped(pagemap_entry(p)))
		fail("parent's entry %#llx after the child's swap-in, not swapped",
		     pagemap_entry(p));
	if (n_intact(p, 1, 6) != 1)
		fail("parent reads wrong data");
	check_done("a child swaps in a page: the parent's entry is still a swap entry, "
		   "then the parent reads the data");
	munmap(p, PAGE);
}

/* 7: MADV_PAGEOUT leaves a page two processes map; once the child is gone it goes. */
static void test_shared_skip(void)
{
	char *p = anon_4k(1), c = 0;
	int up[2], down[2], st;
	pid_t pid;

	fill(p, 1, 7);
	xpipe(up, 0);
	xpipe(down, 0);
	pid = xfork();
	if (!pid) {
		close(up[0]), close(down[1]);
		write(up[1], "r", 1);
		read(down[0], &c, 1);
		_exit(pagemap_entry(p) & PM_PRESENT ? 0 : 1);
	}
	close(up[1]), close(down[0]);
	read(up[0], &c, 1);
	pageout(p, PAGE);
	if (!(pagemap_entry(p) & PM_PRESENT))
		fail("paged out while the child maps it (entry %#llx)", pagemap_entry(p));
	write(down[1], "g", 1);
	close(up[0]), close(down[1]);
	if ((st = wait_exit(pid)))
		fail("child: status %d (1: not present in the child)", st);
	pageout(p, PAGE);
	if (!is_swapped(pagemap_entry(p)))
		fail("not paged out once the child exited (entry %#llx)", pagemap_entry(p));
	if (n_intact(p, 1, 7) != 1)
		fail("data wrong");
	check_done("MADV_PAGEOUT skips a page mapped by parent and child; after the child "
		   "exits it pages it out");
	munmap(p, PAGE);
}

/* 8: MADV_COLD is 0 and moves nothing: a swapped page stays out, a present one in. */
static void test_cold(void)
{
	char *p = anon_4k(2);

	fill(p, 2, 8);
	pageout(p, PAGE);
	if (!is_swapped(pagemap_entry(p)))
		fail("page 0 not swapped");
	if (madvise(p, 2 * PAGE, MADV_COLD))
		fail("MADV_COLD: %s", strerror(errno));
	if (!is_swapped(pagemap_entry(p)))
		fail("page 0 not a swap entry after MADV_COLD");
	if (!(pagemap_entry(p + PAGE) & PM_PRESENT))
		fail("page 1 not present after MADV_COLD");
	if (n_intact(p, 2, 8) != 2)
		fail("data wrong");
	check_done("MADV_COLD returns 0, a swapped-out page stays out, a present one stays; "
		   "the data is intact");
	munmap(p, 2 * PAGE);
}

/* 9: munmap of swapped-out memory frees its slots: SwapFree comes back. */
static void test_munmap(void)
{
	char *p = anon_4k(512);
	long free0, free1, free2 = -1;
	unsigned long n;

	fill(p, 512, 9);
	free0 = swapfree_kb();
	pageout(p, 512 * PAGE);
	free1 = swapfree_kb();
	if ((n = n_swapped(p, 512)) != 512)
		fail("%lu of 512 pages swapped", n);
	if (free0 < 0 || free0 - free1 < 2048 - SLOT_BATCH_KB)
		fail("SwapFree %ld -> %ld kB after paging out 2 MiB", free0, free1);
	wait_writeback();
	munmap(p, 512 * PAGE);
	for (int i = 0; i < 50; i++) {
		free2 = swapfree_kb();
		if (labs(free2 - free0) <= 2 * SLOT_BATCH_KB)
			break;
		usleep(20000);
	}
	if (labs(free2 - free0) > 2 * SLOT_BATCH_KB)
		fail("SwapFree %ld kB after munmap, %ld before the pageout", free2, free0);
	check_done("munmap of 2 MiB swapped out gives the slots back: SwapFree as before "
		   "(to within Linux's slot-cache batches)");
}

/* 10: smaps' Swap: line counts the VMA's swapped-out pages. */
static void test_smaps(void)
{
	char *g = anon_4k(18), *p = g + PAGE;
	long swap0, swap1;

	mprotect(g, PAGE, PROT_NONE);                   /* a VMA of its own */
	mprotect(g + 17 * PAGE, PAGE, PROT_NONE);
	fill(p, 16, 10);
	swap0 = smaps_kb(p, "Swap:");
	pageout(p, 16 * PAGE);
	swap1 = smaps_kb(p, "Swap:");
	if (swap0 != 0 || swap1 != 64)
		fail("Swap: %ld kB before, %ld kB after", swap0, swap1);
	if (n_intact(p, 16, 10) != 16)
		fail("data wrong");
	check_done("smaps: the VMA's Swap: line is 64 kB after 16 pages went out");
	munmap(g, 18 * PAGE);
}

/* 11: process_madvise(MADV_PAGEOUT) pages out another process's memory. */
static void test_process_madvise(void)
{
	char *p = anon_4k(4), c = 0;
	int up[2], down[2], pidfd, st;
	struct iovec iov = { p, 4 * PAGE };
	unsigned long n;
	long ret;
	pid_t pid;

	xpipe(up, 0);
	xpipe(down, 0);
	pid = xfork();
	if (!pid) {                     /* its own pages: the parent never touched them */
		close(up[0]), close(down[1]);
		fill(p, 4, 11);
		write(up[1], "r", 1);
		read(down[0], &c, 1);
		_exit(n_intact(p, 4, 11) == 4 ? 0 : 1);
	}
	close(up[1]), close(down[0]);
	read(up[0], &c, 1);
	pidfd = syscall(NR_pidfd_open, pid, 0);
	ret = pidfd < 0 ? -1 : syscall(NR_process_madvise, pidfd, &iov, 1, MADV_PAGEOUT, 0);
	if (pidfd < 0)
		fail("pidfd_open: %s", strerror(errno));
	else if (ret != (long)(4 * PAGE))
		fail("process_madvise: %ld (%s)", ret, ret < 0 ? strerror(errno) : "short");
	if ((n = n_swapped_pid(pid, p, 4)) != 4)
		fail("%lu of 4 pages swapped in /proc/%d/pagemap", n, (int)pid);
	write(down[1], "g", 1);
	close(up[0]), close(down[1]);
	if ((st = wait_exit(pid)))
		fail("child: status %d (1: its data wrong)", st);
	if (pidfd >= 0)
		close(pidfd);
	check_done("process_madvise(pidfd, MADV_PAGEOUT) swaps out a child's 4 pages; the "
		   "child reads them back");
	munmap(p, 4 * PAGE);
}

/* 12: swapoff under a live process brings its pages in; then swapon again. */
static void test_swapoff(void)
{
	char dev[128], again[128];
	char *p = anon_4k(256);
	int prio, prio2 = 0;
	unsigned long n;

	if (!first_swap(dev, sizeof(dev), &prio)) {
		ok(0, "swapoff: no swap device listed any more");
		return;
	}
	fill(p, 256, 12);
	pageout(p, 256 * PAGE);
	if ((n = n_swapped(p, 256)) != 256)
		fail("%lu of 256 pages swapped", n);
	if (swapoff(dev))
		fail("swapoff %s: %s", dev, strerror(errno));
	if ((n = n_present(p, 256)) != 256)
		fail("%lu of 256 pages present after swapoff", n);
	if ((n = n_intact(p, 256, 12)) != 256)
		fail("%lu of 256 pages intact", n);
	if (first_swap(again, sizeof(again), &prio2))
		fail("/proc/swaps still lists %s", again);
	if (rotational[0])
		write_text(rotational, "1");
	if (swapon(dev, swap_flags(prio)))
		fail("swapon %s again: %s", dev, strerror(errno));
	if (!first_swap(again, sizeof(again), &prio2) || strcmp(again, dev) || prio2 != prio)
		fail("/proc/swaps after swapon: %s", first_swap(again, sizeof(again), &prio2) ? again
		     : "nothing");
	check_done("swapoff with 1 MiB swapped out: every page back, intact; /proc/swaps empty; "
		   "swapon again with the same priority");
	munmap(p, 256 * PAGE);
}

int main(void)
{
	char dev[128];
	int prio;

	if (!swap_test_start(dev, sizeof(dev), &prio))
		return 0;
	printf("# swap: %s, priority %d\n", dev, prio);
	swap_as_ssd(dev, prio);
	test_4k();
	test_thp();
	test_mthp();
	test_fork();
	test_child_swapin();
	test_shared_skip();
	test_cold();
	test_munmap();
	test_smaps();
	test_process_madvise();
	test_swapoff();
	return tap_done();
}
