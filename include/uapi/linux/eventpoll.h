/* poll readiness bits (Linux's uapi/linux/eventpoll.h). */
#ifndef _UAPI_LINUX_EVENTPOLL_H
#define _UAPI_LINUX_EVENTPOLL_H

typedef unsigned int __poll_t;

#define EPOLLIN         ((__poll_t)0x00000001)
#define EPOLLPRI        ((__poll_t)0x00000002)
#define EPOLLOUT        ((__poll_t)0x00000004)
#define EPOLLERR        ((__poll_t)0x00000008)
#define EPOLLHUP        ((__poll_t)0x00000010)
#define EPOLLRDNORM     ((__poll_t)0x00000040)
#define EPOLLRDBAND     ((__poll_t)0x00000080)
#define EPOLLWRNORM     ((__poll_t)0x00000100)
#define EPOLLWRBAND     ((__poll_t)0x00000200)

#endif
