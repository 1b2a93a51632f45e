/* memfd_create(2)'s flags (linux/memfd.h). */
#ifndef _UAPI_LINUX_MEMFD_H
#define _UAPI_LINUX_MEMFD_H

#define MFD_CLOEXEC             0x0001U
#define MFD_ALLOW_SEALING       0x0002U
#define MFD_HUGETLB             0x0004U /* hugetlbfs: foliOS has none */
#define MFD_NOEXEC_SEAL         0x0008U /* Linux 6.3+ */
#define MFD_EXEC                0x0010U

#define MFD_NAME_PREFIX         "memfd:"
#define MFD_NAME_MAX_LEN        (255 - sizeof(MFD_NAME_PREFIX) + 1)

#endif
