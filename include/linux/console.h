/* Console input: lines from the serial port with echo and backspace. */
#ifndef _LINUX_CONSOLE_H
#define _LINUX_CONSOLE_H

#include "linux/types.h"

/* Block until a line (or size bytes) was typed; returns its length. */
long console_read_line(char *buf, unsigned long size);

#endif
