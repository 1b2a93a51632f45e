/*
 * Credentials (Linux's kernel/sys.c id calls and kernel/groups.c): foliOS
 * has one user, root, so every real, effective, saved and filesystem id is
 * 0 and a process has no supplementary groups (PID 1's on Linux).  Asking
 * for what root already is succeeds, as on Linux; becoming anyone else
 * needs the permission model, which foliOS does not have yet: EPERM.
 * No locks: nothing here changes.
 */
#include "linux/errno.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"

/* Is each of n ids 0 (root) or -1 (unchanged)? */
static bool only_root(int n, const unsigned int *ids)
{
	for (int i = 0; i < n; i++)
		if (ids[i] && ids[i] != (unsigned int)-1)
			return false;
	return true;
}

/* setuid, setgid: root may stay root. */
long sys_setuid(unsigned int uid)
{
	return only_root(1, &uid) ? 0 : -EPERM;
}

long sys_setgid(unsigned int gid)
{
	return only_root(1, &gid) ? 0 : -EPERM;
}

long sys_setreuid(unsigned int ruid, unsigned int euid)
{
	return only_root(2, (unsigned int[]){ ruid, euid }) ? 0 : -EPERM;
}

long sys_setregid(unsigned int rgid, unsigned int egid)
{
	return only_root(2, (unsigned int[]){ rgid, egid }) ? 0 : -EPERM;
}

long sys_setresuid(unsigned int ruid, unsigned int euid, unsigned int suid)
{
	return only_root(3, (unsigned int[]){ ruid, euid, suid }) ? 0 : -EPERM;
}

long sys_setresgid(unsigned int rgid, unsigned int egid, unsigned int sgid)
{
	return only_root(3, (unsigned int[]){ rgid, egid, sgid }) ? 0 : -EPERM;
}

/* setfsuid, setfsgid: the previous fs id, 0, whatever is asked (Linux's: no error return). */
long sys_setfsuid(unsigned int uid)
{
	return 0;
}

long sys_setfsgid(unsigned int gid)
{
	return 0;
}

/* getresuid, getresgid: three zeros. */
static long put_three_zeros(unsigned int *a, unsigned int *b, unsigned int *c)
{
	return put_user(0u, a) || put_user(0u, b) || put_user(0u, c) ? -EFAULT : 0;
}

long sys_getresuid(unsigned int *ruid, unsigned int *euid, unsigned int *suid)
{
	return put_three_zeros(ruid, euid, suid);
}

long sys_getresgid(unsigned int *rgid, unsigned int *egid, unsigned int *sgid)
{
	return put_three_zeros(rgid, egid, sgid);
}

/* getgroups(size, list): no supplementary groups; EINVAL for size < 0. */
long sys_getgroups(int size, unsigned int *list)
{
	return size < 0 ? -EINVAL : 0;
}

/* setgroups(size, list): root may have none, or only group 0; EINVAL past NGROUPS_MAX. */
long sys_setgroups(int size, unsigned int *list)
{
	unsigned int g;

	if (size < 0 || size > 65536)
		return -EINVAL;
	for (int i = 0; i < size; i++) {
		if (get_user(g, list + i))
			return -EFAULT;
		if (g)
			return -EPERM;
	}
	return 0;
}
