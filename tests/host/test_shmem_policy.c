/*
 * Host tests of shmem's huge policy (mm/shmem_policy.c) against Linux's
 * rules: a tmpfs mount's huge= for writes (every size) and faults (2 MiB
 * only), within_size against i_size and the write's end, advise with
 * MADV_HUGEPAGE, shmem_enabled's deny and force, and anonymous shmem's
 * per-size knobs with "inherit"; the knobs' text and their refusals.
 */
#include "linux/errno.h"
#include "linux/shmem_fs.h"
#include "uapi/linux/statfs.h"
#include "linux/huge_mm.h"
#include "linux/pgtable.h"
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#define ALL_FILE        THP_ORDERS_ALL_FILE_DEFAULT     /* orders 2 .. 9 */
#define PMD             BIT(HPAGE_PMD_ORDER)
#define MASK_UPTO(o)    ((BIT((o) + 1) - 1) & ALL_FILE)

static struct shmem_sb_info sbinfo;
static struct shmem_inode_info info;
static struct file file;
static struct mm_struct mm;
static struct vm_area_struct vma = { .vm_mm = &mm };

static void knob(int order, const char *mode)
{
	assert_int_equal(shmem_enabled_store(order, mode, strlen(mode)), 0);
}

/* A regular tmpfs file of size bytes on a mount with huge=huge; the knobs at Linux's defaults. */
static struct inode *tmpfs_file(int huge, loff_t size)
{
	memset(&info, 0, sizeof(info));
	sbinfo.huge = huge;
	sbinfo.sb.s_magic = TMPFS_MAGIC;
	sbinfo.sb.s_fs_info = &sbinfo;
	info.vfs_inode.i_sb = &sbinfo.sb;
	info.vfs_inode.i_mode = S_IFREG | 0600;
	info.vfs_inode.i_size = size;
	knob(-1, "never");
	for (int order = 2; order < HPAGE_PMD_ORDER; order++)
		knob(order, "never");
	knob(HPAGE_PMD_ORDER, "inherit");
	return &info.vfs_inode;
}

/* A VMA mapping the file (anon: MAP_SHARED|MAP_ANONYMOUS memory) with extra vm_flags. */
static struct vm_area_struct *mapping(struct inode *inode, bool anon, unsigned long flags)
{
	info.flags = anon ? SHMEM_F_ANON : 0;
	file.f_inode = inode;
	vma.vm_file = &file;
	vma.vm_flags = VM_READ | VM_WRITE | VM_SHARED | flags;
	return &vma;
}

static void test_tmpfs_huge(void **state)
{
	struct inode *inode = tmpfs_file(SHMEM_HUGE_NEVER, PMD_SIZE);

	(void)state;
	assert_int_equal(shmem_allowable_huge_orders(inode, NULL, 0, PAGE_SIZE, false), 0);
	inode = tmpfs_file(SHMEM_HUGE_ALWAYS, 0);
	assert_int_equal(shmem_allowable_huge_orders(inode, NULL, 0, PAGE_SIZE, false), ALL_FILE);
	assert_int_equal(shmem_allowable_huge_orders(inode, mapping(inode, false, 0), 0, 0, false),
			 PMD);
	assert_int_equal(shmem_allowable_huge_orders(inode, mapping(inode, false, VM_NOHUGEPAGE),
						     0, 0, false), 0);
	inode = tmpfs_file(SHMEM_HUGE_ADVISE, PMD_SIZE);
	assert_int_equal(shmem_allowable_huge_orders(inode, NULL, 0, PMD_SIZE, false), 0);
	assert_int_equal(shmem_allowable_huge_orders(inode, mapping(inode, false, 0), 0, 0, false),
			 0);
	assert_int_equal(shmem_allowable_huge_orders(inode, mapping(inode, false, VM_HUGEPAGE),
						     0, 0, false), PMD);
}

