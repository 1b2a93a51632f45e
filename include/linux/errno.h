/* errno values: the ABI's (uapi/linux/errno.h); the kernel adds none of its own yet. */
#ifndef _LINUX_ERRNO_H
#define _LINUX_ERRNO_H

#include "uapi/linux/errno.h"

#endif
