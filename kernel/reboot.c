/* reboot(2), as Linux's kernel/reboot.c checks it; only power-off exists. */
#include "linux/errno.h"
#include "linux/capability.h"
#include "linux/syscalls.h"
#include <asm/arch.h>
#include "uapi/linux/reboot.h"

/* CAP_SYS_BOOT; both magic numbers must be Linux's; any command but power-off is EINVAL. */
long sys_reboot(int magic1, int magic2, unsigned int cmd, void *arg)
{
	if (!capable(CAP_SYS_BOOT))
		return -EPERM;
	if ((unsigned int)magic1 != LINUX_REBOOT_MAGIC1 ||
	    (magic2 != LINUX_REBOOT_MAGIC2 && magic2 != LINUX_REBOOT_MAGIC2A &&
	     magic2 != LINUX_REBOOT_MAGIC2B && magic2 != LINUX_REBOOT_MAGIC2C))
		return -EINVAL;
	if (cmd == LINUX_REBOOT_CMD_POWER_OFF)
		arch_power_off(0);
	return -EINVAL;
}
