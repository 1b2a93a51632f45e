/* mount (Linux's fs/namespace.c). */
#include "linux/errno.h"
#include "linux/fs.h"
#include "linux/namei.h"
#include "linux/string.h"
#include "linux/syscalls.h"
#include "mm/mm.h"

/*
 * mount: /proc and /sys always exist here, so that programs written as
 * Linux's init run unchanged, mounting them succeeds without effect.  The
 * arguments are checked in Linux's order: the type and source strings are
 * copied, the target looked up, then the type must be a known one.
 */
long sys_mount(const char *usource, const char *utarget, const char *ufstype,
	       unsigned long flags, const void *data)
{
	char *fstype, *source = NULL;
	struct inode *target;
	long ret = 0;

	fstype = getname(ufstype, LOOKUP_EMPTY, &ret);
	if (fstype && usource)
		source = getname(usource, LOOKUP_EMPTY, &ret);
	if (!ret)
		ret = user_path_at(AT_FDCWD, utarget, 0, &target);
	if (!ret) {
		iput(target);
		if (strcmp(fstype, "proc") && strcmp(fstype, "sysfs"))
			ret = -ENODEV;
	}
	kfree(source);
	kfree(fstype);
	return ret;
}
