/*
 * Capabilities (Linux's kernel/capability.c and security/commoncap.c):
 * every task is root, so its effective and permitted sets start full and
 * its inheritable set empty, under a full bounding set.  capset may only
 * take bits away (or move them into the inheritable set), and what a task
 * gave up it lacks: capable() is what settimeofday, reboot, mount,
 * mknod, chown and raising a hard rlimit ask, as Linux's.  exec gives
 * root back everything its bounding set allows (Linux's
 * handle_privileged_root); PR_CAPBSET_DROP (kernel/sys.c) shrinks that.
 *
 *   capget/capset header  { version, pid }   _V1: one 32-bit data struct,
 *   data[2] { effective, permitted,         _V2/_V3: two (bits 0..31,
 *             inheritable }                 32..63)
 *
 * Locks: a task changes only its own sets; capget of another thread reads
 * its sets under tasklist_lock, each a word stored whole.
 */
#include "linux/capability.h"
#include "linux/errno.h"
#include "linux/sched.h"
#include "linux/syscalls.h"
#include "linux/uaccess.h"

#define CAP_DATA_WORDS 2

/* May current do what cap allows (Linux's capable)? */
bool capable(int cap)
{
	return cap_valid(cap) && (READ_ONCE(current->caps.effective) & BIT(cap));
}

/* exec: root's sets become what the bounding set and the inheritable set allow. */
void cap_bprm_creds(struct task_struct *t)
{
	t->caps.permitted = t->caps.bset | t->caps.inheritable;
	t->caps.effective = t->caps.permitted;
}

/*
 * The header's version, and how many data structs it means in *words; an
 * unknown version is -EINVAL, with _V3 written back for the caller to
 * learn (Linux's cap_validate_magic).
 */
static int cap_validate_magic(struct __user_cap_header_struct *hdr, const void *uhdr,
			      int *words)
{
	if (copy_from_user(hdr, uhdr, sizeof(*hdr)))
		return -EFAULT;
	switch (hdr->version) {
	case _LINUX_CAPABILITY_VERSION_1:
		*words = 1;
		return 0;
	case _LINUX_CAPABILITY_VERSION_2:
	case _LINUX_CAPABILITY_VERSION_3:
		*words = CAP_DATA_WORDS;
		return 0;
	}
	hdr->version = _LINUX_CAPABILITY_VERSION_3;
	return copy_to_user((void *)uhdr, &hdr->version, sizeof(hdr->version)) ? -EFAULT : -EINVAL;
}

/*
 * capget(hdr, data): the sets of thread hdr->pid (0: the caller) in data.
 * With data NULL, only the version is checked (an unknown one written
 * back, and 0).  -EINVAL for a negative pid, -ESRCH for no such thread.
 */
long sys_capget(void *uhdr, void *udata)
{
	struct __user_cap_data_struct data[CAP_DATA_WORDS];
	struct __user_cap_header_struct hdr;
	struct task_caps caps = current->caps;
	unsigned long flags;
	int words, ret = cap_validate_magic(&hdr, uhdr, &words);

	if (!udata || ret)
		return !udata && ret == -EINVAL ? 0 : ret;
	if (hdr.pid < 0)
		return -EINVAL;
	if (hdr.pid && hdr.pid != current->pid) {
		struct task_struct *t;

		spin_lock_irqsave(&tasklist_lock, flags);
		t = find_task_by_vpid(hdr.pid);
		if (t)
			caps = t->caps;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		if (!t)
			return -ESRCH;
	}
	for (int i = 0; i < CAP_DATA_WORDS; i++)
		data[i] = (struct __user_cap_data_struct){ caps.effective >> (32 * i),
			caps.permitted >> (32 * i), caps.inheritable >> (32 * i) };
	return copy_to_user(udata, data, words * sizeof(data[0])) ? -EFAULT : 0;
}

/* Is every bit of a in b? */
static bool cap_issubset(u64 a, u64 b)
{
	return !(a & ~b);
}

/*
 * capset(hdr, data): the caller's new sets (hdr->pid 0 or its own TID,
 * else -EPERM), if they follow Linux's rules (cap_capset): permitted only
 * shrinks, effective within it, inheritable within the old inheritable
 * and permitted sets (or, with CAP_SETPCAP, the bounding set) — else
 * -EPERM.  Bits past CAP_LAST_CAP are dropped.
 */
long sys_capset(void *uhdr, const void *udata)
{
	struct __user_cap_data_struct data[CAP_DATA_WORDS] = { { 0 } };
	struct __user_cap_header_struct hdr;
	struct task_caps *old = &current->caps, new = *old;
	int words, ret = cap_validate_magic(&hdr, uhdr, &words);

	if (ret)
		return ret;
	if (hdr.pid && hdr.pid != current->pid)
		return -EPERM;
	if (copy_from_user(data, udata, words * sizeof(data[0])))
		return -EFAULT;
	new.effective = new.permitted = new.inheritable = 0;
	for (int i = 0; i < words; i++) {
		new.effective |= (u64)data[i].effective << (32 * i);
		new.permitted |= (u64)data[i].permitted << (32 * i);
		new.inheritable |= (u64)data[i].inheritable << (32 * i);
	}
	new.effective &= CAP_FULL_SET;
	new.permitted &= CAP_FULL_SET;
	new.inheritable &= CAP_FULL_SET;
	if ((!cap_issubset(new.inheritable, old->inheritable | old->permitted) &&
	     !capable(CAP_SETPCAP)) ||
	    !cap_issubset(new.inheritable, old->inheritable | old->bset) ||
	    !cap_issubset(new.permitted, old->permitted) ||
	    !cap_issubset(new.effective, new.permitted))
		return -EPERM;
	WRITE_ONCE(old->effective, new.effective);
	WRITE_ONCE(old->permitted, new.permitted);
	WRITE_ONCE(old->inheritable, new.inheritable);
	return 0;
}
