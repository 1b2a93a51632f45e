/* PIDs and process file descriptors (kernel/pid.c). */
#ifndef _LINUX_PID_H
#define _LINUX_PID_H

struct file;

int alloc_pid(void);
int pidfd_pid(const struct file *file);
int pidfd_get_pid(int pidfd);
struct mm_struct *pidfd_get_mm(int pidfd, long *err);

#endif
