/*
 * /sys/kernel/debug/gup_test (Linux's mm/gup_test.c): pins on demand, for
 * the selftests.  PIN_LONGTERM_TEST_START pins a range of the caller's
 * memory (FOLL_PIN | FOLL_LONGTERM, and FOLL_WRITE if asked), READ copies
 * the pinned pages' contents to the caller, STOP (or closing the file)
 * unpins them.  One set of pins at a time, system-wide, as in Linux; the
 * pins outlive the caller's mappings (an munmap or exit leaves the pages
 * to the pins).  GUP_BASIC_TEST, PIN_BASIC_TEST, the *_BENCHMARK commands
 * and DUMP_USER_PAGES_TEST take references (or pins) to a range a batch
 * of nr_pages_per_call at a time, time it, check the pins, dump the pages
 * asked for to the kernel log, and drop them again (Linux's
 * __gup_test_ioctl).  foliOS has no lockless GUP-fast: the *_FAST_*
 * commands take the same path as the others.
 *
 * Lock order: see mm/rmap.c.  The PIN_LONGTERM test's pins are one
 * global set, as Linux's: pin_longterm_test_mutex (Linux's) serializes
 * its ioctls and the release, which may sleep (user copies, gup) under it.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "linux/uaccess.h"
#include "linux/mm.h"
#include "linux/rmap.h"
#include "linux/printk.h"
#include <asm/arch.h>
#include "uapi/linux/gup_test.h"

static struct mutex pin_longterm_test_mutex = MUTEX_INIT("pin_longterm_test_mutex");
static struct page **pin_longterm_test_pages;
static unsigned long pin_longterm_test_nr_pages;

static void pin_longterm_test_stop(void)
{
	if (!pin_longterm_test_pages)
		return;
	unpin_user_pages(pin_longterm_test_pages, pin_longterm_test_nr_pages);
	kfree(pin_longterm_test_pages);
	pin_longterm_test_pages = NULL;
	pin_longterm_test_nr_pages = 0;
}

/*
 * Pin the range struct pin_longterm_test at uarg names.  0, -EINVAL (pins
 * held already, bad flags, unaligned or empty range), -EFAULT, -ENOMEM;
 * on a failure nothing stays pinned.
 */
