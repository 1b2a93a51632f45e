/*
 * /sys/kernel/debug/gup_test's ioctls as user space sees them (Linux's
 * mm/gup_test.h: an ABI, the same numbers everywhere; the kernel's side is
 * include/uapi/linux/gup_test.h), for the tests that pin pages through it.
 */
#ifndef USER_GUP_TEST_ABI_H
#define USER_GUP_TEST_ABI_H

#include <stdint.h>
#include <sys/ioctl.h>

struct pin_longterm_test {
	uint64_t addr;
	uint64_t size;
	uint32_t flags;
};
#define PIN_LONGTERM_TEST_START _IOW('g', 7, struct pin_longterm_test)
#define PIN_LONGTERM_TEST_STOP  _IO('g', 8)
#define PIN_LONGTERM_TEST_READ  _IOW('g', 9, uint64_t)
#define PIN_LONGTERM_TEST_FLAG_USE_WRITE 1

struct gup_test {
	uint64_t get_delta_usec, put_delta_usec, addr, size;
	uint32_t nr_pages_per_call, gup_flags, test_flags, which_pages[8];
};
#define GUP_BASIC_TEST          _IOWR('g', 4, struct gup_test)
#define PIN_BASIC_TEST          _IOWR('g', 5, struct gup_test)

#endif
