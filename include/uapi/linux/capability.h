/* capget(2)/capset(2) (linux/capability.h): the header, the data, the numbers. */
#ifndef _UAPI_LINUX_CAPABILITY_H
#define _UAPI_LINUX_CAPABILITY_H

#define _LINUX_CAPABILITY_VERSION_1  0x19980330        /* one 32-bit set */
#define _LINUX_CAPABILITY_VERSION_2  0x20071026        /* two (deprecated) */
#define _LINUX_CAPABILITY_VERSION_3  0x20080522        /* two: bits 0..63 */

struct __user_cap_header_struct {
	unsigned int version;
	int pid;
};

struct __user_cap_data_struct {
	unsigned int effective, permitted, inheritable;
};

#define CAP_CHOWN            0
#define CAP_FOWNER           3
#define CAP_SETPCAP          8
#define CAP_IPC_LOCK         14      /* mlock past RLIMIT_MEMLOCK */
#define CAP_SYS_CHROOT       18
#define CAP_SYS_ADMIN        21
#define CAP_SYS_BOOT         22
#define CAP_SYS_NICE         23
#define CAP_SYS_RESOURCE     24
#define CAP_SYS_TIME         25
#define CAP_MKNOD            27
#define CAP_WAKE_ALARM       35      /* timer_create on the _ALARM clocks */
#define CAP_LAST_CAP         40      /* CAP_CHECKPOINT_RESTORE, Linux 6.1's last */

#define cap_valid(x) ((x) >= 0 && (x) <= CAP_LAST_CAP)

#endif