static long pin_longterm_test_start(unsigned long uarg)
{
	unsigned int gup_flags = FOLL_LONGTERM;
	struct pin_longterm_test args;
	unsigned long nr_pages;
	long ret = 0;

	if (pin_longterm_test_pages)
		return -EINVAL;
	if (copy_from_user(&args, (void *)uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags & ~(PIN_LONGTERM_TEST_FLAG_USE_WRITE | PIN_LONGTERM_TEST_FLAG_USE_FAST))
		return -EINVAL;
	if (!IS_ALIGNED(args.addr | args.size, PAGE_SIZE) || args.size > (1UL << 40))
		return -EINVAL;
	nr_pages = args.size / PAGE_SIZE;
	if (!nr_pages)
		return -EINVAL;
	pin_longterm_test_pages = kzalloc(nr_pages * sizeof(struct page *));
	if (!pin_longterm_test_pages)
		return -ENOMEM;
	if (args.flags & PIN_LONGTERM_TEST_FLAG_USE_WRITE)
		gup_flags |= FOLL_WRITE;
	while (pin_longterm_test_nr_pages < nr_pages) {
		unsigned long done = pin_longterm_test_nr_pages;

		ret = pin_user_pages(args.addr + done * PAGE_SIZE, nr_pages - done, gup_flags,
				     pin_longterm_test_pages + done);
		if (ret < 0) {
			pin_longterm_test_stop();
			return ret;
		}
		pin_longterm_test_nr_pages += ret;
	}
	return 0;
}

/* Copy every pinned page, in order, to the user address the __u64 at uarg holds. */
static long pin_longterm_test_read(unsigned long uarg)
{
	uint64_t user_addr;

	if (!pin_longterm_test_pages)
		return -EINVAL;
	if (copy_from_user(&user_addr, (void *)uarg, sizeof(user_addr)))
		return -EFAULT;
	for (unsigned long i = 0; i < pin_longterm_test_nr_pages; i++, user_addr += PAGE_SIZE)
		if (copy_to_user((void *)user_addr, page_address(pin_longterm_test_pages[i]),
				 PAGE_SIZE))
			return -EFAULT;
	return 0;
}

/* Does cmd pin (FOLL_PIN) rather than take plain references? */
static bool gup_test_pins(unsigned int cmd, const struct gup_test *gup)
{
	if (cmd == DUMP_USER_PAGES_TEST)
		return gup->test_flags & GUP_TEST_FLAG_DUMP_PAGES_USE_PIN;
	return cmd == PIN_FAST_BENCHMARK || cmd == PIN_BASIC_TEST || cmd == PIN_LONGTERM_BENCHMARK;
}

/*
 * Take (pin) the pages of gup's range into pages[], nr_pages_per_call at
 * a time, until a call gives fewer; how many were taken.  gup->size
 * becomes the bytes covered (Linux's behaviour: the caller sees how far it got).
 */
static unsigned long gup_test_take(unsigned int cmd, struct gup_test *gup, struct page **pages)
{
	unsigned int flags = gup->gup_flags & (FOLL_WRITE | FOLL_FORCE | FOLL_LONGTERM);
	unsigned long addr = gup->addr, end = gup->addr + gup->size, i = 0;
	long nr = gup->nr_pages_per_call;

	if (cmd == PIN_LONGTERM_BENCHMARK)
		flags |= FOLL_LONGTERM;
	while (addr < end && nr == (long)gup->nr_pages_per_call) {
		nr = MIN((unsigned long)nr, (end - addr) / PAGE_SIZE);
		nr = gup_test_pins(cmd, gup) ? pin_user_pages(addr, nr, flags, pages + i) :
					       get_user_pages(addr, nr, flags, pages + i);
		if (nr <= 0)
			break;
		i += nr;
		addr += nr * PAGE_SIZE;
	}
	gup->size = addr - gup->addr;
	return i;
}

/* The pages gup->which_pages names (1-based), to the kernel log (Linux's dump_pages_test). */
static void dump_pages_test(const struct gup_test *gup, struct page **pages, unsigned long nr)
{
	for (int i = 0; i < GUP_TEST_MAX_PAGES_TO_DUMP; i++)
		if (gup->which_pages[i] && gup->which_pages[i] <= nr)
			dump_page(pages[gup->which_pages[i] - 1], "gup_test: dump_pages() test");
}

/*
 * The batch commands on the struct gup_test copied in (Linux's
 * __gup_test_ioctl): 0, -EINVAL (a range over 1 TiB) or -ENOMEM;
 * get_delta_usec, put_delta_usec and size are filled in.
 */
static long __gup_test_ioctl(unsigned int cmd, struct gup_test *gup)
{
	unsigned long nr_pages = gup->size / PAGE_SIZE, nr;
	struct page **pages;
	u64 t0, t1, t2;

	if (gup->size > (1UL << 40))
		return -EINVAL;
	if (!nr_pages)
		return 0;
	pages = kzalloc(nr_pages * sizeof(struct page *));
	if (!pages)
		return -ENOMEM;
	t0 = ktime_get_ns();
	nr = gup_test_take(cmd, gup, pages);
	t1 = ktime_get_ns();
	for (unsigned long i = 0; gup_test_pins(cmd, gup) && i < nr; i++)
		VM_WARN_ON_ONCE(!folio_maybe_dma_pinned(page_folio(pages[i])),
				"gup_test: a pinned page is not dma-pinned");
	if (cmd == DUMP_USER_PAGES_TEST)
		dump_pages_test(gup, pages, nr);
	t2 = ktime_get_ns();
	for (unsigned long i = 0; i < nr; i++) {
		if (gup_test_pins(cmd, gup))
			unpin_user_page(pages[i]);
		else
			folio_put(page_folio(pages[i]));
	}
	gup->get_delta_usec = (t1 - t0) / 1000;
	gup->put_delta_usec = (ktime_get_ns() - t2) / 1000;
	kfree(pages);
	return 0;
}

/* A batch command: copy the struct gup_test in, run it, copy it back. */
static long gup_test_batch(unsigned int cmd, unsigned long uarg)
{
	struct gup_test gup;
	long ret;

	if (copy_from_user(&gup, (void *)uarg, sizeof(gup)))
		return -EFAULT;
	ret = __gup_test_ioctl(cmd, &gup);
	if (!ret && copy_to_user((void *)uarg, &gup, sizeof(gup)))
		ret = -EFAULT;
	return ret;
}

/* The PIN_LONGTERM_TEST_* ioctls, one at a time (Linux's pin_longterm_test_ioctl). */
static long pin_longterm_test_ioctl(unsigned int cmd, unsigned long arg)
{
	long ret = 0;

	mutex_lock(&pin_longterm_test_mutex);
	if (cmd == PIN_LONGTERM_TEST_START)
		ret = pin_longterm_test_start(arg);
	else if (cmd == PIN_LONGTERM_TEST_STOP)
		pin_longterm_test_stop();
	else
		ret = pin_longterm_test_read(arg);
	mutex_unlock(&pin_longterm_test_mutex);
	return ret;
}

static long gup_test_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case GUP_FAST_BENCHMARK:
	case PIN_FAST_BENCHMARK:
	case PIN_LONGTERM_BENCHMARK:
	case GUP_BASIC_TEST:
	case PIN_BASIC_TEST:
	case DUMP_USER_PAGES_TEST:
		return gup_test_batch(cmd, arg);
	case PIN_LONGTERM_TEST_START:
	case PIN_LONGTERM_TEST_STOP:
	case PIN_LONGTERM_TEST_READ:
		return pin_longterm_test_ioctl(cmd, arg);
	}
	return -EINVAL;
}

static int gup_test_release(struct inode *inode, struct file *file)
{
	mutex_lock(&pin_longterm_test_mutex);
	pin_longterm_test_stop();
	mutex_unlock(&pin_longterm_test_mutex);
	return 0;
}

const struct file_operations gup_test_fops = {
	.open = nonseekable_open,
	.unlocked_ioctl = gup_test_ioctl,
	.release = gup_test_release,
};
