/*
 * #! scripts (Linux's fs/binfmt_script.c): a file whose first line is
 *
 *   #!/bin/sh -e        ->   argv: /bin/sh  -e  ./script  arg1 arg2 ...
 *     interpreter, one optional argument (the rest of the line), both
 *     taken from the first BINPRM_BUF_SIZE bytes
 *
 * is run by its interpreter, given the script's path (as exec was given
 * it) in place of argv[0].  The interpreter may be a script too
 * (kernel/exec.c stops at BINPRM_MAX_RECURSION: ELOOP).  A line with no
 * interpreter is ENOEXEC; one that does not end within the buffer is
 * ENOEXEC if the interpreter's name itself is cut (no space, tab or NUL
 * after it), as Linux's.
 */
#include "linux/errno.h"
#include "linux/binfmts.h"
#include "linux/slab.h"
#include "linux/string.h"

static bool spacetab(char c)
{
	return c == ' ' || c == '\t';
}

/* A kmalloc'd copy of the last string of a->buf: the name exec was given; NULL if out of memory. */
static char *exec_filename(const struct exec_args *a)
{
	const char *p = a->buf + a->len - 1;    /* its NUL */
	char *copy;

	while (p > a->buf && p[-1])
		p--;
	copy = kmalloc(a->buf + a->len - p);
	if (copy)
		memcpy(copy, p, a->buf + a->len - p);
	return copy;
}

/*
 * a->hdr starts with "#!": make argv "interp [arg] path args..." and put
 * the interpreter's name in a->interp, to be opened next.  path is the
 * script's name: a->interp if the script is itself an interpreter, else
 * the name exec was given (the last string of a->buf), as Linux's
 * bprm->interp.  0, -ENOEXEC, -E2BIG or -ENOMEM.
 */
int load_script(struct exec_args *a)
{
	char *line = a->hdr + 2, *end = memchr(line, '\n', sizeof(a->hdr) - 2), *name, *arg, *path;
	const char *argv[3];
	int n = 0, ret;

	if (!end) {
		/* no newline: the whole buffer is the line, unless the name runs to its end */
		end = a->hdr + sizeof(a->hdr) - 1;
		for (name = line; name < end && spacetab(*name); name++)
			;
		if (name == end)
			return -ENOEXEC;        /* nothing but blanks */
		if (!memchr(name, ' ', end - name) && !memchr(name, '\t', end - name) &&
		    !memchr(name, '\0', end - name))
			return -ENOEXEC;
	}
	*end = '\0';
	while (end > line && spacetab(end[-1]))
		*--end = '\0';
	for (name = line; spacetab(*name); name++)
		;
	if (!*name)
		return -ENOEXEC;
	for (arg = name; *arg && !spacetab(*arg); arg++)
		;
	if (*arg)
		*arg++ = '\0';
	while (spacetab(*arg))
		arg++;
	path = a->interp ? a->interp : exec_filename(a);
	a->interp = kmalloc(strlen(name) + 1);
	if (!a->interp || !path) {
		kfree(path);
		return -ENOMEM;
	}
	memcpy(a->interp, name, strlen(name) + 1);
	argv[n++] = name;
	if (*arg)
		argv[n++] = arg;
	argv[n++] = path;
	ret = exec_args_replace_arg0(a, argv, n);
	kfree(path);
	return ret;
}