/* within_size: a folio only where its aligned block ends inside max(i_size, write end). */
static void test_within_size(void **state)
{
	struct inode *inode = tmpfs_file(SHMEM_HUGE_WITHIN_SIZE, 0);

	(void)state;
	assert_int_equal(shmem_allowable_huge_orders(inode, NULL, 0, PAGE_SIZE, false), 0);
	assert_int_equal(shmem_allowable_huge_orders(inode, NULL, 0, 64 << 10, false),
			 MASK_UPTO(4));
	assert_int_equal(shmem_allowable_huge_orders(inode, NULL, 16, 64 << 10, false), 0);
	inode->i_size = PMD_SIZE;
	assert_int_equal(shmem_allowable_huge_orders(inode, mapping(inode, false, 0), 0, 0, false),
			 PMD);
	assert_int_equal(shmem_allowable_huge_orders(inode, mapping(inode, false, 0), 512, 0, false),
			 0);
	assert_int_equal(shmem_allowable_huge_orders(inode, mapping(inode, false, VM_HUGEPAGE),
						     512, 0, false), PMD);
}

/* shmem_enabled deny and force override every mount's huge=. */
static void test_deny_force(void **state)
{
	struct inode *inode = tmpfs_file(SHMEM_HUGE_ALWAYS, PMD_SIZE);

	(void)state;
	knob(-1, "deny");
	assert_int_equal(shmem_allowable_huge_orders(inode, NULL, 0, PMD_SIZE, false), 0);
	inode = tmpfs_file(SHMEM_HUGE_NEVER, PMD_SIZE);
	knob(-1, "force");
	assert_int_equal(shmem_allowable_huge_orders(inode, NULL, 0, PAGE_SIZE, false), PMD);
	assert_int_equal(shmem_allowable_huge_orders(inode, mapping(inode, true, 0), 0, 0, false),
			 PMD);
	assert_int_equal(shmem_enabled_store(4, "inherit", 7), -EINVAL);
	knob(-1, "never");
	knob(4, "inherit");
	assert_int_equal(shmem_enabled_store(-1, "force", 5), -EINVAL);
	knob(4, "never");
}

/* Anonymous shmem: the per-size knobs, "inherit" as the internal mount's answer for 2 MiB. */
static void test_anon_sizes(void **state)
{
	struct inode *inode = tmpfs_file(SHMEM_HUGE_NEVER, 4 * PMD_SIZE);
	struct vm_area_struct *v = mapping(inode, true, 0);

	(void)state;
	assert_int_equal(shmem_allowable_huge_orders(inode, v, 0, 0, false), 0);
	sbinfo.huge = SHMEM_HUGE_ALWAYS;               /* shmem_enabled=always on shm_mnt */
	assert_int_equal(shmem_allowable_huge_orders(inode, v, 0, 0, false), PMD);
	knob(4, "always");
	assert_int_equal(shmem_allowable_huge_orders(inode, v, 0, 0, false), PMD | BIT(4));
	knob(HPAGE_PMD_ORDER, "never");
	assert_int_equal(shmem_allowable_huge_orders(inode, v, 0, 0, false), BIT(4));
	knob(4, "advise");
	assert_int_equal(shmem_allowable_huge_orders(inode, v, 0, 0, false), 0);
	v->vm_flags |= VM_HUGEPAGE;
	assert_int_equal(shmem_allowable_huge_orders(inode, v, 0, 0, false), BIT(4));
	knob(3, "within_size");
	assert_int_equal(shmem_allowable_huge_orders(inode, v, 0, 0, false), BIT(3) | BIT(4));
	set_bit(MMF_DISABLE_THP, &mm.flags);           /* prctl(PR_SET_THP_DISABLE) */
	assert_int_equal(shmem_allowable_huge_orders(inode, v, 0, 0, false), 0);
	clear_bit(MMF_DISABLE_THP, &mm.flags);
}

/* The knobs read as Linux's, the current choice in brackets. */
static void test_show(void **state)
{
	char buf[128];

	(void)state;
	tmpfs_file(SHMEM_HUGE_NEVER, 0);
	knob(-1, "within_size\n");
	shmem_enabled_show(-1, buf, sizeof(buf));
	assert_string_equal(buf, "always [within_size] advise never deny force\n");
	shmem_enabled_show(HPAGE_PMD_ORDER, buf, sizeof(buf));
	assert_string_equal(buf, "always [inherit] within_size advise never\n");
	assert_int_equal(shmem_enabled_store(-1, "sometimes", 9), -EINVAL);
	assert_int_equal(shmem_enabled_store(1, "always", 6), -EINVAL);
	knob(-1, "never");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tmpfs_huge),
		cmocka_unit_test(test_within_size),
		cmocka_unit_test(test_deny_force),
		cmocka_unit_test(test_anon_sizes),
		cmocka_unit_test(test_show),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
