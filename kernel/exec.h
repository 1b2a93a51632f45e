/* execve: the argument block and the loader (kernel/exec.c). */
#ifndef FOLIOS_EXEC_H
#define FOLIOS_EXEC_H

#include "kernel/types.h"

#define EXEC_MAX_ARGS   128
#define EXEC_STRINGS    (32 * 1024)
#define EACCES 13

/* argv and envp, copied from the caller (or made by the kernel for init). */
struct exec_args {
	int argc, envc;
	char *strings[EXEC_MAX_ARGS * 2];       /* argv[0..argc), then envp */
	char buf[EXEC_STRINGS];
	unsigned long vec[EXEC_MAX_ARGS * 2 + 40];  /* scratch for the stack vector */
};

int do_execve(const char *path, struct exec_args *a);

#endif
