/* readv/writev's vector (linux/uio.h). */
#ifndef _UAPI_LINUX_UIO_H
#define _UAPI_LINUX_UIO_H

struct iovec {
	void *iov_base;
	unsigned long iov_len;
};

#define UIO_MAXIOV      1024

#endif
