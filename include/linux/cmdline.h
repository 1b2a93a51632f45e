/* The kernel command line: "name" and "name=value" words (Linux syntax). */
#ifndef _LINUX_CMDLINE_H
#define _LINUX_CMDLINE_H

#include "linux/types.h"

/* Copy the value of name= into buf; true if present ("" for a bare word). */
bool cmdline_get(const char *cmdline, const char *name, char *buf, size_t size);
bool cmdline_has(const char *cmdline, const char *name);

#endif
