/* execve: the argument block (kernel/exec.c) and the ELF loader (kernel/binfmt_elf.c). */
#ifndef _LINUX_BINFMTS_H
#define _LINUX_BINFMTS_H

#include "linux/types.h"

#define MAX_ARG_STRLEN  (32 * 4096)     /* the longest string, its NUL included */

/*
 * argv and envp, copied from the caller (or made by the kernel for init):
 * buf[0, len) holds argc argv strings, envc envp strings, then the file
 * name, each NUL-terminated, back to back — the order they take on the
 * new stack.  limit: how many bytes they may take (Linux's bprm_stack_limits).
 * file: the program, open while it is loaded (Linux's bprm->file).
 */
struct exec_args {
	int argc, envc;
	char *buf;
	unsigned long len, size, limit;
	struct file *file;
};

struct initrd_file;
struct file;

int do_execve(const char *path, struct exec_args *a);
int load_elf_binary(const struct initrd_file *f, struct exec_args *a,
		    unsigned long *ip, unsigned long *sp);

#endif
