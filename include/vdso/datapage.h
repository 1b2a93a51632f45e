/*
 * The vDSO's data page (Linux's include/vdso/datapage.h and the clock
 * readers of lib/vdso/gettimeofday.c): the clocks' whole state, in one
 * page the kernel writes and every process may read.  It is mapped
 * read-only into each process as [vvar], one page below the [vdso] code
 * (arch/x86_64/vdso/), which finds it at that fixed distance:
 *
 *      [vvar]  r--p   struct vdso_data        (the kernel's vdso_data page)
 *      [vdso]  r-xp   linux-vdso.so.1         (AT_SYSINFO_EHDR points here)
 *
 * The kernel's own clocks read the same page with the same functions
 * (ktime_get_ns, ktime_get_real_ns, clock_gettime), so a time read in
 * user mode and one read by a system call can never disagree.
 *
 *   monotonic ns = (TSC - tsc_base) scaled by tsc_khz    (since boot)
 *   real ns      = monotonic ns + offs_real              (since 1970)
 *   coarse       = either, cut to a whole tick
 *
 * Writers: tsc_base, tsc_khz, tick_nsec and has_rdtscp are set once at
 * boot, before any process runs; offs_real is stored whole (WRITE_ONCE)
 * by settimeofday, the time zone's two words under timekeeping.c's tz_lock,
 * so a reader needs no lock: it may see the time just before or just
 * after a settimeofday, as a system call racing with it may.
 *
 * This header is compiled into the kernel and into the vDSO (user code):
 * it uses nothing but types.
 */
#ifndef _VDSO_DATAPAGE_H
#define _VDSO_DATAPAGE_H

#include "linux/types.h"
#include "uapi/linux/time.h"

struct vdso_data {
	u64 tsc_base;                   /* the TSC at boot: monotonic time 0 */
	u64 tsc_khz;                    /* TSC ticks per ms; 0 until calibrated */
	s64 offs_real;                  /* CLOCK_REALTIME - CLOCK_MONOTONIC, in ns */
	u64 tick_nsec;                  /* the coarse clocks' step (1/HZ s) */
	s32 tz_minuteswest, tz_dsttime; /* settimeofday's time zone */
	u32 has_rdtscp;                 /* TSC_AUX holds the CPU: getcpu in user mode */
};

/* Nanoseconds since boot at TSC value tsc (0 before the TSC is calibrated). */
static inline u64 vdso_mono_ns(const struct vdso_data *vd, u64 tsc)
{
	u64 khz = vd->tsc_khz, delta = tsc - vd->tsc_base;

	if (!khz)
		return 0;
	return delta / khz * 1000000 + (delta % khz) * 1000000 / khz;
}

/*
 * The time of clock (a CLOCK_* id) at TSC value tsc, in *ns, for the clocks
 * the page alone can tell; false for the others (the CPU-time clocks, a bad
 * id): the caller asks the kernel.  *res gets the clock's resolution.
 */
static inline bool vdso_clock_ns(const struct vdso_data *vd, int clock, u64 tsc, u64 *ns,
				 u64 *res)
{
	u64 mono = vdso_mono_ns(vd, tsc), real = mono + READ_ONCE(vd->offs_real);

	*res = 1;
	switch (clock) {
	case CLOCK_REALTIME:
		*ns = real;
		return true;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_BOOTTIME:    /* foliOS never suspends */
		*ns = mono;
		return true;
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		*ns = clock == CLOCK_REALTIME_COARSE ? real : mono;
		*ns -= *ns % vd->tick_nsec;
		*res = vd->tick_nsec;
		return true;
	}
	return false;
}

#ifndef __VDSO__
extern struct vdso_data *const vdso_data;       /* the kernel's [vvar] page (arch) */
#endif

#endif
