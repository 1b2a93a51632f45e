/*
 * /sys/kernel/debug/gup_test's ioctls (Linux's mm/gup_test.h, the same
 * numbers and layouts: the selftests pass these structures unchanged).
 * foliOS implements them all in mm/gup_test.c.
 */
#ifndef _UAPI_LINUX_GUP_TEST_H
#define _UAPI_LINUX_GUP_TEST_H

#include "linux/types.h"
#include "uapi/linux/ioctl.h"

#define GUP_FAST_BENCHMARK      _IOWR('g', 1, struct gup_test)
#define PIN_FAST_BENCHMARK      _IOWR('g', 2, struct gup_test)
#define PIN_LONGTERM_BENCHMARK  _IOWR('g', 3, struct gup_test)
#define GUP_BASIC_TEST          _IOWR('g', 4, struct gup_test)
#define PIN_BASIC_TEST          _IOWR('g', 5, struct gup_test)
#define DUMP_USER_PAGES_TEST    _IOWR('g', 6, struct gup_test)
#define PIN_LONGTERM_TEST_START _IOW('g', 7, struct pin_longterm_test)
#define PIN_LONGTERM_TEST_STOP  _IO('g', 8)
#define PIN_LONGTERM_TEST_READ  _IOW('g', 9, uint64_t)

#define GUP_TEST_MAX_PAGES_TO_DUMP      8
#define GUP_TEST_FLAG_DUMP_PAGES_USE_PIN        0x1

struct gup_test {
	uint64_t get_delta_usec;
	uint64_t put_delta_usec;
	uint64_t addr;
	uint64_t size;
	uint32_t nr_pages_per_call;
	uint32_t gup_flags;
	uint32_t test_flags;
	/* 1-based page numbers from addr; 0 entries mean nothing. */
	uint32_t which_pages[GUP_TEST_MAX_PAGES_TO_DUMP];
};

#define PIN_LONGTERM_TEST_FLAG_USE_WRITE        1
#define PIN_LONGTERM_TEST_FLAG_USE_FAST         2

struct pin_longterm_test {
	uint64_t addr;
	uint64_t size;
	uint32_t flags;
};

#endif
