/* poll(2)'s struct pollfd and event bits (Linux's uapi/asm-generic/poll.h). */
#ifndef _UAPI_LINUX_POLL_H
#define _UAPI_LINUX_POLL_H

#include "uapi/linux/eventpoll.h"

#define POLLIN          EPOLLIN
#define POLLOUT         EPOLLOUT
#define POLLERR         EPOLLERR
#define POLLHUP         EPOLLHUP
#define POLLNVAL        0x0020          /* fd is not open */
#define POLLRDNORM      EPOLLRDNORM
#define POLLWRNORM      EPOLLWRNORM

struct pollfd {
	int fd;
	short events;
	short revents;
};

#endif
