/*
 * PROCMAP_QUERY, the ioctl on /proc/<pid>/maps (Linux 6.11's
 * include/uapi/linux/fs.h; an ABI: the same layout on every kernel that
 * has it, ENOTTY on older ones).  For the tests that use it.
 */
#ifndef USER_PROCMAP_QUERY_ABI_H
#define USER_PROCMAP_QUERY_ABI_H

#include <stdint.h>
#include <sys/ioctl.h>

struct procmap_query {
	uint64_t size, query_flags, query_addr, vma_start, vma_end, vma_flags;
	uint64_t vma_page_size, vma_offset, inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};
#define PROCMAP_QUERY   _IOWR('f', 17, struct procmap_query)

#endif
