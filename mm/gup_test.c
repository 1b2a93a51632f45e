/*
 * /sys/kernel/debug/gup_test (Linux's mm/gup_test.c): pins on demand, for
 * the selftests.  PIN_LONGTERM_TEST_START pins a range of the caller's
 * memory (FOLL_PIN | FOLL_LONGTERM, and FOLL_WRITE if asked), READ copies
 * the pinned pages' contents to the caller, STOP (or closing the file)
 * unpins them.  One set of pins at a time, system-wide, as in Linux; the
 * pins outlive the caller's mappings (an munmap or exit leaves the pages
 * to the pins).  The benchmark and dump commands are not implemented
 * (EINVAL).
 *
 * Lock order: see mm/rmap.c; one CPU and no preemption in the kernel: the
 * test's state needs no lock.
 */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/slab.h"
#include "linux/string.h"
#include "linux/uaccess.h"
#include "mm/mm_api.h"
#include "mm/mm.h"
#include "uapi/linux/gup_test.h"

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

static long gup_test_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case PIN_LONGTERM_TEST_START:
		return pin_longterm_test_start(arg);
	case PIN_LONGTERM_TEST_STOP:
		pin_longterm_test_stop();
		return 0;
	case PIN_LONGTERM_TEST_READ:
		return pin_longterm_test_read(arg);
	}
	return -EINVAL;
}

static int gup_test_release(struct inode *inode, struct file *file)
{
	pin_longterm_test_stop();
	return 0;
}

const struct file_operations gup_test_fops = {
	.open = nonseekable_open,
	.unlocked_ioctl = gup_test_ioctl,
	.release = gup_test_release,
};
