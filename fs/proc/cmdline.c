/*
 * /proc/cmdline: the kernel's command line as the boot loader gave it,
 * one line (Linux's fs/proc/cmdline.c, saved_command_line).
 */
#include "fs/proc/internal.h"
#include <asm/arch.h>

static int cmdline_proc_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", boot_info.cmdline ? boot_info.cmdline : "");
	return 0;
}

const struct proc_dir_entry proc_cmdline = { "cmdline", cmdline_proc_show };
