/* pidfd_open(2)'s flags (linux/pidfd.h). */
#ifndef _UAPI_LINUX_PIDFD_H
#define _UAPI_LINUX_PIDFD_H

#include "uapi/linux/fcntl.h"

#define PIDFD_NONBLOCK  O_NONBLOCK

#endif
