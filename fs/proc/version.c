/*
 * /proc/version (Linux's fs/proc/version.c): the kernel's name, release,
 * builder, compiler and version in Linux's one line, which tools parse
 * for the release ("Linux version 6.15.0-foliOS ...").
 */
#include "fs/proc/internal.h"
#include "linux/utsname.h"

static int version_proc_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s version %s (foliOS) (gcc version %s) %s\n", init_uts_name.sysname,
		   init_uts_name.release, __VERSION__, init_uts_name.version);
	return 0;
}

const struct proc_dir_entry proc_version = { "version", version_proc_show };
