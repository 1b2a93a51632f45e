/*
 * execve: the argument block (kernel/exec.c), and the loaders it tries
 * on the file's first bytes: #! scripts (kernel/binfmt_script.c) and ELF
 * (kernel/binfmt_elf.c).
 */
#ifndef _LINUX_BINFMTS_H
#define _LINUX_BINFMTS_H

#include "linux/types.h"

#define MAX_ARG_STRLEN  (32 * 4096)     /* the longest string, its NUL included */
#define BINPRM_BUF_SIZE 256             /* the first bytes the loaders look at (Linux's) */
#define BINPRM_MAX_RECURSION 5          /* interpreters in a row: at most 5 (Linux's exec_binprm) */

/*
 * argv and envp, copied from the caller (or made by the kernel for init):
 * buf[0, len) holds argc argv strings, envc envp strings, then the file
 * name, each NUL-terminated, back to back — the order they take on the
 * new stack.  limit: how many bytes they may take (Linux's bprm_stack_limits).
 * file: the program, open while it is loaded (Linux's bprm->file), and
 * hdr its first bytes (bprm->buf); interp: the name of the interpreter
 * a script named, loaded next (kmalloc'd; Linux's bprm->interp), NULL
 * while the file is the one exec was given.
 */
struct exec_args {
	int argc, envc;
	char *buf;
	unsigned long len, size, limit;
	struct file *file;
	char hdr[BINPRM_BUF_SIZE];
	char *interp;
};

struct file;
struct mm_struct;

int do_execve(const char *path, struct exec_args *a);
struct file *open_exec(const char *path, long *err);
void do_close_execat(struct file *file);
struct file *get_mm_exe_file_ref(struct file *exe);
void put_mm_exe_file_ref(struct file *exe);
int load_elf_binary(struct exec_args *a, unsigned long *ip, unsigned long *sp);
int load_script(struct exec_args *a);
int exec_args_replace_arg0(struct exec_args *a, const char *const *strs, int n);
/* Map the vDSO into a new mm (arch); its address in *ehdr.  0 or -errno. */
int arch_setup_additional_pages(struct mm_struct *mm, unsigned long *ehdr);

#endif
