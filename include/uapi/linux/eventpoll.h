/* poll readiness bits (Linux's uapi/linux/eventpoll.h). */
#ifndef _UAPI_LINUX_EVENTPOLL_H
#define _UAPI_LINUX_EVENTPOLL_H

typedef unsigned int __poll_t;

#define EPOLLIN         ((__poll_t)0x00000001)
#define EPOLLOUT        ((__poll_t)0x00000004)
#define EPOLLERR        ((__poll_t)0x00000008)
#define EPOLLHUP        ((__poll_t)0x00000010)
#define EPOLLRDNORM     ((__poll_t)0x00000040)
#define EPOLLWRNORM     ((__poll_t)0x00000100)

#endif
